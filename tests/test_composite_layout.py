"""The output layout of composite ops is PyTorch's.

Programs call .view() on what scaled_dot_product_attention, MultiheadAttention, RNNs,
decompositions and the like return, so a result's strides are part of the contract. Each
case below runs one construction under torch and under autograd_core (the same inputs,
made from the same numbers) and compares every returned tensor's shape, stride(),
is_contiguous() and values; the attention cases also check that the tutorial's
``transpose(1, 2).view(B, L, H * D)`` works (or raises) alike."""

import numpy as np
import pytest
import torch

import autograd_core
from _diff import Raised, assert_same, catch, data
from _diff import same

B, H, L, S, D = 2, 3, 4, 6, 5


def _x(m, *shape, seed=0, dtype="float64", rg=False):
    return data(m, *shape, seed=seed, dtype=dtype, requires_grad=rg)


def _spd(m, n, batch=(), seed=0, dtype="float64"):
    a = _x(m, *batch, n, n, seed=seed, dtype=dtype)
    return a @ a.mT + n * m.eye(n, dtype=getattr(m, dtype))


def _heads(m, layout, n=L, h=H, d=D, seed=0, dtype="float64", rg=False):
    """A (B, h, n, d) tensor laid out as a buffer of the named dim order."""
    if layout == "bhld":
        return _x(m, B, h, n, d, seed=seed, dtype=dtype, rg=rg)
    if layout == "blhd":     # the tutorial's x.view(B, L, H, D).transpose(1, 2)
        return _x(m, B, n, h, d, seed=seed, dtype=dtype, rg=rg).transpose(1, 2)
    if layout == "lbhd":
        return _x(m, n, B, h, d, seed=seed, dtype=dtype, rg=rg).permute(1, 2, 0, 3)
    if layout == "hbld":
        return _x(m, h, B, n, d, seed=seed, dtype=dtype, rg=rg).transpose(0, 1)
    if layout == "bhdl":     # head dim not innermost
        return _x(m, B, h, d, n, seed=seed, dtype=dtype, rg=rg).transpose(-1, -2)
    if layout == "sliced":   # non-dense, head dim innermost
        return _x(m, B, n, h, d + 3, seed=seed, dtype=dtype, rg=rg).transpose(1, 2)[..., :d]
    if layout == "expanded":
        return _x(m, 1, n, h, d, seed=seed, dtype=dtype, rg=rg).transpose(1, 2) \
            .expand(B, h, n, d)
    raise ValueError(layout)


# ------------------------------------------------------------------ scaled_dot_product_attention

def _sdpa(ql, kl, **kw):
    dtype = kw.pop("dtype", "float64")
    rg = kw.pop("rg", False)
    hk = kw.pop("hk", H)
    mask = kw.pop("mask", None)

    def run(m):
        F = m.nn.functional
        q = _heads(m, ql, dtype=dtype, rg=rg)
        k = _heads(m, kl, n=S, h=hk, seed=1, dtype=dtype, rg=rg)
        v = _heads(m, kl, n=S, h=hk, seed=2, dtype=dtype, rg=rg)
        extra = dict(kw)
        if mask == "bool":
            extra["attn_mask"] = _x(m, L, S, seed=3) > -0.5
        elif mask == "float":
            extra["attn_mask"] = _x(m, B, 1, L, S, seed=3, dtype=dtype)
        elif mask == "float_t":   # a mask whose last dim is not innermost
            extra["attn_mask"] = _x(m, S, L, seed=3, dtype=dtype).t()
        return F.scaled_dot_product_attention(q, k, v, **extra)
    return run


SDPA_CASES = {}
for _ql in ("bhld", "blhd", "lbhd", "hbld", "bhdl", "sliced", "expanded"):
    for _kl in ("bhld", "blhd", "bhdl"):
        SDPA_CASES[f"sdpa-q{_ql}-k{_kl}"] = _sdpa(_ql, _kl)
SDPA_CASES.update({
    "sdpa-blhd-grad": _sdpa("blhd", "blhd", rg=True),
    "sdpa-blhd-float32": _sdpa("blhd", "blhd", dtype="float32"),
    "sdpa-blhd-float32-grad": _sdpa("blhd", "bhld", dtype="float32", rg=True),
    "sdpa-blhd-causal": _sdpa("blhd", "blhd", is_causal=True),
    "sdpa-blhd-boolmask": _sdpa("blhd", "blhd", mask="bool"),
    "sdpa-blhd-floatmask": _sdpa("blhd", "blhd", mask="float", rg=True),
    "sdpa-blhd-floatmask-t": _sdpa("blhd", "blhd", mask="float_t"),
    "sdpa-blhd-scale": _sdpa("blhd", "blhd", scale=0.3),
    "sdpa-blhd-dropout0": _sdpa("blhd", "blhd", dropout_p=0.0),
    "sdpa-blhd-gqa": _sdpa("blhd", "blhd", hk=1, enable_gqa=True),
    "sdpa-bhld-gqa": _sdpa("bhld", "bhld", hk=1, enable_gqa=True),
    "sdpa-3d": lambda m: m.nn.functional.scaled_dot_product_attention(
        *[_x(m, L, B, D, seed=i).transpose(0, 1) for i in range(3)]),
    "sdpa-5d": lambda m: m.nn.functional.scaled_dot_product_attention(
        *[_x(m, 2, B, L, H, D, seed=i).transpose(2, 3) for i in range(3)]),
    "sdpa-dv": lambda m: m.nn.functional.scaled_dot_product_attention(
        _heads(m, "blhd"), _heads(m, "blhd", n=S, seed=1),
        _heads(m, "blhd", n=S, d=7, seed=2)),
    "sdpa-L1": lambda m: m.nn.functional.scaled_dot_product_attention(
        _heads(m, "blhd", n=1), _heads(m, "blhd", n=S, seed=1), _heads(m, "blhd", n=S, seed=2)),
})


@pytest.mark.parametrize("dropout", [0.5, 1.0])
def test_sdpa_dropout_layout(dropout):
    """Dropout takes PyTorch's math path: a contiguous result (values are random)."""
    def run(m):
        F = m.nn.functional
        q = _heads(m, "blhd")
        return F.scaled_dot_product_attention(q, q, q, dropout_p=dropout)
    want, got = run(torch), run(autograd_core)
    assert (got.shape, got.stride(), got.is_contiguous()) == \
        (tuple(want.shape), want.stride(), want.is_contiguous())


@pytest.mark.parametrize("rg", [False, True])
@pytest.mark.parametrize("ql", ["bhld", "blhd", "lbhd"])
def test_sdpa_tutorial_view(ql, rg):
    """The tutorial's merge of heads: out.transpose(1, 2).view(B, L, H * D) works (or
    raises) as in PyTorch, and gradients flow back alike."""
    def run(m):
        q = _heads(m, ql, rg=rg)
        k = _heads(m, ql, n=S, seed=1, rg=rg)
        v = _heads(m, ql, n=S, seed=2, rg=rg)
        out = m.nn.functional.scaled_dot_product_attention(q, k, v)
        merged = catch(lambda: out.transpose(1, 2).view(B, L, H * D))
        if isinstance(merged, Raised) or not rg:
            return merged
        (merged * merged).sum().backward()
        return merged, q.grad, k.grad, v.grad
    assert_same(run(torch), run(autograd_core))


