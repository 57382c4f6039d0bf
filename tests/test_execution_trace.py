"""torch.profiler.ExecutionTraceObserver against PyTorch's: the same program traced under
both, comparing the JSON's structure (root nodes, op node names and their nesting under
record_function scopes, inputs/outputs shapes, strides and types, attrs), the
observer's lifecycle and its use by torch.profiler.profile with a schedule. Ids, pids
and timestamps are not compared.

PyTorch's trace has nodes this library has no counterpart for (Note [Execution trace]
in autograd_core/profiler/_execution_trace.py): the ops its kernels dispatch inside an
op (aten::to, aten::resolve_conj, aten::empty_strided, ...) and the autograd engine's
ranges around each backward node. Comparisons take PyTorch's tree with those removed
(an op's parent is then its nearest kept ancestor)."""
import gzip
import json
import os

import pytest
import torch

import autograd_core
from _diff import same

ROOTS = ("[pytorch|profiler|execution_trace|process]",
         "[pytorch|profiler|execution_trace|thread]")
ATTRS = ["rf_id", "fw_parent", "seq_id", "scope", "tid", "fw_tid", "op_schema",
         "kernel_backend", "kernel_file", "tensor_range"]
HEADER = ["finish_ts", "nodes", "pid", "schema", "start_ts", "time"]


def _attr(node, name):
    return next(a["value"] for a in node["attrs"] if a["name"] == name)


def _kept(node, ours):
    """Whether the node is one this library records (see the module docstring)."""
    if ours:
        return True
    name = node["name"]
    return not (name.startswith("autograd::engine::") or name.endswith("Backward0")
                or name == "torch::autograd::AccumulateGrad" or name == "detach")


# ops whose inner ops both libraries dispatch as ops (the others run as one kernel here)
COMPOSITES = {"aten::matmul", "aten::linear"}


def structure(trace, ours):
    """[(name, nearest kept ancestor's name, input types, input shapes, input strides,
    output types, output shapes, scope)] in the file's order, without the ops run inside
    an op that is not one of COMPOSITES."""
    nodes = {n["id"]: n for n in trace["nodes"]}
    out = []
    for n in trace["nodes"]:
        if not _kept(n, ours):
            continue
        chain = []
        p = nodes.get(n["ctrl_deps"]) if n["ctrl_deps"] != n["id"] else None
        while p is not None:
            chain.append(p)
            p = nodes.get(p["ctrl_deps"]) if p["ctrl_deps"] != p["id"] else None
        if any(a["name"].startswith("aten::") and a["name"] not in COMPOSITES
               for a in chain):
            continue        # an op inside an op this library runs as one kernel
        parent = next((a["name"] for a in chain if _kept(a, ours)), None)
        out.append((n["name"], parent, n["inputs"]["types"], n["inputs"]["shapes"],
                    n["inputs"]["strides"], n["outputs"]["types"],
                    n["outputs"]["shapes"], _attr(n, "scope")))
    return out


def _trace(mod, prog, tmp_path, name):
    """Trace prog(mod, *inputs) with the inputs made by the generator prog before the
    trace starts (factories are not traced here: see the module docstring)."""
    path = str(tmp_path / f"{name}_{mod.__name__}.json")
    obs = mod.profiler.ExecutionTraceObserver().register_callback(path)
    run = prog(mod)
    next(run)
    obs.start()
    next(run, None)
    obs.stop()
    obs.unregister_callback()
    with open(path) as f:
        return json.load(f)


def _both(prog, tmp_path, name):
    return _trace(torch, prog, tmp_path, name), _trace(autograd_core, prog, tmp_path, name)


def _pointwise(t):
    a = t.ones(2, 3)
    b = t.full((2, 3), 2.0)
    yield
    with t.profiler.record_function("block"):
        c = t.mul(a, b)
        d = t.add(c, b, alpha=2)
        with t.profiler.record_function("inner"):
            e = t.tanh(d)
            f = t.exp(e)
    f.sub(a)


_LINEAR = {}


def _linear(t):
    lin, x = _LINEAR[t.__name__]
    yield
    with t.profiler.record_function("model"):
        t.relu(lin(x))


