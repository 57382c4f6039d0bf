"""The Wishart distribution over positive-definite matrices."""
import math
import warnings
from numbers import Number

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.chi2 import Chi2
from autograd_core.distributions.exp_family import ExponentialFamily
from autograd_core.distributions.multivariate_normal import _scale_tril
from autograd_core.distributions.utils import lazy_property

__all__ = ["Wishart"]

_log_2 = math.log(2)


def _mvdigamma(x, p):
    # the multivariate digamma: sum_{i < p} digamma(x - i / 2)
    if not x.gt((p - 1) / 2).all():
        raise AssertionError("Wrong domain for multivariate digamma function.")
    return _torch.digamma(
        x.unsqueeze(-1) - _torch.arange(p, dtype=x.dtype).div(2).expand(x.shape + (-1,))
    ).sum(-1)


def _clamp_above_eps(x):
    return x.clamp(min=_torch.finfo(x.dtype).eps)


class Wishart(ExponentialFamily):
    """Wishart distribution with ``df`` degrees of freedom and scale matrix Sigma, given as
    exactly one of ``covariance_matrix``, ``precision_matrix`` (its inverse) or
    ``scale_tril`` (its lower Cholesky factor; the others are factored once).  Samples
    (reparameterised: ``rsample`` has gradients) use the Bartlett decomposition, from
    PyTorch's random streams.

    PyTorch 2.13's rsample tests its samples for singularity with the test inverted
    (a positive-definite sample counts as singular): it warns "Singular sample detected."
    and redraws every regular sample once.  That is followed here as it is, since the
    numbers drawn (and so every later draw from the generator) depend on it.

    >>> import warnings, autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> m = torch.distributions.Wishart(torch.tensor([4.0]), covariance_matrix=torch.eye(2))
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     m.sample()
    tensor([[[0.8693, 0.9903],
             [0.9903, 2.1458]]])
    >>> m.mean
    tensor([[[4., 0.],
             [0., 4.]]])
    """
    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self):
        return {"covariance_matrix": constraints.positive_definite,
                "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky,
                "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None):
        if ((covariance_matrix is not None) + (scale_tril is not None)
                + (precision_matrix is not None)) != 1:
            raise AssertionError("Exactly one of covariance_matrix or precision_matrix or "
                                 "scale_tril may be specified.")
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril)
                     if p is not None)
        if param.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        if isinstance(df, Number):
            batch_shape = _torch.Size(param.shape[:-2])
            self.df = _torch.tensor(df, dtype=param.dtype)
        else:
            batch_shape = _torch.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        if self.df.le(event_shape[-1] - 1).any():
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = "
                             f"{event_shape[-1] - 1}.")
        if scale_tril is not None:
            self.scale_tril = param.expand(batch_shape + (-1, -1))
        elif covariance_matrix is not None:
            self.covariance_matrix = param.expand(batch_shape + (-1, -1))
        else:
            self.precision_matrix = param.expand(batch_shape + (-1, -1))
        if self.df.lt(event_shape[-1]).any():
            warnings.warn("Low df values detected. Singular samples are highly likely to "
                          "occur for ndim - 1 < df < ndim.", stacklevel=2)
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        self._unbroadcasted_scale_tril = _scale_tril(scale_tril, covariance_matrix,
                                                     precision_matrix)
        self._dist_chi2 = self._bartlett_chi2(batch_shape)

    def _bartlett_chi2(self, batch_shape):
        # the Bartlett factor's squared diagonal: chi2(df - i) in row i
        return Chi2(df=self.df.unsqueeze(-1) - _torch.arange(
            self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype
        ).expand(batch_shape + (-1,)))

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = _torch.Size(batch_shape)
        cov_shape = batch_shape + self.event_shape
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, getattr(self, name).expand(cov_shape))
        new._event_shape = self._event_shape
        new._dist_chi2 = new._bartlett_chi2(batch_shape)
        super(Wishart, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return (L @ L.transpose(-2, -1)).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        identity = _torch.eye(self._event_shape[-1],
                              dtype=self._unbroadcasted_scale_tril.dtype)
        return _torch.cholesky_solve(identity, self._unbroadcasted_scale_tril).expand(
            self._batch_shape + self._event_shape)

    @property
    def mean(self):
        return self.df.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def mode(self):
        # (df - p - 1) Sigma, defined only for df > p + 1 (NaN otherwise)
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor[factor <= 0] = math.nan
        return factor.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def variance(self):
        V = self.covariance_matrix
        diag_V = V.diagonal(dim1=-2, dim2=-1)
        return self.df.view(self._batch_shape + (1, 1)) * (
            V.pow(2) + _torch.einsum("...i,...j->...ij", diag_V, diag_V))

    def _bartlett_sampling(self, sample_shape=_torch.Size()):
        # W = (L A)(L A)^T with A lower triangular: sqrt(chi2(df - i)) on the diagonal
        # (drawn first), standard normals below it (drawn second; PyTorch's order)
        p = self._event_shape[-1]
        noise = _clamp_above_eps(self._dist_chi2.rsample(sample_shape).sqrt()).diag_embed(
            dim1=-2, dim2=-1)
        i, j = _torch.tril_indices(p, p, offset=-1)
        noise[..., i, j] = _torch.randn(
            _torch.Size(sample_shape) + self._batch_shape + (int(p * (p - 1) / 2),),
            dtype=noise.dtype)
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape=_torch.Size(), max_try_correction=None):
        """Reparameterised samples.  A sample that is not positive definite (likely when
        df is close to ndim - 1) warns "Singular sample detected." and is redrawn up to
        ``max_try_correction`` times (10 by default); one may still come back singular,
        and its log_prob is then -inf."""
        if max_try_correction is None:
            max_try_correction = 10
        sample_shape = _torch.Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        # (PyTorch's flag, kept as it computes it: "is_singular" holds the support check,
        # so the redraw loop runs when a sample IS positive definite; see the class doc)
        is_singular = self.support.check(sample)
        if self._batch_shape:
            is_singular = is_singular.amax(self._batch_dims)
        if is_singular.any():
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                sample_new = self._bartlett_sampling(is_singular[is_singular].shape)
                sample[is_singular] = sample_new
                is_singular_new = ~self.support.check(sample_new)
                if self._batch_shape:
                    is_singular_new = is_singular_new.amax(self._batch_dims)
                is_singular[is_singular.clone()] = is_singular_new
                if not is_singular.any():
                    break
        return sample

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        L = self._unbroadcasted_scale_tril
        return (-nu * (p * _log_2 / 2 + L.diagonal(dim1=-2, dim2=-1).log().sum(-1))
                - _torch.mvlgamma(nu / 2, p=p)
                + (nu - p - 1) / 2 * _torch.linalg.slogdet(value).logabsdet
                - _torch.cholesky_solve(value, L).diagonal(dim1=-2, dim2=-1).sum(dim=-1) / 2)

    def entropy(self):
        nu = self.df
        p = self._event_shape[-1]
        L = self._unbroadcasted_scale_tril
        return ((p + 1) * (p * _log_2 / 2 + L.diagonal(dim1=-2, dim2=-1).log().sum(-1))
                + _torch.mvlgamma(nu / 2, p=p)
                - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
                + nu * p / 2)

    @property
    def _natural_params(self):
        nu = self.df
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (nu - p - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        return ((y + (p + 1) / 2) * (-_torch.linalg.slogdet(-2 * x).logabsdet + _log_2 * p)
                + _torch.mvlgamma(y + (p + 1) / 2, p=p))
