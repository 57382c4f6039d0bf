"""The functions of autograd_core.nn.functional composed in Python of public ops (those
without a compiled op of their own) against torch.nn.functional: values, gradients of every
float input, and error messages."""
import numpy as np
import pytest

from _diff import catch, same

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402
from autograd_core.nn import functional as AF  # noqa: E402

TF = torch.nn.functional
rng = np.random.default_rng(0)


def R(*shape):
    return rng.standard_normal(shape)


def P(*shape):
    return rng.random(shape) + 0.5


class Arr:
    """An input that must not require grad (targets, indices)."""

    def __init__(self, a):
        self.a = np.asarray(a)


X3, X4, X5 = R(2, 3, 9), R(2, 3, 7, 6), R(2, 4, 5, 6, 7)
SIGN = np.where(rng.random((4, 5)) > 0.5, 1.0, -1.0)
LOGSM = R(7, 3, 5)
LOGSM = LOGSM - np.log(np.exp(LOGSM).sum(-1, keepdims=True))

CASES = [
    ("threshold", (R(3, 4), 0.1, 20.0), {}),
    ("hardshrink", (R(3, 4),), {"lambd": 0.3}),
    ("softshrink", (R(3, 4), 0.3), {}),
    ("tanhshrink", (R(3, 4),), {}),
    ("softsign", (R(3, 4),), {}),
    ("logsigmoid", (R(3, 4) * 10,), {}),
    ("hardsigmoid", (R(3, 4) * 3,), {}),
    ("hardswish", (R(3, 4) * 3,), {}),
    ("mish", (R(3, 4),), {}),
    ("glu", (R(3, 4, 2),), {"dim": 1}),
    ("prelu", (R(2, 3, 4), R(3)), {}),
    ("rrelu", (R(3, 4),), {}),
    ("bilinear", (R(4, 3), R(4, 5), R(2, 3, 5), R(2)), {}),
    ("pairwise_distance", (R(4, 3), R(4, 3)), {"p": 1.5, "keepdim": True}),
    ("pdist", (R(5, 3),), {}),
    ("pixel_shuffle", (R(2, 8, 3, 2), 2), {}),
    ("pixel_unshuffle", (R(2, 2, 4, 6), 2), {}),
    ("channel_shuffle", (R(2, 6, 4, 6), 3), {}),
    ("kl_div", (np.log(P(4, 5)), Arr(P(4, 5))), {"reduction": "batchmean"}),
    ("kl_div", (R(4, 5), R(4, 5)), {"reduction": "none", "log_target": True}),
    ("poisson_nll_loss", (R(4, 5), Arr(P(4, 5) * 3)), {"full": True}),
    ("poisson_nll_loss", (P(4, 5), Arr(P(4, 5))), {"log_input": False, "reduction": "sum"}),
    ("gaussian_nll_loss", (R(4, 5), R(4, 5), P(4, 1)), {"full": True}),
    ("gaussian_nll_loss", (R(4, 5), R(4, 5), P(4)), {"reduction": "none"}),
    ("hinge_embedding_loss", (R(4, 5), Arr(SIGN)), {"margin": 0.5}),
    ("margin_ranking_loss", (R(5), R(5), Arr(SIGN[0])), {"margin": 0.2}),
    ("soft_margin_loss", (R(4, 5), Arr(SIGN)), {}),
    ("multilabel_soft_margin_loss", (R(4, 5), Arr((SIGN > 0) * 1.0), P(5)), {}),
    ("cosine_embedding_loss", (R(4, 5), R(4, 5), Arr(SIGN[:, 0])), {"margin": 0.1}),
    ("multi_margin_loss", (R(4, 5), Arr([0, 3, 4, 1])), {"p": 2, "margin": 0.7}),
    ("multilabel_margin_loss", (R(4, 5), Arr([[3, 0, -1, 1, 1], [1, 2, 3, 4, 0],
                                             [-1, 0, 0, 0, 0], [4, -1, 2, 2, 2]])), {}),
    ("triplet_margin_loss", (R(4, 5), R(4, 5), R(4, 5)), {"swap": True, "p": 1}),
    ("triplet_margin_with_distance_loss", (R(4, 5), R(4, 5), R(4, 5)), {"swap": True}),
    ("ctc_loss", (LOGSM, Arr([[1, 2, 2], [3, 1, 0], [4, 4, 4]]), Arr([7, 5, 6]),
                  Arr([3, 2, 1])), {}),
    ("ctc_loss", (LOGSM, Arr([1, 2, 2, 3, 1, 0]), Arr([7, 5, 6]), Arr([3, 2, 1])),
     {"reduction": "none", "blank": 4}),
    ("alpha_dropout", (R(3, 4),), {"training": False}),
    ("embedding_bag", (Arr([1, 2, 4, 5, 4, 3, 2, 9]), R(10, 3), Arr([0, 2, 2, 5])),
     {"mode": "max"}),
    ("embedding_bag", (Arr([[1, 2, 4], [5, 4, 3]]), R(10, 3)), {"mode": "mean",
                                                               "padding_idx": 4}),
    ("embedding_bag", (Arr([1, 2, 4, 5]), R(10, 3), Arr([0, 1, 4]), None, 2, False, "sum",
                       False, P(4), True), {}),
    ("group_norm", (R(2, 6, 4), 3, R(6), R(6)), {}),
    ("instance_norm", (R(2, 3, 5, 4),), {}),
    ("local_response_norm", (R(2, 5, 4, 4), 3), {}),
    ("local_response_norm", (R(2, 5, 7), 2), {"alpha": 0.1, "beta": 0.5, "k": 2.0}),
    ("rms_norm", (R(2, 3, 4), (3, 4), R(3, 4)), {}),
    ("conv3d", (X5, R(6, 2, 2, 3, 2), R(6)), {"stride": (2, 1, 2), "padding": (1, 0, 1),
                                              "dilation": (1, 2, 1), "groups": 2}),
    ("conv3d", (X5, R(3, 4, 1, 2, 3)), {"padding": "same"}),
    ("conv_transpose1d", (X3, R(3, 2, 3), R(2)), {"stride": 2, "padding": 1,
                                                  "output_padding": 1}),
    ("conv_transpose2d", (X4, R(3, 2, 3, 2), R(6)), {"stride": (2, 3), "padding": (1, 2),
                                                     "output_padding": (1, 0), "groups": 3,
                                                     "dilation": (1, 2)}),
    ("conv_transpose3d", (X5, R(4, 2, 2, 2, 3)), {"stride": 2, "padding": 1}),
    ("max_pool1d", (X3, 3, 2, 1), {"return_indices": True}),
    ("max_pool1d", (X3, 2), {"stride": 2, "dilation": 2, "ceil_mode": True}),
    ("max_pool3d", (X5, 2, (1, 2, 2), 1), {"return_indices": True}),
    ("avg_pool1d", (X3, 3, 2, 1), {"ceil_mode": True, "count_include_pad": False}),
    ("avg_pool3d", (X5, 3, 2, 1), {"ceil_mode": True}),
    ("avg_pool3d", (X5, 2), {"divisor_override": 3}),
    ("adaptive_avg_pool1d", (X3, 4), {}),
    ("adaptive_avg_pool2d", (X4, (3, None)), {}),
    ("adaptive_avg_pool3d", (X5, (2, 4, 3)), {}),
    ("adaptive_max_pool1d", (X3, 5), {"return_indices": True}),
    ("adaptive_max_pool2d", (X4, (4, 5)), {"return_indices": True}),
    ("adaptive_max_pool3d", (X5, 3), {}),
    ("lp_pool1d", (np.abs(X3), 2, 3, 2), {}),
    ("lp_pool2d", (np.abs(X4), 3, 2), {"ceil_mode": True}),
    ("lp_pool3d", (np.abs(X5), 3, 2), {}),
    ("fractional_max_pool2d", (X4, 2), {"output_size": (4, 3), "return_indices": True,
                                        "_random_samples": Arr(rng.random((2, 3, 2)))}),
    ("fractional_max_pool3d", (X5, (2, 1, 2)), {"output_ratio": 0.5,
                                                 "_random_samples": Arr(rng.random((2, 4, 3)))}),
    ("interpolate", (X3,), {"scale_factor": 2.3, "mode": "linear"}),
    ("interpolate", (X4,), {"size": (7, 3), "mode": "nearest"}),
    ("interpolate", (X4,), {"scale_factor": (1.7, 2.5), "mode": "nearest-exact"}),
    ("interpolate", (X4,), {"size": (9, 4), "mode": "bilinear", "align_corners": True}),
    ("interpolate", (X4,), {"scale_factor": 1.5, "mode": "bicubic"}),
    ("interpolate", (X4,), {"size": (3, 4), "mode": "area"}),
    ("interpolate", (X5,), {"size": (3, 8, 9), "mode": "trilinear"}),
    ("interpolate", (X5,), {"scale_factor": 0.7, "mode": "nearest",
                            "recompute_scale_factor": True}),
    ("scaled_dot_product_attention", (R(2, 3, 5, 4), R(2, 3, 6, 4), R(2, 3, 6, 2)), {}),
    ("scaled_dot_product_attention", (R(2, 3, 5, 4), R(2, 3, 6, 4), R(2, 3, 6, 2),
                                      Arr(rng.random((5, 6)) > 0.3)), {"scale": 0.3}),
    ("scaled_dot_product_attention", (R(2, 4, 5, 4), R(2, 2, 5, 4), R(2, 2, 5, 2)),
     {"is_causal": True, "enable_gqa": True}),
    ("linear_cross_entropy", (R(5, 6), R(4, 6), Arr([0, 3, 1, 1, 2])),
     {"linear_bias": R(4), "label_smoothing": 0.2}),
]


