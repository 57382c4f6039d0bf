"""The profiler against PyTorch's: the same program under torch.profiler and
autograd_core.profiler, comparing event names, nesting, call counts, record_function
labels, input shapes, schedule steps, the Chrome trace and the table's columns.

PyTorch records ops autograd_core has no counterpart for (the views and copies its
kernels run inside an op: aten::as_strided, aten::resolve_conj, aten::empty_strided,
...); each comparison looks at the ops this library records (COVERED), and an event's
parent is its nearest covered ancestor. Times are only checked for sanity."""
import collections
import json
import os
import tempfile
import warnings

import pytest

from _diff import same

import autograd_core

FORWARD = {"aten::linear", "aten::addmm", "aten::matmul", "aten::mm", "aten::mul",
           "aten::add", "aten::sub", "aten::div", "aten::relu", "aten::sum", "aten::tanh",
           "aten::exp", "aten::mean", "aten::t", "aten::bmm", "aten::softmax",
           "aten::mul_", "aten::add_", "aten::conv2d", "aten::convolution",
           "aten::max_pool2d", "aten::cat", "aten::view", "aten::reshape",
           "my_block", "inner_block", "aten::ones_like"}


def _covered(name, covered):
    return (name in covered or name.startswith("autograd::engine::evaluate_function: ")
            or name.endswith("Backward0") or name == "torch::autograd::AccumulateGrad")


def tree(events, covered=FORWARD):
    """{(name, nearest covered ancestor's name): count} over the covered events."""
    out = collections.Counter()
    for e in events:
        if not _covered(e.name, covered):
            continue
        p = e.cpu_parent
        while p is not None and not _covered(p.name, covered):
            p = p.cpu_parent
        out[(e.name, None if p is None else p.name)] += 1
    return sorted(out.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))


def _cpu(torch):
    return [torch.profiler.ProfilerActivity.CPU]


def test_forward_names_nesting_and_labels():
    def prog(torch):
        torch.manual_seed(0)
        x = torch.randn(4, 3)
        w = torch.randn(5, 3, requires_grad=True)
        b = torch.randn(5, requires_grad=True)
        with torch.profiler.profile(activities=_cpu(torch)) as prof:
            with torch.profiler.record_function("my_block"):
                y = torch.nn.functional.linear(x, w, b)
                z = (y * 2).relu().sum()
                with torch.profiler.record_function("inner_block"):
                    m = x @ w.t()
                    m = torch.tanh(m + 1) - m / 2
            s = m.exp().sum() + z  # noqa: F841
        return tree(prof.events())
    same(prog)


def test_backward_events():
    # autograd::engine::evaluate_function: <node> around <node> around its ops, per node
    def prog(torch):
        torch.manual_seed(0)
        x = torch.randn(4, 3, requires_grad=True)
        w = torch.randn(5, 3, requires_grad=True)
        b = torch.randn(5, requires_grad=True)
        y = torch.nn.functional.linear(x, w, b)
        z = (y * 2).relu().sum()
        with torch.profiler.profile(activities=_cpu(torch)) as prof:
            z.backward()
        t = tree(prof.events(), {"aten::ones_like", "aten::mul", "aten::mm", "aten::sum",
                                 "aten::threshold_backward"})
        scopes = sorted({(e.name, e.scope) for e in prof.events()
                         if e.name.endswith("Backward0")})
        return t, scopes
    same(prog)


def test_call_counts_and_key_averages():
    def prog(torch):
        x = torch.ones(3, 3, requires_grad=True)
        with torch.profiler.profile(activities=_cpu(torch)) as prof:
            for i in range(5):
                y = (x * i + 1).sum()
            y.backward()
        avg = prof.key_averages()
        counts = {e.key: e.count for e in avg if _covered(e.key, FORWARD)}
        total = avg.total_average() if hasattr(avg, "total_average") else None
        sane = all(e.cpu_time_total >= e.self_cpu_time_total >= 0 for e in avg)
        return counts, total.key, sane, [type(e).__name__ for e in avg][:1]
    same(prog)


