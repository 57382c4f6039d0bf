"""Stress tests: very deep graphs, memory returning to baseline, graphs dying by
refcount, concurrent backward in many threads, and bad inputs that must raise Python
exceptions rather than crash the interpreter.

Whatever could kill the interpreter (a C stack overflow, a segfault) runs in a
subprocess, so a crash fails one test instead of the whole run."""
import gc
import os
import subprocess
import sys
import textwrap
import threading
import tracemalloc
import weakref

import numpy as np

import autograd_core as agc

from _diff import assert_same
from _subprocess import CWD, child_env


def run_python(src, timeout):
    env = child_env(PYTHONFAULTHANDLER="1")
    return subprocess.run([sys.executable, "-c", textwrap.dedent(src)], cwd=CWD, env=env,
                          capture_output=True, text=True, timeout=timeout)


# ---------------------------------------------------------------- a 1,000,000-op chain

DEEP_CHAIN = """
import sys
import autograd_core as torch
N = 1_000_000
sys.setrecursionlimit(1000)  # nothing may need Python recursion proportional to depth

# 1. a chain of a million additions: forward, repr, backward, then freed
x = torch.tensor([0.5], requires_grad=True)
y = x
for _ in range(N):
    y = y + 1
r = repr(y.grad_fn)
assert r.startswith("<AddBackward0 object at 0x"), r
assert repr(y) == "tensor([1000000.5000], grad_fn=<AddBackward0>)", repr(y)
depth, f = 0, y.grad_fn
while f.next_functions:             # walk the whole graph
    f = f.next_functions[0][0]
    depth += 1
assert depth == N and type(f).__name__ == "AccumulateGrad" and f.variable is x, depth
del f
y.backward()
assert x.grad.tolist() == [1.0], x.grad
assert y.item() == 1000000.5, y.item()
del y
print("chain1 ok", flush=True)

# 2. a million nodes with two inputs each, never backwarded, then freed
w = torch.tensor([2.0], requires_grad=True)
y = w
for _ in range(N // 2):
    y = (y + w).view(1)
del y
print("chain2 ok", flush=True)

# 3. a deep chain whose grad is computed with autograd.grad and create_graph,
#    then freed with both the forward and the gradient graphs alive
z = torch.tensor([1.0], requires_grad=True)
y = z
for _ in range(N // 4):
    y = y * 1.0 + z
g, = torch.autograd.grad(y.sum(), z, create_graph=True)
assert g.tolist() == [float(N // 4 + 1)], g
del y, g
print("chain3 ok", flush=True)
print("DONE")
"""


def test_million_op_chain_backward_and_free():
    p = run_python(DEEP_CHAIN, timeout=300)
    assert p.returncode == 0 and p.stdout.strip().endswith("DONE"), (
        f"rc={p.returncode}\nstdout:\n{p.stdout}\nstderr (tail):\n{p.stderr[-3000:]}")


def test_deep_graph_repr_and_free_in_process():
    """A 100k-deep graph (any op mix) prints, backwards and dies without recursion."""
    x = agc.tensor([1.0, 2.0], requires_grad=True)
    y = x
    for i in range(100_000):
        y = (y * 1.0) if i % 3 else (y + 0.0).view(2)
    ref = weakref.ref(y.grad_fn)
    assert repr(y).endswith("grad_fn=<ViewBackward0>)") or "grad_fn=<" in repr(y)
    assert repr(y.grad_fn).startswith("<")
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    del y
    assert ref() is None


# ---------------------------------------------------------------- memory

def _step():
    x = agc.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    w = agc.ones(3, 2, requires_grad=True)
    h = (x @ w).relu().sigmoid()
    y = h.sum() + (x * x).mean() + x[0].exp().sum() + x.tanh().sum()
    y.backward(retain_graph=True)
    y.backward()
    g, = agc.autograd.grad((x.exp() * w.t()).sum(), x, create_graph=True)
    g.sum().backward()
    v = x.detach().clone().requires_grad_()
    u = v * 2
    u.retain_grad()
    u.sum().backward()
    return x.grad.sum().item() + w.grad.sum().item() + v.grad.sum().item()


