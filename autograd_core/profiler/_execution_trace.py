"""PyTorch's Execution Trace observer (torch.profiler.ExecutionTraceObserver): a JSON
graph of the ops a program ran, with their arguments and results, in Chakra's schema.

Note [Execution trace]
The observer sees ATen ops through a Python op hook (Note [Op hook] in
autograd_core/_core/_profiler.pxi): name, arguments and result of every op called
through the op table, so nothing is paid while no trace runs. record_function scopes
(and the profiler's ProfilerStep#N) reach it through record_function itself
(autograd_core/autograd/profiler.py asks _EXECUTION_TRACE[0]). Nodes nest by the stack of open
nodes on the thread that started the trace (ctrl_deps is the enclosing node's id) under
PyTorch's two root nodes ("[pytorch|profiler|execution_trace|process]" and
"...|thread]"), and are written in the order they end (children before parents), as
PyTorch's observer writes them.
Differences from PyTorch's file, by construction: the factories (torch.ones, full,
randn, ...) are Python functions here, not ops of the op table, and have no node; ops a kernel runs inside an op (the
views and copies PyTorch's kernels dispatch: aten::to, aten::as_strided,
aten::resolve_conj, ...) are not ops here and have no node; the autograd engine's
per-node ranges ("autograd::engine::evaluate_function: MulBackward0", "MulBackward0")
are the profiler recorder's and not seen by op hooks, so the ops a backward pass runs
hang under the thread node; op_schema holds the overload's qualified name
("aten::mul.Tensor"), not the full signature (this library carries no schema text);
only the thread that started the trace is traced.
"""
import gzip
import json
import os
import sys
import tempfile
import threading
import time
from warnings import warn

from autograd_core._core import tensor as _core
from autograd_core._core.dtype import CPP_NAMES as _CPP_NAMES, dtype_by_name as _dtype_by_name
from autograd_core.autograd.profiler import _EXECUTION_TRACE
from autograd_core.profiler.profiler import _ITraceObserver

__all__ = ["ExecutionTraceObserver"]

_SCHEMA = "1.1.1-chakra.0.0.4"
_PROCESS = "[pytorch|profiler|execution_trace|process]"
_THREAD = "[pytorch|profiler|execution_trace|thread]"
_SCOPE_FUNCTION, _SCOPE_USER = 0, 7

# The running trace (one per process, as PyTorch's observer): record_function asks it.
_RUNNING = _EXECUTION_TRACE

# ScalarType numbers (a dtype argument's value); c10's C type names (Tensor(<name>)) are
# the core's (autograd_core._core.dtype.CPP_NAMES)
_SCALAR_TYPE = {"uint8": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "float16": 5,
                "float32": 6, "float64": 7, "complex64": 9, "complex128": 10,
                "bool": 11, "bfloat16": 15}
_MEMORY_FORMAT = {"contiguous_format": 0, "preserve_format": 1, "channels_last": 2,
                  "channels_last_3d": 3}

# ops whose schema returns Tensor[] (one list output), not a tuple of Tensors
_LIST_RESULT = {"aten::" + n for n in (
    "split", "split_with_sizes", "chunk", "unbind", "tensor_split", "unsafe_split",
    "unsafe_split_with_sizes", "unsafe_chunk", "hsplit", "vsplit", "dsplit", "meshgrid",
    "broadcast_tensors", "atleast_1d", "atleast_2d", "atleast_3d")}


def _now_ms():
    return time.monotonic_ns() // 1000000


def _dtype_key(dtype):
    return str(dtype).rpartition(".")[2]


