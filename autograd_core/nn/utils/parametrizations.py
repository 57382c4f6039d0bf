"""``torch.nn.utils.parametrizations``: orthogonal, spectral_norm and weight_norm built on
:mod:`autograd_core.nn.utils.parametrize`.

>>> import autograd_core as torch
>>> from autograd_core.nn.utils.parametrizations import orthogonal
>>> m = orthogonal(torch.nn.Linear(4, 4))
>>> torch.allclose(m.weight @ m.weight.T, torch.eye(4), atol=1e-5)
True
"""
from enum import Enum, auto

import autograd_core as _ag
import autograd_core.nn.functional as F
from autograd_core.nn.modules.module import Module
from autograd_core.nn.utils import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _is_orthogonal(Q):
    n, k = Q.size(-2), Q.size(-1)
    Id = _ag.eye(k, dtype=Q.dtype, device=Q.device)
    # the tolerance grows with n: the rounding of an n-term dot product
    eps = 10.0 * n * _ag.finfo(Q.dtype).eps
    return _ag.allclose(Q.mH @ Q, Id, atol=eps)


def _make_orthogonal(A):
    """The Q of A = QR (A tall), with R's diagonal made real and non-negative."""
    X, tau = _ag.geqrf(A)
    Q = _ag.linalg.householder_product(X, tau)
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            # the base B of the dynamic trivialization: Q = B @ map(X) (set by right_inverse)
            self.register_buffer("base", None)

    def forward(self, X):
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        # here n >= k: X is tall
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            # the lower triangle of X (padded to n x n) defines a skew-symmetric A
            X = X.tril()
            if n != k:
                X = _ag.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = _ag.matrix_exp(A)
            else:
                # Cayley: (I - A/2)^{-1} (I + A/2)
                Id = _ag.eye(n, dtype=A.dtype, device=A.device)
                Q = _ag.linalg.solve(_ag.add(Id, A, alpha=-0.5), _ag.add(Id, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            # Householder reflectors from the strict lower triangle, with the tau that
            # makes each one a reflection (the unit diagonal of the reflector vectors)
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _ag.linalg.householder_product(A, tau)
            # the signs of X's diagonal choose a column sign each (int(): -1, 0 or 1)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    @_ag.no_grad()
    def right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential or the Cayley "
                    "parametrizations when use_trivialization=False.")
            # householder without a base: X whose reflectors (and diagonal signs) give Q
            A, tau = _ag.geqrf(Q)
            # tau == 0 means no reflection: the sign flips to keep Q's column
            A.diagonal(dim1=-2, dim2=-1).sign_()
            A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
            return A.mT if transpose else A
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:
            # complete Q with random columns to a square matrix, then orthogonalize
            N = _ag.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(_ag.cat([Q, N], dim=-1))
        self.base = Q
        # forward(-I) is I for every map, so the module's weight becomes base (Q)
        neg_Id = _ag.zeros_like(Q_init)
        neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_Id


def orthogonal(module, name="weight", orthogonal_map=None, *, use_trivialization=True):
    """Parametrize ``module.<name>`` (a matrix or a batch of them) to be orthogonal (unitary
    if complex): orthonormal columns when it is tall, orthonormal rows when wide.

    orthogonal_map is ``"matrix_exp"``, ``"cayley"`` (of a skew-symmetric matrix) or
    ``"householder"`` (a product of reflectors); the default is ``"matrix_exp"`` for
    square or complex matrices, else ``"householder"``.  With ``use_trivialization``
    (default) an extra ``base`` matrix is kept in
    ``module.parametrizations.<name>[0].base`` (the dynamic trivialization), and the
    initial value is the original weight if orthogonal, else its QR's Q.  Returns module.

    >>> import autograd_core as torch
    >>> from autograd_core.nn.utils.parametrizations import orthogonal
    >>> m = orthogonal(torch.nn.Linear(5, 3))
    >>> torch.allclose(m.weight @ m.weight.T, torch.eye(3), atol=1e-5)
    True
    >>> m.parametrizations.weight
    ParametrizationList(
      (0): _Orthogonal()
    )
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, _ag.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1)
                          or weight.is_complex() else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return _ag._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return _ag.norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """Weight normalization, ``w = g * v / ||v||``, as a parametrization: ``module.<name>``
    is computed from a magnitude ``parametrizations.<name>.original0`` (g, norms over all
    dims but dim; ``dim=None``: over the whole tensor) and a direction ``original1`` (v).
    State dicts of the older :func:`autograd_core.nn.utils.weight_norm` (``<name>_g``,
    ``<name>_v``) load into it.  Returns module.

    >>> import autograd_core as torch
    >>> from autograd_core.nn.utils.parametrizations import weight_norm
    >>> m = weight_norm(torch.nn.Linear(20, 40))
    >>> m.parametrizations.weight.original0.size(), m.parametrizations.weight.original1.size()
    (autograd_core.Size([40, 1]), autograd_core.Size([40, 20]))
    """
    _weight_norm = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _weight_norm, unsafe=True)

    def _weight_norm_compat_hook(state_dict, prefix, local_metadata, strict, missing_keys,
                                 unexpected_keys, error_msgs):
        g_key = f"{prefix}{name}_g"
        v_key = f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            original0 = state_dict.pop(g_key)
            original1 = state_dict.pop(v_key)
            state_dict[f"{prefix}parametrizations.{name}.original0"] = original0
            state_dict[f"{prefix}parametrizations.{name}.original1"] = original1

    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # a vector is just normalized; a matrix keeps estimates u, v of its top
            # singular vectors, started at random and refined by 15 power iterations
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if weight.ndim <= 1:
            raise AssertionError(f"Expected weight to have more than 1 dimension, got {weight.ndim}")
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @_ag.no_grad()
    def _power_method(self, weight_mat, n_power_iterations):
        # u and v are updated in place (out=): with several accesses in one forward
        # (DataParallel replicas) every one sees the same buffers
        if weight_mat.ndim <= 1:
            raise AssertionError("Expected weight_mat to have more than 1 dimension, got "
                                 f"{weight_mat.ndim}")
        for _ in range(n_power_iterations):
            self._u = F.normalize(_ag.mv(weight_mat, self._v), dim=0, eps=self.eps, out=self._u)
            self._v = F.normalize(_ag.mv(weight_mat.H, self._u), dim=0, eps=self.eps,
                                  out=self._v)

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        # copies: the backward must not see the next in-place power iteration
        u = self._u.clone(memory_format=_ag.contiguous_format)
        v = self._v.clone(memory_format=_ag.contiguous_format)
        sigma = _ag.vdot(u, _ag.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        # assigning a weight stores it as is (the norm is not undone)
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Spectral normalization as a parametrization: ``module.<name>`` reads as
    ``W / sigma(W)``, sigma estimated by power iteration (``n_power_iterations`` steps on
    each access in training mode, none in eval mode) on W reshaped to a matrix with
    ``dim`` (default 0, 1 for ConvTranspose) as its rows.  The singular vector estimates
    live in the buffers ``parametrizations.<name>[0]._u`` and ``._v``.  Returns module.

    >>> import autograd_core as torch
    >>> from autograd_core.nn.utils.parametrizations import spectral_norm
    >>> m = spectral_norm(torch.nn.Linear(20, 40))
    >>> type(m).__name__, m.parametrizations.weight[0]._u.shape
    ('ParametrizedLinear', autograd_core.Size([40]))
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, _ag.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (_ag.nn.ConvTranspose1d, _ag.nn.ConvTranspose2d,
                                       _ag.nn.ConvTranspose3d)) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
