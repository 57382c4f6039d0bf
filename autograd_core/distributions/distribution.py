"""The base class of the distributions, with PyTorch's argument and sample validation."""
import warnings

import autograd_core as _torch
from autograd_core.distributions import constraints
from autograd_core.distributions.utils import lazy_property

__all__ = ["Distribution"]


def _all_true(valid):
    return bool(valid.all()) if isinstance(valid, _torch.Tensor) else bool(valid)


class Distribution:
    """A probability distribution with a batch shape and an event shape.

    >>> import autograd_core as torch
    >>> from autograd_core.distributions import Normal
    >>> d = Normal(torch.zeros(2), torch.ones(2))
    >>> d.batch_shape, d.event_shape
    (autograd_core.Size([2]), autograd_core.Size([]))
    """
    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value):
        """Turns argument validation on or off for distributions created afterwards."""
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=_torch.Size(), event_shape=_torch.Size(), validate_args=None):
        self._batch_shape = batch_shape
        self._event_shape = event_shape
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            try:
                arg_constraints = self.arg_constraints
            except NotImplementedError:
                arg_constraints = {}
                warnings.warn(
                    f"{self.__class__} does not define `arg_constraints`. "
                    "Please set `arg_constraints = {}` or initialize the distribution "
                    "with `validate_args=False` to turn off validation.", stacklevel=2)
            for param, constraint in arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue
                if param not in self.__dict__ and isinstance(getattr(type(self), param),
                                                             lazy_property):
                    continue  # a lazily computed parameter
                value = getattr(self, param)
                if not _all_true(constraint.check(value)):
                    raise ValueError(
                        f"Expected parameter {param} "
                        f"({type(value).__name__} of shape {tuple(value.shape)}) "
                        f"of distribution {self!r} "
                        f"to satisfy the constraint {constraint!r}, "
                        f"but found invalid values:\n{value}")
        super().__init__()

    def expand(self, batch_shape, _instance=None):
        raise NotImplementedError

    @property
    def batch_shape(self):
        """The shape over which parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self):
        """The shape of a single sample (without batching)."""
        return self._event_shape

    @property
    def arg_constraints(self):
        raise NotImplementedError

    @property
    def support(self):
        raise NotImplementedError

    @property
    def mean(self):
        raise NotImplementedError

    @property
    def mode(self):
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError

    @property
    def stddev(self):
        """The standard deviation: sqrt(variance)."""
        return self.variance.sqrt()

    def sample(self, sample_shape=_torch.Size()):
        """A sample of shape sample_shape + batch_shape + event_shape, without gradient."""
        with _torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=_torch.Size()):
        raise NotImplementedError

    def sample_n(self, n):
        """n samples (deprecated: use sample((n,)))."""
        warnings.warn("sample_n will be deprecated. Use .sample((n,)) instead", UserWarning,
                      stacklevel=2)
        return self.sample(_torch.Size((n,)))

    def log_prob(self, value):
        raise NotImplementedError

    def cdf(self, value):
        raise NotImplementedError

    def icdf(self, value):
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def perplexity(self):
        """exp(entropy)."""
        return _torch.exp(self.entropy())

    def _extended_shape(self, sample_shape=_torch.Size()):
        if not isinstance(sample_shape, _torch.Size):
            sample_shape = _torch.Size(sample_shape)
        return _torch.Size(sample_shape + self._batch_shape + self._event_shape)

    def _validate_sample(self, value):
        if not isinstance(value, _torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        actual_shape = value.size()
        expected_shape = self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual_shape), reversed(expected_shape)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: "
                                 f"{actual_shape} vs {_torch.Size(expected_shape)}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(
                f"{self.__class__} does not define `support` to enable sample validation. "
                "Please initialize the distribution with `validate_args=False` to turn off "
                "validation.", stacklevel=2)
            return
        if not _all_true(support.check(value)):
            raise ValueError(
                "Expected value argument "
                f"({type(value).__name__} of shape {tuple(value.shape)}) "
                f"to be within the support ({support!r}) "
                f"of the distribution {self!r}, "
                f"but found invalid values:\n{value}")

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self):
        param_names = [k for k in self.arg_constraints if k in self.__dict__]
        args_string = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in param_names)
        return self.__class__.__name__ + "(" + args_string + ")"
