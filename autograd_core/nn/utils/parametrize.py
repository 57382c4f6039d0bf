"""``torch.nn.utils.parametrize``: express a parameter or buffer of a module as a function
of other tensors.

After ``register_parametrization(module, "weight", f)``, reading ``module.weight`` computes
``f(original)``, where ``original`` (a parameter when the weight was one) lives in
``module.parametrizations.weight.original``; gradients flow through ``f`` into it.

>>> import autograd_core as torch
>>> import autograd_core.nn.utils.parametrize as P
>>> class Symmetric(torch.nn.Module):
...     def forward(self, X):
...         return X.triu() + X.triu(1).mT
>>> m = P.register_parametrization(torch.nn.Linear(3, 3), "weight", Symmetric())
>>> torch.equal(m.weight, m.weight.T)
True
>>> type(m).__name__, P.type_before_parametrizations(m).__name__
('ParametrizedLinear', 'Linear')
>>> sorted(m.state_dict())
['bias', 'parametrizations.weight.original']

Note [Parametrized class swap]: the first parametrization registered on a module replaces
the module's class by a fresh subclass ``Parametrized<Name>`` (as PyTorch does), and each
parametrized tensor becomes a property of that subclass, so ``module.weight`` is computed
on access while parameters, buffers and the ``parametrizations`` ModuleDict stay ordinary
Module state.  ``remove_parametrizations`` deletes the property and, once nothing is
parametrized, restores the original class (the subclass's only base).
"""
import collections.abc
import copy
import copyreg
from contextlib import contextmanager

import autograd_core as _ag
from autograd_core.nn.modules.container import ModuleDict, ModuleList
from autograd_core.nn.modules.module import Module
from autograd_core.nn.parameter import Parameter

__all__ = [
    "cached", "ParametrizationList", "register_parametrization", "is_parametrized",
    "remove_parametrizations", "type_before_parametrizations",
    "transfer_parametrizations_and_params",
]

# depth of nested cached() contexts, and the values computed inside them, keyed by
# (id(module), tensor name)
_cache_enabled = 0
_cache = {}


@contextmanager
def cached():
    """Inside this context each parametrized tensor is computed once, on its first access,
    and reused until the (outermost) context exits: useful when a forward reads the same
    parametrized weight several times (an RNN's recurrent kernel, shared weights).

    >>> import autograd_core as torch
    >>> import autograd_core.nn.utils.parametrize as P
    >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
    >>> with P.cached():
    ...     m.weight is m.weight
    True
    >>> m.weight is m.weight
    False
    """
    global _cache, _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module, name, X):
    if isinstance(X, Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


def _set_in_place(dest, src):
    # the original tensor keeps its identity (optimizers hold it) and takes src's data
    dest.set_(src)


class ParametrizationList(ModuleList):
    """The list of parametrizations of one tensor, ``module.parametrizations[name]``,
    holding the unparametrized tensor as ``original`` (or ``original0``,
    ``original1``, ... when the first parametrization's ``right_inverse`` returns a
    sequence).  Made by :func:`register_parametrization`, not by hand.

    >>> import autograd_core as torch
    >>> import autograd_core.nn.utils.parametrize as P
    >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
    >>> plist = m.parametrizations.weight
    >>> type(plist).__name__, plist.original0.shape, plist.original1.shape
    ('ParametrizationList', autograd_core.Size([2, 1]), autograd_core.Size([2, 3]))
    """

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe

        # The invariants: with X = module.weight, Y = right_inverse(X) and Z = f(Y),
        # Z has X's dtype and shape (unless unsafe), and a single Y has X's dtype (so
        # that set_ can move it into X, keeping the id an optimizer tracks).
        original_shape = original.shape
        original_dtype = original.dtype
        with _ag.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
                # no right_inverse (or a NotImplementedError): taken as the identity

        if not isinstance(new, _ag.Tensor) and not isinstance(new, collections.abc.Sequence):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, "
                f"tuple...). Got {type(new).__name__}")

        self.is_tensor = isinstance(new, _ag.Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)

        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\n"
                    f"right_inverse(original).dtype: {new.dtype}")
            if original.device != new.device:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the device.\n"
                    f"original.device: {original.device}\n"
                    f"right_inverse(original).device: {new.device}")
            with _ag.no_grad():
                _set_in_place(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, _ag.Tensor):
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors "
                        "(list, tuple...). "
                        f"Got element {i} of the sequence with type {type(originali).__name__}.")
                # new tensors: the user adds them to the optimizer after registering
                if isinstance(original, Parameter):
                    originali = Parameter(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)

        if not self.unsafe:
            Z = self()
            if not isinstance(Z, _ag.Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(Z).__name__}.")
            if Z.dtype != original_dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized dtype: {original_dtype}\n"
                    f"parametrized dtype: {Z.dtype}")
            if Z.shape != original_shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized shape: {original_shape}\n"
                    f"parametrized shape: {Z.shape}")

    def right_inverse(self, value):
        """Run the parametrizations' ``right_inverse`` in reverse registration order on
        value and store the result in ``original`` (or ``original0``, ``original1``, ...):
        this is what assigning ``module.weight = value`` does."""
        with _ag.no_grad():
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError(f"parametrization {type(module).__name__} does not "
                                       "implement right_inverse.")
            if self.is_tensor:
                if not isinstance(value, _ag.Tensor):
                    raise ValueError(
                        f"`right_inverse` should return a tensor. Got {type(value).__name__}")
                if value.dtype != self.original.dtype:
                    raise ValueError(
                        f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                        f"while `original` has dtype {self.original.dtype}")
                _set_in_place(self.original, value)
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise ValueError("'right_inverse' must return a sequence of tensors. "
                                     f"Got {type(value).__name__}.")
                if len(value) != self.ntensors:
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors of length "
                        f"{self.ntensors}. Got a sequence of length {len(value)}.")
                for i, tensor in enumerate(value):
                    original_i = getattr(self, f"original{i}")
                    if not isinstance(tensor, _ag.Tensor):
                        raise ValueError(
                            "'right_inverse' must return a sequence of tensors or "
                            f"reference-type opaques. Got element {i} of type "
                            f"{type(tensor).__name__}.")
                    if original_i.dtype != tensor.dtype:
                        raise ValueError(
                            f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} "
                            f"while `original{i}` has dtype {original_i.dtype}")
                    _set_in_place(original_i, tensor)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        # the parametrizations are the integer-named submodules, in order
        i = 1
        while hasattr(self, str(i)):
            x = self[i](x)
            i += 1
        return x


