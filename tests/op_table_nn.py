"""Table entries for autograd_core.nn.functional (see op_spec.py for the format;
op_table.py collects all families)."""
from op_spec import C, registrar

OPS = []
op = registrar(OPS)

# Node classes no entry's output or first-order gradient carries, each with the reason.
GRAD_FN_ALLOWLIST = {
    "BinaryCrossEntropyBackwardBackward0":
        "binary_cross_entropy's double-backward node: the table feeds the loss sigmoid(leaf) "
        "(inputs in (0, 1)), so the node sits inside the first-order gradient's graph "
        "(below SigmoidBackwardBackward0); nn.binary_cross_entropy.*'s double backward "
        "checks its values",
}


def F(m):
    return m.nn.functional


_ACT = [C(()), C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C((3, 2), nc=("step",))]

# ------------------------------------------------------------------ activations

op("nn.relu", lambda m, x: F(m).relu(x), [C((3, 4))], ("ReluBackward0",),
   domain="nonzero", second_order=False, double_grad_fns=("ThresholdBackwardBackward0",))
op("nn.relu.nc", lambda m, x: F(m).relu(x), [C((4, 3), nc=("t",))], ("ReluBackward0",),
   domain="nonzero", second_order=False)
op("nn.relu_inplace", lambda m, x: F(m).relu(x * 1, inplace=True), [C((3, 4))],
   ("ReluBackward0",), domain="nonzero", second_order=False)
op("nn.relu_", lambda m, x: F(m).relu_(x * 1), [C((3, 4))], ("ReluBackward0",),
   domain="nonzero", second_order=False)
op("Tensor.relu_", lambda m, x: (x * 1).relu_(), [C((5,))], ("ReluBackward0",),
   domain="nonzero", second_order=False)
op("nn.leaky_relu", lambda m, x: F(m).leaky_relu(x), _ACT, ("LeakyReluBackward0",),
   domain="nonzero", second_order=False)
op("nn.leaky_relu.contiguous", lambda m, x: F(m).leaky_relu(x), [C((3, 4))],
   ("LeakyReluBackward0",), domain="nonzero", second_order=False,
   double_grad_fns=("LeakyReluBackwardBackward0",))
op("nn.leaky_relu.slope", lambda m, x: F(m).leaky_relu(x, 0.2), [C((3, 4))],
   ("LeakyReluBackward0",), domain="nonzero", second_order=False)
op("nn.leaky_relu_inplace", lambda m, x: F(m).leaky_relu(x * 1, 0.3, inplace=True), [C((3, 4))],
   ("LeakyReluBackward1",), domain="nonzero", second_order=False)
op("nn.elu", lambda m, x: F(m).elu(x), _ACT, ("EluBackward0",), domain="nonzero",
   double_grad_fns=("EluBackwardBackward0",))
op("nn.elu.alpha", lambda m, x: F(m).elu(x, 0.5), [C((3, 4))], ("EluBackward0",), domain="nonzero")
op("nn.elu_inplace", lambda m, x: F(m).elu(x * 1, 1.5, inplace=True), [C((3, 4))],
   ("EluBackward1",), domain="nonzero")
op("nn.selu", lambda m, x: F(m).selu(x), [C((3, 4))], ("EluBackward0",), domain="nonzero")
op("nn.celu", lambda m, x: F(m).celu(x, 0.7), [C((3, 4))], ("CeluBackward0",), domain="nonzero")
op("nn.celu_inplace", lambda m, x: F(m).celu(x * 1, 0.7, inplace=True), [C((3, 4))],
   ("CeluBackward1",), domain="nonzero")
op("nn.gelu", lambda m, x: F(m).gelu(x), _ACT, ("GeluBackward0",))
op("nn.gelu.tanh", lambda m, x: F(m).gelu(x, approximate="tanh"), _ACT, ("GeluBackward0",))
op("nn.gelu.contiguous", lambda m, x: F(m).gelu(x), [C((3, 4)), C(())], ("GeluBackward0",),
   double_grad_fns=("GeluBackwardBackward0",))
op("nn.gelu.tanh_contiguous", lambda m, x: F(m).gelu(x, approximate="tanh"), [C((3, 4))],
   ("GeluBackward0",), double_grad_fns=("GeluBackwardBackward0",))
op("nn.silu", lambda m, x: F(m).silu(x), _ACT, ("SiluBackward0",))
op("nn.silu_inplace", lambda m, x: F(m).silu(x * 1, inplace=True), [C((3, 4))], ("SiluBackward0",))
op("nn.softplus", lambda m, x: F(m).softplus(x), _ACT, ("SoftplusBackward0",),
   double_grad_fns=("SoftplusBackwardBackward0",))
op("nn.softplus.beta", lambda m, x: F(m).softplus(x * 10, beta=2, threshold=5), [C((3, 4))],
   ("SoftplusBackward0",))
op("nn.hardtanh", lambda m, x: F(m).hardtanh(x * 2), _ACT, ("HardtanhBackward0",),
   domain="nonzero", second_order=False)
op("nn.hardtanh.leaf", lambda m, x: F(m).hardtanh(x), [C((3, 4)), C(())], ("HardtanhBackward0",),
   domain="nonzero", second_order=False, double_grad_fns=("HardtanhBackwardBackward0",))
op("nn.hardtanh.range", lambda m, x: F(m).hardtanh(x, -0.5, 0.25), [C((3, 4))],
   ("HardtanhBackward0",), domain="nonzero", second_order=False)
op("nn.hardtanh_inplace", lambda m, x: F(m).hardtanh(x * 2, inplace=True), [C((3, 4))],
   ("HardtanhBackward0",), domain="nonzero", second_order=False)
op("nn.relu6", lambda m, x: F(m).relu6(x * 4), [C((3, 4))], ("HardtanhBackward0",),
   domain="nonzero", second_order=False)
op("nn.hardsigmoid", lambda m, x: F(m).hardsigmoid(x * 4), _ACT, ("HardsigmoidBackward0",),
   second_order=False, double_backward=False)   # PyTorch has no hardsigmoid_backward derivative
op("nn.hardsigmoid_inplace", lambda m, x: F(m).hardsigmoid(x * 4, inplace=True), [C((3, 4))],
   ("HardsigmoidBackward0",), second_order=False, double_backward=False)