class _Trace:
    """The nodes of one registered observer, and the op hook that records them."""

    def __init__(self, path):
        self.path = path
        self.nodes = []
        self.next_id = 3        # 1 and 2 are the process and thread nodes
        self.rf_id = 0
        self.thread_node = None
        self.stack = []
        self.pending_seq = []   # nodes waiting for the next sequence number
        self.thread = None
        self.ids = {}           # id() of a tensor or storage -> its id in the trace
        self.start_ts = _now_ms()

    def _new_id(self):
        self.next_id += 1
        return self.next_id - 1

    # -- values ----------------------------------------------------------------

    def _tensor(self, t, ids):
        key = id(t)
        if key not in ids:
            ids[key] = self._new_id()
        root = t._base if t._base is not None else t
        skey = ("s", id(root))
        if skey not in ids:
            ids[skey] = self._new_id()
        value = [ids[key], ids[skey], t.storage_offset(), t.numel(), t.element_size(),
                 "cpu"]
        return (value, list(t.shape), list(t.stride()),
                "Tensor(" + _CPP_NAMES[t.dtype.name] + ")")

    def _scalar_tensor(self, v):
        # a Python number where the schema takes a Tensor: PyTorch wraps it in a
        # 0-dim tensor (a "wrapped number") before the op sees it
        name = ("bool" if isinstance(v, bool) else "int64" if isinstance(v, int) else
                "complex128" if isinstance(v, complex) else "float64")
        size = _dtype_by_name(name).itemsize
        return ([self._new_id(), self._new_id(), 0, 1, size, "cpu"], [], [],
                "Tensor(" + _CPP_NAMES[name] + ")")

    def _encode(self, v, ids):
        """(value, shape, stride, type) of one argument or result, as PyTorch writes it."""
        import autograd_core as torch
        if isinstance(v, torch.Tensor):
            return self._tensor(v, ids)
        if v is None:
            return "<None>", [], [], "None"
        if isinstance(v, bool):
            return v, [], [], "Bool"
        if isinstance(v, int):
            return v, [], [], "Int"
        if isinstance(v, float):
            return v, [], [], "Double"
        if isinstance(v, str):
            return v, [], [], "String"
        if isinstance(v, torch.dtype):
            return _SCALAR_TYPE.get(_dtype_key(v), -1), [], [], "Int"
        if isinstance(v, torch.device):
            return str(v), [], [], "Device"
        if isinstance(v, torch.layout):
            return 0, [], [], "Int"
        if isinstance(v, torch.memory_format):
            return _MEMORY_FORMAT.get(str(v).rpartition(".")[2], 0), [], [], "Int"
        if isinstance(v, (list, tuple)):
            parts = [self._encode(x, ids) for x in v]
            return ([p[0] for p in parts], [p[1] for p in parts], [p[2] for p in parts],
                    "GenericList[" + ",".join(p[3] for p in parts) + "]")
        return str(v), [], [], type(v).__name__

    def _io(self, values, wrap_at=None):
        ids = self.ids
        out = {"values": [], "shapes": [], "types": [], "strides": []}
        for i, v in enumerate(values):
            if i == wrap_at and isinstance(v, (int, float, complex)):
                value, shape, stride, typ = self._scalar_tensor(v)
            else:
                value, shape, stride, typ = self._encode(v, ids)
            out["values"].append(value)
            out["shapes"].append(shape)
            out["types"].append(typ)
            out["strides"].append(stride)
        return out

    # -- nodes -----------------------------------------------------------------

    def _open(self, name, inputs, scope, schema):
        if self.thread_node is None:
            self.thread_node = self._node(2, _THREAD, 1, _io_empty(), _io_empty(),
                                          0, _SCOPE_USER, 1, "")
            self.nodes.append(self.thread_node)
        parent = self.stack[-1]["id"] if self.stack else 2
        self.rf_id += 1
        node = self._node(self._new_id(), name, parent, inputs, _io_empty(), self.rf_id,
                          scope, 1, schema)
        self.stack.append(node)
        return node

    @staticmethod
    def _node(nid, name, parent, inputs, outputs, rf_id, scope, tid, schema, seq=-1):
        return {"id": nid, "name": name, "ctrl_deps": parent, "inputs": inputs,
                "outputs": outputs,
                "attrs": [{"name": "rf_id", "type": "uint64", "value": rf_id},
                          {"name": "fw_parent", "type": "uint64", "value": 0},
                          {"name": "seq_id", "type": "int64", "value": seq},
                          {"name": "scope", "type": "uint64", "value": scope},
                          {"name": "tid", "type": "uint64", "value": tid},
                          {"name": "fw_tid", "type": "uint64", "value": 0},
                          {"name": "op_schema", "type": "string", "value": schema},
                          {"name": "kernel_backend", "type": "string", "value": ""},
                          {"name": "kernel_file", "type": "string", "value": ""},
                          {"name": "tensor_range", "type": "string", "value": ""}]}

    def _close(self, node):
        # a node still open below this one (its end was not seen) ends with it
        while self.stack:
            top = self.stack.pop()
            if top is node:
                break
        self.nodes.append(node)

    # the op hook (Note [Op hook])
    def op_enter(self, name, args):
        from autograd_core._ops import overload_for
        try:
            overload = overload_for(name, args)
            schema = str(overload._schema)
            wrap = 1 if overload._overloadname == "Tensor" else None
        except Exception:
            schema, wrap = "", None
        node = self._open(name, self._io(args, wrap), _SCOPE_FUNCTION, schema)
        node["_in_grad_fns"] = {id(a.grad_fn) for a in args
                                if getattr(a, "grad_fn", None) is not None}
        node["_grad_mode"] = _grad_enabled()
        return node

    def op_exit(self, node, result):
        in_fns = node.pop("_in_grad_fns")
        grad_mode = node.pop("_grad_mode")
        if result is None:      # the op raised: PyTorch writes no node for it
            while self.stack and self.stack.pop() is not node:
                pass
            return
        if isinstance(result, (tuple, list)) and node["name"] not in _LIST_RESULT:
            outs = list(result)     # a tuple of results: one output each
        else:
            outs = [result]         # Tensor[]: one list output
        node["outputs"] = self._io(outs)
        first = outs[0] if outs else None
        if isinstance(first, (tuple, list)):
            first = first[0] if first else None
        fn = getattr(first, "grad_fn", None)
        if fn is not None and id(fn) not in in_fns:
            # the op recorded a backward node: its sequence number pairs the two. An op
            # run in grad mode carries the number the next node will get (PyTorch peeks
            # the counter); that is the number of the next node an op records.
            seq = fn._sequence_nr()
            node["attrs"][2]["value"] = seq
            for waiting in self.pending_seq:
                waiting["attrs"][2]["value"] = seq
            self.pending_seq.clear()
        elif grad_mode:
            self.pending_seq.append(node)
        self._close(node)

    def scope_enter(self, name):
        if threading.get_ident() != self.thread:
            return None
        return self._open(name, _io_empty(), _SCOPE_USER, "")

    def scope_exit(self, node):
        if any(open_node is node for open_node in self.stack):
            self._close(node)

    def start(self):
        self.thread = threading.get_ident()
        _core._push_op_hook(self)

    def stop(self):
        _core._pop_op_hook(self)
        self.stack.clear()
        self.pending_seq.clear()

    def write(self):
        process = self._node(1, _PROCESS, 1, _io_empty(), _io_empty(), 0, _SCOPE_USER, 0, "")
        doc = {"schema": _SCHEMA, "pid": os.getpid(),
               "time": time.strftime("%Y-%m-%d %H:%M:%S"), "start_ts": self.start_ts,
               "nodes": self.nodes + [process], "finish_ts": _now_ms()}
        with open(self.path, "w") as f:
            json.dump(doc, f)