def test_record_shapes():
    def prog(torch):
        a = torch.ones(2, 3)
        b = torch.ones(3, 4)
        with torch.profiler.profile(activities=_cpu(torch), record_shapes=True) as prof:
            c = torch.mm(a, b)
            d = c.sum(0)
            e = d * 2.0  # noqa: F841
            f = torch.nn.functional.linear(a, b.t())  # noqa: F841
        shapes = sorted((e.name, str(e.input_shapes)) for e in prof.events()
                        if e.name in ("aten::mm", "aten::mul", "aten::linear"))
        grouped = sorted((e.key, str(e.input_shapes), e.count)
                         for e in prof.key_averages(group_by_input_shape=True)
                         if e.key in ("aten::mm", "aten::mul"))
        return shapes, grouped
    same(prog)


def test_shapes_empty_without_record_shapes():
    def prog(torch):
        with torch.profiler.profile(activities=_cpu(torch)) as prof:
            torch.ones(2, 2).mul(2)
        return [e.input_shapes for e in prof.events() if e.name == "aten::mul"]
    same(prog)


def _schedule_run(torch, sched, n_steps):
    seen = []

    def ready(p):
        names = collections.Counter(e.name for e in p.events())
        seen.append((p.step_num, names["aten::mul"],
                     sorted(e.name for e in p.events() if e.name.startswith("ProfilerStep"))))

    x = torch.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.profiler.profile(activities=_cpu(torch), schedule=sched,
                                    on_trace_ready=ready) as p:
            for i in range(n_steps):
                x * i
                p.step()
    return seen


@pytest.mark.parametrize("kw,n", [
    (dict(wait=1, warmup=1, active=2), 10),
    (dict(wait=1, warmup=1, active=2, repeat=1), 10),
    (dict(wait=0, warmup=1, active=1, repeat=2, skip_first=3), 12),
    (dict(wait=2, warmup=0, active=3), 7),
    (dict(wait=2, warmup=1, active=1, skip_first=1, skip_first_wait=1), 9),
])
def test_schedule_steps(kw, n):
    def prog(torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s = torch.profiler.schedule(**kw)
        actions = [s(i).name for i in range(n)]
        return actions, _schedule_run(torch, s, n)
    same(prog)


def test_schedule_errors():
    def prog(torch):
        out = []
        for kw in (dict(wait=-1, warmup=1, active=1), dict(wait=1, warmup=1, active=0)):
            try:
                torch.profiler.schedule(**kw)
            except AssertionError as e:
                out.append(str(e))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            torch.profiler.schedule(wait=1, warmup=0, active=1)
        return out, [str(x.message) for x in w]
    same(prog)


def test_no_schedule_on_trace_ready_at_exit():
    def prog(torch):
        calls = []
        with torch.profiler.profile(activities=_cpu(torch),
                                    on_trace_ready=lambda p: calls.append(p.step_num)) as p:
            torch.ones(2) + 1
            p.step()
            torch.ones(2) + 1
        return calls, sum(e.name == "aten::add" for e in p.events())
    same(prog)


def test_chrome_trace_json():
    def prog(torch):
        x = torch.ones(3, 3, requires_grad=True)
        with torch.profiler.profile(activities=_cpu(torch), record_shapes=True) as prof:
            with torch.profiler.record_function("my_block"):
                (x * 2).sum().backward()
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "trace.json")
            prof.export_chrome_trace(path)
            with open(path) as f:
                doc = json.load(f)
        complete = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
        ok = all({"name", "ph", "ts", "dur", "pid", "tid"} <= set(e) for e in complete)
        sane = all(e["dur"] >= 0 for e in complete)
        names = {e["name"] for e in complete}
        dims = [e["args"].get("Input Dims") for e in complete if e["name"] == "aten::mul"]
        return (sorted(k for k in ("traceEvents", "displayTimeUnit", "schemaVersion")
                       if k in doc), ok, sane,
                sorted(n for n in names if _covered(n, FORWARD)), dims)
    same(prog)