op("nn.hardswish", lambda m, x: F(m).hardswish(x * 4), _ACT, ("HardswishBackward0",))
op("nn.hardswish.leaf", lambda m, x: F(m).hardswish(x), [C((3, 4))], ("HardswishBackward0",),
   double_grad_fns=("HardswishBackwardBackward0",))
op("nn.hardswish_inplace", lambda m, x: F(m).hardswish(x * 4, inplace=True), [C((3, 4))],
   ("HardswishBackward0",))
op("nn.mish", lambda m, x: F(m).mish(x), _ACT, ("MishBackward0",),
   double_grad_fns=("MulBackward0",))
op("nn.mish_inplace", lambda m, x: F(m).mish(x * 1, inplace=True), [C((3, 4))], ("MishBackward0",))
op("nn.logsigmoid", lambda m, x: F(m).logsigmoid(x * 3), _ACT, ("LogSigmoidBackward0",))
op("nn.logsigmoid.leaf", lambda m, x: F(m).logsigmoid(x), [C((3, 4)), C(())],
   ("LogSigmoidBackward0",), double_grad_fns=("LogSigmoidBackwardBackward0",))

# prelu is PyTorch's composite: the weight viewed to broadcast, then _prelu_kernel
op("nn.prelu", lambda m, x, w: F(m).prelu(x, w),
   [C((2, 3, 4), (3,)), C((3, 4), (1,)), C((5,), (1,)), C((2, 3), ()), C((4, 3), (3,), nc=("t",))],
   ("PreluKernelBackward0",), domain="nonzero")
op("prelu.method", lambda m, x, w: x.prelu(w), [C((2, 3, 2), (3,))], ("PreluKernelBackward0",),
   domain="nonzero")
op("_prelu_kernel", lambda m, x, w: m._prelu_kernel(x, w), [C((3, 4), (4,)), C((2, 3), (2, 1))],
   ("PreluKernelBackward0",), domain="nonzero")
op("nn.rrelu", lambda m, x: F(m).rrelu(x, 0.1, 0.3), [C((3, 4)), C(()), C((4, 3), nc=("t",))],
   ("RreluWithNoiseBackward0",), domain="nonzero", second_order=False,
   double_grad_fns=("RreluWithNoiseBackwardBackward0",))


def _rrelu_train(m, x):
    m.manual_seed(3)
    return m.rrelu(x, 0.1, 0.4, True)


op("rrelu.training", _rrelu_train, [C((3, 5)), C((2, 3, 2))], ("RreluWithNoiseBackward0",),
   domain="nonzero", second_order=False, double_grad_fns=("RreluWithNoiseBackwardBackward0",))
op("nn.rrelu_inplace", lambda m, x: F(m).rrelu(x * 1, 0.1, 0.3, inplace=True), [C((3, 4))],
   ("RreluWithNoiseBackward1",), domain="nonzero", second_order=False)


def _rrelu_train_inplace(m, x):
    m.manual_seed(3)
    return m.rrelu_(x * 1, 0.1, 0.4, True)


op("rrelu_.training", _rrelu_train_inplace, [C((3, 5)), C((2, 3, 2))],
   ("RreluWithNoiseBackward1",), domain="nonzero", second_order=False)

# ------------------------------------------------------------------ softmax

_SM = [C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C(())]
op("softmax", lambda m, x: m.softmax(x, -1), _SM, ("SoftmaxBackward0",),
   double_grad_fns=("SoftmaxBackwardDataBackward0",))
op("nn.softmax.dim0", lambda m, x: F(m).softmax(x, dim=0), [C((3, 4)), C((2, 3, 4))],
   ("SoftmaxBackward0",))
op("Tensor.softmax", lambda m, x: x.softmax(1), [C((3, 4)), C((2, 3, 4))], ("SoftmaxBackward0",))
op("nn.softmax.dtype", lambda m, x: F(m).softmax(x, 1, dtype=m.float64), [C((3, 4))],
   ("SoftmaxBackward0",), dtypes=("float32",))
op("nn.softmax.implicit", lambda m, x: F(m).softmax(x), [C((3, 4)), C((2, 3, 4)), C((5,))],
   ("SoftmaxBackward0",))
op("log_softmax", lambda m, x: m.log_softmax(x, -1), _SM, ("LogSoftmaxBackward0",),
   double_grad_fns=("LogSoftmaxBackwardDataBackward0",))
op("nn.log_softmax.dim1", lambda m, x: F(m).log_softmax(x, 1), [C((3, 4)), C((2, 3, 4))],
   ("LogSoftmaxBackward0",))
op("Tensor.log_softmax", lambda m, x: x.log_softmax(0), [C((3, 4))], ("LogSoftmaxBackward0",))
op("nn.log_softmax.implicit", lambda m, x: F(m).log_softmax(x), [C((2, 3, 4))],
   ("LogSoftmaxBackward0",))
op("nn.softmin", lambda m, x: F(m).softmin(x, 1), [C((3, 4))], ("SoftmaxBackward0",))
op("_safe_softmax", lambda m, x: m._safe_softmax(x, -1), _SM, ("SafeSoftmaxBackward0",),
   double_grad_fns=("SoftmaxBackwardDataBackward0",))
# 4-d inputs take PyTorch's CPU flash kernel: one node, whose second derivative raises
op("nn.scaled_dot_product_attention.flash",
   lambda m, q, k, v: F(m).scaled_dot_product_attention(q, k, v),
   [C((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)), C((2, 1, 3, 2), (2, 1, 3, 2), (2, 1, 3, 2))],
   ("ScaledDotProductFlashAttentionForCpuBackward0",), double_backward=False,
   second_order=False)
op("nn.scaled_dot_product_attention.math",
   lambda m, q, k, v: F(m).scaled_dot_product_attention(q, k, v),
   [C((2, 3, 4), (2, 5, 4), (2, 5, 4))], ("UnsafeViewBackward0",))

# ------------------------------------------------------------------ losses

_LOSS = [C((3, 4), (3, 4)), C((5,), (5,)), C((), ()), C((3, 4), (3, 4), ng=(1,)),
         C((3, 4), (3, 4), nc=("t", None))]
