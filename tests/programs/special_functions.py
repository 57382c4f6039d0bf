# torch.special: values, dtypes, grads and edge cases
import torch
import torch.special as S

torch.manual_seed(0)
x = torch.linspace(-3, 3, 7)
print(S.erf(x))
print(S.erfc(x), S.erfinv(torch.tensor([-0.5, 0.0, 0.9])))
print(S.expit(x), S.logit(torch.tensor([0.1, 0.5, 0.9])))
print(S.logit(torch.tensor([0.0, 1.0, 0.2]), eps=1e-6))
print(S.xlogy(torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 2.0, 3.0])))
print(S.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 1.0])))
print(S.log_softmax(x, 0), S.softmax(x.reshape(7, 1), dim=0).sum())
print(S.logsumexp(x, 0), S.gammaln(torch.tensor([0.5, 1.0, 10.0])))
print(S.digamma(torch.tensor([1.0, 0.5, 3.0])), S.polygamma(1, torch.tensor([1.0, 2.0])))
print(S.multigammaln(torch.tensor([2.5, 3.0]), 2))
print(S.i0(x), S.i0e(x))
print(S.i1(x), S.i1e(x))
print(S.ndtr(x), S.ndtri(torch.tensor([0.1, 0.5, 0.975])))
print(S.log_ndtr(torch.tensor([-10.0, 0.0, 3.0])))
print(S.sinc(torch.tensor([0.0, 0.5, 1.0])), S.entr(torch.tensor([0.0, 0.5, -1.0])))
print(S.round(torch.tensor([0.5, 1.5, 2.5])), S.exp2(torch.tensor([3.0])), S.expm1(torch.tensor([1e-8])))
print(S.bessel_j0(x), S.bessel_j1(torch.tensor([1.0, 2.0])))
print(S.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0])))
print(S.erfcx(torch.tensor([-1.0, 0.0, 10.0])))
print(S.log1p(torch.tensor([1e-10, 1.0])))
print(S.chebyshev_polynomial_t(torch.tensor([0.5, 0.3]), 3))
print(S.hermite_polynomial_h(torch.tensor([0.5]), torch.tensor([4])))
print(S.gammainc(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])), S.gammaincc(torch.tensor([1.0]), torch.tensor([0.5])))
print(S.xlogy(2, torch.tensor([3.0])), S.softmax(torch.tensor([1, 2, 3]), 0, dtype=torch.float64))
t = torch.tensor([0.3, 1.2, 2.5], requires_grad=True)
y = (S.erf(t) + S.gammaln(t) + S.digamma(t) + S.i0(t) + S.xlogy(t, t + 1) + S.entr(t / 3)).sum()
y.backward()
print(t.grad)
t2 = torch.tensor([0.2, 0.7], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda a: (S.erfinv(a), S.ndtri(a), S.logit(a), S.log_ndtr(a), S.i1e(a)), (t2,)))
print(S.erf(torch.tensor([1, 2])).dtype, S.expit(torch.tensor([True])).dtype)
try:
    S.polygamma(-1, torch.tensor([1.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    S.multigammaln(torch.tensor([0.5]), 2)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    S.zeta(torch.tensor([2.0]), torch.tensor([1.0, 2.0, 3.0]).reshape(3, 1, 1)).shape
    print(S.zeta(torch.tensor([2.0]), torch.tensor([1.0, 2.0, 3.0]).reshape(3, 1, 1)).shape)
except RuntimeError as e:
    print("RuntimeError:", e)
