"""F.scaled_dot_product_attention records PyTorch's graph.

Where PyTorch 2.13 runs its CPU flash kernel (4-d inputs, no dropout, equal head sizes,
head dim innermost, a mask that needs no gradient: nn.functional's _cpu_flash_attention)
the result's grad_fn is one ScaledDotProductFlashAttentionForCpuBackward0 over (query,
key, value), saving them, the output and the logsumexp; elsewhere PyTorch's math path
composes matmul and softmax (UnsafeViewBackward0). Each case runs under torch and
autograd_core from the same numbers and compares graphs, values, strides, gradients,
saved attributes and the errors of double backward and of in-place writes."""

import pytest
import torch

import autograd_core
from _diff import assert_same, catch, data, graph_desc, same_error
from _diff import same

B, H, L, S, E = 2, 3, 4, 5, 6


def _t(m, *shape, seed=0, dtype="float64", rg=False):
    return data(m, *shape, seed=seed, dtype=dtype, requires_grad=rg)


def _qkv(m, dtype="float64", rg=(True, True, True), hk=H, layout="bhld", dims=4, ev=E):
    """query (B, H, L, E), key and value (B, hk, S, E|ev); layout blhd: stored as the
    tutorial's x.view(B, L, H, E).transpose(1, 2)."""
    def make(n, h, e, seed, grad):
        if dims == 3:
            return _t(m, h, n, e, seed=seed, dtype=dtype, rg=grad)
        if dims == 5:
            return _t(m, 2, B, h, n, e, seed=seed, dtype=dtype, rg=grad)
        if layout == "blhd":
            return _t(m, B, n, h, e, seed=seed, dtype=dtype, rg=grad).transpose(1, 2)
        return _t(m, B, h, n, e, seed=seed, dtype=dtype, rg=grad)
    return make(L, H, E, 0, rg[0]), make(S, hk, E, 1, rg[1]), make(S, hk, ev, 2, rg[2])


def _bool_mask(m):
    mask = _t(m, L, S, seed=3) > -0.5
    mask[1] = False                   # a fully masked row: the kernel's zeros
    return mask


# name -> (kwargs of _qkv, kwargs of the call (a function of the module), flash path?)
CASES = {
    "float64": ({}, lambda m: {}, True),
    "float32": ({"dtype": "float32"}, lambda m: {}, True),
    "blhd": ({"layout": "blhd"}, lambda m: {}, True),
    "bool_mask": ({}, lambda m: {"attn_mask": _bool_mask(m)}, True),
    "float_mask_2d": ({}, lambda m: {"attn_mask": _t(m, L, S, seed=3)}, True),
    "float_mask_4d": ({"dtype": "float32"},
                      lambda m: {"attn_mask": _t(m, B, 1, L, S, seed=3, dtype="float32")}, True),
    "float_mask_11": ({}, lambda m: {"attn_mask": _t(m, 1, 1, seed=3)}, True),
    "causal": ({}, lambda m: {"is_causal": True}, True),
    "scale": ({}, lambda m: {"scale": 0.3}, True),
    "scale_int": ({"layout": "blhd"}, lambda m: {"scale": 2}, True),
    "gqa": ({"hk": 1}, lambda m: {"enable_gqa": True}, True),
    "gqa_blhd_causal": ({"hk": 1, "layout": "blhd", "dtype": "float32"},
                        lambda m: {"enable_gqa": True, "is_causal": True}, True),
    "only_query": ({"rg": (True, False, False)}, lambda m: {}, True),
    "only_value": ({"rg": (False, False, True)}, lambda m: {}, True),
    "key_value": ({"rg": (False, True, True), "hk": 1},
                  lambda m: {"enable_gqa": True}, True),
    "no_grad_inputs": ({"rg": (False, False, False)}, lambda m: {}, True),
    # PyTorch's math path
    "3d": ({"dims": 3}, lambda m: {}, False),
    "5d": ({"dims": 5}, lambda m: {}, False),
    "value_head_size": ({"ev": 7}, lambda m: {}, False),
    "mask_requires_grad": ({}, lambda m: {"attn_mask": _t(m, L, S, seed=3, rg=True)}, False),
    "mask_3d": ({}, lambda m: {"attn_mask": _t(m, H, L, S, seed=3)}, False),
    "causal_3d": ({"dims": 3}, lambda m: {"is_causal": True}, False),
}
FLASH = [n for n, c in CASES.items() if c[2]]


def _run(m, name, no_grad=False):
    qkv_kw, call_kw, _ = CASES[name]
    q, k, v = _qkv(m, **qkv_kw)
    F = m.nn.functional
    if no_grad:
        with m.no_grad():
            return (q, k, v), F.scaled_dot_product_attention(q, k, v, **call_kw(m))
    return (q, k, v), F.scaled_dot_product_attention(q, k, v, **call_kw(m))


def _tol(name):
    return (1e-4, 1e-5) if "float32" in str(CASES[name][0].get("dtype")) else (1e-7, 1e-9)