def _inject_new_class(module):
    """Note [Parametrized class swap]: module's class becomes a new subclass of it."""
    cls = module.__class__

    def default_deepcopy(self, memo):
        # what deepcopy does without __deepcopy__ (the __getstate__ below refuses)
        obj = memo.get(id(self), None)
        if obj is not None:
            return obj
        replica = self.__new__(self.__class__)
        memo[id(self)] = replica
        replica.__dict__ = copy.deepcopy(self.__dict__, memo)
        for slot in copyreg._slotnames(self.__class__):
            if hasattr(self, slot):
                setattr(replica, slot, copy.deepcopy(getattr(self, slot), memo))
        return replica

    def getstate(self):
        raise RuntimeError(
            "Serialization of parametrized modules is only supported through state_dict(). "
            "See:\nhttps://pytorch.org/tutorials/beginner/saving_loading_models.html"
            "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")

    dct = {"__getstate__": getstate}
    if not hasattr(cls, "__deepcopy__"):
        dct["__deepcopy__"] = default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), dct)


def _inject_property(module, tensor_name):
    """module's (already swapped) class gets a property tensor_name computing the
    parametrization on read and running its right_inverse on assignment."""
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")

    def get_cached_parametrization(parametrization):
        key = (id(module), tensor_name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = parametrization()
            _cache[key] = tensor
        return tensor

    def get_parametrized(self):
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            return get_cached_parametrization(parametrization)
        return parametrization()

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Make ``module.<tensor_name>`` read as ``parametrization(original)``.

    The first parametrization of a parameter or buffer moves it to
    ``module.parametrizations[tensor_name].original`` (through ``parametrization.
    right_inverse`` if it has one; several tensors returned become ``original0``,
    ``original1``, ... and ``forward`` takes them all); later ones stack on top, applied
    in registration order.  Assigning ``module.<tensor_name> = X`` runs the
    ``right_inverse`` chain.  Unless ``unsafe=True``, the parametrization must keep the
    tensor's dtype and shape.  Returns module.

    >>> import autograd_core as torch
    >>> import autograd_core.nn.utils.parametrize as P
    >>> class Double(torch.nn.Module):
    ...     def forward(self, X):
    ...         return 2 * X
    ...     def right_inverse(self, A):
    ...         return A / 2
    >>> m = torch.nn.Linear(2, 2)
    >>> w = m.weight.detach().clone()
    >>> _ = P.register_parametrization(m, "weight", Double())
    >>> torch.allclose(m.weight, w), P.is_parametrized(m, "weight")
    (True, True)
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        # a further parametrization must map tensors of module.<name>'s dtype and shape
        # to tensors of the same (and so must its right_inverse)
        if not unsafe:
            Y = getattr(module, tensor_name)
            X = parametrization(Y)
            if not isinstance(X, _ag.Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(X).__name__}.")
            if X.dtype != Y.dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    "unless the `unsafe` flag is enabled.\n"
                    f"module.{tensor_name}.dtype: {Y.dtype}\n"
                    f"parametrization(module.{tensor_name}).dtype: {X.dtype}")
            if X.shape != Y.shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    "unless the `unsafe` flag is enabled.\n"
                    f"module.{tensor_name}.shape: {Y.shape}\n"
                    f"parametrization(module.{tensor_name}).shape: {X.shape}")
            if hasattr(parametrization, "right_inverse"):
                try:
                    Z = parametrization.right_inverse(X)
                except NotImplementedError:
                    pass
                else:
                    if not isinstance(Z, _ag.Tensor):
                        raise ValueError("parametrization.right_inverse must return a tensor. "
                                         f"Got: {type(Z).__name__}")
                    if Z.dtype != Y.dtype:
                        raise ValueError(
                            "The tensor returned by parametrization.right_inverse must have "
                            f"the same dtype as module.{tensor_name}, unless the `unsafe` "
                            "flag is enabled.\n"
                            f"module.{tensor_name}.dtype: {Y.dtype}\n"
                            f"returned dtype: {Z.dtype}")
                    if Z.shape != Y.shape:
                        raise ValueError(
                            "The tensor returned by parametrization.right_inverse must have "
                            f"the same shape as module.{tensor_name}, unless the `unsafe` "
                            "flag is enabled.\n"
                            f"module.{tensor_name}.shape: {Y.shape}\n"
                            f"returned shape: {Z.shape}")
        module.parametrizations[tensor_name].append(parametrization)
        # once unsafe, the list stays unsafe
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        # built first: it raises on a bad parametrization before the module changes
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    return module


