"""torch.nn.attention against PyTorch: SDPBackend, sdpa_kernel choosing among the CPU's
kernels (the flash kernel and the math composite; CUDA-only choices refused with
PyTorch's errors and warnings), and the causal biases of torch.nn.attention.bias as
F.scaled_dot_product_attention's attn_mask (values, gradients, graphs)."""
import pytest

from _diff import catch, data, same, same_error, torch, warns

import autograd_core
# (torch.nn.attention.bias is imported explicitly, in both libraries)
import autograd_core.nn.attention.bias  # noqa: E402,F401
import torch.nn.attention.bias  # noqa: E402,F401


def test_backend_enum():
    def prog(mod):
        B = mod.nn.attention.SDPBackend
        return [(repr(b), str(b), int(b), b.name, b.value, b is getattr(B, b.name))
                for b in (B.ERROR, B.MATH, B.FLASH_ATTENTION, B.EFFICIENT_ATTENTION,
                          B.CUDNN_ATTENTION, B.OVERRIDEABLE)], list(B.__members__)
    same(prog)


def attention(mod, backends=None, set_priority=False, **kw):
    """Attention on fixed inputs inside sdpa_kernel(backends): output, grad_fn, grads."""
    q = data(mod, 2, 3, 4, 8, requires_grad=True)
    k = data(mod, 2, 3, 5, 8, seed=1, requires_grad=True)
    v = data(mod, 2, 3, 5, 8, seed=2, requires_grad=True)

    def run():
        out = mod.nn.functional.scaled_dot_product_attention(q, k, v, **kw)
        out.sum().backward()
        return out, type(out.grad_fn).__name__, q.grad, k.grad, v.grad
    if backends is None:
        return run()
    with mod.nn.attention.sdpa_kernel(backends, set_priority=set_priority):
        return run()


@pytest.mark.parametrize("choice", [
    lambda B: B.MATH, lambda B: B.FLASH_ATTENTION, lambda B: [B.MATH],
    lambda B: [B.FLASH_ATTENTION, B.MATH], lambda B: [B.EFFICIENT_ATTENTION, B.MATH],
    lambda B: [B.CUDNN_ATTENTION, B.FLASH_ATTENTION],
])
def test_sdpa_kernel_selects(choice):
    same(lambda mod: attention(mod, choice(mod.nn.attention.SDPBackend)))


def test_priority_does_not_change_the_cpu_choice():
    def prog(mod):
        B = mod.nn.attention.SDPBackend
        return attention(mod, [B.MATH, B.FLASH_ATTENTION], set_priority=True)
    same(prog)


@pytest.mark.parametrize("choice", [
    lambda B: B.EFFICIENT_ATTENTION, lambda B: B.CUDNN_ATTENTION, lambda B: B.OVERRIDEABLE,
    lambda B: [B.EFFICIENT_ATTENTION, B.CUDNN_ATTENTION], lambda B: [], lambda B: B.ERROR,
])
def test_cuda_only_backends_refused(choice):
    def prog(mod):
        q = mod.ones(1, 2, 3, 4)
        with mod.nn.attention.sdpa_kernel(choice(mod.nn.attention.SDPBackend)):
            return warns(catch, mod.nn.functional.scaled_dot_product_attention, q, q, q)
    same(prog)


FLASH_REFUSED = [
    lambda m, r: (r(1, 2, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 4), dict(dropout_p=0.5)),
    lambda m, r: (r(2, 3, 4), r(2, 3, 4), r(2, 3, 4), {}),
    lambda m, r: (r(1, 2, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 4),
                  dict(attn_mask=r(3, 3).requires_grad_())),
    lambda m, r: (r(1, 2, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 4), dict(attn_mask=r(2, 3, 3))),
    lambda m, r: (r(1, 2, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 4), dict(attn_mask=r(1, 2, 2, 3))),
    lambda m, r: (r(2, 2, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 4), {}),
    lambda m, r: (r(1, 4, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 4), {}),
    lambda m, r: (r(1, 2, 3, 4), r(1, 2, 3, 4), r(1, 2, 3, 5), {}),
    lambda m, r: (r(1, 2, 4, 3).transpose(-1, -2), r(1, 2, 3, 4), r(1, 2, 3, 4), {}),
    lambda m, r: (m.ones(1, 2, 3, 4, dtype=m.int64), m.ones(1, 2, 3, 4, dtype=m.int64),
                  m.ones(1, 2, 3, 4, dtype=m.int64), {}),
]


@pytest.mark.parametrize("i", range(len(FLASH_REFUSED)))
def test_flash_only_refuses_what_flash_cannot_take(i):
    # PyTorch's CPU selection: with only flash allowed, it warns why flash cannot run
    # and refuses ("No available kernel")
    def prog(mod):
        seeds = iter(range(10))

        def r(*shape):
            return data(mod, *shape, dtype="float32", seed=next(seeds))
        q, k, v, kw = FLASH_REFUSED[i](mod, r)
        with mod.nn.attention.sdpa_kernel(mod.nn.attention.SDPBackend.FLASH_ATTENTION):
            return warns(catch, mod.nn.functional.scaled_dot_product_attention, q, k, v, **kw)
    same(prog)


def test_flash_only_empty_sequence_runs():
    def prog(mod):
        q = mod.ones(1, 2, 0, 4)
        k = mod.ones(1, 2, 3, 4)
        with mod.nn.attention.sdpa_kernel(mod.nn.attention.SDPBackend.FLASH_ATTENTION):
            return mod.nn.functional.scaled_dot_product_attention(q, k, k)
    same(prog)