_RED = ("mean", "sum", "none")
for red in _RED:
    op(f"nn.mse_loss.{red}", lambda m, x, t, red=red: F(m).mse_loss(x, t, reduction=red), _LOSS,
       ("MseLossBackward0",), double_grad_fns=("MseLossBackwardBackward0",))
    op(f"nn.l1_loss.{red}", lambda m, x, t, red=red: F(m).l1_loss(x, t, reduction=red),
       # (its second derivative is a ZeroTensor in PyTorch, which the harness cannot read:
       #  the "zeros" domain on the target marks the case as not for double backward)
       [C((3, 4), (3, 4), domain=("real", "zeros")), C((5,), (5,), ng=(1,), domain=("real", "zeros"))],
       {"mean": ("MeanBackward0",), "sum": ("SumBackward0",), "none": ("AbsBackward0",)}[red],
       second_order=False)
    op(f"nn.smooth_l1_loss.{red}", lambda m, x, t, red=red: F(m).smooth_l1_loss(x, t, reduction=red),
       _LOSS, ("SmoothL1LossBackward0",),
       double_grad_fns=("SmoothL1LossBackwardBackward0",))
    op(f"nn.huber_loss.{red}", lambda m, x, t, red=red: F(m).huber_loss(x, t, reduction=red,
                                                                      delta=0.7),
       [C((3, 4), (3, 4)), C((5,), (5,), ng=(1,))], ("HuberLossBackward0",),
       double_grad_fns=("HuberLossBackwardBackward0",))
op("nn.mse_loss.broadcast", lambda m, x, t: F(m).mse_loss(x, t), [C((3, 4), (4,)), C((3, 1), (3, 4))],
   ("MseLossBackward0",))
op("nn.mse_loss.weight", lambda m, x, t, w: F(m).mse_loss(x, t, weight=w), [C((3, 4), (3, 4), (3, 4))],
   ("DivBackward0",))
op("nn.mse_loss.legacy", lambda m, x, t: F(m).mse_loss(x, t, size_average=False), [C((3, 4), (3, 4))],
   ("MseLossBackward0",))
op("nn.smooth_l1_loss.beta", lambda m, x, t: F(m).smooth_l1_loss(x, t, beta=0.5),
   [C((3, 4), (3, 4))], ("SmoothL1LossBackward0",))
op("nn.smooth_l1_loss.beta0", lambda m, x, t: F(m).smooth_l1_loss(x, t, beta=0.0),
   [C((3, 4), (3, 4), domain=("real", "zeros"))], ("MeanBackward0",), second_order=False)

_BCE = [C((3, 4), (3, 4)), C((5,), (5,), ng=(1,)), C((), ())]
for red in _RED:
    op(f"nn.binary_cross_entropy.{red}",
       lambda m, x, t, red=red: F(m).binary_cross_entropy(m.sigmoid(x), m.sigmoid(t), reduction=red),
       _BCE, ("BinaryCrossEntropyBackward0",))
    op(f"nn.binary_cross_entropy_with_logits.{red}",
       lambda m, x, t, red=red: F(m).binary_cross_entropy_with_logits(x, m.sigmoid(t), reduction=red),
       _BCE, ("BinaryCrossEntropyWithLogitsBackward0",))
op("nn.binary_cross_entropy.weight",
   lambda m, x, t: F(m).binary_cross_entropy(m.sigmoid(x), m.sigmoid(t),
                                             weight=m.tensor([0.5, 1.0, 2.0, 0.0], dtype=x.dtype)),
   [C((3, 4), (3, 4))], ("BinaryCrossEntropyBackward0",))
op("nn.binary_cross_entropy_with_logits.weights",
   lambda m, x, t: F(m).binary_cross_entropy_with_logits(
       x, m.sigmoid(t), weight=m.tensor([0.5, 1.0, 2.0, 0.0], dtype=x.dtype),
       pos_weight=m.tensor([3.0, 1.0, 0.5, 2.0], dtype=x.dtype)),
   [C((3, 4), (3, 4)), C((3, 4), (3, 4), ng=(1,))], ("BinaryCrossEntropyWithLogitsBackward0",))
op("binary_cross_entropy_with_logits", lambda m, x, t: m.binary_cross_entropy_with_logits(x, t),
   [C((3, 4), (3, 4))], ("BinaryCrossEntropyWithLogitsBackward0",))

_T3 = lambda m: m.tensor([0, 3, 1])
for red in _RED:
    op(f"nn.nll_loss.{red}", lambda m, x, red=red: F(m).nll_loss(x, _T3(m), reduction=red),
       [C((3, 4)), C((3, 4), nc=("t",))], ("NllLossBackward0",), second_order=False,
       double_grad_fns=("NllLossBackwardBackward0", "TransposeBackward0"))
    op(f"nn.nll_loss.weight_ignore.{red}",
       lambda m, x, red=red: F(m).nll_loss(x, m.tensor([0, 3, 1, 1]), reduction=red, ignore_index=1,
                                           weight=m.tensor([0.5, 2.0, 1.0, 3.0], dtype=x.dtype)),
       [C((4, 4))], ("NllLossBackward0",), second_order=False)
    op(f"nn.nll_loss.spatial.{red}",
       lambda m, x, red=red: F(m).nll_loss(x, m.tensor([[[0, 2], [1, 1]], [[2, 2], [0, 1]]]),
                                           reduction=red, ignore_index=0),
       [C((2, 3, 2, 2))], ("NllLoss2DBackward0",), second_order=False,
       double_grad_fns=("NllLoss2DBackwardBackward0",))
    op(f"nn.nll_loss.3d.{red}",
       lambda m, x, red=red: F(m).nll_loss(x, m.tensor([[0, 2, 1], [1, 1, 0]]), reduction=red),
       [C((2, 3, 3))], ("NllLoss2DBackward0", "ViewBackward0"), second_order=False)
    op(f"nn.cross_entropy.{red}", lambda m, x, red=red: F(m).cross_entropy(x, _T3(m), reduction=red),
       [C((3, 4)), C((3, 4), nc=("t",))], ("NllLossBackward0",))
    op(f"nn.cross_entropy.weight_ignore.{red}",
       lambda m, x, red=red: F(m).cross_entropy(
           x, m.tensor([0, 3, -100, 1]), reduction=red,
           weight=m.tensor([0.5, 2.0, 1.0, 3.0], dtype=x.dtype)),
       [C((4, 4))], ("NllLossBackward0",))
    op(f"nn.cross_entropy.smoothing.{red}",
       lambda m, x, red=red: F(m).cross_entropy(x, m.tensor([0, 3, 2, 1]), reduction=red,
                                                ignore_index=2, label_smoothing=0.2),
       [C((4, 4))], ("AddBackward0",))
    op(f"nn.cross_entropy.smoothing_weight.{red}",
       lambda m, x, red=red: F(m).cross_entropy(x, m.tensor([0, 3, 2, 1]), reduction=red,
                                                ignore_index=2, label_smoothing=0.1,
                                                weight=m.tensor([0.5, 2.0, 1.0, 3.0], dtype=x.dtype)),
       [C((4, 4))], ("AddBackward0",))
    op(f"nn.cross_entropy.probs.{red}",
       lambda m, x, t, red=red: F(m).cross_entropy(x, m.softmax(t, 1), reduction=red),
       [C((3, 4), (3, 4)), C((3, 4), (3, 4), ng=(1,))],
       {"mean": ("DivBackward1",), "sum": ("NegBackward0",), "none": ("NegBackward0",)}[red])
    op(f"nn.cross_entropy.probs_smoothing_weight.{red}",
       lambda m, x, t, red=red: F(m).cross_entropy(
           x, m.softmax(t, 1), reduction=red, label_smoothing=0.3,
           weight=m.tensor([0.5, 2.0, 1.0, 3.0], dtype=x.dtype)),
       [C((3, 4), (3, 4))],
       {"mean": ("DivBackward1",), "sum": ("NegBackward0",), "none": ("NegBackward0",)}[red])