# ------------------------------------------------------------------ MultiheadAttention

def _mha(batch_first, need_weights, average=True, mask=None, kpm=False, rg=False,
         separate=False, bias_kv=False, zero_attn=False, kdim=None, train_dropout=False):
    def run(m):
        m.manual_seed(0)
        E = H * 2
        kw = {}
        if kdim:
            kw = dict(kdim=kdim, vdim=kdim)
        mha = m.nn.MultiheadAttention(E, H, batch_first=batch_first, add_bias_kv=bias_kv,
                                      add_zero_attn=zero_attn, dropout=0.5 if train_dropout else 0.0,
                                      dtype=m.float64, **kw)
        with m.no_grad():
            for i, p in enumerate(mha.parameters()):
                p.copy_(_x(m, *p.shape, seed=10 + i))
        if not train_dropout:
            mha.eval()
        shape = (B, L, E) if batch_first else (L, B, E)
        kshape = (B, S, kdim or E) if batch_first else (S, B, kdim or E)
        q = _x(m, *shape, seed=1, rg=rg)
        k = _x(m, *kshape, seed=2, rg=rg)
        v = _x(m, *kshape, seed=3, rg=rg)
        extra = {}
        if mask == "bool":
            extra["attn_mask"] = _x(m, L, S, seed=4) > 0.5
        elif mask == "float":
            extra["attn_mask"] = _x(m, L, S, seed=4)
        elif mask == "causal":
            extra["attn_mask"] = m.nn.Transformer.generate_square_subsequent_mask(
                L, dtype=m.float64)
            extra["is_causal"] = True
        if kpm:
            extra["key_padding_mask"] = _x(m, B, S, seed=5) > 0.5
        self_attn = mask == "causal"
        if self_attn:
            k = v = q
        out, w = mha(q, k, v, need_weights=need_weights, average_attn_weights=average, **extra)
        if train_dropout:
            return (out.shape, out.stride(), out.is_contiguous(),
                    None if w is None else (w.shape, w.stride()))
        return out, w
    return run


MHA_CASES = {}
for _bf in (False, True):
    for _nw in (False, True):
        MHA_CASES[f"mha-bf{int(_bf)}-nw{int(_nw)}"] = _mha(_bf, _nw)
        MHA_CASES[f"mha-bf{int(_bf)}-nw{int(_nw)}-grad"] = _mha(_bf, _nw, rg=True)
        MHA_CASES[f"mha-bf{int(_bf)}-nw{int(_nw)}-mask"] = _mha(_bf, _nw, mask="float", kpm=True)
        MHA_CASES[f"mha-bf{int(_bf)}-nw{int(_nw)}-causal"] = _mha(_bf, _nw, mask="causal")
        MHA_CASES[f"mha-bf{int(_bf)}-nw{int(_nw)}-kdim"] = _mha(_bf, _nw, kdim=4)
        MHA_CASES[f"mha-bf{int(_bf)}-nw{int(_nw)}-biaskv"] = _mha(_bf, _nw, bias_kv=True,
                                                                   zero_attn=True)
    MHA_CASES[f"mha-bf{int(_bf)}-perhead"] = _mha(_bf, True, average=False)
    MHA_CASES[f"mha-bf{int(_bf)}-boolmask"] = _mha(_bf, True, mask="bool")
    MHA_CASES[f"mha-bf{int(_bf)}-train-dropout"] = _mha(_bf, False, train_dropout=True)
    MHA_CASES[f"mha-bf{int(_bf)}-train-dropout-w"] = _mha(_bf, True, train_dropout=True)


def test_mha_unbatched():
    def run(m):
        m.manual_seed(0)
        mha = m.nn.MultiheadAttention(6, 3, dtype=m.float64).eval()
        with m.no_grad():
            for i, p in enumerate(mha.parameters()):
                p.copy_(_x(m, *p.shape, seed=10 + i))
        q = _x(m, L, 6, seed=1)
        return [mha(q, q, q, need_weights=nw) for nw in (False, True)]
    _compare(run)


# ------------------------------------------------------------------ recurrent layers

def _rnn(kind, batch_first, bidirectional, layers=2, packed=False, h0=False, proj=0):
    def run(m):
        m.manual_seed(0)
        kw = dict(proj_size=proj) if proj else {}
        net = getattr(m.nn, kind)(4, 5, num_layers=layers, batch_first=batch_first,
                                  bidirectional=bidirectional, dtype=m.float64, **kw)
        with m.no_grad():
            for i, p in enumerate(net.parameters()):
                p.copy_(_x(m, *p.shape, seed=10 + i))
        x = _x(m, *((B, L, 4) if batch_first else (L, B, 4)), seed=1)
        args = ()
        if h0:
            nd = 2 if bidirectional else 1
            hs = _x(m, layers * nd, B, proj or 5, seed=2)
            args = ((hs, _x(m, layers * nd, B, 5, seed=3)) if kind == "LSTM" else hs,)
        if packed:
            x = m.nn.utils.rnn.pack_padded_sequence(x, [L, L - 1], batch_first=batch_first)
        out, hn = net(x, *args)
        if packed:
            out = (out.data, out.batch_sizes)
        return out, hn
    return run


RNN_CASES = {}
for _kind in ("RNN", "LSTM", "GRU"):
    for _bf in (False, True):
        for _bi in (False, True):
            RNN_CASES[f"{_kind}-bf{int(_bf)}-bi{int(_bi)}"] = _rnn(_kind, _bf, _bi)
        RNN_CASES[f"{_kind}-bf{int(_bf)}-packed"] = _rnn(_kind, _bf, True, packed=True)
        RNN_CASES[f"{_kind}-bf{int(_bf)}-h0"] = _rnn(_kind, _bf, True, h0=True)
    RNN_CASES[f"{_kind}-1layer"] = _rnn(_kind, True, False, layers=1)
RNN_CASES["LSTM-proj"] = _rnn("LSTM", True, True, proj=3)
RNN_CASES["RNNCell"] = lambda m: m.nn.RNNCell(4, 5, dtype=m.float64)(_x(m, B, 4)).detach() * 0
RNN_CASES["LSTMCell"] = lambda m: [t.detach() * 0 for t in
                                   m.nn.LSTMCell(4, 5, dtype=m.float64)(_x(m, B, 4))]


# ------------------------------------------------------------------ convolution, fold, resampling

def _f(name, *args, **kw):
    return lambda m: getattr(m.nn.functional, name)(*[a(m) if callable(a) else a for a in args],
                                                    **kw)


def _t(*shape, seed=0, perm=None, dtype="float64", cl=False):
    """A tensor recipe: shape, optionally permuted (a non-contiguous input)."""
    def make(m):
        t = _x(m, *shape, seed=seed, dtype=dtype)
        if perm is not None:
            t = t.permute(*perm)
        if cl:
            t = t.contiguous(memory_format=m.channels_last)
        return t
    return make


