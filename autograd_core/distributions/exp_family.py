"""ExponentialFamily: the base class of the exponential-family distributions (Normal,
Bernoulli), whose densities are p(x) = h(x) exp(<t(x), theta> - F(theta)); it gives them the
entropy and the same-family KL divergence as Bregman divergences of F."""
import autograd_core as _torch
from autograd_core.distributions.distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """A distribution of the exponential family; subclasses give ``_natural_params`` (the
    theta), ``_log_normalizer(*theta)`` (F) and ``_mean_carrier_measure`` (E[log h(x)]).

    >>> import autograd_core as torch
    >>> isinstance(torch.distributions.Normal(0., 1.), torch.distributions.ExponentialFamily)
    True
    """

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """H = F(theta) - <theta, grad F(theta)> - E[log h(x)] (a Bregman divergence)."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = _torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np_, g in zip(nparams, gradients):
            result -= (np_ * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