def _conv(a, mod, grad):
    if isinstance(a, Arr):
        return mod.tensor(a.a)
    if isinstance(a, np.ndarray):
        return mod.tensor(a, requires_grad=grad and a.dtype.kind == "f")
    return a


def _flat(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


@pytest.mark.parametrize("name, args, kwargs", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_against_torch(name, args, kwargs):
    t_args = [_conv(a, torch, True) for a in args]
    a_args = [_conv(a, autograd_core, True) for a in args]
    t_kw = {k: _conv(v, torch, False) for k, v in kwargs.items()}
    a_kw = {k: _conv(v, autograd_core, False) for k, v in kwargs.items()}
    t_out = _flat(getattr(TF, name)(*t_args, **t_kw))
    a_out = _flat(getattr(AF, name)(*a_args, **a_kw))
    assert len(t_out) == len(a_out)
    loss_t, loss_a = 0, 0
    for t, a in zip(t_out, a_out):
        assert str(a.dtype) == str(t.dtype).replace("torch.", "autograd_core.")
        np.testing.assert_allclose(a.detach().numpy(), t.detach().numpy(), rtol=1e-7,
                                   atol=1e-9, err_msg=name)
        if t.requires_grad:
            g = rng.standard_normal(tuple(t.shape))
            loss_t = loss_t + (t * torch.tensor(g)).sum()
            loss_a = loss_a + (a * autograd_core.tensor(g)).sum()
    if isinstance(loss_t, int):
        return
    loss_t.backward()
    loss_a.backward()
    for i, (t, a) in enumerate(zip(t_args, a_args)):
        if isinstance(t, torch.Tensor) and t.requires_grad and t.grad is not None:
            np.testing.assert_allclose(a.grad.numpy(), t.grad.numpy(), rtol=1e-7, atol=1e-9,
                                       err_msg=f"{name} grad {i}")


def test_one_hot():
    def prog(mod):
        F = mod.nn.functional
        return [F.one_hot(mod.tensor([0, 2, 1])), F.one_hot(mod.tensor([[1], [3]]), 5),
                catch(F.one_hot, mod.tensor([1, 5]), 3), catch(F.one_hot, mod.tensor([1., 2])),
                catch(F.one_hot, mod.tensor([-1, 2]))]
    same(prog)


def test_error_messages():
    def prog(mod):
        F = mod.nn.functional
        t = mod.ones
        return [catch(F.glu, t(2, 3)), catch(F.glu, mod.tensor(1.)),
                catch(F.prelu, t(2, 3), t(2)),
                catch(F.kl_div, t(2, 3), t(2, 3), reduction="foo"),
                catch(F.margin_ranking_loss, t(2, 3), t(2, 3), t(2)),
                catch(F.gaussian_nll_loss, t(2, 3), t(2, 3), t(2, 2)),
                catch(F.gaussian_nll_loss, t(2, 3), t(2, 3), -t(2, 3)),
                catch(F.multi_margin_loss, t(2, 3), mod.tensor([0, 1]), p=3),
                catch(F.pixel_shuffle, t(1, 3, 2, 2), 2),
                catch(F.pixel_unshuffle, t(1, 4, 3, 2), 2),
                catch(F.channel_shuffle, t(1, 4, 3, 2), 3),
                catch(F.rms_norm, t(2, 3), (4,)),
                catch(F.group_norm, t(2, 3, 4), 2),
                catch(F.poisson_nll_loss, t(2, 3), t(2, 3), reduction="x"),
                catch(F.local_response_norm, t(2), 2),
                catch(F.embedding_bag, mod.tensor([1, 2]), t(4, 3)),
                catch(F.instance_norm, t(2, 3, 1)),
                catch(F.interpolate, t(1, 2, 3), size=4, mode="bilinear"),
                catch(F.interpolate, t(1, 2, 3, 3), size=4, mode="nearest", align_corners=True),
                catch(F.interpolate, t(1, 2, 3, 3)),
                catch(F.interpolate, t(1, 2, 3, 3), size=(2, 2, 2)),
                catch(F.interpolate, t(1, 2, 3, 3), size=2, scale_factor=2),
                catch(F.max_unpool2d, t(1, 1, 2, 2), mod.zeros(1, 1, 2, 2, dtype=mod.int64), 2,
                      output_size=[9, 9]),
                catch(F.fractional_max_pool2d, t(1, 1, 4, 4), 2),
                catch(F.triplet_margin_loss, t(2, 3), t(2, 3), t(3)),
                catch(F.linear_cross_entropy, t(2, 3), t(4, 2), mod.tensor([0, 1]))]
    same(prog)


@pytest.mark.parametrize("fn, shapes", [
    (lambda x, w: AF.conv_transpose2d(x, w, stride=2, padding=1), [(1, 2, 3, 3), (2, 2, 3, 3)]),
    (lambda x, w: AF.conv3d(x, w, padding=1), [(1, 2, 3, 3, 3), (2, 2, 2, 2, 2)]),
    (lambda x: AF.interpolate(x, scale_factor=1.5, mode="bicubic"), [(1, 1, 3, 3)]),
    (lambda x, w, b: AF.group_norm(x, 2, w, b), [(2, 4, 3), (4,), (4,)]),
    (lambda x: AF.adaptive_max_pool2d(x, 2), [(1, 2, 5, 5)]),
    (lambda x: AF.mish(x) + AF.logsigmoid(x) + AF.hardswish(x), [(3, 4)]),
    (lambda q, k, v: AF.scaled_dot_product_attention(q, k, v), [(1, 3, 4), (1, 5, 4),
                                                                (1, 5, 2)]),
], ids=["conv_transpose2d", "conv3d", "bicubic", "group_norm", "adaptive_max_pool2d",
        "activations", "sdpa"])
def test_gradcheck_and_gradgradcheck(fn, shapes):
    gen = np.random.default_rng(3)
    inputs = [autograd_core.tensor(gen.standard_normal(s) + 0.1, requires_grad=True)
              for s in shapes]
    assert autograd_core.autograd.gradcheck(fn, inputs)
    assert autograd_core.autograd.gradgradcheck(fn, inputs)


def test_module_double_backward():
    # a gradient penalty through an LSTM cell and a conv: create_graph through modules
    nn = autograd_core.nn
    autograd_core.manual_seed(0)
    cell = nn.LSTMCell(3, 4).double()
    conv = nn.Conv1d(4, 2, 1).double()
    x = autograd_core.randn(2, 3, dtype=autograd_core.float64, requires_grad=True)
    h, c = cell(x)
    y = conv(h.unsqueeze(-1)).sum()
    (g,) = autograd_core.autograd.grad(y, x, create_graph=True)
    (g * g).sum().backward()
    assert cell.weight_ih.grad is not None and conv.weight.grad is not None


# --------------------------------------------------- argument errors
@pytest.mark.parametrize("call", ["sdpa", "dropout", "dropout_", "feature_dropout", "F.dropout"])
@pytest.mark.parametrize("p", [1.5, -0.5])
def test_dropout_probability_errors(call, p):
    def prog(m):
        x = m.ones(1, 2, 2)
        if call == "sdpa":
            return m.nn.functional.scaled_dot_product_attention(x, x, x, dropout_p=p).shape
        if call == "F.dropout":
            return m.nn.functional.dropout(x, p)
        return getattr(m, call)(x, p, True)

    same(prog, may_raise=True)


@pytest.mark.parametrize("d1,d2", [("float32", "float64"), ("float64", "float32"),
                                   ("float16", "float32"), ("float32", "float16"),
                                   ("float16", "float16")])
@pytest.mark.parametrize("rows,p", [(2, 2.0), (30, 2.0), (30, 1.0)])
def test_cdist_dtype_errors_follow_the_path_taken(d1, d2, rows, p):
    # the error comes from the kernel each path reaches: mm's dtype check for p=2 past 25
    # rows, else the cdist kernel's dispatch (no Half) and its read of X2
    def prog(m):
        a = m.ones(rows, 3, dtype=getattr(m, d1))
        b = m.ones(rows, 3, dtype=getattr(m, d2))
        return m.cdist(a, b, p=p)

    same(prog, may_raise=True)


# --------------------------------------- cross_entropy's target kind
@pytest.mark.parametrize("target", [
    lambda mod: mod.tensor([1., 2., 0.]),                 # class indices as floats
    lambda mod: mod.ones(3, 4, dtype=mod.long),           # probabilities as integers
    lambda mod: mod.ones(3, 4),                           # fine: probabilities
])
def test_cross_entropy_target_kind_follows_shape(target):
    def prog(mod):
        x = mod.tensor([[0.1, 0.2, 0.3, 0.4]] * 3)
        return mod.nn.functional.cross_entropy(x, target(mod))
    same(prog, may_raise=True)