# The process's registered trace (PyTorch keeps one execution trace observer per
# process: observers registered while one is share it, and unregistering any ends it).
_OBSERVER = [None]


def _add_observer(path):
    if _OBSERVER[0] is not None:
        return True
    try:
        # the file is made now, as PyTorch's observer opens it on registering
        open(path, "w").close()
    except OSError:
        sys.stderr.write(f"Failed to open '{path}'\n")     # PyTorch logs it too
        return False
    _OBSERVER[0] = _Trace(path)
    return True


def _disable():
    trace = _RUNNING[0]
    if trace is not None:
        _RUNNING[0] = None
        trace.stop()


def _remove_observer():
    trace = _OBSERVER[0]
    if trace is None:
        return
    if _RUNNING[0] is trace:
        _disable()
    _OBSERVER[0] = None
    trace.write()


def _grad_enabled():
    import autograd_core
    return autograd_core.is_grad_enabled()


def _io_empty():
    return {"values": [], "shapes": [], "types": [], "strides": []}


class ExecutionTraceObserver(_ITraceObserver):
    """Records an Execution Trace: every op the program runs, with its arguments,
    results and the record_function scope it ran in, as Chakra JSON (PyTorch's
    torch.profiler.ExecutionTraceObserver; Note [Execution trace]).

    register_callback(path) attaches the observer (the file is written when it is
    detached by unregister_callback(), cleanup() or its deletion); start() and stop()
    control when ops are recorded. torch.profiler.profile(execution_trace_observer=obs)
    starts and stops it with its schedule's recording steps and cleans it up at exit.

    >>> import json, os, tempfile
    >>> import autograd_core as torch
    >>> from autograd_core.profiler import ExecutionTraceObserver
    >>> path = os.path.join(tempfile.mkdtemp(), "trace.json")
    >>> a, b = torch.ones(2, 3), torch.ones(3, 1)
    >>> obs = ExecutionTraceObserver().register_callback(path)
    >>> obs.start()
    >>> with torch.profiler.record_function("block"):
    ...     y = (a @ b).relu()
    >>> obs.stop()
    >>> obs.unregister_callback()
    >>> [(n["name"], n["inputs"]["shapes"]) for n in json.load(open(path))["nodes"]]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('[pytorch|profiler|execution_trace|thread]', []), ('aten::mm', [[2, 3], [3, 1]]),
     ('aten::matmul', [[2, 3], [3, 1]]), ('aten::relu', [[2, 1]]), ('block', []),
     ('[pytorch|profiler|execution_trace|process]', [])]
    """

    def __init__(self):
        self._registered = False
        self._execution_trace_running = False
        self.extra_resources_collection = False
        self.resources_dir = ""
        self.output_file_path = ""
        self.output_file_path_observer = ""

    def __del__(self):
        self.unregister_callback()

    @staticmethod
    def build_execution_trace_obs_from_env():
        """An observer registered on a new temporary ``.et.json`` file when the
        environment variable ENABLE_PYTORCH_EXECUTION_TRACE is 1, else None
        (ENABLE_PYTORCH_EXECUTION_TRACE_EXTRAS=1 also collects extra resources).

        >>> from autograd_core.profiler import ExecutionTraceObserver
        >>> import os; os.environ.pop("ENABLE_PYTORCH_EXECUTION_TRACE", None)
        >>> ExecutionTraceObserver.build_execution_trace_obs_from_env() is None
        True
        """
        if os.environ.get("ENABLE_PYTORCH_EXECUTION_TRACE", "0") != "1":
            return None
        try:
            with tempfile.NamedTemporaryFile("w+t", suffix=".et.json", delete=False) as fp:
                filename = fp.name
        except Exception as e:
            warn("Execution trace will not be recorded. Exception on creating default "
                 f"temporary file: {e}", stacklevel=2)
            return None
        et = ExecutionTraceObserver()
        et.register_callback(filename)
        et.set_extra_resource_collection(
            os.environ.get("ENABLE_PYTORCH_EXECUTION_TRACE_EXTRAS", "0") == "1")
        return et

    def set_extra_resource_collection(self, val):
        """Whether to collect the extra resources a replay needs (a ``<trace>_resources``
        directory beside the trace; this library generates no kernels to put there)."""
        self.extra_resources_collection = val
        if self.extra_resources_collection:
            self.get_resources_dir(can_create=True)

    def register_callback(self, output_file_path):
        """Attach the observer; the trace goes to output_file_path (gzipped if it ends
        in ``.gz``). Returns the observer. Registering again before unregistering does
        nothing; while another observer is registered, this one shares its trace (the
        trace is the process's, as PyTorch's)."""
        if not self._registered:
            self.output_file_path = output_file_path
            if output_file_path.endswith(".gz"):
                with tempfile.NamedTemporaryFile("w+b", suffix=".json", delete=False) as fp:
                    output_file_path = fp.name
            self.output_file_path_observer = output_file_path
            self._registered = _add_observer(output_file_path)
        return self

    def get_resources_dir(self, can_create=False):
        """The resources directory (see set_extra_resource_collection), or None."""
        if not self.extra_resources_collection:
            return None
        if self.resources_dir:
            return self.resources_dir
        path = ExecutionTraceObserver.get_resources_dir_for_et_path(
            self.output_file_path, create_dir=can_create)
        if not path:
            return None
        self.resources_dir = path
        return path

    @staticmethod
    def get_resources_dir_for_et_path(trace_path, create_dir=False):
        """``<dir>/<trace name without extension>_resources`` if it exists (or is created
        with create_dir), else None."""
        work_dir, file_name = os.path.split(trace_path)
        resource_dir = os.path.join(work_dir, os.path.splitext(file_name)[0] + "_resources")
        if not os.path.exists(resource_dir):
            if not create_dir:
                return None
            try:
                os.mkdir(resource_dir)
            except Exception:
                warn(f"Execution trace exception when creating {resource_dir}",
                     stacklevel=2)
                return None
        return resource_dir

    def unregister_callback(self):
        """Detach the process's trace (stopping it) and write its file."""
        if not getattr(self, "_registered", False):
            return
        self.stop()
        _remove_observer()
        if self.output_file_path.endswith("gz"):
            print(f"Execution Trace: compressing {self.output_file_path_observer} "
                  f"to {self.output_file_path}")
            with open(self.output_file_path_observer, "rb") as fin:
                with gzip.open(self.output_file_path, "wb") as fout:
                    fout.writelines(fin)
            os.remove(self.output_file_path_observer)
        self._registered = False

    @property
    def is_registered(self):
        """Whether the observer is registered."""
        return self._registered

    def is_running(self):
        """Whether the observer is recording (between start() and stop())."""
        return self._execution_trace_running

    def start(self):
        """Start recording (only once registered; a no-op while recording)."""
        if self._registered and not self._execution_trace_running:
            trace = _OBSERVER[0]
            if trace is not None and _RUNNING[0] is None:
                trace.start()
                _RUNNING[0] = trace
            self._execution_trace_running = True

    def stop(self):
        """Stop recording."""
        if self._execution_trace_running:
            _disable()
            self._execution_trace_running = False

    def cleanup(self):
        """unregister_callback(): finish the trace file."""
        self.unregister_callback()

    def get_output_file_path(self):
        """The trace file's path, or None before register_callback."""
        return self.output_file_path or None
