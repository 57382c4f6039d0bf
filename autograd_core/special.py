"""autograd_core.special: PyTorch's ``torch.special`` namespace.

The functions of their own (Bessel, Airy, the orthogonal polynomials, erfcx, ndtr,
ndtri, log_ndtr, zeta, xlog1py, entr, i0e, i1, i1e) are rows of the op table
(ops/derivatives.yaml, ``special_<name>``; their kernels are csrc/agc_special.c's);
the rest are PyTorch's aliases of torch.* functions, and record the same nodes
(special.expit records SigmoidBackward0, as PyTorch's).

>>> import autograd_core as torch
>>> torch.special.erfcx(torch.tensor([0., 1.]))
tensor([1.0000, 0.4276])
>>> torch.special.expit(torch.tensor([0.], requires_grad=True))
tensor([0.5000], grad_fn=<SigmoidBackward0>)
"""
import functools as _functools

import autograd_core as _torch
from autograd_core.ops import pointwise as _pointwise_ops
from autograd_core.overrides import handle_torch_function as _handle
from autograd_core.overrides import has_torch_function as _has_torch_function

globals().update(_pointwise_ops.SPECIAL)


def _input(x, fname, pos=1):
    """x, checked as PyTorch's special_<name> checks its Tensor argument (its message names
    the special function, not the op it aliases)."""
    if not isinstance(x, _torch.Tensor) and not hasattr(type(x), "__torch_function__"):
        tname = "numpy.ndarray" if type(x).__name__ == "ndarray" else type(x).__name__
        raise TypeError(f"{fname}(): argument 'input' (position {pos}) must be Tensor, "
                        f"not {tname}")
    return x


def _alias(fn, doc, tensors):
    """fn as PyTorch's special.<name>: named special_<name> (as PyTorch's), its tensor
    arguments (positions `tensors`) handed to __torch_function__ overrides with this
    function as the one called (Note [__torch_function__ in the wrappers] in
    ops/_prelude.pxi)."""
    @_functools.wraps(fn)
    def special_fn(*args, **kwargs):
        relevant = args[tensors]
        if any(type(a) is not _torch.Tensor for a in relevant) and _has_torch_function(relevant):
            return _handle(special_fn, relevant, *args, **kwargs)
        return fn(*args, **kwargs)
    special_fn.__name__ = special_fn.__qualname__ = "special_" + fn.__name__
    special_fn.__module__ = __name__
    special_fn.__doc__ = doc
    return special_fn


def _out_arg(out, fname):
    """out=, checked as special_<name>'s parser checks it (its message names the special
    function): before the op's own checks."""
    if out is not None and not isinstance(out, _torch.Tensor):
        raise TypeError(f"{fname}(): argument 'out' must be Tensor, not {type(out).__name__}")
    return out


def digamma(input, *, out=None):
    return _torch.digamma(_input(input, "special_digamma"),
                          out=_out_arg(out, "special_digamma"))


def psi(input, *, out=None):
    return _torch.digamma(_input(input, "special_psi"),
                          out=_out_arg(out, "special_psi"))


def gammaln(input, *, out=None):
    return _torch.lgamma(_input(input, "special_gammaln"),
                         out=_out_arg(out, "special_gammaln"))


def multigammaln(input, p, *, out=None):
    return _torch.mvlgamma(_input(input, "special_multigammaln"), p, out=out)


def polygamma(n, input, *, out=None):
    return _torch.polygamma(n, _input(input, "special_polygamma", 2), out=out)


def erf(input, *, out=None):
    return _torch.erf(_input(input, "special_erf"), out=out)


def erfc(input, *, out=None):
    return _torch.erfc(_input(input, "special_erfc"), out=out)


def erfinv(input, *, out=None):
    return _torch.erfinv(_input(input, "special_erfinv"), out=out)


def exp2(input, *, out=None):
    return _torch.exp2(_input(input, "special_exp2"), out=out)


def expm1(input, *, out=None):
    return _torch.expm1(_input(input, "special_expm1"), out=out)


def log1p(input, *, out=None):
    return _torch.log1p(_input(input, "special_log1p"), out=out)


def i0(input, *, out=None):
    return _torch.i0(_input(input, "special_i0"), out=out)


def sinc(input, *, out=None):
    return _torch.sinc(_input(input, "special_sinc"), out=out)


def round(input, *, decimals=0, out=None):
    return _torch.round(_input(input, "special_round"), decimals=decimals, out=out)


def expit(input, *, out=None):
    return _torch.sigmoid(_input(input, "special_expit"), out=out)


def logit(input, eps=None, *, out=None):
    return _torch.logit(_input(input, "special_logit"), eps, out=out)


def xlogy(input, other, *, out=None):
    return _torch.xlogy(input, other, out=out)


def gammainc(input, other, *, out=None):
    return _torch.igamma(_input(input, "special_gammainc"), other, out=out)


def gammaincc(input, other, *, out=None):
    return _torch.igammac(_input(input, "special_gammaincc"), other, out=out)


def logsumexp(input, dim, keepdim=False, *, out=None):
    return _torch.logsumexp(_input(input, "special_logsumexp"), dim, keepdim, out=out)


