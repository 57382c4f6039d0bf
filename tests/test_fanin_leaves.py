"""Graphs with many leaves (issue 31 item 1): a leaf's AccumulateGrad is held weakly by
the leaf (Note [Borrowed accumulator] in _core/_node.pxi: a reference the leaf does not
count), made per graph, shared by every graph alive at once, and its .grad stolen or
copied as PyTorch's. Each program runs under torch and autograd_core (tests/_diff.py)."""
import gc
import sys
import threading
import weakref

import numpy as np
import pytest

import autograd_core
from _diff import same

N = 300


def _leaves(torch, n=N, dtype=None, seed=0):
    v = np.random.default_rng(seed).standard_normal(n)
    return [torch.tensor(float(x), dtype=dtype or torch.float32, requires_grad=True) for x in v]


def _fanin(leaves, c=1.5):
    s = 0.0
    for leaf in leaves:
        s = s + leaf * c
    return s


def test_fanin_grads_and_steal():
    def prog(torch):
        leaves = _leaves(torch)
        s = _fanin(leaves)
        s.backward()
        # every .grad is its own tensor (no two leaves share memory)
        ptrs = {leaf.grad.data_ptr() for leaf in leaves}
        return [leaf.grad for leaf in leaves], len(ptrs) == len(leaves), s.grad_fn.name()
    same(prog)


def test_fanin_twice_accumulates_and_retain_graph():
    def prog(torch):
        leaves = _leaves(torch, 50)
        s = _fanin(leaves)
        s.backward(retain_graph=True)
        first = [leaf.grad.clone() for leaf in leaves]
        held = leaves[3].grad           # a user holding .grad sees the in-place add
        s.backward()
        t = _fanin(leaves, 0.5)         # a new graph: new accumulators, same .grad
        t.backward()
        return first, [leaf.grad for leaf in leaves], held, held is leaves[3].grad
    same(prog)


def test_fanin_hooks_on_every_leaf():
    def prog(torch):
        leaves = _leaves(torch, 100)
        seen, post = [], []
        for i, leaf in enumerate(leaves):
            leaf.register_hook(lambda g, i=i: g * (i % 3) if i % 2 else seen.append(i))
            leaf.register_post_accumulate_grad_hook(lambda t, i=i: post.append((i, t.grad.item())))
        _fanin(leaves).backward()
        _fanin(leaves).backward()       # the hooks live on the leaves, not on the nodes
        return [leaf.grad for leaf in leaves], sorted(seen), sorted(post)
    same(prog)


def test_accumulator_shared_while_a_graph_lives_and_new_after():
    def prog(torch):
        x = torch.tensor(2.0, requires_grad=True)
        y = x * 3
        z = x * 4
        acc = y.grad_fn.next_functions[0][0]
        shared = acc is z.grad_fn.next_functions[0][0]
        calls = []
        acc.register_prehook(lambda g: calls.append("pre"))
        acc.register_hook(lambda gi, go: calls.append("post"))
        (y + z).backward()
        first = list(calls)
        del y, z, acc
        gc.collect()
        # the node died with its graphs: a new graph has a new node, without the hooks
        (x * 5).backward()
        return shared, first, calls, x.grad, type((x * 1).grad_fn.next_functions[0][0]).__name__
    same(prog)