NN_CASES = {
    "conv_transpose1d": _f("conv_transpose1d", _t(2, 3, 5), _t(3, 4, 3, seed=1)),
    "conv_transpose1d-nc": _f("conv_transpose1d", _t(5, 3, 2, perm=(2, 1, 0)),
                              _t(3, 4, 3, seed=1), stride=2, padding=1),
    "conv_transpose2d": _f("conv_transpose2d", _t(2, 3, 5, 4), _t(3, 4, 3, 2, seed=1)),
    "conv_transpose2d-nc": _f("conv_transpose2d", _t(4, 5, 3, 2, perm=(3, 2, 1, 0)),
                              _t(3, 4, 3, 2, seed=1), stride=2, groups=1),
    "conv_transpose2d-cl": _f("conv_transpose2d", _t(2, 3, 5, 4, cl=True),
                              _t(3, 4, 3, 2, seed=1)),
    "conv_transpose3d": _f("conv_transpose3d", _t(2, 3, 3, 4, 2), _t(3, 2, 2, 2, 2, seed=1)),
    "conv1d-nc": _f("conv1d", _t(5, 3, 2, perm=(2, 1, 0)), _t(4, 3, 3, seed=1)),
    "conv2d-nc": _f("conv2d", _t(2, 5, 4, 3, perm=(0, 3, 1, 2)), _t(4, 3, 3, 2, seed=1)),
    "conv2d-cl": _f("conv2d", _t(2, 3, 5, 4, cl=True), _t(4, 3, 3, 2, seed=1)),
    "unfold": _f("unfold", _t(2, 3, 5, 4), (2, 2)),
    "unfold-nc": _f("unfold", _t(2, 5, 4, 3, perm=(0, 3, 1, 2)), (2, 3), stride=1, padding=1),
    "fold": _f("fold", _t(2, 12, 12), (5, 4), (2, 2)),
    "fold-nc": _f("fold", _t(2, 12, 12, perm=(0, 2, 1)), (5, 4), (2, 2)),
    "embedding_bag-mean": lambda m: m.nn.functional.embedding_bag(
        m.tensor([1, 2, 4, 5, 4, 3]), _x(m, 7, 3), m.tensor([0, 2, 4])),
    "embedding_bag-sum-2d": lambda m: m.nn.functional.embedding_bag(
        m.tensor([[1, 2], [4, 5]]), _x(m, 7, 3), mode="sum"),
    "embedding_bag-max-wt": lambda m: m.nn.functional.embedding_bag(
        m.tensor([[1, 2], [4, 5]]), _x(m, 3, 7).t(), mode="max"),
    "embedding": lambda m: m.nn.functional.embedding(m.tensor([[1, 2], [4, 5]]), _x(m, 3, 7).t()),
    "linear-nc": _f("linear", _t(4, 3, 2, perm=(2, 1, 0)), _t(5, 4, seed=1), _t(5, seed=2)),
    "linear-wt": _f("linear", _t(2, 3, 4), _t(4, 5, seed=1, perm=(1, 0))),
    "layer_norm-nc": _f("layer_norm", _t(4, 3, 2, perm=(2, 1, 0)), (4,)),
    "group_norm-nc": _f("group_norm", _t(2, 4, 3, 5, perm=(0, 3, 2, 1)), 1),
    "group_norm-cl": _f("group_norm", _t(2, 4, 3, 5, cl=True), 2),
    "batch_norm-nc": _f("batch_norm", _t(2, 4, 3, perm=(0, 2, 1)), None, None, training=True),
    "batch_norm-cl": _f("batch_norm", _t(2, 4, 3, 5, cl=True), None, None, training=True),
    "instance_norm-cl": _f("instance_norm", _t(2, 4, 3, 5, cl=True)),
    "softmax-nc": _f("softmax", _t(4, 3, 2, perm=(2, 1, 0)), -1),
    "softmax-nc0": _f("softmax", _t(4, 3, 2, perm=(2, 1, 0)), 0),
    "log_softmax-nc": _f("log_softmax", _t(4, 3, 2, perm=(2, 1, 0)), 1),
    "normalize-nc": _f("normalize", _t(4, 3, perm=(1, 0))),
    "max_pool2d-cl": _f("max_pool2d", _t(2, 3, 5, 4, cl=True), 2),
    "avg_pool2d-cl": _f("avg_pool2d", _t(2, 3, 5, 4, cl=True), 2),
    "adaptive_avg_pool2d-cl": _f("adaptive_avg_pool2d", _t(2, 3, 5, 4, cl=True), (2, 3)),
    "pixel_shuffle": _f("pixel_shuffle", _t(1, 8, 2, 3), 2),
    "one_hot": lambda m: m.nn.functional.one_hot(m.tensor([[0, 2], [1, 3]]).t(), 4),
    "dropout-eval-nc": _f("dropout", _t(4, 3, perm=(1, 0)), 0.5, False),
    "gelu-nc": _f("gelu", _t(4, 3, perm=(1, 0))),
    "silu-nc": _f("silu", _t(4, 3, perm=(1, 0))),
    "glu-nc": _f("glu", _t(4, 6, perm=(1, 0)), 0),
    "cosine_similarity-nc": _f("cosine_similarity", _t(4, 3, perm=(1, 0)), _t(3, 4, seed=1)),
    "pairwise_distance-nc": _f("pairwise_distance", _t(4, 3, perm=(1, 0)), _t(3, 4, seed=1)),
    "grid_sample": _f("grid_sample", _t(2, 3, 4, 5), _t(2, 3, 2, 2, seed=1),
                      align_corners=False),
    "affine_grid": _f("affine_grid", _t(2, 2, 3), [2, 3, 4, 5], align_corners=False),
}
for _mode, _nd in (("nearest", 1), ("nearest", 2), ("nearest", 3), ("nearest-exact", 2),
                   ("linear", 1), ("bilinear", 2), ("bicubic", 2), ("trilinear", 3),
                   ("area", 2)):
    _shape = (2, 3) + (5, 4, 3)[:_nd]
    _kw = dict(align_corners=False) if _mode in ("linear", "bilinear", "bicubic",
                                                  "trilinear") else {}
    NN_CASES[f"interpolate-{_mode}-{_nd}d"] = _f("interpolate", _t(*_shape), scale_factor=2,
                                                 mode=_mode, **_kw)
    _perm = (0,) + tuple(range(2, 2 + _nd)) + (1,)
    _inv = tuple(int(i) for i in np.argsort(_perm))
    _phys = tuple(_shape[i] for i in _perm)
    NN_CASES[f"interpolate-{_mode}-{_nd}d-cl"] = _f(
        "interpolate", _t(*_phys, perm=_inv), size=(7, 6, 2)[:_nd], mode=_mode, **_kw)
    NN_CASES[f"interpolate-{_mode}-{_nd}d-t"] = _f(
        "interpolate", _t(*reversed(_shape), perm=tuple(reversed(range(_nd + 2)))),
        scale_factor=2, mode=_mode, **_kw)