for _t in (torch, autograd_core):
    _t.manual_seed(0)
    _LINEAR[_t.__name__] = (_t.nn.Linear(3, 2), _t.ones(4, 3))

def _matmul(t):
    # t() of a (5, 3) tensor, then matmul of 2-d operands (PyTorch's runs aten::mm)
    x = t.ones(4, 3, dtype=t.float64)
    w = t.ones(5, 3, dtype=t.float64)
    yield
    t.matmul(x, w.t())


PROGRAMS = {"pointwise": _pointwise, "matmul": _matmul, "linear": _linear}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_forward_structure_as_pytorch(name, tmp_path):
    want, got = _both(PROGRAMS[name], tmp_path, name)
    assert sorted(got) == HEADER == sorted(want)
    assert got["schema"] == want["schema"]
    assert got["pid"] == os.getpid() and got["finish_ts"] >= got["start_ts"]
    w = structure(want, False)
    g = structure(got, True)
    assert g == w
    for n in got["nodes"]:
        assert [a["name"] for a in n["attrs"]] == ATTRS
        assert sorted(n) == ["attrs", "ctrl_deps", "id", "inputs", "name", "outputs"]


def test_matmul_nests_mm_as_pytorch(tmp_path):
    want, got = _both(_matmul, tmp_path, "mm")
    for trace, ours in ((want, False), (got, True)):
        assert [s[:2] for s in structure(trace, ours) if s[0].startswith("aten::")] == [
            ("aten::t", ROOTS[1]),      # written as they end: mm, then matmul
            ("aten::mm", "aten::matmul"), ("aten::matmul", ROOTS[1])]


def test_roots_and_ids(tmp_path):
    for trace in _both(_pointwise, tmp_path, "roots"):
        nodes = trace["nodes"]
        assert nodes[0]["name"] == ROOTS[1] and nodes[0]["ctrl_deps"] == 1
        assert nodes[-1]["name"] == ROOTS[0] and nodes[-1]["id"] == 1
        assert nodes[-1]["ctrl_deps"] == 1
        ids = [n["id"] for n in nodes]
        assert len(set(ids)) == len(ids)
        # a node is written after its children end
        pos = {n["id"]: i for i, n in enumerate(nodes)}
        for n in nodes[1:-1]:
            if n["ctrl_deps"] != 2:
                assert pos[n["ctrl_deps"]] > pos[n["id"]]
        scopes = {n["name"]: _attr(n, "scope") for n in nodes}
        assert scopes["block"] == scopes["inner"] == 7 and scopes["aten::tanh"] == 0


def test_values_as_pytorch(tmp_path):
    """A tensor's value is [tensor id, storage id, offset, numel, itemsize, device]; a
    view shares its base's storage id; scalars are written as themselves."""
    def prog(t):
        a = t.ones(4, 3, dtype=t.float64)
        yield
        v = a[1:]
        t.add(v, 1.5, alpha=3)

    want, got = _both(prog, tmp_path, "values")
    for trace in (want, got):
        add = next(n for n in trace["nodes"] if n["name"] == "aten::add")
        sl = next(n for n in trace["nodes"] if n["name"] == "aten::slice")
        base = sl["inputs"]["values"][0]
        view = add["inputs"]["values"][0]
        assert view[1] == base[1] and view[0] != base[0]
        assert view[2:] == [3, 9, 8, "cpu"]
        assert add["inputs"]["values"][2] == 3
        assert add["inputs"]["types"] == ["Tensor(double)", "Tensor(double)", "Int"]
        assert add["outputs"]["values"][0][2:] == [0, 9, 8, "cpu"]
        assert add["inputs"]["strides"][0] == [3, 1]
        assert _attr(add, "op_schema").split("(")[0] == "aten::add.Tensor"


