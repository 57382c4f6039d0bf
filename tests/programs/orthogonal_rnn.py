# An orthogonal RNN (as in Lezcano-Casado's expRNN / the parametrizations tutorial): the
# hidden-to-hidden matrix of an RNN cell is kept orthogonal by
# torch.nn.utils.parametrizations.orthogonal, trained a few steps on a copy-memory-like task
# with P.cached() around the unrolled loop; then the weight-normalized read-out.
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P
from torch.nn.utils.parametrizations import orthogonal, weight_norm

torch.manual_seed(0)
n_in, n_hid, n_out, T, B = 4, 8, 3, 6, 5


class OrthogonalRNN(nn.Module):
    def __init__(self, orthogonal_map):
        super().__init__()
        self.cell = nn.RNNCell(n_in, n_hid, nonlinearity="tanh")
        orthogonal(self.cell, "weight_hh", orthogonal_map=orthogonal_map)
        self.out = weight_norm(nn.Linear(n_hid, n_out))

    def forward(self, xs):
        h = xs.new_zeros(xs.size(1), n_hid)
        with P.cached():
            for x in xs:
                h = self.cell(x, h)
        return self.out(h)


xs = torch.randn(T, B, n_in)
ys = torch.randint(0, n_out, (B,))
for omap in ("matrix_exp", "cayley", "householder"):
    torch.manual_seed(1)
    model = OrthogonalRNN(omap)
    if omap == "matrix_exp":
        print(model)
        print(sorted(model.state_dict().keys()))
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-2)
    for step in range(4):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(xs), ys)
        loss.backward()
        opt.step()
        print(omap, step, f"{loss.item():.5f}")
    W = model.cell.weight_hh
    print(omap, f"{torch.dist(W.T @ W, torch.eye(n_hid)).item() < 1e-4}",
          P.is_parametrized(model.cell, "weight_hh"),
          type(model.cell).__name__, P.type_before_parametrizations(model.cell).__name__)
    print(W[:2, :4])
    grad = model.cell.parametrizations.weight_hh.original.grad
    print(grad.shape, grad[-1, :4])
P.remove_parametrizations(model.cell, "weight_hh")
print(type(model.cell).__name__, model.cell.weight_hh[:1, :4])