def _inplace_step():
    v = agc.tensor([1., 2., 3., 4.], requires_grad=True)
    u = v * 2
    u[0] = 0.
    u.add_(1)
    u[1:3] = v[:2] * 3
    u.mul_(v)
    u.sum().backward()
    return v.grad.sum().item()


def _rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_memory_returns_to_baseline_tracemalloc():
    for _ in range(30):
        _step()
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(20):
            _step()
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(600):
            _step()
        grown = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes still allocated after 600 iterations"


def test_memory_returns_to_baseline_inplace_and_setitem():
    for _ in range(30):
        _inplace_step()
    tracemalloc.start()
    try:
        for _ in range(20):
            _inplace_step()
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(600):
            _inplace_step()
        grown = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes still allocated after 600 iterations"


def test_memory_returns_to_baseline_rss():
    for _ in range(200):
        _step()
    gc.collect()
    base = _rss_kib()
    for _ in range(2000):
        _step()
    gc.collect()
    grown = _rss_kib() - base
    assert grown < 8 * 1024, f"RSS grew by {grown} KiB over 2000 iterations"


def test_graphs_die_by_refcount():
    """With the cyclic GC off, dropping the output frees every node of the graph."""
    gc.collect()
    gc.disable()
    try:
        x = agc.tensor([1., 2., 3.], requires_grad=True)
        b = agc.tensor([4., 5., 6.], requires_grad=True)
        y = ((x * b).exp() + x.sigmoid() * x).sum()
        nodes = []
        stack = [y.grad_fn]
        while stack:
            f = stack.pop()
            if f is None:
                continue
            nodes.append(weakref.ref(f))
            stack.extend(n for n, _ in f.next_functions)
        assert len(nodes) >= 8
        t_ref = weakref.ref(y)
        del y, f, stack
        assert t_ref() is None
        alive = [r() for r in nodes if r() is not None]
        # AccumulateGrad nodes may be kept by their leaf while the leaf lives; nothing else
        assert all(type(n).__name__ == "AccumulateGrad" for n in alive), alive
        del alive

        # the same after backward, after retain_graph, after autograd.grad, and for a
        # graph whose intermediate results were saved (SavedVariable-style references)
        for mode in ("backward", "retain", "grad", "create_graph"):
            h = x * b
            y = (h.exp() * h).sum()
            refs = [weakref.ref(y.grad_fn), weakref.ref(h.grad_fn), weakref.ref(h), weakref.ref(y)]
            if mode == "backward":
                y.backward()
            elif mode == "retain":
                y.backward(retain_graph=True)
            elif mode == "grad":
                agc.autograd.grad(y, [x, b])
            else:
                g = agc.autograd.grad(y, [x, b], create_graph=True)
                refs.append(weakref.ref(g[0].grad_fn))
                del g
            del h, y
            assert [r() for r in refs] == [None] * len(refs), mode

        # a leaf's own grad (non-create_graph) holds no graph
        x.grad = None
        (x * 2).sum().backward()
        assert x.grad.grad_fn is None
    finally:
        gc.enable()


def test_graph_with_hook_dies_by_refcount():
    """A hook holding nothing cyclic doesn't keep the graph alive."""
    gc.collect()
    gc.disable()
    try:
        x = agc.tensor([1., 2., 3.], requires_grad=True)
        y = x * 3
        y.register_hook(lambda g: g)
        r = weakref.ref(y.grad_fn)
        del y
        assert r() is None
    finally:
        gc.enable()


def test_dropped_tensor_frees_numpy_buffer():
    gc.collect()
    gc.disable()
    try:
        x = agc.tensor(np.ones(1000, dtype=np.float32), requires_grad=True)
        y = x.exp() * 2
        arr_ref = weakref.ref(y.numpy() if not y.requires_grad else y.detach().numpy())
        del y
        assert arr_ref() is None
    finally:
        gc.enable()


# ---------------------------------------------------------------- threads

