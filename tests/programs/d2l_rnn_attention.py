# d2l.ai 9.5 RNN from scratch (one_hot inputs, grad clipping, perplexity) and 11.x attention
# utilities (sequence_mask, masked_softmax, additive and dot-product attention)
import math
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)
corpus = torch.randint(0, 10, (300,))
vocab_size, num_hiddens, num_steps, batch_size = 10, 16, 7, 4


def seq_data_iter_sequential(corpus, batch_size, num_steps):
    offset = 3
    num_tokens = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = corpus[offset: offset + num_tokens].reshape(batch_size, -1)
    Ys = corpus[offset + 1: offset + 1 + num_tokens].reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i: i + num_steps], Ys[:, i: i + num_steps]


def get_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape) * 0.01
    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)), )


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


class RNNModelScratch:
    def __init__(self, vocab_size, num_hiddens, get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size):
        return self.init_state(batch_size, self.num_hiddens)


def grad_clipping(net, theta):
    params = net.params
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


net = RNNModelScratch(vocab_size, num_hiddens, get_params, init_rnn_state, rnn)
state = net.begin_state(batch_size)
Y, new_state = net(torch.arange(10).reshape((2, 5)), net.begin_state(2))
print(Y.shape, len(new_state), new_state[0].shape)
loss = nn.CrossEntropyLoss()
for epoch in range(3):
    state = None
    l_sum, n = 0.0, 0
    for X, Y in seq_data_iter_sequential(corpus, batch_size, num_steps):
        if state is None:
            state = net.begin_state(batch_size=X.shape[0])
        else:
            for s in state:
                s.detach_()
        y = Y.T.reshape(-1)
        y_hat, state = net(X, state)
        l = loss(y_hat, y.long()).mean()
        for p in net.params:
            p.grad = None
        l.backward()
        grad_clipping(net, 1)
        with torch.no_grad():
            for p in net.params:
                p -= 1.0 * p.grad
        l_sum += l.item() * y.numel()
        n += y.numel()
    print(f'epoch {epoch} perplexity {math.exp(l_sum / n):.4f}')


def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


def masked_softmax(X, valid_lens):
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    else:
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)


print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])))
print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([[1, 3], [2, 4]])))


class AdditiveAttention(nn.Module):
    def __init__(self, num_hiddens, dropout, **kwargs):
        super().__init__(**kwargs)
        self.W_k = nn.LazyLinear(num_hiddens, bias=False)
        self.W_q = nn.LazyLinear(num_hiddens, bias=False)
        self.w_v = nn.LazyLinear(1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


class DotProductAttention(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)


queries = torch.normal(0, 1, (2, 1, 20))
keys = torch.normal(0, 1, (2, 10, 2))
values = torch.normal(0, 1, (2, 10, 4))
valid_lens = torch.tensor([2, 6])
attention = AdditiveAttention(num_hiddens=8, dropout=0.1)
print(attention)
attention.eval()
print(attention(queries, keys, values, valid_lens))
print(attention)
attention = DotProductAttention(dropout=0.5)
attention.eval()
print(attention(torch.normal(0, 1, (2, 1, 2)), keys, values, valid_lens))
print(attention.attention_weights.shape)
