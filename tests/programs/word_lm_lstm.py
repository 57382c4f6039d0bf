# pytorch/examples word_language_model (RNNModel + batchify + get_batch + repackage_hidden)
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1111)


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data


def get_batch(source, i, bptt=7):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i+seq_len]
    target = source[i+1:i+1+seq_len].view(-1)
    return data, target


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


ntokens = 30
corpus = torch.randint(0, ntokens, (400,))
train_data = batchify(corpus[:300], 4)
val_data = batchify(corpus[300:], 2)
print(train_data.shape, val_data.shape)
for rnn_type in ['LSTM', 'GRU', 'RNN_TANH']:
    torch.manual_seed(1111)
    model = RNNModel(rnn_type, ntokens, 12, 16, 2, 0.2, tie_weights=False)
    criterion = nn.NLLLoss()
    lr = 5.0
    print(model)
    for epoch in range(2):
        model.train()
        total_loss = 0.
        hidden = model.init_hidden(4)
        for batch, i in enumerate(range(0, train_data.size(0) - 1, 7)):
            data, targets = get_batch(train_data, i)
            model.zero_grad()
            hidden = repackage_hidden(hidden)
            output, hidden = model(data, hidden)
            loss = criterion(output, targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            for p in model.parameters():
                p.data.add_(p.grad, alpha=-lr)
            total_loss += loss.item()
        cur_loss = total_loss / (batch + 1)
        model.eval()
        with torch.no_grad():
            hidden = model.init_hidden(2)
            vl = 0.
            for i in range(0, val_data.size(0) - 1, 7):
                data, targets = get_batch(val_data, i)
                output, hidden = model(data, hidden)
                hidden = repackage_hidden(hidden)
                vl += len(data) * criterion(output, targets).item()
            vl /= (len(val_data) - 1)
        print('| epoch {:3d} | lr {:02.2f} | loss {:5.2f} | ppl {:8.2f} | valid ppl {:8.2f}'.format(
            epoch, lr, cur_loss, math.exp(cur_loss), math.exp(vl)))
        lr /= 4.0