def test_sdpa_kernel_restores_and_decorates():
    def prog(mod):
        B, cuda = mod.nn.attention.SDPBackend, mod.backends.cuda
        states = []

        @mod.nn.attention.sdpa_kernel([B.MATH])
        def inside():
            states.append((cuda.flash_sdp_enabled(), cuda.math_sdp_enabled(),
                           cuda.mem_efficient_sdp_enabled()))
            return attention(mod)[1]
        name = inside()
        after = (cuda.flash_sdp_enabled(), cuda.math_sdp_enabled(),
                 cuda.mem_efficient_sdp_enabled())
        try:
            with mod.nn.attention.sdpa_kernel(B.EFFICIENT_ATTENTION):
                raise KeyError("inside")
        except KeyError:
            pass
        return states, name, after, cuda.flash_sdp_enabled(), attention(mod)[1]
    same(prog)


@pytest.mark.parametrize("call", [
    lambda m: m.nn.attention.sdpa_kernel((m.nn.attention.SDPBackend.MATH,)).__enter__(),
    lambda m: m.nn.attention.sdpa_kernel("math").__enter__(),
])
def test_sdpa_kernel_errors(call):
    same_error(call)


def test_causal_variant_and_bias_objects():
    def prog(mod):
        bias = mod.nn.attention.bias
        lr, ul = bias.causal_lower_right(3, 5), bias.causal_upper_left(4, 2)
        return (repr(bias.CausalVariant.UPPER_LEFT), int(bias.CausalVariant.LOWER_RIGHT),
                repr(lr), repr(ul), lr._materialize(), ul._materialize(), lr.shape, ul.shape,
                repr(lr.variant), lr.seq_len_q, lr.seq_len_kv, isinstance(lr, mod.Tensor),
                type(lr).__name__, lr.requires_grad)
    same(prog)


@pytest.mark.parametrize("call", [
    lambda m: m.nn.attention.bias.causal_upper_left(3),
    lambda m: m.nn.attention.bias.causal_lower_right(3, 4, 5),
    lambda m: m.nn.attention.bias.CausalBias(1, 2, 3),
    lambda m: m.nn.functional.scaled_dot_product_attention(
        m.ones(1, 1, 3, 4), m.ones(1, 1, 3, 4), m.ones(1, 1, 3, 4),
        m.nn.attention.bias.causal_lower_right(3, 3), is_causal=True),
    lambda m: m.nn.functional.scaled_dot_product_attention(
        m.ones(1, 1, 3, 4), m.ones(1, 1, 5, 4, dtype=m.float64), m.ones(1, 1, 5, 4),
        m.nn.attention.bias.causal_lower_right(3, 5)),
])
def test_bias_errors(call):
    same_error(call)


def test_lower_right_warns_when_queries_outnumber_keys():
    same(lambda mod: warns(mod.nn.attention.bias.causal_lower_right, 5, 3)[1])


@pytest.mark.parametrize("maker", ["causal_upper_left", "causal_lower_right"])
@pytest.mark.parametrize("sizes", [(4, 5), (4, 4), (5, 4), (1, 6)])
@pytest.mark.parametrize("options", [{}, {"scale": 0.3}])
def test_bias_as_attn_mask(maker, sizes, options):
    # values, gradients and graph as PyTorch's: upper-left (and equal lengths) runs as
    # is_causal=True, lower-right with q_len != kv_len with the materialised mask
    L, S = sizes

    def prog(mod):
        q = data(mod, 2, 3, L, 8, requires_grad=True)
        k = data(mod, 2, 3, S, 8, seed=1, requires_grad=True)
        v = data(mod, 2, 3, S, 8, seed=2, requires_grad=True)
        with warnings_quiet():
            mask = getattr(mod.nn.attention.bias, maker)(L, S)
        out = mod.nn.functional.scaled_dot_product_attention(q, k, v, mask, **options)
        (out * data(mod, *out.shape, seed=3)).sum().backward()
        return out, type(out.grad_fn).__name__, q.grad, k.grad, v.grad
    same(prog)


def test_bias_matches_the_explicit_mask():
    # lower-right as the boolean mask it stands for, on every backend choice
    def prog(mod):
        q = data(mod, 1, 2, 3, 4)
        k = data(mod, 1, 2, 6, 4, seed=1)
        explicit = mod.tril(mod.ones(3, 6, dtype=mod.bool), diagonal=3)
        F = mod.nn.functional
        a = F.scaled_dot_product_attention(q, k, k, mod.nn.attention.bias.causal_lower_right(3, 6))
        b = F.scaled_dot_product_attention(q, k, k, explicit)
        with mod.nn.attention.sdpa_kernel(mod.nn.attention.SDPBackend.MATH):
            c = F.scaled_dot_product_attention(q, k, k,
                                               mod.nn.attention.bias.causal_lower_right(3, 6))
        return a, b, c, (a - b).abs().max()
    same(prog)


def warnings_quiet():
    from _diff import no_warnings
    return no_warnings()


def test_namespace():
    assert {"SDPBackend", "sdpa_kernel"} <= set(autograd_core.nn.attention.__all__)
    assert sorted(autograd_core.nn.attention.bias.__all__) == sorted(
        torch.nn.attention.bias.__all__)


@pytest.mark.parametrize("name", ["autograd_core.nn.attention", "autograd_core.nn.attention.bias"])
def test_docstring_examples_run(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