for _mode in ("constant", "reflect", "replicate", "circular"):
    NN_CASES[f"pad-{_mode}-3d"] = _f("pad", _t(2, 3, 5), (1, 2), mode=_mode)
    NN_CASES[f"pad-{_mode}-3d-nc"] = _f("pad", _t(5, 3, 2, perm=(2, 1, 0)), (1, 2), mode=_mode)
    NN_CASES[f"pad-{_mode}-4d-cl"] = _f("pad", _t(2, 3, 5, 4, cl=True), (1, 2, 2, 1),
                                        mode=_mode)
    NN_CASES[f"pad-{_mode}-4d-nc"] = _f("pad", _t(4, 5, 3, 2, perm=(3, 2, 1, 0)),
                                        (1, 2, 2, 1), mode=_mode)
    NN_CASES[f"pad-{_mode}-5d-nc"] = _f("pad", _t(3, 4, 5, 3, 2, perm=(4, 3, 2, 1, 0)),
                                        (1, 1, 2, 1, 1, 0), mode=_mode)

def _cl3d(*shape, seed=0):
    return lambda m: _x(m, *shape, seed=seed).contiguous(memory_format=m.channels_last_3d)


NN_CASES.update({
    "conv3d-cl3d": _f("conv3d", _cl3d(2, 3, 4, 5, 3), _t(4, 3, 2, 2, 2, seed=1)),
    "conv3d-cl3d-float32": _f("conv3d", lambda m: _cl3d(2, 3, 4, 5, 3)(m).float(),
                              _t(4, 3, 2, 2, 2, seed=1, dtype="float32")),
    "conv_transpose3d-cl3d": _f("conv_transpose3d", _cl3d(2, 3, 3, 4, 2),
                                _t(3, 2, 2, 2, 2, seed=1)),
    "conv2d-weight-cl": _f("conv2d", _t(2, 3, 5, 4), _t(4, 3, 3, 2, seed=1, cl=True)),
    "conv_transpose2d-nc": _f("conv_transpose2d", _t(4, 5, 3, 2, perm=(3, 2, 1, 0)),
                              _t(3, 4, 3, 2, seed=1), stride=2),
    "max_pool2d-idx-cl": _f("max_pool2d", _t(2, 3, 5, 4, cl=True), 2, return_indices=True),
    "max_pool2d-3d": _f("max_pool2d", _t(3, 5, 4), 2),
    "max_pool3d-cl3d": _f("max_pool3d", _cl3d(2, 3, 4, 5, 3), 2, return_indices=True),
    "avg_pool3d-cl3d": _f("avg_pool3d", _cl3d(2, 3, 4, 5, 3), 2),
    "adaptive_max_pool2d-cl": _f("adaptive_max_pool2d", _t(2, 3, 5, 4, cl=True), 2,
                                 return_indices=True),
    "adaptive_avg_pool3d-cl3d": _f("adaptive_avg_pool3d", _cl3d(2, 3, 4, 5, 3), 2),
    "batch_norm-cl3d": _f("batch_norm", _cl3d(2, 3, 4, 5, 3), None, None, training=True),
    "group_norm-cl3d": _f("group_norm", _cl3d(2, 4, 3, 5, 2), 2),
    "layer_norm-cl": _f("layer_norm", _t(2, 3, 5, 4, cl=True), (5, 4)),
    "instance_norm-nc": _f("instance_norm", _t(2, 5, 4, perm=(0, 2, 1))),
    "interpolate-trilinear-cl3d": _f("interpolate", _cl3d(2, 3, 4, 5, 3), scale_factor=2,
                                     mode="trilinear", align_corners=True),
    "interpolate-nearest-cl3d": _f("interpolate", _cl3d(2, 3, 4, 5, 3), size=(3, 2, 4)),
    "pad-constant-5d-cl3d": _f("pad", _cl3d(2, 3, 4, 5, 3), (1, 1, 2, 0, 1, 1)),
    "pad-reflect-5d-cl3d": _f("pad", _cl3d(2, 3, 4, 5, 3), (1, 1, 2, 0, 1, 1), mode="reflect"),
    "pad-replicate-5d-cl3d": _f("pad", _cl3d(2, 3, 4, 5, 3), (1, 1, 2, 0, 1, 1),
                                mode="replicate"),
    "pad-circular-5d-cl3d": _f("pad", _cl3d(2, 3, 4, 5, 3), (1, 1, 2, 0, 1, 1),
                               mode="circular"),
    "pad-constant-4d-n111": _f("pad", _t(2, 1, 1, 1), (1, 1)),
    "one_hot-empty": lambda m: m.nn.functional.one_hot(m.zeros(0, 2, dtype=m.int64).t(), 3),
    "one_hot-0d": lambda m: m.nn.functional.one_hot(m.tensor(2), 4),
})
NN_CASES["pad-constant-2d-nc"] = _f("pad", _t(5, 3, perm=(1, 0)), (1, 2, 0, 1))
NN_CASES["pad-constant-neg-nc"] = _f("pad", _t(5, 3, perm=(1, 0)), (-1, 2))


# ------------------------------------------------------------------ products

def _op(name, *args, **kw):
    def run(m):
        fn = m
        for part in name.split("."):
            fn = getattr(fn, part)
        return fn(*[a(m) if callable(a) else a for a in args], **kw)
    return run


