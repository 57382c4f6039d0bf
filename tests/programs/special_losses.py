# torch.special inside training losses: focal loss with expit/log_ndtr, probit regression,
# Beta-binomial likelihood via gammaln/betaln-style sums, entropy regulariser with xlogy
import torch
import torch.special as S

torch.manual_seed(0)
X = torch.randn(64, 3)
true_w = torch.tensor([1.5, -2.0, 0.5])
y = (X @ true_w + 0.3 * torch.randn(64) > 0).float()
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.LBFGS([w], lr=0.5, max_iter=10)


def probit_nll():
    opt.zero_grad()
    z = X @ w
    nll = -(y * S.log_ndtr(z) + (1 - y) * S.log_ndtr(-z)).mean()
    nll.backward()
    return nll


for i in range(3):
    loss = opt.step(probit_nll)
    print(i, round(loss.item(), 5))
print(w.detach())
logits = torch.randn(10, requires_grad=True)
targets = (torch.rand(10) > 0.5).float()
p = S.expit(logits)
pt = torch.where(targets == 1, p, 1 - p)
focal = -((1 - pt) ** 2 * torch.log(pt.clamp_min(1e-8))).mean()
focal.backward()
print(round(focal.item(), 5), logits.grad[:4])
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
k = torch.tensor([0.0, 1.0, 4.0, 7.0])
n = torch.tensor(10.0)


def betaln(x, y):
    return S.gammaln(x) + S.gammaln(y) - S.gammaln(x + y)


ll = (S.gammaln(n + 1) - S.gammaln(k + 1) - S.gammaln(n - k + 1) + betaln(k + a, n - k + b) - betaln(a, b)).sum()
ll.backward()
print(round(ll.item(), 5), a.grad, b.grad)
q = torch.softmax(torch.randn(5, requires_grad=True), 0)
ent = -S.xlogy(q, q).sum()
print(ent, torch.autograd.grad(ent, q)[0])
print(S.entr(q.detach()).sum(), S.logsumexp(torch.tensor([1000.0, 1000.0]), 0))
print(S.digamma(a.detach()) - S.digamma(a.detach() + b.detach()))
