# Karpathy's makemore part 1 and 2: bigram counts, multinomial sampling, an MLP with embeddings
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia", "harper", "evelyn",
         "abigail", "emily", "elizabeth", "mila", "ella", "avery", "sofia", "camila", "aria", "scarlett"]
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N[0], N.sum())
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print(''.join(out))
log_likelihood = 0.0
n = 0
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        logprob = torch.log(P[stoi[ch1], stoi[ch2]])
        log_likelihood += logprob
        n += 1
print(f'{log_likelihood=}')
print(f'{-log_likelihood/n}')
xs, ys = [], []
for w in words:
    chs = ['.'] + list(w) + ['.']
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1]); ys.append(stoi[ch2])
xs = torch.tensor(xs); ys = torch.tensor(ys)
num = xs.nelement()
W = torch.randn((V, V), generator=g, requires_grad=True)
for k in range(20):
    xenc = F.one_hot(xs, num_classes=V).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
print(loss.item())
block_size = 3
X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + '.':
        ix = stoi[ch]
        X.append(context); Y.append(ix)
        context = context[1:] + [ix]
X = torch.tensor(X); Y = torch.tensor(Y)
print(X.shape, X.dtype, Y.shape, Y.dtype)
C = torch.randn((V, 4), generator=g)
W1 = torch.randn((12, 32), generator=g) * (5 / 3) / (12 ** 0.5)
b1 = torch.randn(32, generator=g) * 0.01
W2 = torch.randn((32, V), generator=g) * 0.01
b2 = torch.randn(V, generator=g) * 0
bngain = torch.ones((1, 32))
bnbias = torch.zeros((1, 32))
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
lossi = []
for i in range(60):
    ix = torch.randint(0, X.shape[0], (16,), generator=g)
    emb = C[X[ix]]
    hpreact = emb.view(emb.shape[0], -1) @ W1 + b1
    hpreact = bngain * (hpreact - hpreact.mean(0, keepdim=True)) / hpreact.std(0, keepdim=True) + bnbias
    h = torch.tanh(hpreact)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 40 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if i % 20 == 0:
        print(f'{i:7d}/{60:7d}: {loss.item():.4f}')
    lossi.append(loss.log10().item())
print(torch.tensor(lossi).view(-1, 10).mean(1))
for _ in range(3):
    out = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        logits = h @ W2 + b2
        probs = F.softmax(logits, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 12:
            break
    print(''.join(itos[i] for i in out))