PRODUCT_CASES = {
    "einsum-bij,bjk->bik": _op("einsum", "bij,bjk->bik", _t(2, 3, 4), _t(2, 4, 5, seed=1)),
    "einsum-bij,bjk->bki": _op("einsum", "bij,bjk->bki", _t(2, 3, 4), _t(2, 4, 5, seed=1)),
    "einsum-ij,jk->ki": _op("einsum", "ij,jk->ki", _t(3, 4), _t(4, 5, seed=1)),
    "einsum-ij->ji": _op("einsum", "ij->ji", _t(3, 4)),
    "einsum-ii->i": _op("einsum", "ii->i", _t(3, 3)),
    "einsum-i,j->ji": _op("einsum", "i,j->ji", _t(3), _t(4, seed=1)),
    "einsum-bhld,bhsd->bhls": _op("einsum", "bhld,bhsd->bhls", _t(2, 4, 3, 5, perm=(0, 2, 1, 3)),
                                  _t(2, 6, 3, 5, seed=1, perm=(0, 2, 1, 3))),
    "einsum-bhls,bhsd->blhd": _op("einsum", "bhls,bhsd->blhd", _t(2, 3, 4, 6),
                                  _t(2, 3, 6, 5, seed=1)),
    "einsum-ijk->kji": _op("einsum", "ijk->kji", _t(2, 3, 4)),
    "einsum-ijk->j": _op("einsum", "ijk->j", _t(2, 3, 4)),
    "einsum-ij,ij->ij": _op("einsum", "ij,ij->ij", _t(3, 4), _t(4, 3, seed=1, perm=(1, 0))),
    "einsum-bn,anm,bm->ba": _op("einsum", "bn,anm,bm->ba", _t(2, 3), _t(4, 3, 5, seed=1),
                                _t(2, 5, seed=2)),
    "tensordot-2": _op("tensordot", _t(3, 4, 5), _t(4, 5, 2, seed=1), dims=2),
    "tensordot-list": _op("tensordot", _t(3, 4, 5), _t(5, 2, 3, seed=1), dims=([0, 2], [2, 0])),
    "tensordot-nc": _op("tensordot", _t(5, 4, 3, perm=(2, 1, 0)), _t(4, 5, 2, seed=1), dims=2),
    "kron": _op("kron", _t(2, 3), _t(3, 2, seed=1)),
    "kron-nc": _op("kron", _t(3, 2, perm=(1, 0)), _t(3, 2, seed=1)),
    "cdist": _op("cdist", _t(2, 4, 3), _t(2, 5, 3, seed=1)),
    "cdist-nc": _op("cdist", _t(2, 3, 4, perm=(0, 2, 1)), _t(5, 2, 3, seed=1, perm=(1, 0, 2))),
    "cdist-p1": _op("cdist", _t(4, 3), _t(5, 3, seed=1), p=1.0),
    "bmm-tt": _op("bmm", _t(2, 4, 3, perm=(0, 2, 1)), _t(2, 5, 4, seed=1, perm=(0, 2, 1))),
    "bmm-batch-nc": _op("bmm", _t(3, 2, 4, perm=(1, 0, 2)), _t(2, 4, 5, seed=1)),
    "matmul-tt": _op("matmul", _t(4, 3, perm=(1, 0)), _t(5, 4, seed=1, perm=(1, 0))),
    "matmul-4d-nc": _op("matmul", _t(2, 4, 3, 5, perm=(0, 2, 1, 3)), _t(2, 3, 5, 6, seed=1)),
    "matmul-bcast": _op("matmul", _t(2, 3, 4, 5), _t(5, 6, seed=1)),
    "matmul-bcast-nc": _op("matmul", _t(4, 3, 2, 5, perm=(2, 1, 0, 3)), _t(5, 6, seed=1)),
    "matmul-vec": _op("matmul", _t(2, 3, 4), _t(4, seed=1)),
    "mm-tt": _op("mm", _t(4, 3, perm=(1, 0)), _t(5, 4, seed=1, perm=(1, 0))),
    "mv-t": _op("mv", _t(4, 3, perm=(1, 0)), _t(4, seed=1)),
    "outer": _op("outer", _t(3), _t(4, seed=1)),
    "addmm-t": _op("addmm", _t(3, 5, seed=2), _t(4, 3, perm=(1, 0)), _t(4, 5, seed=1)),
    "baddbmm-nc": _op("baddbmm", _t(2, 3, 5, seed=2), _t(2, 4, 3, perm=(0, 2, 1)),
                      _t(2, 4, 5, seed=1)),
    "linalg.vecdot": _op("linalg.vecdot", _t(4, 3, perm=(1, 0)), _t(3, 4, seed=1)),
    "linalg.cross-nc": _op("linalg.cross", _t(3, 4, perm=(1, 0)), _t(4, 3, seed=1)),
    "linalg.matrix_power": _op("linalg.matrix_power", _t(2, 3, 3), 3),
    "linalg.matrix_power-nc": _op("linalg.matrix_power", _t(2, 3, 3, perm=(0, 2, 1)), 2),
    "linalg.matrix_power-0": _op("linalg.matrix_power", _t(2, 3, 3, perm=(0, 2, 1)), 0),
    "linalg.matrix_power-neg": _op("linalg.matrix_power", lambda m: _spd(m, 3, (2,)), -1),
    "linalg.multi_dot": lambda m: m.linalg.multi_dot([_x(m, 3, 4), _x(m, 4, 5, seed=1),
                                                      _x(m, 5, 2, seed=2)]),
}


# ------------------------------------------------------------------ linalg decompositions
# LAPACK works in column-major order, and PyTorch hands many of its results back as it
# computed them: batched Fortran-ordered matrices (strides (m*n, 1, m)).

def _sq(*batch, n=3, perm=False, seed=0):
    def make(m):
        a = _x(m, *batch, n, n, seed=seed) + 2 * m.eye(n, dtype=m.float64)
        return a.mT.contiguous().mT if perm else a
    return make


def _rect(*shape, seed=0):
    return lambda m: _x(m, *shape, seed=seed)


def _pd(*batch, n=3):
    return lambda m: _spd(m, n, batch)


LINALG_CASES = {}
for _b in ((), (2,)):
    _s = "-b" if _b else ""
    LINALG_CASES.update({
        f"qr{_s}": _op("linalg.qr", _rect(*_b, 4, 3)),
        f"qr-complete{_s}": _op("linalg.qr", _rect(*_b, 4, 3), mode="complete"),
        f"qr-wide{_s}": _op("linalg.qr", _rect(*_b, 3, 4)),
        f"qr-r{_s}": _op("linalg.qr", _rect(*_b, 4, 3), mode="r"),
        f"torch.qr{_s}": _op("qr", _rect(*_b, 4, 3)),
        f"svd{_s}": _op("linalg.svd", _rect(*_b, 4, 3)),
        f"svd-full{_s}": _op("linalg.svd", _rect(*_b, 4, 3), full_matrices=True),
        f"svd-wide{_s}": _op("linalg.svd", _rect(*_b, 3, 4), full_matrices=False),
        f"torch.svd{_s}": _op("svd", _rect(*_b, 4, 3)),
        f"svdvals{_s}": _op("linalg.svdvals", _rect(*_b, 4, 3)),
        f"eigh{_s}": _op("linalg.eigh", _pd(*_b)),
        f"eigvalsh{_s}": _op("linalg.eigvalsh", _pd(*_b)),
        f"cholesky{_s}": _op("linalg.cholesky", _pd(*_b)),
        f"cholesky-upper{_s}": _op("linalg.cholesky", _pd(*_b), upper=True),
        f"torch.cholesky{_s}": _op("cholesky", _pd(*_b)),
        f"cholesky_ex{_s}": _op("linalg.cholesky_ex", _pd(*_b)),
        f"cholesky_inverse{_s}": lambda m, _b=_b: m.cholesky_inverse(
            m.linalg.cholesky(_spd(m, 3, _b))),
        f"cholesky_solve{_s}": lambda m, _b=_b: m.cholesky_solve(
            _x(m, *_b, 3, 2, seed=1), m.linalg.cholesky(_spd(m, 3, _b))),
        f"lu{_s}": _op("linalg.lu", _sq(*_b)),
        f"lu-rect{_s}": _op("linalg.lu", _rect(*_b, 4, 3)),
        f"lu_factor{_s}": _op("linalg.lu_factor", _sq(*_b)),
        f"lu_factor_ex{_s}": _op("linalg.lu_factor_ex", _sq(*_b)),
        f"lu_solve{_s}": lambda m, _b=_b: m.linalg.lu_solve(
            *m.linalg.lu_factor(_sq(*_b)(m)), _x(m, *_b, 3, 2, seed=1)),
        f"lu_unpack{_s}": lambda m, _b=_b: m.lu_unpack(*m.linalg.lu_factor(_sq(*_b)(m))),
        f"inv{_s}": _op("linalg.inv", _sq(*_b)),
        f"inv-f{_s}": _op("linalg.inv", _sq(*_b, perm=True)),
        f"inv_ex{_s}": _op("linalg.inv_ex", _sq(*_b)),
        f"torch.inverse{_s}": _op("inverse", _sq(*_b)),
        f"solve{_s}": _op("linalg.solve", _sq(*_b), _rect(*_b, 3, 2, seed=1)),
        f"solve-vec{_s}": _op("linalg.solve", _sq(*_b), _rect(*_b, 3, seed=1)),
        f"solve-left{_s}": _op("linalg.solve", _sq(*_b), _rect(*_b, 2, 3, seed=1), left=False),
        f"solve_ex{_s}": _op("linalg.solve_ex", _sq(*_b), _rect(*_b, 3, 2, seed=1)),
        f"solve_triangular{_s}": lambda m, _b=_b: m.linalg.solve_triangular(
            _sq(*_b)(m).triu(), _x(m, *_b, 3, 2, seed=1), upper=True),
        f"triangular_solve{_s}": lambda m, _b=_b: m.triangular_solve(
            _x(m, *_b, 3, 2, seed=1), _sq(*_b)(m).triu()),
        f"lstsq{_s}": _op("linalg.lstsq", _rect(*_b, 4, 3), _rect(*_b, 4, 2, seed=1)),
        f"lstsq-vec{_s}": _op("linalg.lstsq", _rect(*_b, 4, 3), _rect(*_b, 4, seed=1)),
        f"lstsq-wide{_s}": _op("linalg.lstsq", _rect(*_b, 3, 4), _rect(*_b, 3, 2, seed=1)),
        f"lstsq-gelsd{_s}": _op("linalg.lstsq", _rect(*_b, 4, 3), _rect(*_b, 4, 2, seed=1),
                                driver="gelsd"),
        f"pinv{_s}": _op("linalg.pinv", _rect(*_b, 4, 3)),
        f"pinv-herm{_s}": _op("linalg.pinv", _pd(*_b), hermitian=True),
        f"matrix_exp{_s}": _op("linalg.matrix_exp", _rect(*_b, 3, 3)),
        f"matrix_exp-f{_s}": _op("linalg.matrix_exp", _sq(*_b, perm=True)),
        f"det{_s}": _op("linalg.det", _sq(*_b)),
        f"slogdet{_s}": _op("linalg.slogdet", _sq(*_b)),
        f"logdet{_s}": _op("logdet", _pd(*_b)),
        f"matrix_rank{_s}": _op("linalg.matrix_rank", _rect(*_b, 4, 3)),
        f"matrix_norm{_s}": _op("linalg.matrix_norm", _rect(*_b, 4, 3)),
        f"matrix_norm-2{_s}": _op("linalg.matrix_norm", _rect(*_b, 4, 3), ord=2),
        f"cond{_s}": _op("linalg.cond", _sq(*_b)),
        f"tensorinv{_s}": _op("linalg.tensorinv", _rect(4, 2, 2), ind=1) if not _b else
        _op("linalg.tensorinv", _rect(2, 3, 6), ind=2),
        f"tensorsolve{_s}": _op("linalg.tensorsolve", _rect(2, 3, 6), _rect(2, 3, seed=1)),
        f"householder_product{_s}": lambda m, _b=_b: m.linalg.householder_product(
            *m.geqrf(_rect(*_b, 4, 3)(m))),
        f"geqrf{_s}": _op("geqrf", _rect(*_b, 4, 3)),
        f"ldl_factor{_s}": _op("linalg.ldl_factor", _pd(*_b)),
        f"vander{_s}": _op("linalg.vander", _rect(*_b, 3)),
        f"diagonal{_s}": _op("linalg.diagonal", _rect(*_b, 3, 3)),
    })

