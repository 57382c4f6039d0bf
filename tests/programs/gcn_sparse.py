# Kipf & Welling's GCN (tkipf/pygcn) with a sparse normalised adjacency: torch.spmm in
# each layer, a few training steps on a small random graph, printed losses
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
N, F_IN, HID, C = 20, 8, 16, 3
features = torch.rand(N, F_IN)
labels = torch.randint(0, C, (N,))
src = torch.randint(0, N, (60,))
dst = torch.randint(0, N, (60,))
# symmetric edges plus self loops, duplicates summed by coalesce()
rows = torch.cat([src, dst, torch.arange(N)])
cols = torch.cat([dst, src, torch.arange(N)])
adj = torch.sparse_coo_tensor(torch.stack([rows, cols]), torch.ones(rows.numel()), (N, N))
adj = adj.coalesce()
print(adj.is_sparse, adj.layout, adj._nnz(), adj.is_coalesced())
adj = torch.sparse_coo_tensor(adj.indices(), torch.ones(adj._nnz()), (N, N)).coalesce()
deg = torch.sparse.sum(adj, dim=1).to_dense()
d_inv_sqrt = deg.pow(-0.5)
i = adj.indices()
norm_vals = d_inv_sqrt[i[0]] * adj.values() * d_inv_sqrt[i[1]]
adj_norm = torch.sparse_coo_tensor(i, norm_vals, (N, N))
print(adj_norm.to_dense()[:3, :6])
print(torch.sparse.sum(adj_norm))


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.FloatTensor(in_features, out_features))
        self.bias = nn.Parameter(torch.FloatTensor(out_features)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1. / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)
        if self.bias is not None:
            self.bias.data.uniform_(-stdv, stdv)

    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.spmm(adj, support)
        return output + self.bias if self.bias is not None else output


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout):
        super().__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        x = self.gc2(x, adj)
        return F.log_softmax(x, dim=1)


model = GCN(F_IN, HID, C, dropout=0.5)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
idx_train, idx_val = torch.arange(0, 12), torch.arange(12, N)
for epoch in range(8):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj_norm)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    acc_train = (output[idx_train].argmax(1) == labels[idx_train]).float().mean()
    loss_train.backward()
    optimizer.step()
    model.eval()
    output = model(features, adj_norm)
    loss_val = F.nll_loss(output[idx_val], labels[idx_val])
    print(f"Epoch: {epoch + 1:04d} loss_train: {loss_train.item():.4f} "
          f"acc_train: {acc_train.item():.4f} loss_val: {loss_val.item():.4f}")
print(model.gc1.weight.grad.abs().sum())

# the same first layer through torch.sparse.mm with a sparse adjacency that requires grad:
# its gradient is sparse, with the adjacency's pattern
adj_leaf = adj_norm.detach().requires_grad_(True)
out = torch.sparse.mm(adj_leaf, features @ model.gc1.weight.detach())
out.pow(2).sum().backward()
print(adj_leaf.grad.layout, adj_leaf.grad._nnz(), adj_leaf.grad.to_dense().sum())
csr = adj_norm.to_sparse_csr()
print(csr.crow_indices()[:6], (csr @ features).sum())