def test_seq_id_pairs_ops_recording_a_node(tmp_path):
    def prog(t):
        x = t.ones(2, requires_grad=True)
        y = t.ones(2)
        yield
        t.mul(y, y)
        t.mul(x, 2.0).exp()
        with t.no_grad():
            t.mul(x, x)

    want, got = _both(prog, tmp_path, "seq")
    for trace in (want, got):
        seqs = [_attr(n, "seq_id") for n in trace["nodes"]
                if n["name"] in ("aten::mul", "aten::exp") and n["ctrl_deps"] == 2]
        # in grad mode an op carries the next node's number, recorded or not
        assert seqs[0] == seqs[1] >= 0 and seqs[2] == seqs[1] + 1 and seqs[3] == -1


def test_backward_ops_follow_pytorch(tmp_path):
    """The ops a backward pass runs, in PyTorch's order: here they hang under the thread
    node (the engine's node ranges are not traced), there under the engine's nodes."""
    def prog(t):
        x = t.ones(2, 3, requires_grad=True)
        w = t.ones(3, 4)
        g = t.ones(2, 4)
        yield
        y = t.relu(t.mm(x, w))
        t.autograd.backward(y, g)

    want, got = _both(prog, tmp_path, "bwd")

    def ops_after_relu(trace, direct):
        nodes = trace["nodes"]
        by_id = {n["id"]: n for n in nodes}
        out = []
        for n in nodes:
            parent = by_id.get(n["ctrl_deps"])
            if direct(parent) and n["name"].startswith("aten::"):
                out.append((n["name"], n["inputs"]["shapes"][:2]))
        return out[out.index(("aten::relu", [[2, 4]])) + 1:]

    w = ops_after_relu(want, lambda p: p is not None and (
        p["name"].endswith("Backward0") or p["name"] == ROOTS[1]))
    g = ops_after_relu(got, lambda p: p is not None and p["name"] == ROOTS[1])
    assert g == w == [("aten::threshold_backward", [[2, 4], [2, 4]]),
                      ("aten::t", [[3, 4]]), ("aten::mm", [[2, 4], [4, 3]])]


def _lifecycle(t, path):
    E = t.profiler.ExecutionTraceObserver
    o = E()
    out = [o.get_output_file_path(), o.is_registered, o.is_running()]
    o.start()                       # not registered: nothing starts
    out.append(o.is_running())
    out.append(o.register_callback(path) is o)
    out.append(o.register_callback(path + ".other") is o)    # already registered
    out += [o.get_output_file_path() == path, o.is_registered]
    o.start()
    o.start()
    out.append(o.is_running())
    o.stop()
    o.stop()
    out.append(o.is_running())
    o.unregister_callback()
    o.unregister_callback()
    out += [o.is_registered, os.path.exists(path), os.path.exists(path + ".other")]
    o.cleanup()
    with open(path) as f:
        out.append([n["name"] for n in json.load(f)["nodes"]])
    out.append(isinstance(o, t.profiler.profiler._ITraceObserver))
    return out


def test_lifecycle_as_pytorch(tmp_path):
    same(lambda t: _lifecycle(t, str(tmp_path / f"{t.__name__}.json")))


def test_gz_output(tmp_path, capsys):
    def prog(t):
        path = str(tmp_path / f"{t.__name__}.json.gz")
        o = t.profiler.ExecutionTraceObserver().register_callback(path)
        o.start()
        t.ones(2).neg()
        o.stop()
        o.unregister_callback()
        with gzip.open(path) as f:
            names = [n["name"] for n in json.load(f)["nodes"]]
        return o.get_output_file_path() == path, "aten::neg" in names, names[-1]

    same(prog)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(s.startswith("Execution Trace: compressing ")
                                   for s in lines)


def test_build_from_env(monkeypatch):
    def prog(t):
        E = t.profiler.ExecutionTraceObserver
        monkeypatch.delenv("ENABLE_PYTORCH_EXECUTION_TRACE", raising=False)
        off = E.build_execution_trace_obs_from_env()
        monkeypatch.setenv("ENABLE_PYTORCH_EXECUTION_TRACE", "1")
        on = E.build_execution_trace_obs_from_env()
        path = on.get_output_file_path()
        res = [off, on.is_registered, path.endswith(".et.json"), on.get_resources_dir()]
        on.unregister_callback()
        os.remove(path)
        return res

    same(prog)