# size-1 and empty dims: PyTorch's strides are those of the column-major buffer, which
# numpy does not give when the transposed matrices are already C-contiguous
for _shape in ((3, 1, 3), (3, 3, 1), (1, 3), (3, 1), (2, 0, 3), (2, 3, 0)):
    _s = "-" + "x".join(map(str, _shape))
    LINALG_CASES.update({
        f"qr{_s}": _op("linalg.qr", _rect(*_shape)),
        f"qr-complete{_s}": _op("linalg.qr", _rect(*_shape), mode="complete"),
        f"qr-r{_s}": _op("linalg.qr", _rect(*_shape), mode="r"),
        f"svd{_s}": _op("linalg.svd", _rect(*_shape), full_matrices=False),
        f"svd-full{_s}": _op("linalg.svd", _rect(*_shape)),
        f"pinv{_s}": _op("linalg.pinv", _rect(*_shape)),
        f"lu{_s}": _op("linalg.lu", _rect(*_shape)),
    })
for _n, _b in ((1, (3,)), (1, ()), (0, (2,)), (0, ())):
    _s = f"-{_n}x{_n}" + ("-b" if _b else "")
    LINALG_CASES.update({
        f"cholesky{_s}": _op("linalg.cholesky", _pd(*_b, n=_n)),
        f"eigh{_s}": _op("linalg.eigh", _pd(*_b, n=_n)),
        f"inv{_s}": _op("linalg.inv", _sq(*_b, n=_n)),
        f"solve{_s}": _op("linalg.solve", _sq(*_b, n=_n), _rect(*_b, _n, 2, seed=1)),
        f"lu_factor{_s}": _op("linalg.lu_factor", _sq(*_b, n=_n)),
        f"matrix_exp{_s}": _op("linalg.matrix_exp", _sq(*_b, n=_n)),
        f"lstsq{_s}": _op("linalg.lstsq", _sq(*_b, n=_n), _rect(*_b, _n, 2, seed=1)),
    })


# ------------------------------------------------------------------ shape, index and reductions