def test_many_threads_independent_backward():
    n_threads, iters = 8, 150
    errors, results = [], {}
    start = threading.Barrier(n_threads)

    def worker(k):
        try:
            start.wait()
            x = agc.tensor([float(k), float(k) + 1.0, 2.0], requires_grad=True)
            w = agc.tensor([[0.5], [float(k)], [-1.0]], requires_grad=True)
            for i in range(iters):
                y = (x * x).sum() * (k + 1) + (x.reshape(1, 3) @ w).sum()
                y.backward()
                if i % 10 == 0:
                    g, = agc.autograd.grad((x * w.t()).sum(), x)
                    assert g.tolist() == w.t().squeeze(0).tolist()
            results[k] = (x.grad.tolist(), w.grad.tolist())
        except BaseException as e:  # noqa: BLE001
            errors.append((k, repr(e)))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    for k in range(n_threads):
        x = np.array([k, k + 1.0, 2.0])
        w = np.array([0.5, k, -1.0])
        want_x = iters * (2 * x * (k + 1) + w)
        want_w = iters * x
        gx, gw = results[k]
        assert_same(want_x, np.array(gx), rtol=1e-5, atol=0, what=f"thread {k} x.grad")
        assert_same(want_w, np.array(gw).ravel(), rtol=1e-5, atol=0, what=f"thread {k} w.grad")


def test_threads_accumulating_into_a_shared_leaf():
    """PyTorch's AccumulateGrad is thread-safe: concurrent backwards into one leaf add up."""
    w = agc.tensor([1., 2., 3.], requires_grad=True)
    n_threads, iters = 6, 200
    errors = []

    def worker(k):
        try:
            for _ in range(iters):
                (w * (k + 1)).sum().backward()
        except BaseException as e:  # noqa: BLE001
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    total = iters * sum(k + 1 for k in range(n_threads))
    assert w.grad.tolist() == [float(total)] * 3


def test_threads_with_mixed_grad_modes():
    """Threads flipping grad mode don't leak their mode into each other."""
    errors = []

    def worker(k):
        try:
            x = agc.tensor([1., 2.], requires_grad=True)
            for i in range(300):
                if (i + k) % 2:
                    with agc.no_grad():
                        assert not (x * 2).requires_grad
                else:
                    assert agc.is_grad_enabled()
                    y = (x * 2).sum()
                    assert y.requires_grad
                    y.backward()
        except BaseException as e:  # noqa: BLE001
            errors.append((k, repr(e)))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert agc.is_grad_enabled()


# ---------------------------------------------------------------- bad inputs