op("nn.nll_loss.1d", lambda m, x: F(m).nll_loss(x, m.tensor(2)), [C((4,))], ("NllLossBackward0",),
   second_order=False)
op("nn.cross_entropy.1d", lambda m, x: F(m).cross_entropy(x, m.tensor(1)), [C((4,))],
   ("NllLossBackward0",))
op("nn.cross_entropy.spatial", lambda m, x: F(m).cross_entropy(x, m.tensor([[[0, 2], [1, 1]]])),
   [C((1, 3, 2, 2))], ("NllLoss2DBackward0",))

# ------------------------------------------------------------------ linear, pad, norms

op("nn.linear", lambda m, x, w, b: F(m).linear(x, w, b),
   [C((4, 3), (5, 3), (5,)), C((2, 4, 3), (5, 3), (5,)), C((3,), (5, 3), (5,)),
    C((4, 3), (5, 3), (5,), nc=("t", None, None)), C((2, 4, 3), (5, 3), (5,), nc=("t", None, None)),
    C((4, 3), (5, 3), (5,), ng=(0,)), C((4, 3), (5, 3), (5,), ng=(1, 2))],
   ("AddmmBackward0", "ViewBackward0", "AddBackward0"))
op("nn.linear.nobias", lambda m, x, w: F(m).linear(x, w),
   [C((4, 3), (5, 3)), C((2, 4, 3), (5, 3)), C((3,), (5, 3))],
   ("MmBackward0", "UnsafeViewBackward0", "SqueezeBackward4"))

op("nn.pad.constant", lambda m, x: F(m).pad(x, (1, 2)), [C((3, 4)), C((4,)), C((4, 3), nc=("t",))],
   ("ConstantPadNdBackward0",), second_order=False)
op("nn.pad.constant2d", lambda m, x: F(m).pad(x, (1, 0, 2, 1), value=1.5), [C((2, 3, 4))],
   ("ConstantPadNdBackward0",), second_order=False)
op("nn.pad.negative", lambda m, x: F(m).pad(x, (-1, 2, 0, -2)), [C((4, 5))],
   ("ConstantPadNdBackward0",), second_order=False)
op("nn.pad.reflect1d", lambda m, x: F(m).pad(x, (2, 1), mode="reflect"), [C((2, 4)), C((2, 3, 4))],
   ("ReflectionPad1DBackward0",), second_order=False,
   double_grad_fns=("ReflectionPad1DBackwardBackward0",))
op("nn.pad.reflect2d", lambda m, x: F(m).pad(x, (1, 2, 2, 1), mode="reflect"),
   [C((2, 3, 4)), C((1, 2, 3, 4))], ("ReflectionPad2DBackward0",), second_order=False,
   double_grad_fns=("ReflectionPad2DBackwardBackward0",))
op("nn.pad.reflect3d", lambda m, x: F(m).pad(x, (1, 1, 2, 0, 0, 1), mode="reflect"),
   [C((2, 3, 3, 2)), C((1, 2, 3, 3, 2))], ("ReflectionPad3DBackward0",), second_order=False,
   double_grad_fns=("ReflectionPad3DBackwardBackward0",))
op("nn.pad.replicate1d", lambda m, x: F(m).pad(x, (3, 1), mode="replicate"), [C((2, 3, 4))],
   ("ReplicationPad1DBackward0",), second_order=False,
   double_grad_fns=("ReplicationPad1DBackwardBackward0",))
op("nn.pad.replicate2d", lambda m, x: F(m).pad(x, (1, 2, 0, 3), mode="replicate"),
   [C((1, 2, 3, 4))], ("ReplicationPad2DBackward0",), second_order=False,
   double_grad_fns=("ReplicationPad2DBackwardBackward0",))
op("nn.pad.replicate3d", lambda m, x: F(m).pad(x, (1, 0, 0, 1, 1, 1), mode="replicate"),
   [C((1, 2, 2, 3))], ("ReplicationPad3DBackward0",), second_order=False,
   double_grad_fns=("ReplicationPad3DBackwardBackward0",))
op("nn.pad.circular", lambda m, x: F(m).pad(x, (1, 2), mode="circular"), [C((1, 2, 4))],
   ("CopySlices",), second_order=False)

op("nn.normalize", lambda m, x: F(m).normalize(x), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("DivBackward0",))
op("nn.normalize.p1_dim0", lambda m, x: F(m).normalize(x, p=1.0, dim=0), [C((3, 4))],
   ("DivBackward0",), domain="nonzero")
op("nn.normalize.p3", lambda m, x: F(m).normalize(x, p=3.0, dim=-1), [C((3, 4))],
   ("DivBackward0",), domain="nonzero")
op("nn.cosine_similarity", lambda m, a, b: F(m).cosine_similarity(a, b),
   [C((3, 4), (3, 4)), C((2, 4, 3), (4, 3)), C((3, 4), (3, 4), ng=(1,))], ("SumBackward1",))