MISC_CASES = {
    "cumsum-nc": _op("cumsum", _t(4, 3, perm=(1, 0)), 1),
    "cumsum-nc0": _op("cumsum", _t(4, 3, perm=(1, 0)), 0),
    "cumprod-nc": _op("cumprod", _t(4, 3, perm=(1, 0)), 1),
    "cummax-nc": _op("cummax", _t(4, 3, perm=(1, 0)), 1),
    "logcumsumexp-nc": _op("logcumsumexp", _t(4, 3, perm=(1, 0)), 0),
    "topk-nc": _op("topk", _t(5, 3, perm=(1, 0)), 2),
    "topk-nc0": _op("topk", _t(5, 3, perm=(1, 0)), 2, dim=0),
    "sort-nc": _op("sort", _t(5, 3, perm=(1, 0))),
    "sort-nc0": _op("sort", _t(5, 3, perm=(1, 0)), dim=0),
    "argsort-nc": _op("argsort", _t(5, 3, perm=(1, 0))),
    "kthvalue-nc": _op("kthvalue", _t(5, 3, perm=(1, 0)), 2),
    "max-dim-nc": _op("max", _t(5, 3, 2, perm=(2, 1, 0)), 1),
    "sum-dim-nc": _op("sum", _t(5, 3, 2, perm=(2, 1, 0)), 1),
    "mean-keepdim-nc": _op("mean", _t(5, 3, 2, perm=(2, 1, 0)), 1, keepdim=True),
    "var-nc": _op("var", _t(5, 3, 2, perm=(2, 1, 0)), 2),
    "std_mean-nc": _op("std_mean", _t(5, 3, 2, perm=(2, 1, 0)), 0),
    "norm-dim-nc": _op("norm", _t(5, 3, 2, perm=(2, 1, 0)), dim=1),
    "logsumexp-nc": _op("logsumexp", _t(5, 3, 2, perm=(2, 1, 0)), 0),
    "index_select-nc": lambda m: m.index_select(_x(m, 5, 3).t(), 1, m.tensor([4, 0, 2])),
    "index_select-nc0": lambda m: m.index_select(_x(m, 5, 3).t(), 0, m.tensor([2, 0])),
    "gather-nc": lambda m: m.gather(_x(m, 5, 3).t(), 1, m.tensor([[0, 1], [2, 3], [4, 0]])),
    "gather-idx-nc": lambda m: m.gather(_x(m, 3, 5), 1, m.tensor([[0, 1, 2], [2, 3, 4]]).t()),
    "take_along_dim-nc": lambda m: m.take_along_dim(_x(m, 5, 3).t(),
                                                    m.tensor([[0], [2], [4]]), 1),
    "masked_select": lambda m: m.masked_select(_x(m, 5, 3).t(), _x(m, 3, 5, seed=1) > 0),
    "cat-nc": lambda m: m.cat([_x(m, 5, 3).t(), _x(m, 5, 3, seed=1).t()], 0),
    "cat-nc1": lambda m: m.cat([_x(m, 5, 3).t(), _x(m, 5, 3, seed=1).t()], 1),
    "cat-mixed": lambda m: m.cat([_x(m, 5, 3).t(), _x(m, 3, 5, seed=1)], 1),
    "cat-cl": lambda m: m.cat([_t(2, 3, 4, 5, cl=True)(m), _t(2, 3, 4, 5, seed=1, cl=True)(m)], 1),
    "stack-nc": lambda m: m.stack([_x(m, 5, 3).t(), _x(m, 5, 3, seed=1).t()], 1),
    "hstack-nc": lambda m: m.hstack([_x(m, 5, 3).t(), _x(m, 5, 3, seed=1).t()]),
    "repeat-nc": _op("Tensor.repeat", _t(4, 3, perm=(1, 0)), 2, 1),
    "tile-nc": _op("tile", _t(4, 3, perm=(1, 0)), (1, 2)),
    "repeat_interleave-nc": _op("repeat_interleave", _t(4, 3, perm=(1, 0)), 2, dim=1),
    "roll-nc": _op("roll", _t(4, 3, perm=(1, 0)), 1, 0),
    "roll-flat-nc": _op("roll", _t(4, 3, perm=(1, 0)), 1),
    "flip-nc": _op("flip", _t(4, 3, perm=(1, 0)), (0,)),
    "fliplr-nc": _op("fliplr", _t(4, 3, perm=(1, 0))),
    "rot90-nc": _op("rot90", _t(4, 3, perm=(1, 0))),
    "tril-nc": _op("tril", _t(4, 3, perm=(1, 0))),
    "triu-nc": _op("triu", _t(2, 4, 3, perm=(0, 2, 1)), 1),
    "diag_embed": _op("diag_embed", _t(2, 3)),
    "diag_embed-nc": _op("diag_embed", _t(3, 2, perm=(1, 0)), 1, 0, 2),
    "diag": _op("diag", _t(3)),
    "diagflat": _op("diagflat", _t(2, 2)),
    "block_diag": _op("block_diag", _t(2, 2), _t(3, 1, seed=1)),
    "movedim-contiguous": lambda m: m.movedim(_x(m, 2, 3, 4), 0, 2).contiguous(),
    "contiguous-nc": lambda m: _x(m, 2, 3, 4).permute(2, 0, 1).contiguous(),
    "clone-nc": lambda m: _x(m, 2, 3, 4).permute(2, 0, 1).clone(),
    "clone-sliced": lambda m: _x(m, 2, 3, 8).permute(2, 0, 1)[::2].clone(),
    "reshape-nc": lambda m: _x(m, 2, 3, 4).permute(2, 0, 1).reshape(4, 6),
    "flatten-nc": lambda m: _x(m, 2, 3, 4).permute(2, 0, 1).flatten(1),
    "to-double-nc": lambda m: _x(m, 2, 3, 4, dtype="float32").permute(2, 0, 1).double(),
    "where-nc": lambda m: m.where(_x(m, 4, 3).t() > 0, _x(m, 3, 4, seed=1), 0.0),
    "clamp-nc": lambda m: _x(m, 4, 3).t().clamp(-0.5, 0.5),
    "nan_to_num-nc": lambda m: _x(m, 4, 3).t().nan_to_num(),
    "cross-nc": lambda m: m.cross(_x(m, 3, 4).t(), _x(m, 4, 3, seed=1), dim=1),
    "cartesian_prod": lambda m: m.cartesian_prod(_x(m, 3), _x(m, 2, seed=1)),
    "meshgrid-ij": lambda m: m.meshgrid(_x(m, 3), _x(m, 2, seed=1), indexing="ij"),
    "meshgrid-xy": lambda m: m.meshgrid(_x(m, 3), _x(m, 2, seed=1), indexing="xy"),
    "trapezoid-nc": lambda m: m.trapezoid(_x(m, 4, 3).t(), dim=0),
    "diff-nc": lambda m: m.diff(_x(m, 4, 3).t(), dim=1),
    "cov": lambda m: m.cov(_x(m, 3, 5)),
    "corrcoef": lambda m: m.corrcoef(_x(m, 3, 5)),
    "unique-dim0": lambda m: m.unique(m.tensor([[1, 2], [1, 2], [3, 4]]), dim=0),
    "unique-dim1": lambda m: m.unique(m.tensor([[1, 2, 5], [1, 2, 5], [3, 4, 5]]), dim=1,
                                      return_inverse=True, return_counts=True),
    "unique_consecutive-dim1": lambda m: m.unique_consecutive(
        m.tensor([[1, 1, 5], [1, 1, 5], [3, 3, 5]]), dim=1),
    "cummin-nc": _op("cummin", _t(4, 3, perm=(1, 0)), 0),
    "sort-stable-nc": lambda m: m.sort(_x(m, 2, 3, 4).permute(2, 0, 1), dim=1, stable=True),
    "argsort-stable-nc": lambda m: m.argsort(_x(m, 2, 3, 4).permute(2, 0, 1), dim=0,
                                             stable=True),
    "msort-nc": _op("msort", _t(2, 3, 4, perm=(2, 0, 1))),
    "linalg.vector_norm-nc": _op("linalg.vector_norm", _t(5, 3, 2, perm=(2, 1, 0)), dim=1),
    "linalg.norm-nc": _op("linalg.norm", _t(5, 3, 2, perm=(2, 1, 0)), dim=(0, 2)),
    "norm-p1-nc": _op("norm", _t(5, 3, 2, perm=(2, 1, 0)), p=1, dim=1),
    "repeat_interleave-nc0": _op("repeat_interleave", _t(2, 3, 4, perm=(2, 0, 1)), 3, dim=0),
    "repeat_interleave-flat-nc": _op("repeat_interleave", _t(4, 3, perm=(1, 0)), 2),
    "repeat_interleave-view": lambda m: m.repeat_interleave(_x(m, 4, 3).t(), 2, dim=1)
    .view(-1),
    "gather-idx-nc3": lambda m: m.gather(_x(m, 3, 4, 5), 2, m.tensor(
        np.arange(24).reshape(4, 3, 2) % 5).permute(1, 0, 2)),
    "cat-cl-mixed": lambda m: m.cat([_t(2, 3, 4, 5, cl=True)(m), _x(m, 2, 3, 4, 5, seed=1)], 1),
    "cat-cl3d": lambda m: m.cat([_cl3d(2, 3, 4, 5, 2)(m), _cl3d(2, 3, 4, 5, 2, seed=1)(m)], 0),
    "unique-dim": lambda m: m.unique(m.tensor([[1, 2], [1, 2], [3, 4]]).t(), dim=1),
    "histc": lambda m: m.histc(_x(m, 10), 4),
    "bucketize": lambda m: m.bucketize(_x(m, 4, 3).t(), m.tensor([-0.5, 0.0, 0.5],
                                                                  dtype=m.float64)),
    "searchsorted-nc": lambda m: m.searchsorted(m.tensor([[-0.5, 0.0, 0.5]] * 2,
                                                         dtype=m.float64),
                                                _x(m, 3, 2).t()),
    "nonzero": lambda m: m.nonzero(_x(m, 4, 3) > 0),
    "argwhere": lambda m: m.argwhere(_x(m, 4, 3) > 0),
    "scatter-nc": lambda m: _x(m, 5, 3).t().scatter(1, m.tensor([[0, 1], [2, 3], [4, 0]]),
                                                    1.0),
    "index_add-nc": lambda m: _x(m, 5, 3).t().index_add(1, m.tensor([0, 2]),
                                                        _x(m, 3, 2, seed=1)),
    "masked_fill-nc": lambda m: _x(m, 5, 3).t().masked_fill(_x(m, 3, 5, seed=1) > 0, 0.0),
    "getitem-adv-nc": lambda m: _x(m, 5, 3).t()[:, m.tensor([0, 2, 4])],
    "getitem-adv0-nc": lambda m: _x(m, 5, 3, 2).permute(2, 1, 0)[m.tensor([1, 0])],
}

