"""nn.utils fusion (conv/linear + BatchNorm), weight memory formats and skip_init,
compared with PyTorch."""
import pytest

from _diff import same, same_error, data


def _trained_bn(mod, bn, shape, seed):
    # running statistics that are not the defaults: a few training steps
    bn.train()
    for s in range(3):
        bn(data(mod, *shape, seed=seed + s, dtype="float32") * 2 + 0.5)
    if bn.affine:
        with mod.no_grad():
            bn.weight.copy_(data(mod, bn.num_features, seed=seed + 10, dtype="float32"))
            bn.bias.copy_(data(mod, bn.num_features, seed=seed + 11, dtype="float32"))
    return bn.eval()


def _load(mod, m, seed):
    with mod.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(data(mod, *p.shape, seed=seed + i, dtype=str(p.dtype).split(".")[-1]))
    return m


@pytest.mark.parametrize("kind, transpose, bias, affine", [
    ("Conv2d", False, True, True), ("Conv2d", False, False, True),
    ("Conv1d", False, True, False), ("Conv3d", False, True, True),
    ("ConvTranspose2d", True, True, True), ("ConvTranspose1d", True, False, False),
])
def test_fuse_conv_bn_eval(kind, transpose, bias, affine):
    def prog(mod):
        nd = int(kind[-2])
        conv = _load(mod, getattr(mod.nn, kind)(3, 4, 2, bias=bias), 1).eval()
        bnc = getattr(mod.nn, f"BatchNorm{nd}d")(4, affine=affine)
        x = data(mod, 2, 3, *([5] * nd), seed=7, dtype="float32")
        bn = _trained_bn(mod, bnc, conv(x).shape, 20)
        fused = mod.nn.utils.fuse_conv_bn_eval(conv, bn, transpose=transpose)
        y = fused(x)
        y.sum().backward()
        return (y, bn(conv(x)).detach(), fused.weight, fused.bias, fused.weight.grad,
                fused.bias.grad, type(fused.weight).__name__, fused is conv,
                conv.weight.grad is None)
    same(prog, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("bias, features", [(True, 4), (False, 4), (True, 1)])
def test_fuse_linear_bn_eval(bias, features):
    def prog(mod):
        lin = _load(mod, mod.nn.Linear(3, 4, bias=bias), 1).eval()
        x = data(mod, 6, 3, seed=3, dtype="float32")
        bn = _trained_bn(mod, mod.nn.BatchNorm1d(features), (6, features), 30)
        fused = mod.nn.utils.fuse_linear_bn_eval(lin, bn)
        return fused(x), fused.weight, fused.bias, fused.weight.requires_grad
    same(prog, rtol=1e-4, atol=1e-5)


def test_fuse_weights_dtypes_and_grads():
    def prog(mod):
        w = data(mod, 4, 2, 3, seed=1, requires_grad=True)
        rm, rv = data(mod, 4, seed=2), data(mod, 4, seed=3, lo=0.5, hi=2.0)
        bw = data(mod, 4, seed=4, requires_grad=True)
        fw, fb = mod.nn.utils.fuse_conv_bn_weights(w, None, rm, rv, 1e-3, bw, None)
        # the fused Parameters are leaves: no graph back to the inputs
        lw, lb = mod.nn.utils.fuse_linear_bn_weights(
            data(mod, 4, 3, seed=5, dtype="float32"), data(mod, 4, seed=6),
            rm, rv, 1e-5, bw.detach(), data(mod, 4, seed=7))
        return fw, fb, fw.is_leaf, fb.requires_grad, lw, lb
    same(prog)


def test_fuse_errors():
    def train_mode(mod):
        return mod.nn.utils.fuse_conv_bn_eval(mod.nn.Conv2d(2, 2, 1), mod.nn.BatchNorm2d(2))
    same_error(train_mode)

    def features(mod):
        return mod.nn.utils.fuse_linear_bn_eval(mod.nn.Linear(2, 3).eval(),
                                                mod.nn.BatchNorm1d(2).eval())
    same_error(features)

    def no_stats(mod):
        bn = mod.nn.BatchNorm2d(2, track_running_stats=False).eval()
        return mod.nn.utils.fuse_conv_bn_eval(mod.nn.Conv2d(2, 2, 1).eval(), bn)
    same_error(no_stats)


@pytest.mark.parametrize("fmt, kinds", [
    ("channels_last", ["Conv2d", "ConvTranspose2d", "Conv1d"]),
    ("contiguous_format", ["Conv2d"]),
])
def test_convert_conv2d_weight_memory_format(fmt, kinds):
    def prog(mod):
        m = mod.nn.Sequential(*[getattr(mod.nn, k)(2, 3, 1 if i == 0 else 3)
                                for i, k in enumerate(kinds)],
                              mod.nn.Sequential(mod.nn.Conv2d(3, 4, 2)))
        _load(mod, m, 0)
        before = [p.detach().clone() for p in m.parameters()]
        if fmt == "contiguous_format":
            mod.nn.utils.convert_conv2d_weight_memory_format(m, mod.channels_last)
        r = mod.nn.utils.convert_conv2d_weight_memory_format(m, getattr(mod, fmt))
        return (r is m, [p.stride() for p in m.parameters()],
                [type(p).__name__ for p in m.parameters()],
                [(p - b).abs().max() for p, b in zip(m.parameters(), before)])
    same(prog)


def test_convert_conv3d_weight_memory_format():
    def prog(mod):
        m = mod.nn.Sequential(mod.nn.Conv3d(2, 3, 1), mod.nn.ConvTranspose3d(3, 2, 2),
                              mod.nn.Conv2d(2, 2, 2))
        _load(mod, m, 0)
        mod.nn.utils.convert_conv3d_weight_memory_format(m, mod.channels_last_3d)
        x = data(mod, 1, 2, 3, 3, 3, seed=9, dtype="float32")
        return [p.stride() for p in m.parameters()], m[1](m[0](x))
    same(prog, rtol=1e-5, atol=1e-6)


def test_skip_init():
    def prog(mod):
        mod.manual_seed(0)
        m = mod.nn.utils.skip_init(mod.nn.Linear, 5, 3, bias=True)
        m2 = mod.nn.utils.skip_init(mod.nn.Conv2d, in_channels=2, out_channels=4,
                                    kernel_size=3, dtype=mod.float64)
        # initialisation drew nothing from the generator
        after = mod.rand(3)
        return (after, [(n, p.shape, p.dtype, p.requires_grad, type(p).__name__)
                        for n, p in list(m.named_parameters()) + list(m2.named_parameters())],
                type(m).__name__)
    same(prog)

    same_error(lambda mod: mod.nn.utils.skip_init(int))

    def no_device(mod):
        class M(mod.nn.Module):
            def __init__(self, n):
                super().__init__()
                self.w = mod.nn.Parameter(mod.zeros(n))
        return mod.nn.utils.skip_init(M, 3)
    same_error(no_device)
