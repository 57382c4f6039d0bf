"""Tensors in shared memory, and how they cross process boundaries.

Note [Shared tensors]
~~~~~~~~~~~~~~~~~~~~~
A tensor's values are one numpy array (``_data``); a view's array is a numpy view of its
base's. ``share_memory_()`` copies the values into a new buffer mapped with
``MAP_SHARED`` (an anonymous file in ``/dev/shm`` for the ``file_descriptor`` strategy,
a named one for ``file_system``) and rebinds the tensor's array to it. The tensor
objects have no list of their views, so a view taken *before* the call keeps the old
memory: that is why ``share_memory_()`` refuses a view (share the base, then take the
views, as ``Module.share_memory()`` does right after construction) and is a no-op on a
tensor already shared. Views taken afterwards, and the arrays ``numpy()`` returns, are
windows on the shared buffer and so are shared too: ``is_shared()`` walks the array's
base chain to a ``_SharedMap``.

Pickled by ``multiprocessing``'s ``ForkingPickler`` (queues, pipes, the arguments of a
process started with ``spawn``/``forkserver``), a shared tensor travels as a handle to
its buffer (a duplicated file descriptor, or the file's name) plus offset, shape,
strides and dtype; the receiver maps the same pages, so writes on either side are seen
by the other (Hogwild!). A tensor not yet shared is copied once into a new shared buffer
and that copy is sent (the sender's tensor is left where it is, so its views stay
valid); call ``share_memory_()`` first when the sender must see the receiver's writes.
"""
import atexit
import mmap
import os
import sys
import tempfile
import threading
import uuid
import weakref
from multiprocessing import context as _mp_context
from multiprocessing import reduction as _mp_reduction
from multiprocessing.reduction import ForkingPickler

import numpy as np

from autograd_core._core import tensor as _core
from autograd_core._core.tensor import array_of as _array_of
from autograd_core._core.tensor import from_array as _from_array

if sys.platform in ("darwin", "win32"):
    _all_sharing_strategies = {"file_system"}
    _sharing_strategy = "file_system"
else:
    _all_sharing_strategies = {"file_descriptor", "file_system"}
    _sharing_strategy = "file_descriptor"


def set_sharing_strategy(new_strategy):
    """Set how tensors are shared between processes (one of
    ``get_all_sharing_strategies()``).

    >>> import autograd_core.multiprocessing as mp
    >>> old = mp.get_sharing_strategy()
    >>> mp.set_sharing_strategy("file_system")
    >>> mp.get_sharing_strategy()
    'file_system'
    >>> mp.set_sharing_strategy(old)
    """
    global _sharing_strategy
    if new_strategy not in _all_sharing_strategies:
        raise AssertionError(f"invalid sharing strategy {new_strategy!r}, "
                             f"expected one of {_all_sharing_strategies}")
    _sharing_strategy = new_strategy


def get_sharing_strategy():
    """The current strategy for sharing CPU tensors ("file_descriptor" on Linux)."""
    return _sharing_strategy


def get_all_sharing_strategies():
    """The set of sharing strategies this system supports."""
    return set(_all_sharing_strategies)


def _shm_dir():
    return "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()


class _SharedMap(mmap.mmap):
    """A shared mapping, with what a receiver needs to map it again: ``fd`` (an open
    descriptor of the file, file_descriptor strategy) or ``path`` (file_system)."""

    # mmap's constructor takes the mapping's arguments; the attributes are set after.
    fd = None
    path = None
    address = 0

    def _describe(self):
        self.address = np.frombuffer(self, np.uint8).__array_interface__["data"][0] \
            if len(self) else 0
        return self


# Files created by this process under the file_system strategy, removed at its exit.
_owned_files = set()
_owned_lock = threading.Lock()


@atexit.register
def _remove_owned_files():
    for path in list(_owned_files):
        try:
            os.unlink(path)
        except OSError:
            pass
    _owned_files.clear()


def _close_fd(fd):
    try:
        os.close(fd)
    except OSError:
        pass


def _new_shared_map(nbytes):
    size = max(int(nbytes), 1)  # mmap refuses an empty mapping
    path = os.path.join(_shm_dir(), f"autograd_core_{os.getpid()}_{uuid.uuid4().hex}")
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.ftruncate(fd, size)
        m = _SharedMap(fd, size)
    except BaseException:
        os.close(fd)
        os.unlink(path)
        raise
    if _sharing_strategy == "file_descriptor":
        # The file is anonymous from now on: it lives while a descriptor or a mapping
        # of it does, in whichever process.
        os.unlink(path)
        m.fd = fd
        weakref.finalize(m, _close_fd, fd)
    else:
        os.close(fd)
        m.path = path
        with _owned_lock:
            _owned_files.add(path)
    return m._describe()


def _open_shared_map(fd=None, path=None, size=0):
    if fd is not None:
        m = _SharedMap(fd, size)
        m.fd = fd
        weakref.finalize(m, _close_fd, fd)
    else:
        f = os.open(path, os.O_RDWR)
        try:
            m = _SharedMap(f, size)
        finally:
            os.close(f)
        m.path = path
    return m._describe()