@pytest.mark.parametrize("name", list(CASES))
def test_graph(name):
    """The node's name and its edges: one flash node over (query, key, value), an edge
    None for an input without grad; the math path's UnsafeViewBackward0 elsewhere."""
    def run(m):
        (q, k, v), out = _run(m, name)
        fn = out.grad_fn
        if fn is None:
            return None
        if CASES[name][2]:
            return graph_desc(fn), fn.name(), [nr for _, nr in fn.next_functions]
        return type(fn).__name__
    want, got = run(torch), run(autograd_core)
    assert got == want
    if CASES[name][2] and want is not None:
        assert want[0].startswith("ScaledDotProductFlashAttentionForCpuBackward0(")


@pytest.mark.parametrize("name", FLASH)
def test_no_grad_mode(name):
    def run(m):
        _, out = _run(m, name, no_grad=True)
        return out, out.stride(), out.grad_fn is None
    want, got = run(torch), run(autograd_core)
    assert_same(want, got, *_tol(name))


@pytest.mark.parametrize("name", list(CASES))
def test_values_strides_gradients(name):
    """Output values and strides (the flash kernel's empty_like(query)), and the gradients
    of the inputs that require grad with their strides (the kernel's: stored (B, n, H, E)
    whatever the input's layout), for a random upstream gradient."""
    def run(m):
        (q, k, v), out = _run(m, name)
        res = [out, out.stride()]
        if out.requires_grad:
            g = _t(m, *out.shape, seed=9, dtype=str(out.dtype).split(".")[-1])
            grads = m.autograd.grad(out, [x for x in (q, k, v) if x.requires_grad], g)
            res += [(d, d.stride()) for d in grads]
        return res
    assert_same(run(torch), run(autograd_core), *_tol(name))


@pytest.mark.parametrize("name", ["float64", "bool_mask", "causal", "gqa", "only_value"])
def test_double_backward_raises(name):
    """PyTorch has no derivative for the flash backward: the gradients made with
    create_graph hang from its NotImplemented node, which raises when reached."""
    def grads(m):
        (q, k, v), out = _run(m, name)
        inputs = [x for x in (q, k, v) if x.requires_grad]
        return m.autograd.grad(out, inputs, _t(m, *out.shape, seed=9), create_graph=True)

    def names(m):
        return [type(g.grad_fn).__name__ for g in grads(m)]

    assert names(autograd_core) == names(torch) == ["NotImplemented"] * len(names(torch))
    same_error(lambda m: grads(m)[0].sum().backward())


@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("grad_of", ["all", "query"])
def test_inplace_write_after_forward(which, grad_of):
    """The node saves query, key and value themselves: a write into one of them before
    backward is PyTorch's version error, even into an input that needs no gradient."""
    def run(m):
        rg = (True, True, True) if grad_of == "all" else (True, False, False)
        q, k, v = _qkv(m, rg=rg)
        q, k, v = q * 1, k * 1, v * 1          # non-leaves: writable in place
        out = m.nn.functional.scaled_dot_product_attention(q, k, v)
        (q, k, v)[which].add_(1)
        out.sum().backward()
    same_error(run)


def test_inplace_write_to_output():
    def run(m):
        q, k, v = _qkv(m)
        out = m.nn.functional.scaled_dot_product_attention(q, k, v)
        out.mul_(2)
        out.sum().backward()
    same_error(run)


@pytest.mark.parametrize("name", ["float64", "float32", "blhd", "bool_mask", "float_mask_2d",
                                  "float_mask_4d", "causal", "scale", "scale_int", "gqa",
                                  "only_value"])
def test_saved_attributes(name):
    """The _saved_* attributes PyTorch exposes: the inputs, the output, the logsumexp
    (stored (B, L, H)), the mask as the node saves it (a boolean one as its additive float
    form, None for is_causal), dropout_p, is_causal and scale (None unless given)."""
    def run(m):
        _, out = _run(m, name)
        fn = out.grad_fn
        tensors = [getattr(fn, "_saved_" + a) for a in ("query", "key", "value", "output",
                                                         "logsumexp")]
        mask = fn._saved_attn_mask
        return (tensors, tensors[-1].stride(), mask, None if mask is None else mask.stride(),
                fn._saved_dropout_p, fn._saved_is_causal, fn._saved_scale)
    assert_same(run(torch), run(autograd_core), *_tol(name))


def test_saved_tensors_are_the_inputs():
    """query, key and value are saved as themselves (no copy): the same values and
    version counter as the caller's tensors."""
    for m in (torch, autograd_core):
        q, k, v = _qkv(m)
        out = m.nn.functional.scaled_dot_product_attention(q, k, v)
        fn = out.grad_fn
        assert fn._saved_key.data_ptr() == k.data_ptr()
        assert fn._saved_query._version == q._version



@pytest.mark.parametrize("dropout_p", [0.5, 1.0])
def test_dropout_takes_the_math_path(dropout_p):
    """With dropout (F's dropout_p applies whatever the module's training flag) PyTorch
    takes its math path: the composite's graph, not the flash node (values are random)."""
    def run(m):
        q, k, v = _qkv(m)
        out = m.nn.functional.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p)
        return type(out.grad_fn).__name__, out.shape, out.stride()
    assert run(autograd_core) == run(torch)