def test_tensorboard_trace_handler():
    def prog(torch):
        with tempfile.TemporaryDirectory() as d:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with torch.profiler.profile(
                        activities=_cpu(torch),
                        schedule=torch.profiler.schedule(wait=0, warmup=0, active=1, repeat=2),
                        on_trace_ready=torch.profiler.tensorboard_trace_handler(d, "w")) as p:
                    for _ in range(3):
                        torch.ones(2) * 2
                        p.step()
            files = sorted(os.listdir(d))
            loaded = []
            for f in files:
                with open(os.path.join(d, f)) as fh:
                    loaded.append("traceEvents" in json.load(fh))
        return [f.split(".")[0] for f in files], [f.endswith(".pt.trace.json") for f in files], \
            loaded
    same(prog)


def _headers(table):
    # the header row is the line after the first separator
    lines = table.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("---"))
    return [h.strip() for h in lines[i + 1].split("  ") if h.strip()]


def test_table_columns():
    def prog(torch):
        x = torch.ones(4, 4)
        out = []
        for kw in (dict(), dict(record_shapes=True), dict(profile_memory=True)):
            with torch.profiler.profile(activities=_cpu(torch), **kw) as prof:
                with torch.profiler.record_function("my_block"):
                    (x @ x).sum()
            t = prof.key_averages().table(sort_by="cpu_time_total", row_limit=2)
            tg = prof.key_averages(group_by_input_shape=True).table(row_limit=-1)
            out.append((_headers(t), _headers(tg), t.splitlines()[-1].split(":")[0],
                        len(t.splitlines()), t.splitlines()[0] == t.splitlines()[2]))
        with torch.profiler.profile(activities=_cpu(torch)) as prof:
            x + 1
        t = prof.key_averages().table(header="HEAD", top_level_events_only=True,
                                      time_unit="ms")
        out.append([line for line in t.splitlines() if not line.strip().startswith("aten")
                    and "total" not in line.lower() and "---" not in line
                    and "===" not in line])
        return out
    same(prog)


def test_profile_memory():
    def prog(torch):
        a = torch.ones(16, 16)
        with torch.profiler.profile(activities=_cpu(torch), profile_memory=True) as prof:
            with torch.profiler.record_function("my_block"):
                b = a * 2
                c = b.view(256)  # noqa: F841
                d = torch.mm(a, a)  # noqa: F841
        mem = sorted((e.name, e.cpu_memory_usage) for e in prof.events()
                     if e.name in ("aten::mul", "aten::mm", "my_block"))
        return mem
    same(prog)


def test_with_stack():
    # PyTorch 2's with_stack records the Python calls as events ("file.py(line): fn"),
    # the ops nested inside them; the ops' own stacks stay empty
    def prog(torch):
        def my_model(x):
            y = x * 2
            return len([y])

        x = torch.ones(2)
        with torch.profiler.profile(activities=_cpu(torch), with_stack=True) as prof:
            my_model(x)
        evs = prof.events()
        mul = next(e for e in evs if e.name == "aten::mul")
        model = mul.cpu_parent
        builtins = [e.name for e in evs if e.cpu_parent is model and "built-in" in e.name]
        return (model.name, model.cpu_parent.name.split(": ")[-1], builtins, mul.stack,
                model.cpu_time_total >= mul.cpu_time_total)
    same(prog)


def test_with_flops():
    def prog(torch):
        a = torch.ones(8, 16)
        b = torch.ones(16, 4)
        with torch.profiler.profile(activities=_cpu(torch), with_flops=True) as prof:
            torch.mm(a, b)
            torch.addmm(torch.ones(4), a, b)
            a * 3
        return sorted((e.key, e.flops) for e in prof.key_averages()
                      if e.key in ("aten::mm", "aten::addmm", "aten::mul"))
    same(prog)


def test_activities_and_actions():
    def prog(torch):
        return (sorted(a.name for a in torch.profiler.supported_activities()),
                [a.name for a in torch.profiler.ProfilerAction][:4],
                torch.profiler.ProfilerActivity.CPU.name)
    same(prog)


def test_events_sorted_and_self_time_total():
    def prog(torch):
        x = torch.ones(5, requires_grad=True)
        with torch.profiler.profile(activities=_cpu(torch)) as prof:
            (x.exp() * x).sum().backward()
        evs = prof.events()
        starts = [e.time_range.start for e in evs]
        total = evs.self_cpu_time_total
        return (starts == sorted(starts), total > 0,
                abs(total - sum(e.self_cpu_time_total for e in evs)) <= 1e-6 * total,
                abs(prof.profiler.self_cpu_time_total - total) <= 1e-6 * total)
    same(prog)