def test_with_profiler_schedule(tmp_path):
    """The profiler starts the observer at its recording steps, stops it after them and
    cleans it up at exit: only the active step's ops (and its ProfilerStep#) are traced."""
    def prog(t):
        path = str(tmp_path / f"sched_{t.__name__}.json")
        obs = t.profiler.ExecutionTraceObserver().register_callback(path)
        sched = t.profiler.schedule(wait=1, warmup=1, active=1)
        xs = [t.full((2,), float(i)) for i in range(4)]
        with t.profiler.profile(activities=[t.profiler.ProfilerActivity.CPU],
                                schedule=sched, execution_trace_observer=obs) as p:
            for i in range(4):
                xs[i].neg()
                p.step()
        state = (obs.is_registered, obs.is_running())
        with open(path) as f:
            nodes = json.load(f)["nodes"]
        by_id = {n["id"]: n for n in nodes}
        picked = [(n["name"], by_id[n["ctrl_deps"]]["name"], n["inputs"]["values"][1:2])
                  for n in nodes if n["name"] == "aten::neg"
                  or n["name"].startswith("ProfilerStep")]
        return state, picked

    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = same(prog)
    assert got[1] == [("aten::neg", "ProfilerStep#2", []),
                      ("ProfilerStep#2", ROOTS[1], [])]


def test_nothing_hooked_when_off(tmp_path):
    from autograd_core._core import tensor as _core
    o = autograd_core.profiler.ExecutionTraceObserver().register_callback(
        str(tmp_path / "off.json"))
    assert not _core._op_hooks_active()
    o.start()
    assert _core._op_hooks_active()
    o.stop()
    assert not _core._op_hooks_active()
    o.unregister_callback()


def test_exported():
    assert "ExecutionTraceObserver" in autograd_core.profiler.__all__
    assert "ExecutionTraceObserver" in torch.profiler.__all__


def test_failing_op_writes_no_node(tmp_path):
    def prog(t):
        a, b = t.ones(2, 3), t.ones(4, 5)
        yield
        with pytest.raises(RuntimeError):
            t.mm(a, b)
        t.neg(a)

    for trace in _both(prog, tmp_path, "raises"):
        assert [n["name"] for n in trace["nodes"]] == [ROOTS[1], "aten::neg", ROOTS[0]]


def test_custom_trace_observer_in_profile():
    """Any object with start/stop/cleanup serves as execution_trace_observer."""
    def prog(t):
        calls = []

        class Obs(t.profiler.profiler._ITraceObserver):
            def start(self):
                calls.append("start")

            def stop(self):
                calls.append("stop")

            def cleanup(self):
                calls.append("cleanup")

        sched = t.profiler.schedule(wait=1, warmup=0, active=1, repeat=2)
        x = t.ones(2)
        with t.profiler.profile(activities=[t.profiler.ProfilerActivity.CPU],
                                schedule=sched, execution_trace_observer=Obs()) as p:
            for _ in range(5):
                x.neg()
                calls.append("step")
                p.step()
        return calls

    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(prog)


def test_op_hooks_nest_with_the_trace(tmp_path):
    """A trace started inside another op hook sees the ops as that hook does, and
    stopping it leaves the outer hook in force (Note [Op hook])."""
    from autograd_core._core import tensor as _core

    class Outer:
        def __init__(self):
            self.seen = []

        def op_enter(self, name, args):
            self.seen.append(name)

        def op_exit(self, state, result):
            pass

    outer = Outer()
    x = autograd_core.ones(2, 3)
    o = autograd_core.profiler.ExecutionTraceObserver().register_callback(
        str(tmp_path / "nest.json"))
    _core._push_op_hook(outer)
    try:
        o.start()
        x.sin().exp()
        o.stop()
        assert _core._current_op_hook() is outer
        x.neg()
    finally:
        _core._pop_op_hook(outer)
    o.unregister_callback()
    with open(tmp_path / "nest.json") as f:
        names = [n["name"] for n in json.load(f)["nodes"]]
    assert names == [ROOTS[1], "aten::sin", "aten::exp", ROOTS[0]]
    assert outer.seen == ["aten::sin", "aten::exp", "aten::neg"]