op("nn.cosine_similarity.dim", lambda m, a, b: F(m).cosine_similarity(a, b, dim=-1, eps=1e-6),
   [C((3, 4), (3, 4))], ("SumBackward1",))

op("nn.layer_norm", lambda m, x: F(m).layer_norm(x, (4,)), [C((3, 4)), C((2, 3, 4)),
                                                          C((4, 4), nc=("t",))],
   ("NativeLayerNormBackward0",),
   double_grad_fns=("NativeLayerNormBackwardBackward0",))
op("nn.layer_norm.affine", lambda m, x, w, b: F(m).layer_norm(x, (3, 4), w, b, eps=1e-3),
   [C((2, 3, 4), (3, 4), (3, 4)), C((2, 3, 4), (3, 4), (3, 4), ng=(0,)),
    C((2, 3, 4), (3, 4), (3, 4), ng=(1,))], ("NativeLayerNormBackward0",),
   double_grad_fns=("NativeLayerNormBackwardBackward0",))
op("nn.layer_norm.weight_only", lambda m, x, w: F(m).layer_norm(x, [4], w),
   [C((3, 4), (4,))], ("NativeLayerNormBackward0",),
   double_grad_fns=("NativeLayerNormBackwardBackward0",))

op("nn.group_norm", lambda m, x, w, b: F(m).group_norm(x, 2, w, b, eps=1e-3),
   [C((2, 4, 3), (4,), (4,)), C((3, 6, 2, 2), (6,), (6,), ng=(0,)), C((2, 4), (4,), (4,)),
    C((2, 4, 3), (4,), (4,), nc=("t", None, None))], ("NativeGroupNormBackward0",))
op("nn.group_norm.plain", lambda m, x: F(m).group_norm(x, 3), [C((2, 6, 5)), C((1, 3, 2, 2))],
   ("NativeGroupNormBackward0",))
# mean and rstd are differentiable outputs in PyTorch: their gradients reach the input
op("native_group_norm", lambda m, x, w, b: m.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-5),
   [C((2, 4, 3), (4,), (4,))], ("NativeGroupNormBackward0",))

def _bn(training, affine=True, stats=True):
    def f(m, x, w=None, b=None):
        c = x.shape[1]
        rm = m.linspace(-0.5, 0.5, c, dtype=x.dtype) if stats else None
        rv = m.linspace(0.5, 1.5, c, dtype=x.dtype) if stats else None
        out = F(m).batch_norm(x, rm, rv, w, b, training=training, momentum=0.3, eps=1e-4)
        return out
    return f


op("nn.batch_norm.train", _bn(True), [C((4, 3)), C((2, 3, 4)), C((2, 3, 2, 2))],
   ("NativeBatchNormBackward0",), double_grad_fns=("NativeBatchNormBackwardBackward0",))
op("nn.batch_norm.train_affine", _bn(True), [C((4, 3), (3,), (3,)), C((2, 3, 2, 2), (3,), (3,)),
                                            C((2, 3, 2), (3,), (3,), ng=(0,))],
   ("NativeBatchNormBackward0",), double_grad_fns=("NativeBatchNormBackwardBackward0",))
op("nn.batch_norm.train_nostats", _bn(True, stats=False), [C((4, 3)), C((2, 3, 2, 2), (3,), (3,))],
   ("NativeBatchNormBackward0",), double_grad_fns=("NativeBatchNormBackwardBackward0",))
op("nn.batch_norm.eval", _bn(False), [C((4, 3)), C((2, 3, 2, 2), (3,), (3,)),
                                      C((2, 3, 2), (3,), (3,), ng=(0,))],
   ("NativeBatchNormBackward0",), double_grad_fns=("NativeBatchNormBackwardBackward0",))

op("nn.embedding", lambda m, w: F(m).embedding(m.tensor([[0, 2], [4, 2]]), w), [C((5, 3))],
   ("EmbeddingBackward0",), second_order=False)
op("nn.embedding.padding_idx", lambda m, w: F(m).embedding(m.tensor([0, 2, 4, 2]), w, padding_idx=-3),
   [C((5, 3))], ("EmbeddingBackward0",), second_order=False,
   gradcheck=False)  # the padding row's gradient is zero on purpose (not the derivative)
op("nn.embedding.freq", lambda m, w: F(m).embedding(m.tensor([1, 2, 1, 1]), w, scale_grad_by_freq=True),
   [C((3, 2))], ("EmbeddingBackward0",), second_order=False,
   gradcheck=False)  # the gradient is rescaled on purpose (not the derivative)
op("nn.dropout.p0", lambda m, x: F(m).dropout(x * 1, 0.0), [C((3, 4))], ("MulBackward0",),
   second_order=False)
op("nn.dropout.p1", lambda m, x: F(m).dropout(x, 1.0), [C((3, 4))], ("MulBackward0",),
   second_order=False)
op("nn.dropout.eval", lambda m, x: F(m).dropout(x * 2, 0.5, training=False), [C((3, 4))],
   ("MulBackward0",), second_order=False)

op("pairwise_distance", lambda m, a, b: m.pairwise_distance(a, b, 1.5, 1e-3, True),
   [C((4, 3), (4, 3)), C((3,), (2, 3)), C((), ())], ("NormBackward1",),
   inner_grad_fns=("AddBackward1", "SubBackward0"), domain="distinct")
op("nn.pixel_shuffle", lambda m, x: F(m).pixel_shuffle(x, 2), [C((2, 8, 3, 2)), C((4, 1, 2))],
   ("PixelShuffleBackward0",), second_order=False)
op("nn.pixel_unshuffle", lambda m, x: F(m).pixel_unshuffle(x, 2),
   [C((1, 2, 4, 6)), C((2, 1, 3, 2, 4), nc=("t",))], ("PixelUnshuffleBackward0",),
   second_order=False)
op("channel_shuffle", lambda m, x: m.channel_shuffle(x, 3), [C((2, 6, 2, 2)), C((1, 6, 3))],
   ("ChannelShuffleBackward0",), second_order=False)

# ------------------------------------------------------------------ convolution, pooling

op("nn.conv2d", lambda m, x, w, b: F(m).conv2d(x, w, b),
   [C((2, 3, 5, 5), (4, 3, 3, 3), (4,)), C((3, 4, 4), (2, 3, 2, 2), (2,)),
    C((1, 2, 4, 5), (3, 2, 2, 3), (3,), ng=(0,)), C((1, 2, 4, 5), (3, 2, 2, 3), (3,), ng=(1, 2)),
    C((1, 2, 5, 4), (3, 2, 2, 2), (3,), nc=("t", None, None))],
   ("ConvolutionBackward0", "SqueezeBackward1"))
