# PyTorch tutorial "NLP From Scratch: Classifying Names with a Character-Level RNN"
import string
import unicodedata
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2024)
allowed_characters = string.ascii_letters + " .,;'" + "_"
n_letters = len(allowed_characters)


def unicodeToAscii(s):
    return ''.join(c for c in unicodedata.normalize('NFD', s)
                   if unicodedata.category(c) != 'Mn' and c in allowed_characters)


def letterToIndex(letter):
    if letter not in allowed_characters:
        return allowed_characters.find("_")
    return allowed_characters.find(letter)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


print(unicodeToAscii('Ślusàrski'))
print(lineToTensor('J'))
print(lineToTensor('Jones').size())


class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(CharRNN, self).__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)
        return output


data = {"English": ["Smith", "Jones", "Brown", "Taylor"], "French": ["Dubois", "Lefevre", "Moreau", "Laurent"],
        "Italian": ["Rossi", "Russo", "Ferrari", "Esposito"]}
labels_uniq = list(data)
pairs = [(n, torch.tensor([labels_uniq.index(k)], dtype=torch.long)) for k, v in data.items() for n in v]
rnn = CharRNN(n_letters, 32, len(labels_uniq))
print(rnn)


def label_from_output(output, output_labels):
    top_n, top_i = output.topk(1)
    label_i = top_i[0].item()
    return output_labels[label_i], label_i


input = lineToTensor('Albert')
output = rnn(input)
print(output)
print(label_from_output(output, labels_uniq))
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.15)
all_losses = []
for epoch in range(1, 21):
    rnn.zero_grad()
    batch_loss = 0
    perm = torch.randperm(len(pairs))
    for idx in perm.tolist()[:6]:
        name, label = pairs[idx]
        output = rnn(lineToTensor(name))
        loss = criterion(output, label)
        batch_loss += loss
    batch_loss.backward()
    nn.utils.clip_grad_norm_(rnn.parameters(), 3)
    optimizer.step()
    optimizer.zero_grad()
    all_losses.append(batch_loss.item() / 6)
    if epoch % 5 == 0:
        print(f"{epoch} ({epoch / 20:.0%}): \t average batch loss = {all_losses[-1]}")
confusion = torch.zeros(len(labels_uniq), len(labels_uniq))
rnn.eval()
with torch.no_grad():
    for name, label in pairs:
        guess, guess_i = label_from_output(rnn(lineToTensor(name)), labels_uniq)
        confusion[label.item()][guess_i] += 1
for i in range(len(labels_uniq)):
    denom = confusion[i].sum()
    if denom > 0:
        confusion[i] = confusion[i] / denom
print(confusion)