def softmax(input, dim, *, dtype=None):
    return _torch.softmax(_input(input, "special_softmax"), dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return _torch.log_softmax(_input(input, "special_log_softmax"), dim, dtype=dtype)


_ALIAS_DOCS = {
    digamma: ("digamma(input, *, out=None) -> Tensor", "The logarithmic derivative of Gamma "
              "(alias of autograd_core.digamma).", "digamma(torch.tensor([1.]))",
              "tensor([-0.5772])"),
    psi: ("psi(input, *, out=None) -> Tensor", "Alias of special.digamma.",
          "psi(torch.tensor([1.]))", "tensor([-0.5772])"),
    gammaln: ("gammaln(input, *, out=None) -> Tensor", "``log |Gamma(input)|`` (alias of "
              "autograd_core.lgamma).", "gammaln(torch.tensor([3.]))", "tensor([0.6931])"),
    multigammaln: ("multigammaln(input, p, *, out=None) -> Tensor", "The multivariate "
                   "log-gamma function of dimension p (alias of autograd_core.mvlgamma).",
                   "multigammaln(torch.tensor([2.5]), 2)", "tensor([0.8570])"),
    polygamma: ("polygamma(n, input, *, out=None) -> Tensor", "The n-th derivative of "
                "digamma (alias of autograd_core.polygamma).",
                "polygamma(1, torch.tensor([1.]))", "tensor([1.6449])"),
    erf: ("erf(input, *, out=None) -> Tensor", "The error function.",
          "erf(torch.tensor([0., 1.]))", "tensor([0.0000, 0.8427])"),
    erfc: ("erfc(input, *, out=None) -> Tensor", "1 - erf(input).",
           "erfc(torch.tensor([0.]))", "tensor([1.])"),
    erfinv: ("erfinv(input, *, out=None) -> Tensor", "The inverse of erf on (-1, 1).",
             "erfinv(torch.tensor([0., 0.5]))", "tensor([0.0000, 0.4769])"),
    exp2: ("exp2(input, *, out=None) -> Tensor", "2 ** input.",
           "exp2(torch.tensor([0., 3.]))", "tensor([1., 8.])"),
    expm1: ("expm1(input, *, out=None) -> Tensor", "exp(input) - 1, accurate near 0.",
            "expm1(torch.tensor([0.]))", "tensor([0.])"),
    log1p: ("log1p(input, *, out=None) -> Tensor", "log(1 + input), accurate near 0.",
            "log1p(torch.tensor([0.]))", "tensor([0.])"),
    i0: ("i0(input, *, out=None) -> Tensor", "The modified Bessel function of the first "
         "kind, order 0.", "i0(torch.tensor([0., 1.]))", "tensor([1.0000, 1.2661])"),
    sinc: ("sinc(input, *, out=None) -> Tensor", "sin(pi * input) / (pi * input), 1 at 0.",
           "sinc(torch.tensor([0., 0.5]))", "tensor([1.0000, 0.6366])"),
    round: ("round(input, *, decimals=0, out=None) -> Tensor", "Alias of "
            "autograd_core.round.", "round(torch.tensor([1.26]), decimals=1)",
            "tensor([1.3000])"),
    expit: ("expit(input, *, out=None) -> Tensor", "The logistic sigmoid 1 / (1 + exp(-input)).",
            "expit(torch.tensor([0.]))", "tensor([0.5000])"),
    logit: ("logit(input, eps=None, *, out=None) -> Tensor", "log(p / (1 - p)), input "
            "clamped to [eps, 1 - eps] when eps is given.", "logit(torch.tensor([0.5]))",
            "tensor([0.])"),
    xlogy: ("xlogy(input, other, *, out=None) -> Tensor", "input * log(other), 0 where "
            "input is 0.", "xlogy(torch.tensor([0., 2.]), torch.tensor([0., 1.]))",
            "tensor([0., 0.])"),
    gammainc: ("gammainc(input, other, *, out=None) -> Tensor", "The regularized lower "
               "incomplete gamma function (alias of autograd_core.igamma).",
               "gammainc(torch.tensor([1.]), torch.tensor([1.]))", "tensor([0.6321])"),
    gammaincc: ("gammaincc(input, other, *, out=None) -> Tensor", "The regularized upper "
                "incomplete gamma function (alias of autograd_core.igammac).",
                "gammaincc(torch.tensor([1.]), torch.tensor([1.]))", "tensor([0.3679])"),
    logsumexp: ("logsumexp(input, dim, keepdim=False, *, out=None) -> Tensor", "Alias of "
                "autograd_core.logsumexp.", "logsumexp(torch.tensor([0., 0.]), 0)",
                "tensor(0.6931)"),
    softmax: ("softmax(input, dim, *, dtype=None) -> Tensor", "exp(input) normalized to sum "
              "to 1 along dim.", "softmax(torch.tensor([0., 0.]), 0)",
              "tensor([0.5000, 0.5000])"),
    log_softmax: ("log_softmax(input, dim, *, dtype=None) -> Tensor", "log(softmax(input, "
                  "dim)), computed stably.", "log_softmax(torch.tensor([0., 0.]), 0)",
                  "tensor([-0.6931, -0.6931])"),
}
_TENSORS = {xlogy: slice(0, 2), gammainc: slice(0, 2), gammaincc: slice(0, 2),
            polygamma: slice(1, 2)}
for _fn, (_sig, _text, _call, _out) in _ALIAS_DOCS.items():
    globals()[_fn.__name__] = _alias(
        _fn, f"{_sig}\n\n{_text}\n\n>>> import autograd_core as torch\n"
             f">>> torch.special.{_call}\n{_out}\n", _TENSORS.get(_fn, slice(0, 1)))
_ALIASES = [_fn.__name__ for _fn in _ALIAS_DOCS]
del _fn, _sig, _text, _call, _out

__all__ = sorted(list(_pointwise_ops.SPECIAL) + _ALIASES)