def is_parametrized(module, tensor_name=None):
    """Whether module has a parametrization on tensor_name (on any tensor if None).

    >>> import autograd_core as torch
    >>> import autograd_core.nn.utils.parametrize as P
    >>> P.is_parametrized(torch.nn.Linear(2, 2))
    False
    """
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Undo the parametrizations of ``module.<tensor_name>``: the tensor becomes a plain
    parameter (or buffer) again, holding its current parametrized value if
    leave_parametrized, else the unparametrized ``original`` (possible only when the
    parametrization has one original tensor).  Returns module.

    >>> import autograd_core as torch
    >>> import autograd_core.nn.utils.parametrize as P
    >>> m = torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(3, 3))
    >>> m = P.remove_parametrizations(m, "weight")
    >>> type(m).__name__, sorted(m.state_dict())
    ('Linear', ['bias', 'weight'])
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with _ag.no_grad():
                t = getattr(module, tensor_name)
            # same dtype (checked at registration): the original keeps its identity
            with _ag.no_grad():
                _set_in_place(original, t)
    else:
        if leave_parametrized:
            # not under no_grad: whether an original requires grad decides the kind
            t = getattr(module, tensor_name)
            original = Parameter(t) if t.requires_grad else t
        else:
            raise ValueError(
                "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                "parametrized in terms of a sequence of tensors.")
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module):
    """module's class before any parametrization swapped it (Note [Parametrized class
    swap]); type(module) if it has none.

    >>> import autograd_core as torch
    >>> import autograd_core.nn.utils.parametrize as P
    >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
    >>> P.type_before_parametrizations(m).__name__
    'Linear'
    """
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Register from_module's parametrizations (of tensor_name, or of all its
    parametrized tensors) on to_module, creating missing parameters there, and make
    to_module's originals those of from_module.  Returns to_module.

    >>> import autograd_core as torch
    >>> import autograd_core.nn.utils.parametrize as P
    >>> a = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
    >>> b = P.transfer_parametrizations_and_params(a, torch.nn.Linear(2, 2))
    >>> torch.equal(a.weight, b.weight)
    True
    """
    if is_parametrized(from_module):
        names = from_module.parametrizations if tensor_name is None else [tensor_name]
        for name in names:
            if not hasattr(to_module, name):
                setattr(to_module, name, Parameter(getattr(from_module, name)))
            for param_func in from_module.parametrizations[name]:
                register_parametrization(to_module, name, param_func)
            source = from_module.parametrizations[name]
            target = to_module.parametrizations[name]
            if hasattr(source, "original"):
                target.original = source.original
            else:
                i = 0
                while hasattr(source, f"original{i}"):
                    setattr(target, f"original{i}", getattr(source, f"original{i}"))
                    i += 1
    return to_module