def test_op_table_restored_and_nothing_recorded_outside():
    # Note [Op hook]: the profiler swaps the op table in and out
    from autograd_core._core import tensor as core
    before = core.op_table_addresses()
    x = autograd_core.ones(2, requires_grad=True)
    with autograd_core.profiler.profile() as prof:
        (x * 2).sum().backward()
    assert core.op_table_addresses() == before
    assert not autograd_core.autograd._profiler_enabled()
    n = len(prof.events())
    (x * 2).sum().backward()
    assert len(prof.events()) == n


def test_exception_inside_profile():
    def prog(torch):
        try:
            with torch.profiler.profile(activities=_cpu(torch)) as prof:
                torch.ones(2) + 1
                torch.ones(2) @ torch.ones(3)
        except RuntimeError:
            pass
        return (torch.autograd._profiler_enabled(),
                [e.name for e in prof.events() if e.name in ("aten::add", "aten::matmul")])
    same(prog)


# ---------------------------------------------------------------- creation functions
# Note [Creation functions in the profiler] (autograd_core/_creation.py)

CREATIONS = [
    "zeros(2, 3)", "zeros(())", "ones(2)", "empty(2)", "full((2,), 3.)", "randn(2, 3)",
    "rand(2)", "rand(2, generator=torch.Generator())", "randint(0, 5, (3,))",
    "randint(5, (3,))", "randperm(4)", "arange(5)", "arange(0, 5)", "arange(0, 5, 2.)",
    "eye(3)", "eye(2, 3)", "linspace(0, 1, 5)", "logspace(0, 1, 3)", "zeros_like(x)",
    "ones_like(x)", "full_like(x, 2.)", "empty_like(x)", "tensor([1., 2.])", "tensor(3.)",
    "tensor([1, 2])", "zeros(2, requires_grad=True)", "zeros(2, dtype=torch.float64)",
]


@pytest.mark.parametrize("call", CREATIONS)
def test_creation_functions_recorded_as_pytorch(call):
    def prog(torch):
        x = torch.ones(2)
        with torch.profiler.profile(activities=_cpu(torch), record_shapes=True) as prof:
            eval("torch." + call, {"torch": torch, "x": x})
        events = list(prof.events())
        index = {id(e): i for i, e in enumerate(events)}
        return [(e.name, e.input_shapes,
                 None if e.cpu_parent is None else index[id(e.cpu_parent)]) for e in events]
    same(prog)


def test_creation_in_key_averages():
    def prog(torch):
        with torch.profiler.profile(activities=_cpu(torch)) as prof:
            torch.randn(3)
            torch.zeros(2)
            torch.zeros(4)
        return sorted((e.key, e.count) for e in prof.key_averages())
    same(prog)


# ---------------------------------------------------------------- nested profilers
# Note [Nested profilers] (autograd_core/autograd/profiler.py)

@pytest.mark.parametrize("api", ["torch.profiler", "torch.autograd.profiler"])
def test_nested_profilers_as_pytorch(api, capfd):
    def prog(torch):
        x = torch.ones(2)
        make = (lambda: torch.profiler.profile(activities=_cpu(torch))) \
            if api == "torch.profiler" else torch.autograd.profiler.profile
        with make() as outer:
            torch.sin(x)
            with make() as inner:
                torch.cos(x)
            torch.tan(x)
        names = [[e.name for e in p.function_events if e.name.startswith("aten::")]
                 if api != "torch.profiler" else
                 [e.name for e in p.events() if e.name.startswith("aten::")]
                 for p in (outer, inner)]
        with make() as after:
            torch.exp(x)
        later = (after.events() if api == "torch.profiler" else after.function_events)
        return names, [e.name for e in later], torch.autograd._profiler_enabled()
    capfd.readouterr()
    same(prog)
    err = capfd.readouterr().err
    # one message per program (torch's C++ log line, and ours): the outer profiler's
    # exit finds no session
    assert err.count("disableProfiler called but no active profiling session found") == 2
