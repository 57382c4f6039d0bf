"""The memory a recorded graph holds per node (Note [Node layout] in
autograd_core/_core/_node.pxi), and the parts of a node kept out of line (edges beyond
two, output indices, input metadata, hooks, metadata) behaving as PyTorch's."""
import gc
import tracemalloc

import numpy as np
import pytest

import autograd_core as agc

from _diff import same_error, torch


def _chain(mod, x, steps):
    y = x
    for _ in range(steps):
        y = mod.tanh(y * 1.01 + 0.01)
    return y


def test_tanh_chain_bytes_per_node():
    # benchmarks/run.py's chain1m graph: per step a MulBackward0, an AddBackward0 and a
    # TanhBackward0 with its saved output (the 1-element array and its version
    # counter, held in the node: Note [Saved outputs inline]). 273 B/node before the
    # nodes were slimmed, ~200 after, ~143 with the saved output inline and Node.bits,
    # 132 with no version field and no counter made (Note [Counters made by the node])
    # (tracemalloc's count; RSS, which benchmarks/run.py reports, rounds each block up);
    # the bound leaves room for numpy's array object size to vary between versions.
    x = agc.tensor([0.5], requires_grad=True)
    _chain(agc, x, 100)
    steps = 20_000
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        y = _chain(agc, x, steps)
        per_node = (tracemalloc.get_traced_memory()[0] - base) / (3 * steps)
    finally:
        tracemalloc.stop()
    assert per_node < 140, f"{per_node:.1f} B of graph per node"
    del y


def test_node_objects_are_small():
    y = agc.tanh(agc.tensor([0.5], requires_grad=True) * 2.0 + 1.0)
    tanh = y.grad_fn
    add = tanh.next_functions[0][0]
    mul = add.next_functions[0][0]
    # a one-saved-value node: header, vtable, two edges, one word for seq, arity and
    # released (Node.bits), the NodeExtra pointer, the weakref list, the saved value
    # (the cycle collector's header comes on top)
    assert type(add).__basicsize__ <= 72, type(add).__basicsize__
    assert type(mul).__basicsize__ <= 80, type(mul).__basicsize__
    # a node's own saved output sits in it (array, counter: Note [Saved outputs
    # inline]), no SavedTensor object beside it; 80 + the collector's 16 B header fill
    # pymalloc's 96-byte class
    assert type(tanh).__basicsize__ <= 80, type(tanh).__basicsize__
    assert type(tanh._raw_saved_result).__basicsize__ <= 56


def test_saved_output_inline_semantics():
    # Note [Saved outputs inline]: the raw SavedTensor, once read, is the node's own,
    # so hooks registered on it are the ones backward uses
    x = agc.tensor([0.5, -1.0], requires_grad=True)
    y = agc.tanh(x)
    raw = y.grad_fn._raw_saved_result
    assert y.grad_fn._raw_saved_result is raw
    seen = []
    raw.register_hooks(lambda t: (seen.append("pack"), t * 2)[1],
                       lambda t: (seen.append("unpack"), t / 2)[1])
    y.sum().backward()
    assert seen == ["pack", "unpack"]
    ref = torch.tanh(torch.tensor([0.5, -1.0], dtype=torch.float32))
    np.testing.assert_allclose(x.grad.numpy(), (1 - ref * ref).numpy(), rtol=1e-6)
    # an in-place op on the output after saving: backward refuses, as PyTorch
    same_error(_tanh_then_inplace, None)


def _tanh_then_inplace(mod, _):
    x = mod.tensor([0.5, -1.0], requires_grad=True)
    y = mod.tanh(x)
    node = y.grad_fn
    y.view(2).mul_(2)          # through a view: the shared counter sees it
    node(mod.ones(2))


def _counter_case(mod, case):
    x = mod.tensor([[0.5, -1.0]], requires_grad=True)
    y = mod.tanh(x) if case != "sort" else mod.sort(x, dim=1)[0]
    if case == "detach":
        z = y * 1.0
        y.detach().mul_(2)
    elif case == "detach_":
        z = y * 1.0
        y.detach_()
        y.add_(1)
    elif case == "unpacked":           # the unpacked tensor shares the output's counter
        z = y
        y.grad_fn._saved_result.mul_(2)
    elif case == "unpacked_no_grad":
        z = y
        with mod.no_grad():
            r = y.grad_fn._saved_result
        r.mul_(2)
    elif case == "raw_first":          # the counter asked for after _raw_saved_result
        z = y
        y.grad_fn._raw_saved_result
        y.add_(1)
    elif case == "inplace_view_op":    # new array, same counter
        z = y
        y.t_()
    elif case == "data_setter":
        z = y * 1.0
        y.data = mod.zeros(1, 2)
        y.mul_(2)
    elif case == "inplace_redo":       # tanh_ saves a result past version 0
        y = x * 1.0
        y.tanh_()
        z = y * 1.0
        y.add_(1)
    elif case == "sort":               # sort's values are not saved: no error (control)
        z = y
        y.mul_(2)
    z.sum().backward()


@pytest.mark.parametrize("case", ["detach", "detach_", "unpacked", "unpacked_no_grad",
                                  "raw_first", "inplace_view_op", "data_setter",
                                  "inplace_redo"])
