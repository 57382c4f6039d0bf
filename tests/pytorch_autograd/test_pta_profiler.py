"""The profiler (torch.autograd.profiler, torch.profiler, record_function): PyTorch's
test/test_autograd.py tests of it, each rewritten as a differential program (run under
torch and autograd_core, results compared by tests/_diff.py). Times are never compared,
only their sanity (non-negative, self <= total). Each test is named after the PyTorch
test it follows."""
import os
import tempfile
import threading

from _diff import same


def _profile(torch, **kw):
    return torch.autograd.profiler.profile(**kw)


def test_profiler():
    def prog(torch):
        x = torch.randn(10, 10)
        with _profile(torch) as p:
            enabled_inside = torch.autograd._profiler_enabled()
            y = x * 2 + 4  # noqa: F841
        names = ["aten::mul", "aten::add"]
        found = {names.index(e.name) for e in p.function_events if e.name in names}
        return enabled_inside, torch.autograd._profiler_enabled(), sorted(found)
    same(prog)


def test_profiler_seq_nr():
    def prog(torch):
        with _profile(torch) as p:
            x = torch.randn(10, 10, requires_grad=True)
            y = torch.randn(10, 10, requires_grad=True)
            z = x + y
            s = z.sum(dim=None)
            s.backward()
        # aten::add and aten::sum carry sequence numbers, and their backward nodes'
        # events (evaluate_function and the node itself) the same numbers (PyTorch's
        # test spells the nodes AddBackward0 and SumBackward1: here they are taken from
        # the graph, since sum(dim=None) is SumBackward0 in autograd_core)
        names = [z.grad_fn.name(), s.grad_fn.name()]
        groups = {("aten::add", "Add"): [], ("aten::sum", "Sum"): []}
        for e in p.function_events:
            for (fwd, bwd), evs in groups.items():
                if e.name == fwd or (bwd in e.name and "Backward" in e.name):
                    evs.append(e)
        out = []
        for idx, ((fwd, bwd), evs) in enumerate(groups.items()):
            out.append([e.name for e in evs])
            out.append((evs[0].sequence_nr >= 0, evs[1].sequence_nr == evs[0].sequence_nr,
                        evs[2].sequence_nr == evs[0].sequence_nr, evs[0].fwd_thread,
                        evs[1].fwd_thread == evs[0].thread,
                        evs[2].fwd_thread == evs[0].thread))
        # ops run inside the backward nodes (no graph recorded) carry none
        inner = [e.sequence_nr for e in p.function_events
                 if e.cpu_parent is not None and "Backward" in e.cpu_parent.name
                 and e.name.startswith("aten::")]
        expected = [["aten::add", f"autograd::engine::evaluate_function: {names[0]}",
                      names[0]],
                     ["aten::sum", f"autograd::engine::evaluate_function: {names[1]}",
                      names[1]]]
        return out[0::2] == expected, out[1::2], set(inner) <= {-1}
    same(prog)


def test_profiler_unboxed_only():
    def prog(torch):
        x = torch.rand(3, 4)
        with _profile(torch) as p:
            x.resize_([3, 2])
        return [e.name for e in p.function_events if e.name == "aten::resize_"]
    same(prog)


def test_profiler_propagation():
    # PyTorch's test forks a TorchScript function, which carries the profiler to the
    # fork's thread; a plain Python thread (here) does not carry it, in PyTorch as here:
    # only the ranges of the profiling thread are recorded
    def prog(torch):
        x = torch.rand(3, 4)

        def foo(x, out):
            with torch.autograd.profiler.record_function("in_foo"):
                out.append(x * 2)

        def bar(x):
            with torch.autograd.profiler.record_function("in_bar"):
                out = []
                t = threading.Thread(target=foo, args=(x, out))
                t.start()
                t.join()
                with torch.autograd.profiler.record_function("in_bar_after_wait"):
                    y = out[0] * 2
                return y

        with _profile(torch) as p:
            bar(x)
        ev = {e.name: e for e in p.function_events}
        found = [n in ev for n in ("in_foo", "in_bar", "in_bar_after_wait")]
        return found, ev["in_bar_after_wait"].cpu_parent.name, \
            sorted({e.name for e in p.function_events if e.name.startswith("aten::mul")})
    same(prog)


def test_record_function_callbacks():
    def prog(torch):
        x = torch.randn(10, 10)
        with _profile(torch) as p:
            with torch.autograd.profiler.record_function("foo"):
                y = x * 2 + 4  # noqa: F841
        foo = next(e for e in p.function_events if "foo" in e.name)
        return foo.count, sorted(c.name for c in foo.cpu_children)
    same(prog)


def test_profiler_aggregation_fake():
    def prog(torch):
        P = torch.autograd.profiler_util
        events = P.EventList()
        ids = iter(range(1, 100))
        # [thread, [(start, end, id), ...]]
        threads = [[1, [(0, 1, next(ids)), (1, 2, next(ids))]],
                   [0, [(0, 2, next(ids)), (1, 2, next(ids)), (1, 3, next(ids))]]]
        for thread, ranges in threads:
            for start, end, i in ranges:
                events.append(P.FunctionEvent(id=i, node_id=0, name="", thread=thread,
                                              start_us=start, end_us=end))
        events._populate_cpu_children()
        # [1, 3] pushes [0, 2] out first, then [1, 2] is a child of [1, 3]
        return [[c.id for c in e.cpu_children] for e in events]
    same(prog)