# ---- safe softmax, masked rows, the math path's graph, input checks
NINF = float("-inf")


def _graph(fn, seen=None):
    """node names of a graph, depth first (each node once)."""
    seen = set() if seen is None else seen
    if fn is None or id(fn) in seen:
        return []
    seen.add(id(fn))
    out = [fn.name()]
    for nxt, _ in fn.next_functions:
        out.append(_graph(nxt, seen))
    return out


def test_safe_softmax_rows_masked_throughout():
    def prog(m):
        x = m.tensor([[NINF, NINF, NINF], [1., 2., NINF], [0., 0., 0.]], requires_grad=True)
        y = m._safe_softmax(x, 1)
        y.backward(m.tensor([[1., 2, 3], [1, 2, 3], [1, 2, 3]]))
        return y, y.grad_fn.name(), x.grad

    same(prog)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_safe_softmax_dims_dtype_and_empty(dim):
    def prog(m):
        x = m.tensor([[NINF, NINF], [1., 2.]])
        return (m._safe_softmax(x, dim), m._safe_softmax(x, dim, dtype=m.float64),
                m._safe_softmax(m.tensor(NINF), 0), m._safe_softmax(m.zeros(0, 3), dim))

    same(prog)


@pytest.mark.parametrize("shape", [(1, 2, 3), (1, 1, 2, 3)])
def test_sdpa_row_masked_throughout_is_zero(shape):
    # the math path (3-d) and the flash path (4-d) both answer zeros for such a row
    def prog(m):
        q = m.tensor([[0.5, -1.0, 0.25], [1.5, 0.3, -0.2]], dtype=m.float64).reshape(shape)
        q.requires_grad_(True)
        mask = m.tensor([[True, True], [False, False]])
        out = m.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=mask)
        out.sum().backward()
        return out, q.grad

    same(prog)


@pytest.mark.parametrize("kw", [{}, {"mask": "bool"}, {"mask": "float"}, {"is_causal": True},
                                {"scale": -0.3}, {"dropout_p": 0.3}])
def test_sdpa_math_path_records_pytorchs_graph(kw):
    # 3-d inputs take the math composite in PyTorch: q and k scaled by sqrt(scale) each
    # (MulBackward1), the mask added, _safe_softmax, dropout's MulBackward0
    def prog(m):
        m.manual_seed(0)
        q, k, v = (data(m, 1, 3, 4, seed=s, requires_grad=True) for s in range(3))
        args = dict(kw)
        if args.get("mask") == "bool":
            args["attn_mask"] = m.tensor([[True, False, True]] * 3)
        elif args.get("mask") == "float":
            args["attn_mask"] = data(m, 3, 3, seed=7)
        args.pop("mask", None)
        out = m.nn.functional.scaled_dot_product_attention(q, k, v, **args)
        gq, gk, gv = m.autograd.grad(out.sum(), (q, k, v))
        return out, _graph(out.grad_fn), gq, gk, gv

    same(prog)


def test_sdpa_math_path_saves_scaled_query():
    # a write into a query that needs no gradient, after the forward, is no error: the
    # product saved the scaled copy (fuzzer seed 12002439)
    def prog(m):
        t3 = m.tensor([[[-2.0], [0.3]]], dtype=m.float64)
        t4 = m.tensor([[[1.0], [-0.3]]], dtype=m.float64, requires_grad=True)
        t5 = m.tensor([[[1.0], [-0.75]]], dtype=m.float64, requires_grad=True)
        t6 = m.nn.functional.scaled_dot_product_attention(t3.mT, t4.mT, t5.mT)
        t7 = t6.mT.view(-1)
        t3[0::2, 0:] = 1.0
        (t5.sum() + (t6 * t6).sum() + t7.sum()).backward()
        return t6, t4.grad, t5.grad

    same(prog)


@pytest.mark.parametrize("case", ["q32-kv64", "k32", "v32", "mask-int", "mask-64", "mask-16",
                                  "mask-32-q64", "1-d", "int64", "3-d-q32-kv64"])
def test_sdpa_input_checks(case):
    # PyTorch's validate_sdpa_input, before either path (fuzzer seed 12010193: a float32
    # query with float64 key and value ran here); "int64" reaches the math path, whose
    # q * sqrt(scale) promotes to float before the product with the int value refuses
    def prog(m):
        f32 = m.ones(1, 2, 1, 3)
        f64 = f32.double()
        q, k, v, mask = f32, f32, f32, None
        if case == "q32-kv64":
            k = v = f64
        elif case == "k32":
            q = v = f64
        elif case == "v32":
            q = k = f64
        elif case.startswith("mask-"):
            q = k = v = f64 if case.endswith("q64") else f32
            mask = m.ones(1, 1, dtype={"int": m.int64, "64": m.float64, "16": m.float16,
                                       "32": m.float32}[case.split("-")[1]])
        elif case == "1-d":
            q = k = v = m.ones(3)
        elif case == "int64":
            q = k = v = m.ones(2, 3, dtype=m.int64)
        elif case == "3-d-q32-kv64":
            q, k, v = f32[0], f64[0], f64[0]
        return m.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)

    same(prog, may_raise=True)