def _shared_map_of(arr):
    """The _SharedMap an array's memory lies in, or None."""
    base = arr
    while base is not None:
        if isinstance(base, _SharedMap):
            return base
        if isinstance(base, memoryview):
            base = base.obj
        else:
            base = getattr(base, "base", None)
    return None


def _array_in(m, dtype, shape, strides, offset):
    return np.ndarray(shape, dtype=dtype, buffer=m, offset=offset, strides=strides)


def _shared_copy(arr):
    """A new array in a new shared buffer holding arr's values, laid out as arr
    (its strides kept when arr is dense, C order otherwise)."""
    m = _new_shared_map(arr.nbytes)
    order = "F" if (arr.flags.f_contiguous and not arr.flags.c_contiguous) else "C"
    out = np.ndarray(arr.shape, dtype=arr.dtype, buffer=m, order=order)
    np.copyto(out, arr, casting="no")
    return out


def share_memory_(self):
    """Move this tensor's values to shared memory (no-op if they are there already) and
    return the tensor. A tensor in shared memory sent to another process (a queue, the
    arguments of a child process) is seen by both: writes on either side show in the
    other. Views must be taken after the call (Note [Shared tensors]); a view itself is
    refused.

    >>> import autograd_core as torch
    >>> t = torch.zeros(3)
    >>> t.is_shared()
    False
    >>> t.share_memory_().is_shared()
    True
    >>> t.add_(1)
    tensor([1., 1., 1.])
    """
    arr = _array_of(self)
    if _shared_map_of(arr) is not None:
        return self
    if self._base is not None:
        raise RuntimeError(
            "share_memory_(): this tensor is a view; views do not follow a storage moved "
            "under them here, so call share_memory_() on its base before taking views")
    new = _shared_copy(arr)
    # Rebinding through .data keeps the tensor's version counter and autograd identity.
    self.data = _from_array(new)
    return self


def is_shared(self):
    """Whether the tensor's values are in shared memory (after ``share_memory_()``, or
    received from another process).

    >>> import autograd_core as torch
    >>> torch.ones(2).is_shared()
    False
    """
    return _shared_map_of(_array_of(self)) is not None


def _is_fresh_fd(dupfd):
    from multiprocessing import resource_sharer
    return isinstance(dupfd, resource_sharer.DupFd)


def _handle_of(m):
    popen = _mp_context.get_spawning_popen()
    if popen is not None:
        # Pickled for a child being started: its descriptor must stay open until the
        # child is (the popen passes descriptor numbers), so the popen keeps the mapping.
        keep = popen.__dict__.setdefault("_autograd_core_shared", [])
        keep.append(m)
    if m.fd is not None:
        return ("fd", _mp_reduction.DupFd(m.fd), len(m))
    return ("file", m.path, len(m))


def _rebuild_tensor(cls, handle, dtype, shape, strides, offset, requires_grad):
    kind, what, size = handle
    if kind == "fd":
        fd = what.detach()
        if not _is_fresh_fd(what):
            # a descriptor inherited from the spawning parent: several tensors may name
            # it, so this mapping owns a duplicate of its own
            fd = os.dup(fd)
        m = _open_shared_map(fd=fd, size=size)
    else:
        m = _open_shared_map(path=what, size=size)
    arr = _array_in(m, dtype, shape, strides, offset)
    t = _from_array(arr)
    if cls is not _core.Tensor:
        t = cls(t, requires_grad) if _is_parameter_class(cls) else t.as_subclass(cls)
    if requires_grad and not t.requires_grad:
        t.requires_grad_(True)
    return t


def _is_parameter_class(cls):
    from autograd_core.nn.parameter import Parameter
    return issubclass(cls, Parameter)


def reduce_tensor(tensor):
    """ForkingPickler's reducer for tensors: a handle to shared memory, not a copy of
    the values (Note [Shared tensors])."""
    if tensor.requires_grad and not tensor.is_leaf:
        raise RuntimeError(
            "Cowardly refusing to serialize non-leaf tensor which requires_grad, "
            "since autograd does not support crossing process boundaries.  "
            "If you just want to transfer the data, call detach() on the tensor "
            "before serializing (e.g., putting it on the queue).")
    arr = _array_of(tensor)
    m = _shared_map_of(arr)
    if m is None:
        arr = _shared_copy(arr)
        m = _shared_map_of(arr)
    offset = arr.__array_interface__["data"][0] - m.address
    return (_rebuild_tensor, (type(tensor), _handle_of(m), arr.dtype, arr.shape,
                              arr.strides, offset, tensor.requires_grad))


def init_reductions():
    """Register the tensor reducer with multiprocessing's ForkingPickler."""
    from autograd_core.nn.parameter import Parameter
    ForkingPickler.register(_core.Tensor, reduce_tensor)
    ForkingPickler.register(Parameter, reduce_tensor)
    _core._install_methods({"share_memory_": share_memory_, "is_shared": is_shared})


__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies",
           "init_reductions", "reduce_tensor"]