def test_counter_made_by_node(case):
    # Note [Counters made by the node]: the node makes its saved output's counter when
    # first needed, and every way of modifying the output still reaches it
    same_error(_counter_case, case)


def test_counter_made_by_node_versions():
    x = agc.tensor([0.5, -1.0], requires_grad=True)
    y = agc.tanh(x)
    r = y.grad_fn._saved_result
    assert (y._version, r._version) == (0, 0)
    r.mul_(2)
    assert (y._version, r._version) == (1, 1)
    _counter_case(agc, "sort")       # no saved output modified: backward runs
    # the derivative's own unpacking with no counter made (chain1m's tanh nodes)
    x.grad = None
    y = agc.tanh(agc.tanh(x) * 2.0)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), _ref_grad(), rtol=1e-5)


def _ref_grad():
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    torch.tanh(torch.tanh(x) * 2.0).sum().backward()
    return x.grad.numpy()


def _saved_after_backward(mod, attr):
    x = mod.tensor([0.5, 1.5], requires_grad=True)
    y = mod.tanh(x) if attr == "_saved_result" else x * x
    y.sum().backward()
    return getattr(y.grad_fn, attr)


def test_saved_value_after_backward_raises():
    # the saved output is freed by backward: reading it raises (it crashed before)
    same_error(_saved_after_backward, "_saved_result")
    same_error(_saved_after_backward, "_saved_self")


def _edges(mod):
    x = mod.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    a, b = x.unbind(0)          # b is output 1 of UnbindBackward0
    w = mod.tensor([5., 6.], requires_grad=True)
    s = mod.stack([b, a * 2, w, b + w])       # four edges
    m = b * w                                 # an edge to output 1, one to a leaf
    out = []
    for fn in (s.grad_fn, m.grad_fn, a.grad_fn):
        out.append([(None if n is None else n.name(), nr) for n, nr in fn.next_functions])
    return out


def test_next_functions_any_arity_and_output_nr():
    got, want = _edges(agc), _edges(torch)
    assert got == want


def _hooks_and_metadata(mod):
    x = mod.tensor([1., 2.], requires_grad=True)
    y = x * 3
    z = y.tanh()
    seen = []
    z.grad_fn.metadata["k"] = 1
    z.grad_fn.register_prehook(lambda go: seen.append("pre") or None)
    z.grad_fn.register_hook(lambda gi, go: seen.append("post") or None)
    y.register_hook(lambda g: g * 2)
    y.retain_grad()
    z.sum().backward()
    return seen, z.grad_fn.metadata, y.grad.tolist(), x.grad.tolist()


def test_hooks_metadata_retain_grad():
    got, want = _hooks_and_metadata(agc), _hooks_and_metadata(torch)
    assert got[:2] == want[:2]
    np.testing.assert_allclose(got[2], want[2], rtol=1e-4)
    np.testing.assert_allclose(got[3], want[3], rtol=1e-4)


def test_node_cycle_through_extra_is_collected():
    # a cycle through the node's NodeExtra (its metadata holds the node, a hook holds
    # it): the cycle collector must see both
    import weakref
    x = agc.tensor([1.], requires_grad=True)
    y = x * 2
    y.grad_fn.metadata["self"] = y.grad_fn
    ref = weakref.ref(y.grad_fn)
    del y
    gc.collect()
    assert ref() is None
    y = x * 2
    fn = y.grad_fn
    fn.register_prehook(lambda go, fn=fn: None)
    ref = weakref.ref(fn)
    del y, fn
    gc.collect()
    assert ref() is None


def test_tensor_cycle_through_extra_is_collected():
    # a tensor's hooks live in its TensorExtra (Note [Tensor layout]): a hook that holds
    # its tensor makes a cycle through it, which the cycle collector must see, for a
    # leaf's hook, a non-leaf's hook and a post-accumulate-grad hook
    import weakref
    for kind in ("leaf", "nonleaf", "post"):
        x = agc.tensor([1.], requires_grad=True)
        t = x if kind != "nonleaf" else x * 2
        if kind == "post":
            t.register_post_accumulate_grad_hook(lambda v, t=t: None)
        else:
            t.register_hook(lambda g, t=t: g)
        ref = weakref.ref(t)
        del x, t
        gc.collect()
        assert ref() is None, kind


def _sequence_numbers(mod):
    x = mod.tensor([1.0], requires_grad=True)
    y = x * 2
    z = y + 1
    acc = y.grad_fn.next_functions[0][0]
    return (z.grad_fn._sequence_nr() - y.grad_fn._sequence_nr(), acc._sequence_nr())


def test_packed_word_sequence_numbers():
    # Node.bits packs seq, arity and released; AccumulateGrad still shows UINT64_MAX
    assert _sequence_numbers(agc) == _sequence_numbers(torch)


def test_packed_word_many_edges():
    # past the arity the word holds (0x7FFF), the count is the edge tuple's length
    x = agc.tensor([1.0], requires_grad=True)
    n = 0x7FFF + 3
    z = agc.cat([x] * n)
    assert len(z.grad_fn.next_functions) == n
    z.sum().backward()
    assert x.grad.item() == n
