"""amp.custom_fwd/custom_bwd (and the deprecated torch.cuda.amp forms),
random.thread_safe_generator and the deprecated testing.assert_allclose, compared with
PyTorch."""
import pytest

from _diff import same, same_error, data, warns


def _function(mod, cast_inputs, device_type="cpu"):
    seen = {}

    class MatMul(mod.autograd.Function):
        @staticmethod
        @mod.amp.custom_fwd(device_type=device_type, cast_inputs=cast_inputs)
        def forward(ctx, a, b, scale=None):
            ctx.save_for_backward(a, b)
            seen["fwd"] = (mod.is_autocast_enabled("cpu"), a.dtype, b.dtype,
                           None if scale is None else scale["s"].dtype)
            return (a @ b) if scale is None else (a @ b) * scale["s"]

        @staticmethod
        @mod.amp.custom_bwd(device_type=device_type)
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            seen["bwd"] = (mod.is_autocast_enabled("cpu"), mod.get_autocast_dtype("cpu"),
                           g.dtype)
            ga, gb = g @ b.t(), a.t() @ g
            return ga, gb, None
    return MatMul, seen


@pytest.mark.parametrize("cast_inputs", [None, "float32", "bfloat16"])
@pytest.mark.parametrize("autocast", [True, False])
def test_custom_fwd_bwd(cast_inputs, autocast):
    def prog(mod):
        fn, seen = _function(mod, None if cast_inputs is None else getattr(mod, cast_inputs))
        a = data(mod, 3, 4, seed=1, dtype="float32", requires_grad=True)
        # mixed dtypes only where autocast (or cast_inputs) reconciles them
        b = data(mod, 4, 2, seed=2, dtype="bfloat16" if autocast else "float32",
                 requires_grad=True)
        s = {"s": data(mod, 1, seed=3, dtype="float32")}
        with mod.autocast("cpu", enabled=autocast, dtype=mod.float16):
            y = fn.apply(a, b, s)
        y.float().sum().backward()
        return y, a.grad, b.grad, seen
    same(prog, rtol=1e-2, atol=1e-2)


def test_custom_fwd_plain_decorator_and_errors():
    def prog(mod):
        class Id(mod.autograd.Function):
            @staticmethod
            @mod.amp.custom_fwd(device_type="cpu")
            def forward(ctx, x):
                return x * 2

            @staticmethod
            @mod.amp.custom_bwd(device_type="cpu")
            def backward(ctx, g):
                return g * 2
        x = data(mod, 3, seed=0, requires_grad=True)
        Id.apply(x).sum().backward()
        return x.grad, Id.forward.__name__, Id.backward.__name__
    same(prog)
    same_error(lambda mod: mod.amp.custom_fwd(lambda ctx: 0, device_type=0))
    same_error(lambda mod: mod.amp.custom_bwd(lambda ctx: 0, device_type=None))


def test_cuda_amp_deprecated_forms():
    def prog(mod):
        f, w1 = warns(mod.cuda.amp.custom_fwd, cast_inputs=mod.float32)
        g, w2 = warns(mod.cuda.amp.custom_bwd, lambda ctx, x: x)
        return callable(f), callable(g), w1, w2, g.__name__
    same(prog)


def test_thread_safe_generator():
    def prog(mod):
        mod.manual_seed(3)
        gen = mod.random.thread_safe_generator()
        return gen, mod.randint(0, 10, (4,), generator=gen)
    same(prog)


@pytest.mark.parametrize("actual, expected, kw", [
    ([1.0, 2.0], [1.00001, 2.0], {}),
    ([1.0, 2.0], [1.001, 2.0], {}),
    ([1.0, float("nan")], [1.0, float("nan")], {}),
    ([1.0, float("nan")], [1.0, float("nan")], {"equal_nan": False}),
    ([1, 2], [1.0, 2.0], {}),
    ([1.0, 2.0], [1.5, 2.0], {"rtol": 0.5, "atol": 0.0}),
    ([1.0, 2.0], [1.5, 2.0], {"msg": "custom"}),
    ([1.0], [1.0, 2.0], {}),
])
@pytest.mark.parametrize("as_tensor", [True, False])
def test_assert_allclose(actual, expected, kw, as_tensor):
    def prog(mod):
        a = mod.tensor(actual) if as_tensor else actual
        e = mod.tensor(expected, dtype=mod.float64) if as_tensor else expected
        return warns(mod.testing.assert_allclose, a, e, **kw)
    same(prog, may_raise=True)
