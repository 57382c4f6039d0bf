"""Helpers shared by the distributions (PyTorch's torch.distributions.utils)."""
from numbers import Number

import numpy as _np

import autograd_core as _torch
import autograd_core.nn.functional as _F

__all__ = ["broadcast_all", "clamp_probs", "euler_constant", "lazy_property", "logits_to_probs",
           "probs_to_logits", "tril_matrix_to_vec", "vec_to_tril_matrix"]


def broadcast_all(*values):
    """The values (tensors or numbers) broadcast to one shape, numbers made tensors of the
    first tensor's dtype (or the default dtype)."""
    if not all(isinstance(v, (_torch.Tensor, Number)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    if not all(isinstance(v, _torch.Tensor) for v in values):
        dtype = _torch.get_default_dtype()
        for v in values:
            if isinstance(v, _torch.Tensor):
                dtype = v.dtype
                break
        values = [v if isinstance(v, _torch.Tensor) else _torch.tensor(v, dtype=dtype)
                  for v in values]
    return _torch.broadcast_tensors(*values)


def check_probs_or_logits(probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def set_probs_or_logits(dist, probs, logits, *others):
    """Store on `dist` whichever of `probs`/`logits` is given (exactly one must be), broadcast
    with `others`, as that attribute and as `dist._param`; return the broadcast `others`.
    The other parameter is derived lazily (`lazy_property`) when first read."""
    check_probs_or_logits(probs, logits)
    name, value = ("probs", probs) if probs is not None else ("logits", logits)
    values = broadcast_all(*others, value)
    setattr(dist, name, values[-1])
    dist._param = values[-1]
    return values[:-1]


def expand_probs_or_logits(dist, new, param_shape):
    """`Distribution.expand`'s share for a probs/logits parameterisation: each of the two that
    `dist` holds already (given or derived) is expanded onto `new`."""
    for name in ("probs", "logits"):
        if name in dist.__dict__:
            value = getattr(dist, name).expand(param_shape)
            setattr(new, name, value)
            new._param = value


def expand_params(dist, cls, names, batch_shape, _instance, probs_or_logits=False,
                  shared=()):
    """`Distribution.expand` for a distribution whose parameters `names` all have the batch
    shape: each expanded onto the new instance (of `cls`, the class defining expand); with
    `probs_or_logits` its probs and/or logits too (`expand_probs_or_logits`). The attributes
    `shared` (not batched: a temperature, a cached constant) pass on as they are."""
    new = dist._get_checked_instance(cls, _instance)
    for name in shared:
        setattr(new, name, getattr(dist, name))
    batch_shape = _torch.Size(batch_shape)
    for name in names:
        setattr(new, name, getattr(dist, name).expand(batch_shape))
    if probs_or_logits:
        expand_probs_or_logits(dist, new, batch_shape)
    super(cls, new).__init__(batch_shape, validate_args=False)
    new._validate_args = dist._validate_args
    return new


def _standard_normal(shape, dtype, device):
    # PyTorch draws eps with normal_() on a fresh tensor: the same stream as randn
    return _torch.empty(shape, dtype=dtype).normal_()


def _sum_rightmost(value, dim):
    """value summed over its rightmost dim dimensions."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:value.dim() - dim] + (-1,)).sum(-1)


def _eps(dtype):
    return float(_np.finfo(dtype.np_dtype).eps)


def clamp_probs(probs):
    """probs clamped into [eps, 1 - eps] of their dtype."""
    eps = _eps(probs.dtype)
    return probs.clamp(min=eps, max=1 - eps)


def logits_to_probs(logits, is_binary=False):
    """Probabilities from logits: sigmoid when is_binary, else softmax over the last dim."""
    if is_binary:
        return _torch.sigmoid(logits)
    return _F.softmax(logits, dim=-1)


def probs_to_logits(probs, is_binary=False):
    """Logits from (clamped) probabilities: log-odds when is_binary, else log."""
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return _torch.log(ps_clamped) - _torch.log1p(-ps_clamped)
    return _torch.log(ps_clamped)


def _tril_mask(n, diag):
    # True where column < row + diag + 1: the lower triangle from diagonal diag, row order
    arange = _torch.arange(n)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The elements of (a batch of) D x D matrices on and below diagonal ``diag``, row by
    row, as vectors.

    >>> import autograd_core as torch
    >>> tril_matrix_to_vec(torch.arange(9.).view(3, 3), diag=-1)
    tensor([3., 6., 7.])
    """
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


def vec_to_tril_matrix(vec, diag=0):
    """(A batch of) D x D lower-triangular matrices (from diagonal ``diag``) filled row by
    row from vectors; zeros elsewhere.

    >>> import autograd_core as torch
    >>> vec_to_tril_matrix(torch.tensor([1., 2., 3.]), diag=-1)
    tensor([[0., 0., 0.],
            [1., 0., 0.],
            [2., 3., 0.]])
    """
    # D is the positive root of D**2 + (1 + 2 diag) D - |diag| (diag + 1) - 2 len = 0
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1]
                            + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > _torch.finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be "
                         f"expressed as the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + _torch.Size((n, n)))
    mat[..., _tril_mask(n, diag)] = vec
    return mat


class lazy_property:
    """A property computed on first use and then stored in the instance's __dict__ (so
    that repr and expand see which parameters exist); with grad mode on, as PyTorch."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__
        self.__name__ = wrapped.__name__

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        with _torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def delegated_property(holder, name):
    """A read-only property that is the attribute `name` of the instance's attribute
    `holder` (Multinomial's probs are its Categorical's; a TransformedDistribution's
    parameters its base distribution's)."""
    return property(lambda self: getattr(getattr(self, holder), name))


def binary_logits_and_probs():
    """The `logits` and `probs` properties of a distribution over {0, 1} (or counts of such
    trials) given by either one: the other is derived on first use (`is_binary`) and stored
    in the instance. A class body takes them as ``logits, probs = binary_logits_and_probs()``
    (named functions: lazy_property stores under the function's name)."""
    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    return logits, probs


euler_constant = 0.57721566490153286060  # Euler-Mascheroni constant
