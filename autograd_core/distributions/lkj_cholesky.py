"""The LKJ distribution over Cholesky factors of correlation matrices."""
import math

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.beta import Beta
from autograd_core.distributions.distribution import Distribution
from autograd_core.distributions.utils import broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """LKJ distribution over the lower Cholesky factors L of dim x dim correlation
    matrices: the density of M = L L^T is proportional to det(M)^(concentration - 1)
    (concentration 1: uniform over correlation matrices).  Samples are drawn by the
    onion method (Lewandowski, Kurowicka and Joe, 2009, Sec. 3.2), from PyTorch's
    random streams: the same seed draws the same matrices.

    >>> import autograd_core as torch
    >>> _ = torch.manual_seed(0)
    >>> L = torch.distributions.LKJCholesky(3, 0.5).sample()
    >>> L
    tensor([[ 1.0000,  0.0000,  0.0000],
            [ 0.2073,  0.9783,  0.0000],
            [-0.3881, -0.7827,  0.4865]])
    >>> torch.distributions.LKJCholesky(3, 0.5).log_prob(L)
    tensor(-1.8106)
    """
    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(
                f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        event_shape = _torch.Size((dim, dim))
        # the onion method's squared row lengths, all rows at once: row i (i >= 1) draws
        # Beta(i / 2, concentration + (dim - 2) / 2 - (i - 1) / 2); row 0 gets a dummy
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = _torch.arange(self.dim - 1, dtype=self.concentration.dtype)
        offset = _torch.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal_conc.unsqueeze(-1) - 0.5 * offset)
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = _torch.Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        super(LKJCholesky, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=_torch.Size()):
        # Each row of L is sqrt(y) times a uniform direction in the row's first i
        # coordinates, the diagonal completing the row to unit length.  (The beta draws
        # come first, then the normals: PyTorch's order, so the streams agree.)
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u_normal = _torch.randn(self._extended_shape(sample_shape), dtype=y.dtype).tril(-1)
        u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
        u_hypersphere[..., 0, :].fill_(0.0)      # row 0 is 0/0: it has no free part
        w = _torch.sqrt(y) * u_hypersphere
        # the clamp keeps the square root real where rounding overshoots 1
        eps = _torch.finfo(w.dtype).tiny
        diag_elems = _torch.clamp(1 - _torch.sum(w ** 2, dim=-1), min=eps).sqrt()
        w += _torch.diag_embed(diag_elems)
        return w

    def log_prob(self, value):
        # det(L L^T)^(eta - 1) = prod L_ii^(2 eta - 2), times the Jacobian of L -> L L^T,
        # prod L_ii^(D - i): the unnormalised log density is sum_i (2 eta - 2 + D - i)
        # log L_ii over i = 2..D (L_11 = 1); the normaliser is Lewandowski et al.'s
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = _torch.arange(2, self.dim + 1)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = _torch.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = _torch.lgamma(alpha) * dm1
        numerator = _torch.mvlgamma(alpha - 0.5, dm1)
        # the paper's pi term is D (D - 1) / 4 log(pi); mvlgamma carries (D - 1)(D - 2) / 4
        # log(pi) of it, the rest is (D - 1) / 2 log(pi)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        return unnormalized_log_pdf - (pi_constant + numerator - denominator)