def test_argument_kinds_as_pytorch(tmp_path):
    """Lists, tensor lists, dtypes (ScalarType numbers), memory formats, None and list
    results are written as PyTorch writes them."""
    def prog(t):
        a = t.ones(2, 3)
        i = t.tensor([0, 1])
        yield
        a.sum(dim=1, dtype=t.float64)
        t.cat([a, a], 0)
        a.index_select(0, i)
        a.reshape(3, 2)
        a.softmax(-1)
        a.split(1)
        a.clone(memory_format=t.contiguous_format)

    def ops(trace):
        return [(n["name"], n["inputs"]["types"], n["inputs"]["values"][1:],
                 n["inputs"]["shapes"], n["outputs"]["types"], n["outputs"]["shapes"])
                for n in trace["nodes"] if n["ctrl_deps"] == 2]

    want, got = _both(prog, tmp_path, "kinds")
    w, g = ops(want), ops(got)
    # the index tensor's ids differ (ids count every node and tensor)
    for rows in (w, g):
        rows[2][2][1] = rows[2][2][1][2:]
    assert g == w


_UNWRITABLE = """
import json, os, sys
def prog(t, path):
    o = t.profiler.ExecutionTraceObserver().register_callback(path)
    state = [o.is_registered]
    o.start()
    t.ones(2).neg()
    o.stop()
    o.unregister_callback()
    return state + [o.is_registered, os.path.exists(path)]
"""


def test_unwritable_path_as_pytorch(tmp_path, capfd):
    """PyTorch logs the failed open and does not register. Its side runs in a child
    process: after a failed open PyTorch's process-wide observer accepts registrations
    but writes nothing, which would leak into the tests after this one."""
    import subprocess
    import sys
    path = str(tmp_path / "missing_dir" / "trace.json")
    code = _UNWRITABLE + f"import torch; print(json.dumps(prog(torch, {path!r})))"
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    want = json.loads(child.stdout.splitlines()[-1])
    scope = {}
    exec(_UNWRITABLE, scope)
    capfd.readouterr()
    got = scope["prog"](autograd_core, path)
    err = capfd.readouterr().err
    assert got == want == [False, False, False]
    msg = "Failed to open '" + path + "'"
    assert msg in child.stderr and err.count(msg) == 1


def test_one_trace_per_process_as_pytorch(tmp_path):
    """A second observer registered while one is shares its trace: nothing goes to its
    own file; unregistering the first ends the trace for both."""
    def prog(t):
        E = t.profiler.ExecutionTraceObserver
        p1, p2 = (str(tmp_path / f"{k}_{t.__name__}.json") for k in ("one", "two"))
        x = t.ones(2)
        o1 = E().register_callback(p1)
        o2 = E().register_callback(p2)
        out = [o1.is_registered, o2.is_registered, os.path.exists(p2)]
        o2.start()
        out += [o1.is_running(), o2.is_running()]
        x.neg()
        o2.stop()
        o1.unregister_callback()
        out.append(o2.is_registered)
        o1.start()
        x.exp()
        out.append(o1.is_running())
        o2.unregister_callback()
        with open(p1) as f:
            out.append([n["name"] for n in json.load(f)["nodes"]])
        return out + [os.path.exists(p2)]

    same(prog)


def test_docstring_examples_run():
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module("autograd_core.profiler._execution_trace"),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_start_stop_cycles_as_pytorch(tmp_path):
    """Each start/stop cycle adds to the one trace; a tensor keeps its id across them."""
    def prog(t):
        path = str(tmp_path / f"cycles_{t.__name__}.json")
        x = t.ones(2)
        o = t.profiler.ExecutionTraceObserver().register_callback(path)
        o.start()
        x.neg()
        o.stop()
        x.sin()                 # not traced
        o.start()
        x.exp()
        o.stop()
        o.unregister_callback()
        with open(path) as f:
            nodes = json.load(f)["nodes"]
        ops = [n for n in nodes if n["name"].startswith("aten::")]
        return ([n["name"] for n in nodes],
                ops[0]["inputs"]["values"][0][:2] == ops[1]["inputs"]["values"][0][:2])

    assert same(prog)[1] is True
