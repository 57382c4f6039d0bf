# variable-length batches: pad_sequence, pack_padded_sequence through a bidirectional LSTM,
# pad_packed_sequence, masking, gradient accumulation and early stopping with a deepcopy
import copy
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
seqs = [torch.randint(1, 20, (n,)) for n in (5, 3, 7, 2, 6, 4)]
labels = torch.tensor([0, 1, 1, 0, 1, 0])
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True, padding_value=0)
print(padded, lengths)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8, padding_idx=0)
        self.lstm = nn.LSTM(8, 6, batch_first=True, bidirectional=True)
        self.out = nn.Linear(12, 2)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths, batch_first=True, enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        unpacked, out_lens = pad_packed_sequence(out, batch_first=True)
        mask = (torch.arange(unpacked.size(1))[None, :] < out_lens[:, None]).unsqueeze(-1)
        mean = (unpacked * mask).sum(1) / out_lens[:, None]
        return self.out(mean), h


model = Classifier()
logits, h = model(padded, lengths)
print(logits.shape, h.shape, model.emb.weight[0])
opt = torch.optim.Adam(model.parameters(), lr=0.05)
best, best_state, patience = float('inf'), None, 0
accum = 2
for epoch in range(12):
    model.train()
    opt.zero_grad()
    for i in range(0, 6, 3):
        logits, _ = model(padded[i:i + 3], lengths[i:i + 3])
        loss = nn.functional.cross_entropy(logits, labels[i:i + 3]) / accum
        loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    model.eval()
    with torch.no_grad():
        val = nn.functional.cross_entropy(model(padded, lengths)[0], labels).item()
    print(f"epoch {epoch} val {val:.5f}")
    if val < best - 1e-3:
        best, best_state, patience = val, copy.deepcopy(model.state_dict()), 0
    else:
        patience += 1
        if patience >= 3:
            print("early stop")
            break
model.load_state_dict(best_state)
with torch.inference_mode():
    pred = model(padded, lengths)[0].argmax(1)
print(pred, (pred == labels).float().mean(), best)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices, packed.data[:6])