op("nn.conv2d.options", lambda m, x, w: F(m).conv2d(x, w, None, stride=(2, 1), padding=(1, 2),
                                                   dilation=(1, 2)),
   [C((2, 2, 6, 5), (3, 2, 3, 2))], ("ConvolutionBackward0",),
   double_grad_fns=("ConvolutionBackwardBackward0",))
op("nn.conv2d.groups", lambda m, x, w, b: F(m).conv2d(x, w, b, padding=1, groups=2),
   [C((2, 4, 4, 4), (6, 2, 3, 3), (6,))], ("ConvolutionBackward0",),
   double_grad_fns=("ConvolutionBackwardBackward0",))
op("nn.conv2d.same", lambda m, x, w: F(m).conv2d(x, w, padding="same"),
   [C((1, 2, 5, 4), (3, 2, 3, 3)), C((1, 2, 5, 4), (3, 2, 2, 3))], ("ConvolutionBackward0",))
op("nn.conv2d.valid_stride", lambda m, x, w: F(m).conv2d(x, w, padding="valid", stride=2),
   [C((1, 2, 7, 6), (2, 2, 3, 3))], ("ConvolutionBackward0",),
   double_grad_fns=("ConvolutionBackwardBackward0",))
op("conv2d", lambda m, x, w: m.conv2d(x, w, padding=1), [C((1, 1, 3, 3), (1, 1, 2, 2))],
   ("ConvolutionBackward0",), double_grad_fns=("ConvolutionBackwardBackward0",))
op("nn.conv1d", lambda m, x, w, b: F(m).conv1d(x, w, b, stride=2, padding=1, dilation=2),
   [C((2, 3, 9), (4, 3, 3), (4,)), C((3, 9), (4, 3, 3), (4,))],
   ("ConvolutionBackward0", "SqueezeBackward1"))
op("nn.conv1d.groups_same", lambda m, x, w: F(m).conv1d(x, w, padding="same", groups=3),
   [C((2, 3, 7), (6, 1, 4))], ("ConvolutionBackward0",))
op("conv1d", lambda m, x, w: m.conv1d(x, w), [C((1, 2, 5), (2, 2, 2))], ("ConvolutionBackward0",),
   double_grad_fns=("ConvolutionBackwardBackward0",))
op("nn.conv3d", lambda m, x, w, b: F(m).conv3d(x, w, b, stride=(1, 2, 1), padding=(1, 0, 1),
                                              dilation=(1, 1, 2)),
   [C((2, 3, 4, 5, 5), (4, 3, 2, 3, 2), (4,)), C((3, 4, 4, 3), (2, 3, 2, 2, 2), (2,)),
    C((1, 2, 4, 5, 4), (3, 2, 2, 2, 2), (3,), ng=(0,)),
    C((1, 2, 4, 5, 4), (3, 2, 2, 2, 2), (3,), ng=(1, 2)),
    C((1, 2, 5, 4, 4), (3, 2, 2, 2, 2), (3,), nc=("t", None, None))],
   ("ConvolutionBackward0", "SqueezeBackward1"),
   double_grad_fns=("ConvolutionBackwardBackward0", "SqueezeBackward1"))
op("nn.conv3d.groups_same", lambda m, x, w: F(m).conv3d(x, w, padding="same", groups=2),
   [C((1, 4, 3, 4, 3), (4, 2, 2, 3, 2))], ("ConvolutionBackward0",))
op("nn.conv3d.valid_stride", lambda m, x, w: F(m).conv3d(x, w, padding="valid", stride=2),
   [C((1, 2, 5, 4, 5), (2, 2, 3, 2, 3))], ("ConvolutionBackward0",))
op("conv3d", lambda m, x, w: m.conv3d(x, w, padding=1), [C((1, 1, 3, 3, 2), (1, 1, 2, 2, 2))],
   ("ConvolutionBackward0",), double_grad_fns=("ConvolutionBackwardBackward0",))
op("nn.conv_transpose1d", lambda m, x, w, b: F(m).conv_transpose1d(
    x, w, b, stride=3, padding=1, output_padding=2, dilation=2),
   [C((2, 3, 5), (3, 2, 3), (2,)), C((3, 4), (3, 2, 2), (2,)), C((1, 3, 4), (3, 2, 2), (2,), ng=(0,))],
   ("ConvolutionBackward0", "SqueezeBackward1"),
   double_grad_fns=("ConvolutionBackwardBackward0", "SqueezeBackward1"))
op("nn.conv_transpose1d.dilation_pad", lambda m, x, w: F(m).conv_transpose1d(
    x, w, output_padding=1, dilation=2), [C((1, 2, 4), (2, 3, 3))], ("ConvolutionBackward0",))
op("nn.conv_transpose2d", lambda m, x, w, b: F(m).conv_transpose2d(
    x, w, b, stride=(2, 1), padding=(1, 0), output_padding=(1, 0), groups=2, dilation=(1, 2)),
   [C((2, 4, 3, 4), (4, 3, 2, 3), (6,)), C((4, 3, 3), (4, 1, 3, 2), (2,)),
    C((1, 4, 3, 3), (4, 2, 2, 2), (4,), ng=(1, 2)),
    C((1, 4, 3, 3), (4, 2, 2, 2), (4,), nc=("t", None, None))],
   ("ConvolutionBackward0", "SqueezeBackward1"),
   double_grad_fns=("ConvolutionBackwardBackward0", "SqueezeBackward1"))
op("conv_transpose2d", lambda m, x, w: m.conv_transpose2d(x, w, stride=2),
   [C((1, 2, 3, 3), (2, 1, 2, 2))], ("ConvolutionBackward0",))
op("nn.conv_transpose3d", lambda m, x, w, b: F(m).conv_transpose3d(
    x, w, b, stride=(2, 1, 2), padding=(0, 1, 1), output_padding=(1, 0, 1), groups=2),
   [C((1, 4, 2, 3, 2), (4, 1, 2, 3, 2), (2,)), C((4, 2, 2, 2), (4, 2, 2, 2, 2), (4,))],
   ("ConvolutionBackward0", "SqueezeBackward1"),
   double_grad_fns=("ConvolutionBackwardBackward0", "SqueezeBackward1"))
