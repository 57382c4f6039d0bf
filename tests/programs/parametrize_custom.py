# Tutorial "Parametrizations": symmetric / skew / matrix exp / cayley / removal
import torch
import torch.nn as nn
import torch.nn.utils.parametrize as P

torch.manual_seed(0)


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
print(torch.allclose(A, A.T))
print(layer)
print(layer.parametrizations.weight.original.shape)


class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)


cnn = nn.Conv2d(in_channels=5, out_channels=8, kernel_size=3)
P.register_parametrization(cnn, "weight", Skew())
print(cnn.weight[0, 1])
print(cnn.weight[2, 2])


class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)


layer_orthogonal = nn.Linear(3, 3)
P.register_parametrization(layer_orthogonal, "weight", Skew())
P.register_parametrization(layer_orthogonal, "weight", MatrixExponential())
X = layer_orthogonal.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5)
print(layer_orthogonal.parametrizations.weight)


class CayleyMap(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("Id", torch.eye(n))

    def forward(self, X):
        return torch.linalg.solve(self.Id - X, self.Id + X)

    def right_inverse(self, A):
        return torch.linalg.solve(A + self.Id, self.Id - A) if False else A


layer = nn.Linear(3, 3)
P.register_parametrization(layer, "weight", Skew())
P.register_parametrization(layer, "weight", CayleyMap(3))
X = layer.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5)
with P.cached():
    print(layer.weight is layer.weight)
print(P.is_parametrized(layer), P.is_parametrized(layer, "bias"))
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
loss = (layer(torch.randn(4, 3)) ** 2).sum()
loss.backward()
opt.step()
print(sorted(n for n, _ in layer.named_parameters()))
print(layer.state_dict().keys())
W = layer.weight.detach().clone()
P.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(torch.allclose(layer.weight, W), type(layer.weight).__name__, layer)


class NoInverse(nn.Module):
    def forward(self, X):
        return X * 2


l2 = nn.Linear(2, 2)
P.register_parametrization(l2, "weight", NoInverse())
try:
    l2.weight = torch.zeros(2, 2)
except (NotImplementedError, RuntimeError) as e:
    print(type(e).__name__ + ":", e)
try:
    P.remove_parametrizations(l2, "bias")
except ValueError as e:
    print("ValueError:", e)
