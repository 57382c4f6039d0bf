# Sparse gradients: nn.Embedding(sparse=True) with SparseAdam/SGD, EmbeddingBag, sparse grad layout
import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(10, 3, sparse=True)
bag = nn.EmbeddingBag(10, 3, mode="mean", sparse=True)
opt = torch.optim.SparseAdam(list(emb.parameters()) + list(bag.parameters()), lr=0.1)
idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
for step in range(3):
    opt.zero_grad()
    loss = emb(idx).pow(2).sum() + bag(idx).sum()
    loss.backward()
    if step == 0:
        g = emb.weight.grad
        print(g.layout, g.is_sparse, g._nnz(), g.coalesce().indices())
        print(g.to_dense()[4])
        print(bag.weight.grad.layout)
    opt.step()
    print(step, round(loss.item(), 4))
print(emb.weight[4], emb.weight[0])
emb2 = nn.Embedding(5, 2, sparse=True)
sgd = torch.optim.SGD(emb2.parameters(), lr=1.0)
emb2(torch.tensor([0, 0, 3])).sum().backward()
print(emb2.weight.grad.coalesce().values())
before = emb2.weight.detach().clone()
sgd.step()
print(emb2.weight - before)
try:
    torch.optim.Adam(emb2.parameters()).step()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.optim.SparseAdam([nn.Parameter(torch.ones(2))], lr=0.1)
    p = nn.Parameter(torch.ones(2))
    o = torch.optim.SparseAdam([p])
    (p * 2).sum().backward()
    o.step()
except RuntimeError as e:
    print("RuntimeError:", e)
e3 = nn.Embedding(6, 2, padding_idx=0, max_norm=1.0)
out = e3(torch.tensor([0, 1, 1, 5]))
print(out[0], e3.weight.norm(dim=1) <= 1.0 + 1e-6)
print(nn.functional.embedding(torch.tensor([1]), torch.eye(3), sparse=True).shape)
