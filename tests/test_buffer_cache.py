"""The buffer cache behind vmap's per-sample weight gradients (Note [Buffer cache] in
csrc/agc_bufcache.h): a block returns to the cache only when numpy frees the array that
owned it, so results never alias each other or later results, and the values are the
same as without the cache (compared with PyTorch's torch.func)."""
import gc

import numpy as np
import pytest

import autograd_core as ag
from autograd_core.ops import nn as _nn

from _diff import data, same

torch = pytest.importorskip("torch")

B, O, I = 64, 48, 40          # 64 * 48 * 40 * 4 bytes = 480 KiB: a cached size


def _per_sample(m, dtype="float32", sizes=(I, O, 10), seed=0):
    m.manual_seed(seed)
    net = m.nn.Sequential(m.nn.Linear(sizes[0], sizes[1]), m.nn.ReLU(),
                          m.nn.Linear(sizes[1], sizes[2])).to(getattr(m, dtype))
    params = {k: v.detach() for k, v in net.named_parameters()}
    x = data(m, B, sizes[0], seed=seed + 1, dtype=dtype)
    t = m.randint(0, sizes[2], (B,))

    def loss(p, xb, tb):
        out = m.func.functional_call(net, p, (xb.unsqueeze(0),))
        return m.nn.functional.cross_entropy(out, tb.unsqueeze(0))
    return m.func.vmap(m.func.grad(loss), in_dims=(None, 0, 0))(params, x, t)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cached_per_sample_grads_match_torch_func(dtype):
    tol = dict(rtol=1e-4, atol=1e-6) if dtype == "float32" else {}
    # twice: the second run takes its blocks from the cache the first run filled
    same(lambda m: _per_sample(m, dtype), **tol)
    same(lambda m: _per_sample(m, dtype), **tol)


def test_results_do_not_alias_each_other_or_later_results():
    first = _per_sample(ag)
    kept = {k: v.clone() for k, v in first.items()}
    second = _per_sample(ag, seed=5)      # other values, the same sizes
    for k in first:
        assert first[k].data_ptr() != second[k].data_ptr()
        assert ag.equal(first[k], kept[k])      # not overwritten by the later call
    ptrs = [v.data_ptr() for v in first.values()]
    assert len(set(ptrs)) == len(ptrs)


def test_a_dropped_result_is_reused_and_a_view_keeps_it():
    gc.collect()                   # earlier tests' results back in the cache, then out
    _nn._buffer_cache_release()
    nbytes = B * O * I * 4                     # a whole number of pages
    g = _nn._per_sample_outer(ag.randn(B, O), ag.randn(B, I))
    ptr = g.data_ptr()
    view = g[3]                    # a view keeps the block out of the cache
    del g
    gc.collect()
    assert _nn._buffer_cache_bytes() == 0
    again = _nn._per_sample_outer(ag.randn(B, O), ag.randn(B, I))
    assert again.data_ptr() != ptr
    del view
    gc.collect()
    assert _nn._buffer_cache_bytes() == nbytes
    reused = _nn._per_sample_outer(ag.randn(B, O), ag.randn(B, I))
    assert reused.data_ptr() == ptr
    assert _nn._buffer_cache_bytes() == 0
    assert again.data_ptr() != reused.data_ptr()


def test_values_written_over_a_reused_block():
    g, x = ag.randn(B, O), ag.randn(B, I)
    want = g.numpy()[:, :, None] * x.numpy()[:, None, :]
    for _ in range(3):
        out = _nn._per_sample_outer(g, x)
        np.testing.assert_array_equal(out.numpy(), want)
        # the result behaves as any array: reshaped, written, reduced
        out.view(B, -1).mul_(2.0)
        np.testing.assert_allclose(out.sum(0).numpy(), 2 * want.sum(0), rtol=1e-4, atol=1e-4)
        del out


def test_release_empties_the_cache():
    gc.collect()
    out = _nn._per_sample_outer(ag.randn(B, O), ag.randn(B, I))
    del out
    assert _nn._buffer_cache_bytes() > 0
    _nn._buffer_cache_release()
    assert _nn._buffer_cache_bytes() == 0
    out = _nn._per_sample_outer(ag.ones(B, O), ag.ones(B, I))   # allocates afresh
    assert float(out.sum()) == B * O * I