def test_accumulator_node_outlives_its_graph_through_get_gradient_edge():
    def prog(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        edge = torch.autograd.graph.get_gradient_edge(x)
        y = (x * x).sum()
        same_node = y.grad_fn.next_functions[0][0] is edge.node
        del y
        gc.collect()
        y2 = (x * 3).sum()
        still = y2.grad_fn.next_functions[0][0] is edge.node
        y2.backward()
        return same_node, still, x.grad
    same(prog)


def test_leaf_reused_in_many_nodes():
    def prog(torch):
        leaf = torch.tensor([0.5, -1.0], requires_grad=True)
        s = 0.0
        for i in range(200):
            s = s + leaf * i
        s.sum().backward()
        return leaf.grad
    same(prog)


def test_leaves_that_are_views_zero_d_and_empty():
    def prog(torch):
        base = torch.arange(6.0)
        v = base[1:4]
        v.requires_grad_()                 # a leaf that is a view of a tensor without grad
        col = torch.arange(12.0).reshape(3, 4).t()[1]
        col.requires_grad_()               # a strided view leaf: the layout contract
        e = torch.zeros(0, requires_grad=True)
        z = torch.tensor(3.0, requires_grad=True)
        s = (v * 2).sum() + (col * col).sum() + (e * 5).sum() + z * z
        s.backward()
        return (v.is_leaf, v.grad, col.grad, col.grad.stride(), e.grad, e.grad.shape, z.grad,
                base)
    same(prog)


@pytest.mark.parametrize("dtypes", [("float32", "float64"), ("float64", "float16"),
                                    ("bfloat16", "float32")])
def test_leaves_of_different_dtypes(dtypes):
    def prog(torch):
        ls = [torch.tensor(0.25 * (i + 1), dtype=getattr(torch, dtypes[i % 2]), requires_grad=True)
              for i in range(40)]
        s = _fanin(ls, 1.5)
        s.backward()
        return s.dtype, [(leaf.grad.dtype, leaf.grad) for leaf in ls]
    same(prog, rtol=1e-2, atol=1e-3)


def test_create_graph_fanin():
    def prog(torch):
        leaves = _leaves(torch, 30, dtype=torch.float64)
        s = 0.0
        for leaf in leaves:
            s = s + leaf * leaf * leaf
        grads = torch.autograd.grad(s, leaves, create_graph=True)
        sum(g.sum() for g in grads).backward()
        return [leaf.grad for leaf in leaves], [g.grad_fn is not None for g in grads]
    same(prog)


def test_saved_tensor_hooks_on_leaves():
    def prog(torch):
        leaves = _leaves(torch, 20, dtype=torch.float64)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
            s = 0.0
            for leaf in leaves:
                s = s + leaf * leaf         # saves the leaf through the hooks
        s.backward()
        return [leaf.grad for leaf in leaves]
    same(prog)


def test_set_on_a_leaf_gives_it_a_new_accumulator():
    def prog(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = (x * 2).sum()
        old = y.grad_fn.next_functions[0][0]
        with torch.no_grad():
            x.set_(torch.tensor([5.0, 6.0, 7.0]))
        z = (x * 3).sum()
        new_node = z.grad_fn.next_functions[0][0] is not old
        y.backward()                       # the old node still has x as its variable
        g1 = x.grad.clone()
        x.grad = None
        z.backward()
        del y, old
        gc.collect()
        return new_node, g1, x.grad
    same(prog, may_raise=True)


def test_hooked_accumulator_in_a_reference_cycle_is_collected():
    """A node the user hooked is seen by the cycle collector (the leaf then holds it by a
    counted weakref): a cycle through its hook is freed, and the leaf works on."""
    def prog(torch):
        p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
        results = []
        for _ in range(3):
            y = (p * p).sum()
            acc = y.grad_fn.next_functions[0][0]
            acc.register_hook(lambda gi, go, acc=acc: results.append(acc.name()))  # a cycle
            y.backward()
            del y, acc
            gc.collect()
        return results, p.grad
    same(prog)


def test_many_graphs_on_threads_share_leaves():
    """Threads build and drop graphs over the same leaves at once: accumulators are made
    and freed concurrently, no gradient is lost."""
    def prog(torch):
        leaves = _leaves(torch, 40, dtype=torch.float64)
        start = threading.Barrier(4)
        errors = []

        def work(k):
            try:
                start.wait()
                for _ in range(15):
                    _fanin(leaves, float(k + 1)).backward()
            except Exception as e:  # noqa: BLE001 (reported in the result)
                errors.append(repr(e))

        old = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)
        try:
            ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
        finally:
            sys.setswitchinterval(old)
        return errors, [leaf.grad for leaf in leaves]
    same(prog)


def test_leaf_dies_before_and_after_its_graph():
    """No dangling field: a leaf dropped while its graph lives is kept by its node, and
    a node dropped while its leaf lives resets the leaf's field."""
    x = autograd_core.tensor(1.0, requires_grad=True)
    r = weakref.ref(x)
    y = x * 2
    del x
    gc.collect()
    assert r() is not None                  # the graph's AccumulateGrad holds it
    acc = y.grad_fn.next_functions[0][0]
    assert acc.variable is r()
    del acc
    y.backward()
    assert r().grad.item() == 2.0
    del y
    gc.collect()
    assert r() is None                      # nothing holds it any more
    x = autograd_core.tensor(1.0, requires_grad=True)
    for _ in range(100):                    # a node per graph, each freed with it
        (x * 2).backward()
    assert abs(x.grad.item() - 200.0) < 1e-6