op("conv_transpose3d", lambda m, x, w: m.conv_transpose3d(x, w, dilation=(1, 2, 1)),
   [C((1, 2, 2, 3, 2), (2, 1, 2, 2, 2))], ("ConvolutionBackward0",))

op("nn.max_pool2d", lambda m, x: F(m).max_pool2d(x, 2), [C((2, 3, 4, 4)), C((2, 5, 4))],
   ("MaxPool2DWithIndicesBackward0",), domain="distinct", second_order=False,
   double_grad_fns=("MaxPool2DWithIndicesBackwardBackward0",))
op("nn.max_pool2d.options", lambda m, x: F(m).max_pool2d(x, (3, 2), stride=(2, 1), padding=1,
                                                        dilation=(1, 2), ceil_mode=True),
   [C((1, 2, 6, 5)), C((1, 2, 5, 6))], ("MaxPool2DWithIndicesBackward0",), domain="distinct",
   second_order=False)
op("nn.max_pool2d.indices", lambda m, x: F(m).max_pool2d(x, 3, 2, 1, return_indices=True),
   [C((1, 2, 5, 5))], ("MaxPool2DWithIndicesBackward0",), domain="distinct", second_order=False)
op("max_pool2d", lambda m, x: m.max_pool2d(x, 2, 1), [C((1, 1, 3, 3))],
   ("MaxPool2DWithIndicesBackward0",), domain="distinct", second_order=False)
op("nn.avg_pool2d", lambda m, x: F(m).avg_pool2d(x, 2), [C((2, 3, 4, 4)), C((2, 5, 4))],
   ("AvgPool2DBackward0",), second_order=False, double_grad_fns=("AvgPool2DBackwardBackward0",))
op("nn.avg_pool2d.pad", lambda m, x: F(m).avg_pool2d(x, 3, 2, 1), [C((1, 2, 5, 6))],
   ("AvgPool2DBackward0",), second_order=False)
op("nn.avg_pool2d.no_pad_count", lambda m, x: F(m).avg_pool2d(x, (3, 2), (2, 2), (1, 1),
                                                             ceil_mode=True, count_include_pad=False),
   [C((1, 2, 6, 5))], ("AvgPool2DBackward0",), second_order=False)
op("nn.avg_pool2d.ceil_divisor", lambda m, x: F(m).avg_pool2d(x, 2, 2, 1, ceil_mode=True,
                                                             divisor_override=3),
   [C((1, 1, 5, 4))], ("AvgPool2DBackward0",), second_order=False)
op("nn.unfold", lambda m, x: F(m).unfold(x, (2, 3), dilation=1, padding=1, stride=(2, 1)),
   [C((2, 2, 4, 5)), C((2, 4, 5))], ("Im2ColBackward0", "SqueezeBackward1"), second_order=False)
op("nn.fold", lambda m, x: F(m).fold(x, (4, 5), (2, 3), padding=1, stride=(2, 1)),
   [C((2, 12, 15))], ("Col2ImBackward0",), second_order=False)

op("conv_tbc", lambda m, x, w, b: m.conv_tbc(x, w, b, 1),
   [C((5, 2, 3), (2, 3, 4), (4,)), C((4, 1, 2), (3, 2, 2), (2,), ng=(0,)),
    C((3, 2, 2), (1, 2, 3), (3,))], ("ConvTbcBackward0",))
op("conv_tbc.no_pad", lambda m, x, w, b: m.conv_tbc(x, w, b), [C((6, 1, 2), (3, 2, 2), (2,))],
   ("ConvTbcBackward0",))

op("nn.max_pool3d", lambda m, x: F(m).max_pool3d(x, 2), [C((1, 2, 4, 4, 4)), C((2, 3, 2, 4))],
   ("MaxPool3DWithIndicesBackward0",), domain="distinct", second_order=False,
   double_grad_fns=("MaxPool3DWithIndicesBackwardBackward0",))
op("nn.max_pool3d.options", lambda m, x: F(m).max_pool3d(x, (3, 2, 2), (2, 1, 2), (1, 0, 1),
                                                        dilation=(1, 2, 1), ceil_mode=True,
                                                        return_indices=True),
   [C((1, 2, 5, 6, 5)), C((2, 5, 5, 4), domain="ties", id="ties")],
   ("MaxPool3DWithIndicesBackward0",), domain="distinct", second_order=False)
op("nn.adaptive_max_pool2d", lambda m, x: F(m).adaptive_max_pool2d(x, (2, 3), True),
   [C((2, 3, 5, 7)), C((3, 4, 4)), C((1, 2, 5, 4), domain="ties", id="ties")],
   ("AdaptiveMaxPool2DBackward0",), domain="distinct", second_order=False,
   double_grad_fns=("AdaptiveMaxPool2DBackwardBackward0",))
op("nn.adaptive_max_pool1d", lambda m, x: F(m).adaptive_max_pool1d(x, 3), [C((2, 3, 7)), C((2, 5))],
   ("SqueezeBackward1",), inner_grad_fns=("AdaptiveMaxPool2DBackward0",), domain="distinct",
   second_order=False)

op("nn.adaptive_avg_pool2d", lambda m, x: F(m).adaptive_avg_pool2d(x, (2, 3)),
   [C((2, 3, 5, 7)), C((3, 4, 4)), C((1, 2, 5, 4), nc=("t",))], ("AdaptiveAvgPool2DBackward0",),
   second_order=False, double_grad_fns=("AdaptiveAvgPool2DBackwardBackward0",))
op("nn.adaptive_avg_pool2d.one", lambda m, x: F(m).adaptive_avg_pool2d(x, 1), [C((2, 3, 4, 5))],
   ("MeanBackward1",), second_order=False)
op("nn.adaptive_avg_pool1d", lambda m, x: F(m).adaptive_avg_pool1d(x, 3), [C((2, 3, 7)), C((2, 5))],
   ("SqueezeBackward1",), inner_grad_fns=("AdaptiveAvgPool2DBackward0",), second_order=False)
op("_adaptive_avg_pool2d", lambda m, x: m._adaptive_avg_pool2d(x, [3, 2]), [C((1, 2, 7, 5))],
   ("AdaptiveAvgPool2DBackward0",), second_order=False)

