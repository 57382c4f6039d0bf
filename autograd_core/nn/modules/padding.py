"""Padding modules: constant, zero, reflection, replication and circular, 1-3 dims."""
from autograd_core.nn import functional as F
from autograd_core.nn.modules.module import Module
from autograd_core.nn.modules.utils import _ntuple, _pair, _quadruple

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d"]

_EXPAND = {1: _pair, 2: _quadruple, 3: _ntuple(6)}


class _PadNd(Module):
    mode = "constant"
    __constants__ = ["padding"]

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


def _pad_class(name, nd, mode, doc, check=False):
    def __init__(self, padding):
        _PadNd.__init__(self)
        self.padding = _EXPAND[nd](padding)

    namespace = {"__init__": __init__, "mode": mode, "__doc__": doc,
                 "__module__": __name__, "__qualname__": name}
    if check:
        def _check_input_dim(self, input):
            if input.dim() not in (nd + 1, nd + 2):
                raise ValueError(f"expected {nd + 1}D or {nd + 2}D input (got {input.dim()}D "
                                 "input)")

        def forward(self, input):
            self._check_input_dim(input)
            return F.pad(input, self.padding, self.mode)

        namespace["_check_input_dim"] = _check_input_dim
        namespace["forward"] = forward
    return type(name, (_PadNd,), namespace)


CircularPad1d = _pad_class("CircularPad1d", 1, "circular", "Circular padding of the last dim.",
                           True)
CircularPad2d = _pad_class("CircularPad2d", 2, "circular",
                           "Circular padding of the last 2 dims.", True)
CircularPad3d = _pad_class("CircularPad3d", 3, "circular",
                           "Circular padding of the last 3 dims.", True)
ReflectionPad1d = _pad_class("ReflectionPad1d", 1, "reflect",
                             "Reflection padding of the last dim.")
ReflectionPad2d = _pad_class("ReflectionPad2d", 2, "reflect",
                             "Reflection padding of the last 2 dims.")
ReflectionPad3d = _pad_class("ReflectionPad3d", 3, "reflect",
                             "Reflection padding of the last 3 dims.")
ReplicationPad1d = _pad_class("ReplicationPad1d", 1, "replicate",
                              "Edge-replicating padding of the last dim.")
ReplicationPad2d = _pad_class("ReplicationPad2d", 2, "replicate",
                              "Edge-replicating padding of the last 2 dims.")
ReplicationPad3d = _pad_class("ReplicationPad3d", 3, "replicate",
                              "Edge-replicating padding of the last 3 dims.")


class _ConstantPadNd(Module):
    __constants__ = ["padding", "value"]

    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with a constant."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _pair(padding)


class ConstantPad2d(_ConstantPadNd):
    """Pad the last 2 dims with a constant."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _quadruple(padding)


class ConstantPad3d(_ConstantPadNd):
    """Pad the last 3 dims with a constant."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple(6)(padding)


class ZeroPad1d(ConstantPad1d):
    """Pad the last dim with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pad the last 2 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    """Pad the last 3 dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"
