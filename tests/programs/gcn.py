# pytorch/examples gcn/main.py and gat/main.py on a tiny random graph
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
N, F_IN, C = 12, 6, 3
features = torch.rand(N, F_IN)
labels = torch.randint(0, C, (N,))
edges = torch.randint(0, N, (2, 30))
adj = torch.zeros(N, N)
adj[edges[0], edges[1]] = 1.0
adj = ((adj + adj.t()) > 0).float() + torch.eye(N)
deg = adj.sum(1)
d_inv_sqrt = torch.pow(deg, -0.5)
d_inv_sqrt[torch.isinf(d_inv_sqrt)] = 0.
adj_norm = torch.diag(d_inv_sqrt) @ adj @ torch.diag(d_inv_sqrt)


class GraphConv(nn.Module):
    def __init__(self, input_dim, output_dim, use_bias=False):
        super(GraphConv, self).__init__()
        self.kernel = nn.Parameter(torch.Tensor(input_dim, output_dim))
        nn.init.xavier_normal_(self.kernel)
        self.bias = None
        if use_bias:
            self.bias = nn.Parameter(torch.Tensor(output_dim))
            nn.init.zeros_(self.bias)

    def forward(self, input_tensor, adj_mat):
        support = torch.mm(input_tensor, self.kernel)
        output = torch.spmm(adj_mat, support) if False else torch.mm(adj_mat, support)
        if self.bias is not None:
            output = output + self.bias
        return output


class GCN(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, use_bias=True, dropout_p=0.1):
        super(GCN, self).__init__()
        self.gc1 = GraphConv(input_dim, hidden_dim, use_bias=use_bias)
        self.gc2 = GraphConv(hidden_dim, output_dim, use_bias=use_bias)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input_tensor, adj_mat):
        x = self.gc1(input_tensor, adj_mat)
        x = F.relu(x)
        x = self.dropout(x)
        x = self.gc2(x, adj_mat)
        return F.log_softmax(x, dim=1)


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_features, out_features, n_heads, concat=False, dropout=0.4, leaky_relu_slope=0.2):
        super(GraphAttentionLayer, self).__init__()
        self.n_heads = n_heads
        self.concat = concat
        self.dropout = dropout
        if concat:
            self.out_features = out_features
            assert out_features % n_heads == 0
            self.n_hidden = out_features // n_heads
        else:
            self.n_hidden = out_features
        self.W = nn.Parameter(torch.empty(size=(in_features, self.n_hidden * n_heads)))
        self.a = nn.Parameter(torch.empty(size=(n_heads, 2 * self.n_hidden, 1)))
        self.leakyrelu = nn.LeakyReLU(leaky_relu_slope)
        self.softmax = nn.Softmax(dim=1)
        nn.init.xavier_normal_(self.W)
        nn.init.xavier_normal_(self.a)

    def _get_attention_scores(self, h_transformed):
        source_scores = torch.matmul(h_transformed, self.a[:, :self.n_hidden, :])
        target_scores = torch.matmul(h_transformed, self.a[:, self.n_hidden:, :])
        e = source_scores + target_scores.mT
        return self.leakyrelu(e)

    def forward(self, h, adj_mat):
        n_nodes = h.shape[0]
        h_transformed = torch.mm(h, self.W)
        h_transformed = F.dropout(h_transformed, self.dropout, training=self.training)
        h_transformed = h_transformed.view(n_nodes, self.n_heads, self.n_hidden).permute(1, 0, 2)
        e = self._get_attention_scores(h_transformed)
        connectivity_mask = -9e16 * torch.ones_like(e)
        e = torch.where(adj_mat > 0, e, connectivity_mask)
        attention = F.softmax(e, dim=-1)
        attention = F.dropout(attention, self.dropout, training=self.training)
        h_prime = torch.matmul(attention, h_transformed)
        if self.concat:
            h_prime = h_prime.permute(1, 0, 2).contiguous().view(n_nodes, self.out_features)
        else:
            h_prime = h_prime.mean(dim=0)
        return h_prime


for name in ["gcn", "gat"]:
    torch.manual_seed(0)
    if name == "gcn":
        model = GCN(F_IN, 8, C)
    else:
        model = nn.ModuleList([GraphAttentionLayer(F_IN, 8, 2, concat=True),
                               GraphAttentionLayer(8, C, 1, concat=False)])
    print(model)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=5e-4)
    criterion = nn.NLLLoss()
    train_mask = torch.arange(N) < 8
    for epoch in range(6):
        model.train()
        optimizer.zero_grad()
        if name == "gcn":
            y_hat = model(features, adj_norm)
        else:
            h = F.elu(model[0](features, adj))
            y_hat = F.log_softmax(model[1](h, adj), dim=1)
        loss = criterion(y_hat[train_mask], labels[train_mask])
        loss.backward()
        optimizer.step()
        acc = (y_hat.argmax(dim=1) == labels)[train_mask].float().mean()
        print(f"{name} epoch {epoch}: loss {loss.item():.4f} acc {acc.item():.3f}")