# ------------------------------------------------------------------ affine_grid, grid_sample
# (the grid's values pass through tanh so they stay in the input's span plus a margin)

op("affine_grid_generator", lambda m, t: m.affine_grid_generator(t, [2, 1, 3, 4], False),
   [C((2, 2, 3))], ("AffineGridGeneratorBackward0",), second_order=False)
op("affine_grid_generator.3d", lambda m, t: m.affine_grid_generator(t, [1, 2, 2, 3, 2], True),
   [C((1, 3, 4))], ("AffineGridGeneratorBackward0",), second_order=False)
op("nn.affine_grid", lambda m, t: F(m).affine_grid(t, [1, 1, 2, 5], align_corners=True),
   [C((1, 2, 3))], ("AffineGridGeneratorBackward0",), second_order=False)
_GS = [C((1, 2, 3, 4), (1, 2, 3, 2)), C((2, 1, 3, 3), (2, 3, 2, 2)),
       C((1, 2, 3, 4), (1, 2, 3, 2), ng=(0,)), C((1, 2, 3, 4), (1, 2, 3, 2), ng=(1,))]
for _pad in (0, 1, 2):
    for _align in (False, True):
        op(f"grid_sampler_2d.bilinear_{_pad}_{_align}",
           (lambda p, a: lambda m, x, g: m.grid_sampler_2d(x, g.tanh() * 1.1, 0, p, a))(
               _pad, _align), _GS, ("GridSampler2DBackward0",),
           double_grad_fns=("GridSampler2DBackwardBackward0", "TanhBackwardBackward0"))
# bicubic: the grid reaches past the input by more than the 4x4 taps' reach, so taps fall
# outside on every side (padding_mode applies per tap). float64 only: the float32 second
# derivatives (entries in the hundreds) round beyond the table's float32 tolerance, in
# torch as in ours; test_torch_nn_entry_points.py compares float32 values and gradients.
for _pad in (0, 1, 2):
    for _align in (False, True):
        op(f"grid_sampler_2d.bicubic_{_pad}_{_align}",
           (lambda p, a: lambda m, x, g: m.grid_sampler_2d(x, g.tanh() * 1.6, 2, p, a))(
               _pad, _align), _GS, ("GridSampler2DBackward0",), dtypes=("float64",),
           double_grad_fns=("GridSampler2DBackwardBackward0", "TanhBackwardBackward0"))
op("nn.grid_sample.bicubic", lambda m, x, g: F(m).grid_sample(
    x, g.tanh() * 1.3, mode="bicubic", padding_mode="reflection", align_corners=True),
   [C((1, 2, 4, 5), (1, 3, 2, 2)), C((2, 1, 1, 1), (2, 2, 2, 2))], ("GridSampler2DBackward0",))
op("grid_sampler_2d.nearest", lambda m, x, g: m.grid_sampler_2d(x, g.tanh() * 1.1, 1, 0, False),
   _GS[:2], ("GridSampler2DBackward0",), second_order=False)
op("grid_sampler_3d", lambda m, x, g: m.grid_sampler_3d(x, g.tanh() * 1.1, 0, 0, False),
   [C((1, 1, 2, 3, 2), (1, 2, 2, 1, 3)), C((1, 2, 2, 2, 2), (1, 1, 2, 2, 3), ng=(0,))],
   ("GridSampler3DBackward0",),
   double_grad_fns=("GridSampler3DBackwardBackward0", "TanhBackwardBackward0"))
op("grid_sampler_3d.border", lambda m, x, g: m.grid_sampler_3d(x, g.tanh() * 1.2, 0, 1, True),
   [C((1, 1, 2, 3, 2), (1, 2, 2, 1, 3))], ("GridSampler3DBackward0",))
op("nn.grid_sample", lambda m, x, g: F(m).grid_sample(x, g.tanh(), padding_mode="reflection",
                                                      align_corners=False),
   [C((1, 2, 3, 4), (1, 2, 3, 2))], ("GridSampler2DBackward0",))
op("grid_sampler", lambda m, x, g: m.grid_sampler(x, g.tanh(), 0, 0, True),
   [C((1, 2, 3, 4), (1, 2, 3, 2))], ("GridSampler2DBackward0",))

# ------------------------------------------------------------------ threshold, shrinks
# (inputs away from the thresholds: "nonzero" values are at least 0.3 from 0)

op("threshold", lambda m, x: m.threshold(x, 0.0, -2.0), _ACT, ("ThresholdBackward0",),
   domain="nonzero", second_order=False)
op("nn.threshold", lambda m, x: F(m).threshold(x, 0.0, 0.5), [C((3, 4))],
   ("ThresholdBackward0",), domain="nonzero", second_order=False,
   double_grad_fns=("ThresholdBackwardBackward0",))
op("threshold_", lambda m, x: m.threshold_(x * 1, 0.0, 3.0), [C((3, 4)), C((5,))],
   ("ThresholdBackward1",), domain="nonzero", second_order=False)
op("nn.threshold_inplace", lambda m, x: F(m).threshold(x * 1, 0.0, 0.0, inplace=True),
   [C((3, 4))], ("ThresholdBackward1",), domain="nonzero", second_order=False)
op("hardshrink", lambda m, x: m.hardshrink(x * 2, 0.25), _ACT, ("HardshrinkBackward0",),
   domain="nonzero", second_order=False)
op("hardshrink.contiguous", lambda m, x: m.hardshrink(x, 0.25), [C((3, 4))],
   ("HardshrinkBackward0",), domain="nonzero", second_order=False,
   double_grad_fns=("HardshrinkBackwardBackward0",))
op("hardshrink.method", lambda m, x: (x * 2).hardshrink(), [C((3, 4))], ("HardshrinkBackward0",),
   domain="nonzero", second_order=False)
op("nn.hardshrink", lambda m, x: F(m).hardshrink(x * 2, lambd=0.3), [C((3, 4))],
   ("HardshrinkBackward0",), domain="nonzero", second_order=False)
op("nn.softshrink", lambda m, x: F(m).softshrink(x * 2, 0.25), _ACT, ("SoftshrinkBackward0",),
   domain="nonzero", second_order=False)
op("nn.softshrink.contiguous", lambda m, x: F(m).softshrink(x, 0.2), [C((3, 4))],
   ("SoftshrinkBackward0",), domain="nonzero", second_order=False,
   double_grad_fns=("SoftshrinkBackwardBackward0",))
