"""InstanceNorm1d/2d/3d and their lazy forms."""
import warnings

from autograd_core.nn import functional as F
from autograd_core.nn.modules.batchnorm import _LazyNormBase, _NormBase

__all__ = ["InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LazyInstanceNorm1d",
           "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class _InstanceNorm(_NormBase):
    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype=dtype,
                         bias=bias)

    def _get_no_batch_dim(self):
        raise NotImplementedError

    def _handle_no_batch_input(self, input):
        return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)

    def _apply_instance_norm(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               self.momentum if self.momentum is not None else 0.0, self.eps)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        if version is None and not self.track_running_stats:
            keys = [prefix + n for n in ("running_mean", "running_var")
                    if prefix + n in state_dict]
            if keys:
                klass = self.__class__.__name__
                names = " and ".join(f'"{k}"' for k in keys)
                error_msgs.append(
                    f"Unexpected running stats buffer(s) {names} for {klass} with "
                    "track_running_stats=False. If state_dict is a checkpoint saved before "
                    f"0.4.0, this may be expected because {klass} does not track running stats "
                    "by default since 0.4.0. Please remove these keys from state_dict. If the "
                    f"running stats are actually needed, instead set track_running_stats=True in "
                    f"{klass} to enable them. See the documentation of {klass} for details.")
                for key in keys:
                    state_dict.pop(key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You "
                          "can silence this warning by not passing in num_features, which is "
                          "not used because affine=False", stacklevel=2)
        if input.dim() == self._get_no_batch_dim():
            return self._handle_no_batch_input(input)
        return self._apply_instance_norm(input)


def _dims(nd):
    """The two methods that differ between the 1-, 2- and 3-D instance norms."""
    message = f"expected {nd + 1}D or {nd + 2}D input (got {{}}D input)"

    def _get_no_batch_dim(self):
        return nd + 1

    def _check_input_dim(self, input):
        if input.dim() not in (nd + 1, nd + 2):
            raise ValueError(message.format(input.dim()))

    return _get_no_batch_dim, _check_input_dim


class InstanceNorm1d(_InstanceNorm):
    """Normalise each (sample, channel) of (N, C, L) / (C, L) inputs over L."""

    _get_no_batch_dim, _check_input_dim = _dims(1)


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """InstanceNorm1d with num_features from the first input."""

    cls_to_become = InstanceNorm1d
    _get_no_batch_dim, _check_input_dim = _dims(1)


class InstanceNorm2d(_InstanceNorm):
    """Normalise each (sample, channel) of (N, C, H, W) / (C, H, W) inputs over H, W."""

    _get_no_batch_dim, _check_input_dim = _dims(2)


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """InstanceNorm2d with num_features from the first input."""

    cls_to_become = InstanceNorm2d
    _get_no_batch_dim, _check_input_dim = _dims(2)


class InstanceNorm3d(_InstanceNorm):
    """Normalise each (sample, channel) of 5-D / 4-D inputs over D, H, W."""

    _get_no_batch_dim, _check_input_dim = _dims(3)


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """InstanceNorm3d with num_features from the first input."""

    cls_to_become = InstanceNorm3d
    _get_no_batch_dim, _check_input_dim = _dims(3)