def test_profiler_aggregation_table():
    # str(prof) is the aggregated table (PyTorch issue 37500)
    def prog(torch):
        x = torch.randn(1024)
        with _profile(torch) as prof:
            torch.einsum("i->", x)
        return prof.table() == str(prof), "aten::einsum" in str(prof)
    same(prog)


def test_profiler_function_event_avg():
    def prog(torch):
        P = torch.autograd.profiler_util
        avg = P.FunctionEventAvg()
        avg.add(P.FunctionEvent(id=0, node_id=0, name="foo", thread=0, start_us=10,
                                end_us=15))
        avg.add(P.FunctionEvent(id=1, node_id=0, name="foo", thread=0, start_us=20,
                                end_us=30))
        avg.add(avg)
        return (avg.key, avg.count, avg.cpu_time_total, avg.self_cpu_time_total,
                avg.device_time_total, avg.cpu_time)
    same(prog)


def test_profiler_shapes():
    def prog(torch):
        torch.manual_seed(0)
        layer1 = torch.nn.Linear(20, 30)
        layer2 = torch.nn.Linear(30, 40)
        input = torch.randn(128, 20)
        with _profile(torch, record_shapes=True) as prof:
            layer2(layer1(input))
        return sorted(e.input_shapes for e in prof.function_events if e.name == "aten::linear")
    same(prog)


def test_profiler_aggregation_lstm():
    def prog(torch):
        torch.manual_seed(0)
        rnn = torch.nn.LSTM(10, 20, 2)
        with _profile(torch, record_shapes=True) as prof:
            for _ in range(20):
                input = torch.randn(5, 3, 10)
                h = torch.randn(2, 3, 20)
                c = torch.randn(2, 3, 20)
                rnn(input, (h, c))
        tables = [prof.table(sort_by="self_cpu_time_total", row_limit=10, header="TEST"),
                  prof.key_averages(group_by_input_shape=True).table(
                      sort_by="self_cpu_time_total", row_limit=10),
                  prof.table(sort_by="self_cpu_time_total", row_limit=10,
                             max_src_column_width=300, header="TEST",
                             top_level_events_only=True),
                  prof.key_averages(group_by_input_shape=True).table(
                      sort_by="self_cpu_time_total", row_limit=10,
                      top_level_events_only=True)]
        heads = [t.splitlines()[:4] if t.startswith("=") else t.splitlines()[:2]
                 for t in tables]
        header_lines = [[line for line in h if "Name" in line or "TEST" in line
                         or "top-level" in line] for h in heads]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "trace.json")
            prof.export_chrome_trace(path)
            exported = os.path.getsize(path) > 0
        rows = [sum(1 for line in t.splitlines() if "%" in line and "Name" not in line)
                for t in tables]
        return ([[" ".join(line.split()) for line in h] for h in header_lines],
                [0 < r <= 10 for r in rows], prof.self_cpu_time_total > 0, exported)
    same(prog)


def test_record_function():
    def prog(torch):
        x = torch.randn(10, 10)

        def forward(x):
            with torch.autograd.profiler.record_function("outer"):
                y = x * 2 + 4
                with torch.autograd.profiler.record_function("inner"):
                    y = y - 1
            y = y / 1

        forward(x)
        with _profile(torch) as p:
            forward(x)
        important = ["outer", "aten::mul", "aten::add", "inner", "aten::sub", "aten::div"]
        idx = 0
        for info in p.function_events:
            if info.name == important[idx]:
                idx += 1
            if idx == len(important):
                break

        @torch.autograd.profiler.record_function("my_func")
        def f(x, y):
            return x + y

        with _profile(torch) as p2:
            f(1, 2)
        return idx, "my_func" in str(p2)
    same(prog)


def test_record_function_multithreaded():
    # exiting a range while another opened later is still open (and the other way
    # round) does not raise
    def prog(torch):
        rf = torch.autograd.profiler.record_function("outer")
        rf.__enter__()
        with torch.autograd.profiler.record_function("inner"):
            rf.__exit__(None, None, None)
        with torch.autograd.profiler.record_function("inner"):
            rf.__enter__()
        rf.__exit__(None, None, None)
        return True
    same(prog)


def test_profiler_times_are_sane():
    # not a PyTorch test: the invariants every recorded event keeps
    import autograd_core as torch
    x = torch.randn(8, 8, requires_grad=True)
    with _profile(torch) as p:
        (x @ x).relu().sum().backward()
    for e in p.function_events:
        assert e.cpu_time_total >= 0 and 0 <= e.self_cpu_time_total <= e.cpu_time_total
        if e.cpu_parent is not None:
            assert e.cpu_parent.time_range.start <= e.time_range.start
            assert e.time_range.end <= e.cpu_parent.time_range.end