CASES = {**SDPA_CASES, **MHA_CASES, **RNN_CASES, **NN_CASES, **PRODUCT_CASES,
         **LINALG_CASES, **MISC_CASES}


# singular and eigen vectors are defined up to their signs: compared in absolute value
SIGN_FREE = ("svd", "torch.svd", "eigh")


def _describe(x, sign_free=False):
    """What a case's result shows a user: per tensor its shape, strides, contiguity,
    dtype and values; nested tuples and lists (named tuples too) element by element."""
    if isinstance(x, (torch.Tensor, autograd_core.Tensor)):
        vals = x.detach()
        if sign_free:
            vals = vals.abs()
        return ("tensor", tuple(x.shape), x.stride(), x.is_contiguous(),
                str(x.dtype).split(".")[-1], vals.tolist())
    if isinstance(x, (tuple, list)):
        return tuple(_describe(e, sign_free) for e in x)
    if isinstance(x, (torch.Size, autograd_core.Size)):
        return tuple(x)
    return x


def _compare(fn, sign_free=False, rtol=1e-6):
    want = _describe(catch(fn, torch, quiet=True), sign_free)
    got = _describe(catch(fn, autograd_core, quiet=True), sign_free)
    assert_same(want, got, rtol=rtol, atol=1e-8)


@pytest.mark.parametrize("name", sorted(CASES))
def test_layout(name):
    _compare(CASES[name], sign_free=name.split("-")[0] in SIGN_FREE,
             rtol=1e-4 if "float32" in name else 1e-6)


# ------------------------------------------------------------------ .grad layouts
# AccumulateGrad gives a leaf's .grad the leaf's own strides when the leaf is dense
# (PyTorch's obeys_layout_contract / clone_obey_contract), else contiguous strides.

def _leaves(m):
    return (_x(m, 4, 3).t().requires_grad_(),                            # transposed
            _x(m, B, L, H, D, seed=1).transpose(1, 2).requires_grad_(),  # the tutorial's
            _x(m, 2, 3, 8, seed=2)[:, :, ::2].requires_grad_(),          # not dense
            _t(2, 3, 5, 4, seed=3, cl=True)(m).requires_grad_())         # channels-last


GRAD_CASES = {
    "sum": lambda m, a, b, c, d: a.sum() + b.sum() + c.sum() + d.sum(),
    "matmul": lambda m, a, b, c, d: (a @ a.t()).sum() + (b @ b.transpose(-1, -2)).sum(),
    "sdpa": lambda m, a, b, c, d: m.nn.functional.scaled_dot_product_attention(b, b, b)
    .pow(2).sum(),
    "softmax": lambda m, a, b, c, d: m.softmax(a, 0).pow(2).sum() + m.softmax(c, -1).pow(2).sum(),
    "conv": lambda m, a, b, c, d: m.nn.functional.conv2d(d, m.ones(2, 3, 2, 2, dtype=m.float64))
    .pow(2).sum(),
    "layer_norm": lambda m, a, b, c, d: m.nn.functional.layer_norm(b, (D,)).pow(2).sum(),
    "inv": lambda m, a, b, c, d: m.linalg.inv(a[:, :3] + 3 * m.eye(3, dtype=m.float64)).sum(),
    "pad": lambda m, a, b, c, d: m.nn.functional.pad(d, (1, 1, 1, 1)).pow(2).sum(),
    "index": lambda m, a, b, c, d: a[m.tensor([0, 2])].pow(2).sum() + c.gather(
        2, m.zeros(2, 3, 2, dtype=m.int64)).sum(),
    "twice": lambda m, a, b, c, d: (a * 2).sum() + (a * 3).sum() + b.exp().sum(),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_grad_layout(name):
    def run(m):
        leaves = _leaves(m)
        GRAD_CASES[name](m, *leaves).backward()
        return [None if t.grad is None else t.grad for t in leaves]
    _compare(run)


# -------------------------- convolution gradients under create_graph
@pytest.mark.parametrize("conv", ["conv1d", "conv2d", "conv3d", "conv2d-groups",
                                  "conv_transpose2d", "conv_transpose1d"])
def test_convolution_create_graph_gradients_are_contiguous(conv):
    # the weight's gradient under create_graph was a transposed view here, so view(-1)
    # and a write through it failed where PyTorch's fresh tensor works (fuzzer seed
    # 13013996)
    def prog(m):
        nsp = {"conv1d": 1, "conv3d": 3, "conv_transpose1d": 1}.get(conv, 2)
        groups = 2 if conv.endswith("groups") else 1
        x = data(m, 2, 4, *(5,) * nsp, requires_grad=True)
        w = data(m, 4, 6 // groups, *(2,) * nsp, seed=1, requires_grad=True)
        b = data(m, 6 if "transpose" in conv else 4, seed=2, requires_grad=True)
        if "transpose" in conv:
            f = getattr(m.nn.functional, conv.split("-")[0])
            y = f(x, w, b, stride=2, padding=1)
        else:
            f = getattr(m.nn.functional, conv.split("-")[0])
            w = w.reshape(6, 4 // groups, *(2,) * nsp) if groups == 1 else \
                data(m, 6, 2, *(2,) * nsp, seed=1, requires_grad=True)
            b = data(m, 6, seed=2, requires_grad=True)
            y = f(x, w, b, padding=1, groups=groups)
        gs = m.autograd.grad((y * y).sum(), (x, w, b), create_graph=True)
        out = [(g.stride(), g.is_contiguous(), g.grad_fn.name()) for g in gs]
        gs[1].view(-1)[0:1].mul_(2.0)
        return out, gs

    same(prog)