FUZZ = r'''
import os, sys, warnings, math
import numpy as np
import autograd_core as torch
warnings.simplefilter("ignore")
sys.setrecursionlimit(3000)

def note(s):
    os.write(2, (s.replace("\n", " ")[:300] + "\n").encode("utf-8", "replace"))

BAD = [None, "abc", b"x", object(), [], [[1], [2, 3]], {}, (1, "a"), 1.5, -1, 0,
       10 ** 30, 2 ** 63, float("nan"), float("inf"), complex(1, 2), True,
       np.array([object()], dtype=object), np.array(["a"]), np.zeros((2, 0)),
       slice(None), Ellipsis, lambda *a: None, torch.float32, torch.tensor([1, 2]),
       torch.tensor(True), torch.zeros(0), torch.ones(2, 3, 4), torch.tensor(3.5)]

def receivers():
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    return [a, a * 2, torch.tensor([[1, 2], [3, 4]]), torch.tensor(2.5), torch.zeros(0),
            torch.tensor([True, False]), torch.ones(2, 3, dtype=torch.float64).t()]

def arglists():
    yield ()
    for b in BAD:
        yield (b,)
    for i, b in enumerate(BAD):
        yield (b, BAD[(i * 7 + 3) % len(BAD)])
    for i, b in enumerate(BAD[:12]):
        yield (BAD[(i * 5 + 1) % len(BAD)], b, BAD[(i * 3 + 2) % len(BAD)])

calls = 0
def call(desc, fn, *args, **kwargs):
    global calls
    calls += 1
    note(desc)
    try:
        r = fn(*args, **kwargs)
        if isinstance(r, torch.Tensor):
            repr(r)          # printing any result must not crash either
    except Exception:
        pass

SKIP_T = {"__new__", "__init_subclass__", "__subclasshook__", "__class__", "__del__",
          "__dealloc__", "__delattr__", "__setattr__", "__getattribute__", "__init__"}

# every public function of the module and of autograd
funcs = [(n, getattr(torch, n)) for n in dir(torch) if not n.startswith("_")]
funcs += [("autograd." + n, getattr(torch.autograd, n)) for n in dir(torch.autograd)
          if not n.startswith("_")]
for name, fn in funcs:
    if not callable(fn) or name in ("manual_seed", "seed", "set_printoptions"):
        continue
    for args in arglists():
        call(f"{name}{args!r}", fn, *args)
    for kw in ("dtype", "requires_grad", "dim", "keepdim", "device", "out", "inputs",
               "gradient", "retain_graph", "create_graph", "grad_outputs", "allow_unused"):
        for b in BAD[:14]:
            call(f"{name}(x, {kw}={b!r})", fn, torch.ones(2, 2), **{kw: b})
    torch.set_grad_enabled(True)
    torch.set_default_dtype(torch.float32)

# every Tensor method, on several kinds of tensor
names = [n for n in dir(torch.Tensor) if n not in SKIP_T]
for name in names:
    for t in receivers():
        try:
            attr = getattr(t, name)   # a property may raise (t.mT of a 1-d tensor)
        except Exception:
            continue
        if not callable(attr):
            continue
        for args in arglists():
            call(f"Tensor.{name}{args!r}", attr, *args)
    torch.set_grad_enabled(True)

# property setters
for t in receivers():
    for prop in ("requires_grad", "grad", "data", "grad_fn", "is_leaf", "shape", "dtype"):
        for b in BAD:
            call(f"setattr({prop}, {b!r})", setattr, t, prop, b)

# backward through graphs fed bad gradients, and nodes called directly
for b in BAD:
    a = torch.tensor([1., 2.], requires_grad=True)
    y = a.exp() * a
    call(f"backward(gradient={b!r})", y.backward, b)
    call(f"grad_fn({b!r})", y.grad_fn, b)
    call(f"grad_fn.register_hook({b!r})", y.grad_fn.register_hook, b)
    call(f"grad_fn.register_prehook({b!r})", y.grad_fn.register_prehook, b)
    call(f"register_hook({b!r}) then backward", lambda: (a.register_hook(b), (a * 2).sum().backward()))
    call(f"autograd.grad(y, {b!r})", torch.autograd.grad, y.sum(), b)
    call(f"autograd.backward({b!r})", torch.autograd.backward, b)
    for f, _ in y.grad_fn.next_functions:
        if f is not None:
            call(f"next({b!r})", f, b)

# indexing with bad keys
for t in receivers():
    for k in BAD + [(0, 0, 0, 0), (None, None), [True], [0, 5], -10, (slice(None), 10),
                    torch.tensor([0.5]), torch.tensor([[True]]), torch.tensor([10])]:
        call(f"getitem {k!r}", t.__getitem__, k)
        for v in (0., b"x", "s", torch.ones(5), [1, 2, 3, 4], None, object()):
            call(f"setitem {k!r}={v!r}", t.__setitem__, k, v)
print("OK", calls)
'''


def test_bad_inputs_never_crash_the_interpreter():
    p = run_python(FUZZ, timeout=240)
    tail = "\n".join(p.stderr.splitlines()[-15:])
    assert p.returncode == 0 and p.stdout.startswith("OK"), (
        f"rc={p.returncode} (a negative code is a signal: the interpreter crashed)\n"
        f"stdout:\n{p.stdout[-2000:]}\nlast calls / traceback:\n{tail}")
    assert int(p.stdout.split()[1]) > 10_000
