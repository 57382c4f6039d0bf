# A bag-of-words text classifier (the PyTorch text-classification tutorial's model) with a
# sparse EmbeddingBag: SparseAdam for the embedding, Adam for the rest
import torch
import torch.nn as nn

torch.manual_seed(3)
VOCAB, EMBED, NUM_CLASS = 50, 8, 4


class TextClassificationModel(nn.Module):
    def __init__(self, vocab_size, embed_dim, num_class):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=True)
        self.fc = nn.Linear(embed_dim, num_class)
        self.init_weights()

    def init_weights(self):
        initrange = 0.5
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.fc.weight.data.uniform_(-initrange, initrange)
        self.fc.bias.data.zero_()

    def forward(self, text, offsets):
        embedded = self.embedding(text, offsets)
        return self.fc(embedded)


def batch(size):
    lengths = torch.randint(2, 7, (size,))
    text = torch.randint(0, VOCAB, (int(lengths.sum()),))
    offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)[:-1]])
    labels = text[offsets] % NUM_CLASS      # a learnable rule: the first token's class
    return text, offsets, labels


model = TextClassificationModel(VOCAB, EMBED, NUM_CLASS)
print(model)
sparse_opt = torch.optim.SparseAdam(list(model.embedding.parameters()), lr=0.05)
dense_opt = torch.optim.Adam(model.fc.parameters(), lr=0.05)
criterion = nn.CrossEntropyLoss()
print(sparse_opt)
for step in range(10):
    text, offsets, labels = batch(16)
    sparse_opt.zero_grad()
    dense_opt.zero_grad()
    logits = model(text, offsets)
    loss = criterion(logits, labels)
    loss.backward()
    if step == 0:
        g = model.embedding.weight.grad
        print(g.is_sparse, g.layout, g._nnz(), g.is_coalesced(), g.coalesce()._nnz())
        print(g.coalesce().values()[:2])
    sparse_opt.step()
    dense_opt.step()
    acc = (logits.argmax(1) == labels).float().mean()
    print(f"step {step}: loss {loss.item():.4f} acc {acc.item():.3f}")
state = sparse_opt.state_dict()["state"][0]
print(sorted(state), state["step"], state["exp_avg"].abs().sum(), state["exp_avg_sq"].abs().sum())

# nn.Embedding(sparse=True) with SGD and momentum: the momentum buffer is sparse
emb = nn.Embedding(VOCAB, EMBED, sparse=True)
opt = torch.optim.SGD(emb.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    ids = torch.randint(0, VOCAB, (2, 5))
    loss = emb(ids).pow(2).sum()
    loss.backward()
    opt.step()
    print(f"sgd step {step}: loss {loss.item():.4f}")
buf = opt.state_dict()["state"][0]["momentum_buffer"]
print(buf.layout, buf._nnz(), emb.weight.sum())
try:
    torch.optim.Adam(emb.parameters()).step()
except RuntimeError as e:
    print("RuntimeError:", e)
