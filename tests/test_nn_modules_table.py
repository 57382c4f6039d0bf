"""Every module class against PyTorch 2.13: the torch module is built, its state copied into
ours through load_state_dict, and both run on the same inputs. Compared: repr, state_dict
keys and shapes, outputs, gradients of the inputs and of every parameter, and the buffers
after the call (running statistics), in training and in eval mode."""
import math
import warnings

import numpy as np
import pytest

from _diff import sub_name

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402

F64 = "float64"
F32 = "float32"


class Case:
    def __init__(self, name, ctor, inputs, dtype=F64, modes=("train", "eval"), call=None,
                 grad=True, atol=None):
        self.name = name
        self.ctor = ctor
        self.inputs = inputs
        self.dtype = dtype
        self.modes = modes
        self.call = call
        self.grad = grad
        self.atol = atol

    def __repr__(self):
        return self.name


def f(*shape):
    return ("f", shape)


def pos(*shape):
    return ("pos", shape)


def prob(*shape):
    return ("prob", shape)


def sign(*shape):
    return ("sign", shape)


def idx(high, *shape):
    return ("i", shape, high)


def const(value):
    return ("const", value)


def nograd(spec):
    """An input (a loss target) that does not require grad."""
    return ("nograd", spec)


def _gen(rng, spec, dtype):
    kind = spec[0]
    if kind == "f":
        return rng.standard_normal(spec[1]).astype(dtype)
    if kind == "pos":
        return (rng.random(spec[1]) + 0.5).astype(dtype)
    if kind == "prob":
        return (rng.random(spec[1]) * 0.9 + 0.05).astype(dtype)
    if kind == "sign":
        return np.where(rng.random(spec[1]) > 0.5, 1.0, -1.0).astype(dtype)
    if kind == "i":
        return rng.integers(0, spec[2], spec[1]).astype(np.int64)
    return spec[1]


CASES = [
    # containers and linear
    Case("Sequential", lambda nn: nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2)),
         [f(5, 4)]),
    Case("Identity", lambda nn: nn.Identity(54, unused="x"), [f(2, 3)]),
    Case("Linear", lambda nn: nn.Linear(4, 3), [f(2, 5, 4)]),
    Case("Linear-nobias-f32", lambda nn: nn.Linear(4, 3, bias=False), [f(5, 4)], dtype=F32),
    Case("Linear-1d", lambda nn: nn.Linear(4, 3), [f(4)]),
    Case("Bilinear", lambda nn: nn.Bilinear(3, 4, 2), [f(5, 3), f(5, 4)]),
    Case("Bilinear-nobias", lambda nn: nn.Bilinear(3, 4, 2, bias=False), [f(5, 3), f(5, 4)]),
    Case("Flatten", lambda nn: nn.Flatten(), [f(2, 3, 4)]),
    Case("Flatten-0-1", lambda nn: nn.Flatten(0, 1), [f(2, 3, 4)]),
    Case("Unflatten", lambda nn: nn.Unflatten(1, (2, 3)), [f(4, 6)]),
    # activations
    Case("ReLU", lambda nn: nn.ReLU(), [f(3, 4)]),
    Case("ReLU6", lambda nn: nn.ReLU6(), [f(3, 4) if False else ("const", None)]),
    Case("LeakyReLU", lambda nn: nn.LeakyReLU(0.2), [f(3, 4)]),
    Case("ELU", lambda nn: nn.ELU(0.7), [f(3, 4)]),
    Case("CELU", lambda nn: nn.CELU(1.3), [f(3, 4)]),
    Case("SELU", lambda nn: nn.SELU(), [f(3, 4)]),
    Case("GELU", lambda nn: nn.GELU(), [f(3, 4)]),
    Case("GELU-tanh", lambda nn: nn.GELU("tanh"), [f(3, 4)]),
    Case("SiLU", lambda nn: nn.SiLU(), [f(3, 4)]),
    Case("Mish", lambda nn: nn.Mish(), [f(3, 4)]),
    Case("Hardswish", lambda nn: nn.Hardswish(), [f(3, 4)]),
    Case("Hardsigmoid", lambda nn: nn.Hardsigmoid(), [f(3, 4)]),
    Case("Hardtanh", lambda nn: nn.Hardtanh(-0.5, 0.7), [f(3, 4)]),
    Case("Hardshrink", lambda nn: nn.Hardshrink(0.3), [f(3, 4)]),
    Case("Softshrink", lambda nn: nn.Softshrink(0.3), [f(3, 4)]),
    Case("Tanhshrink", lambda nn: nn.Tanhshrink(), [f(3, 4)]),
    Case("Softsign", lambda nn: nn.Softsign(), [f(3, 4)]),
    Case("Softplus", lambda nn: nn.Softplus(2.0, 1.0), [f(3, 4)]),
    Case("Sigmoid", lambda nn: nn.Sigmoid(), [f(3, 4)]),
    Case("Tanh", lambda nn: nn.Tanh(), [f(3, 4)]),
    Case("LogSigmoid", lambda nn: nn.LogSigmoid(), [f(3, 4)]),
    Case("Threshold", lambda nn: nn.Threshold(0.1, 20.0), [f(3, 4)]),
    Case("GLU", lambda nn: nn.GLU(1), [f(3, 4)]),
    Case("PReLU", lambda nn: nn.PReLU(), [f(3, 4, 5)]),
    Case("PReLU-channels", lambda nn: nn.PReLU(4, init=0.1), [f(3, 4, 5)]),
    Case("RReLU", lambda nn: nn.RReLU(0.1, 0.3), [f(3, 4)], modes=("eval",)),
    Case("Softmax", lambda nn: nn.Softmax(dim=1), [f(3, 4)]),
    Case("Softmin", lambda nn: nn.Softmin(dim=0), [f(3, 4)]),
    Case("LogSoftmax", lambda nn: nn.LogSoftmax(dim=-1), [f(3, 4)]),
    Case("Softmax2d", lambda nn: nn.Softmax2d(), [f(2, 3, 4, 5)]),
    # losses
    Case("MSELoss", lambda nn: nn.MSELoss(), [f(3, 4), f(3, 4)]),
    Case("MSELoss-sum", lambda nn: nn.MSELoss(reduction="sum"), [f(3, 4), f(3, 4)]),
    Case("L1Loss", lambda nn: nn.L1Loss(reduction="none"), [f(3, 4), f(3, 4)]),
    Case("SmoothL1Loss", lambda nn: nn.SmoothL1Loss(beta=0.5), [f(3, 4), f(3, 4)]),
    Case("HuberLoss", lambda nn: nn.HuberLoss(delta=0.7), [f(3, 4), f(3, 4)]),
    Case("CrossEntropyLoss", lambda nn: nn.CrossEntropyLoss(), [f(5, 4), idx(4, 5)]),
    Case("CrossEntropyLoss-smooth", lambda nn: nn.CrossEntropyLoss(label_smoothing=0.1,
                                                                   ignore_index=1),
         [f(5, 4), idx(4, 5)]),
    Case("CrossEntropyLoss-probs", lambda nn: nn.CrossEntropyLoss(), [f(5, 4), prob(5, 4)]),
    Case("NLLLoss", lambda nn: nn.NLLLoss(reduction="sum"), [f(5, 4), idx(4, 5)]),
    Case("NLLLoss-2d", lambda nn: nn.NLLLoss(), [f(2, 4, 3, 3), idx(4, 2, 3, 3)]),
    Case("BCELoss", lambda nn: nn.BCELoss(), [prob(3, 4), prob(3, 4)]),
    Case("BCEWithLogitsLoss", lambda nn: nn.BCEWithLogitsLoss(), [f(3, 4), prob(3, 4)]),
    Case("KLDivLoss", lambda nn: nn.KLDivLoss(reduction="batchmean"), [f(3, 4), prob(3, 4)]),
    Case("KLDivLoss-log", lambda nn: nn.KLDivLoss(reduction="sum", log_target=True),
         [f(3, 4), f(3, 4)]),
    Case("PoissonNLLLoss", lambda nn: nn.PoissonNLLLoss(full=True), [f(3, 4), pos(3, 4)]),
    Case("GaussianNLLLoss", lambda nn: nn.GaussianNLLLoss(), [f(3, 4), f(3, 4), pos(3, 4)]),
    Case("HingeEmbeddingLoss", lambda nn: nn.HingeEmbeddingLoss(0.5), [f(3, 4), sign(3, 4)]),
    Case("SoftMarginLoss", lambda nn: nn.SoftMarginLoss(), [f(3, 4), nograd(sign(3, 4))]),
    Case("MultiLabelSoftMarginLoss", lambda nn: nn.MultiLabelSoftMarginLoss(),
         [f(3, 4), const(np.array([[1., 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]]))]),
    Case("MultiLabelMarginLoss", lambda nn: nn.MultiLabelMarginLoss(),
         [f(3, 4), const(np.array([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 0, 0, 0]]))]),
    Case("MultiMarginLoss", lambda nn: nn.MultiMarginLoss(p=2, margin=0.5), [f(5, 4), idx(4, 5)]),
    Case("CosineEmbeddingLoss", lambda nn: nn.CosineEmbeddingLoss(0.2),
         [f(5, 4), f(5, 4), sign(5)]),
    Case("MarginRankingLoss", lambda nn: nn.MarginRankingLoss(0.1), [f(5), f(5), sign(5)]),
    Case("TripletMarginLoss", lambda nn: nn.TripletMarginLoss(swap=True),
         [f(5, 4), f(5, 4), f(5, 4)]),
    Case("TripletMarginWithDistanceLoss", lambda nn: nn.TripletMarginWithDistanceLoss(),
         [f(5, 4), f(5, 4), f(5, 4)]),
    Case("CTCLoss", lambda nn: nn.CTCLoss(),
         [("logsm", (6, 2, 5)), const(np.array([[1, 2, 2], [3, 1, 0]])), const(np.array([6, 5])),
          const(np.array([3, 2]))]),
    Case("LinearCrossEntropyLoss", lambda nn: nn.LinearCrossEntropyLoss(6, 4, bias=True,
                                                                         label_smoothing=0.1),
         [f(5, 6), idx(4, 5)]),
    Case("LinearCrossEntropyLoss-kdim", lambda nn: nn.LinearCrossEntropyLoss(
        6, 3, out_features=(2,), reduction="none", ignore_index=1), [f(5, 6), idx(3, 5, 2)]),
    # dropout (deterministic in eval; p=0 and p=1 in training)
    Case("Dropout", lambda nn: nn.Dropout(0.3), [f(3, 4)], modes=("eval",)),
    Case("Dropout-p0", lambda nn: nn.Dropout(0.0), [f(3, 4)]),
    Case("Dropout2d", lambda nn: nn.Dropout2d(0.3), [f(2, 3, 4, 4)], modes=("eval",)),
    Case("AlphaDropout", lambda nn: nn.AlphaDropout(0.2), [f(3, 4)], modes=("eval",)),
    Case("FeatureAlphaDropout", lambda nn: nn.FeatureAlphaDropout(0.2), [f(2, 3, 4)],
         modes=("eval",)),
    # embedding
    Case("Embedding", lambda nn: nn.Embedding(10, 3), [idx(10, 4, 5)]),
    Case("Embedding-padding", lambda nn: nn.Embedding(10, 3, padding_idx=-2),
         [const(np.array([[1, 8, 8], [0, 2, 8]]))]),
    Case("EmbeddingBag", lambda nn: nn.EmbeddingBag(10, 3),
         [idx(10, 7), const(np.array([0, 3, 3]))]),
    Case("EmbeddingBag-max", lambda nn: nn.EmbeddingBag(10, 3, mode="max"), [idx(10, 4, 3)]),
    Case("EmbeddingBag-sum-pad", lambda nn: nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2),
         [const(np.array([[1, 2, 3], [2, 2, 4]]))]),
    Case("Embedding-maxnorm", lambda nn: nn.Embedding(10, 3, max_norm=0.5, norm_type=1.5),
         [idx(10, 4, 3)]),
    Case("EmbeddingBag-maxnorm", lambda nn: nn.EmbeddingBag(10, 3, max_norm=0.7, mode="sum"),
         [idx(10, 3, 4)]),
    # normalisation
    Case("BatchNorm1d", lambda nn: nn.BatchNorm1d(3), [f(5, 3)]),
    Case("BatchNorm1d-3d", lambda nn: nn.BatchNorm1d(3, momentum=None), [f(4, 3, 5)]),
    Case("BatchNorm2d", lambda nn: nn.BatchNorm2d(3), [f(2, 3, 4, 5)]),
    Case("BatchNorm2d-noaffine", lambda nn: nn.BatchNorm2d(3, affine=False,
                                                           track_running_stats=False),
         [f(2, 3, 4, 5)]),
    Case("BatchNorm3d", lambda nn: nn.BatchNorm3d(2), [f(2, 2, 3, 3, 3)]),
    Case("SyncBatchNorm", lambda nn: nn.SyncBatchNorm(3), [f(4, 3, 2)]),
    Case("LayerNorm", lambda nn: nn.LayerNorm((4, 5)), [f(3, 4, 5)]),
    Case("LayerNorm-nobias", lambda nn: nn.LayerNorm(5, bias=False, eps=1e-3), [f(3, 4, 5)]),
    Case("GroupNorm", lambda nn: nn.GroupNorm(2, 4), [f(3, 4, 5)]),
    Case("RMSNorm", lambda nn: nn.RMSNorm(5), [f(3, 4, 5)]),
    Case("RMSNorm-f32", lambda nn: nn.RMSNorm([4, 5], eps=1e-4), [f(3, 4, 5)], dtype=F32),
    Case("InstanceNorm1d", lambda nn: nn.InstanceNorm1d(3), [f(2, 3, 6)]),
    Case("InstanceNorm2d", lambda nn: nn.InstanceNorm2d(3, affine=True,
                                                         track_running_stats=True),
         [f(2, 3, 4, 5)]),
    Case("InstanceNorm3d-unbatched", lambda nn: nn.InstanceNorm3d(2), [f(2, 3, 3, 3)]),
    Case("LocalResponseNorm", lambda nn: nn.LocalResponseNorm(3), [f(2, 5, 4, 4)]),
    Case("CrossMapLRN2d", lambda nn: nn.CrossMapLRN2d(3), [f(2, 5, 3, 3)], grad=False),
    # padding
    Case("ZeroPad2d", lambda nn: nn.ZeroPad2d((1, 2, 0, 1)), [f(2, 3, 4, 4)]),
    Case("ConstantPad1d", lambda nn: nn.ConstantPad1d(2, 3.5), [f(2, 3, 4)]),
    Case("ConstantPad3d", lambda nn: nn.ConstantPad3d(1, -1.0), [f(1, 2, 2, 3, 3)]),
    Case("ReflectionPad1d", lambda nn: nn.ReflectionPad1d((2, 1)), [f(2, 3, 5)]),
    Case("ReflectionPad2d", lambda nn: nn.ReflectionPad2d(1), [f(2, 3, 4, 4)]),
    Case("ReplicationPad2d", lambda nn: nn.ReplicationPad2d((1, 0, 2, 1)), [f(2, 3, 4, 4)]),
    Case("ReplicationPad3d", lambda nn: nn.ReplicationPad3d(1), [f(1, 2, 3, 3, 3)]),
    Case("CircularPad1d", lambda nn: nn.CircularPad1d(2), [f(2, 3, 5)]),
    Case("CircularPad2d", lambda nn: nn.CircularPad2d((1, 1, 2, 0)), [f(2, 3, 4, 4)]),
    Case("ZeroPad1d", lambda nn: nn.ZeroPad1d(1), [f(2, 3)]),
    Case("ZeroPad3d", lambda nn: nn.ZeroPad3d((1, 0, 0, 1, 1, 0)), [f(1, 2, 2, 2, 2)]),
    # pooling
    Case("MaxPool1d", lambda nn: nn.MaxPool1d(3, 2, 1), [f(2, 3, 9)]),
    Case("MaxPool2d", lambda nn: nn.MaxPool2d(2), [f(2, 3, 6, 6)]),
    Case("MaxPool2d-ind", lambda nn: nn.MaxPool2d(3, 2, 1, return_indices=True, ceil_mode=True),
         [f(2, 3, 7, 6)]),
    Case("MaxPool3d", lambda nn: nn.MaxPool3d(2, (1, 2, 2), dilation=(1, 1, 2)),
         [f(1, 2, 4, 6, 7)]),
    Case("AvgPool1d", lambda nn: nn.AvgPool1d(3, 2, 1, count_include_pad=False), [f(2, 3, 9)]),
    Case("AvgPool2d", lambda nn: nn.AvgPool2d(3, 2, 1, ceil_mode=True), [f(2, 3, 7, 6)]),
    Case("AvgPool3d", lambda nn: nn.AvgPool3d(2, divisor_override=3), [f(1, 2, 4, 4, 5)]),
    Case("LPPool1d", lambda nn: nn.LPPool1d(2, 3), [pos(2, 3, 9)]),
    Case("LPPool2d", lambda nn: nn.LPPool2d(1.5, 2, 2), [pos(2, 3, 6, 6)]),
    Case("LPPool3d", lambda nn: nn.LPPool3d(2, 2), [pos(1, 2, 4, 4, 4)]),
    Case("AdaptiveAvgPool1d", lambda nn: nn.AdaptiveAvgPool1d(4), [f(2, 3, 9)]),
    Case("AdaptiveAvgPool2d", lambda nn: nn.AdaptiveAvgPool2d((3, None)), [f(2, 3, 7, 5)]),
    Case("AdaptiveAvgPool3d", lambda nn: nn.AdaptiveAvgPool3d(2), [f(1, 2, 5, 4, 3)]),
    Case("AdaptiveMaxPool1d", lambda nn: nn.AdaptiveMaxPool1d(4, return_indices=True),
         [f(2, 3, 9)]),
    Case("AdaptiveMaxPool2d", lambda nn: nn.AdaptiveMaxPool2d(3), [f(2, 3, 7, 5)]),
    Case("AdaptiveMaxPool3d", lambda nn: nn.AdaptiveMaxPool3d((2, 3, 2)), [f(1, 2, 5, 4, 3)]),
    Case("MaxUnpool1d", lambda nn: nn.MaxUnpool1d(2), [f(2, 3, 6)],
         call=lambda m, x: m(*_F(m).max_pool1d(x.detach(), 2,
                                                               return_indices=True))),
    Case("MaxUnpool2d", lambda nn: nn.MaxUnpool2d(2, 2), [f(2, 3, 4, 6)],
         call=lambda m, x: m(*_F(m).max_pool2d(x, 2, return_indices=True),
                             output_size=[5, 7])),
    Case("MaxUnpool3d", lambda nn: nn.MaxUnpool3d(2), [f(1, 2, 4, 4, 2)],
         call=lambda m, x: m(*_F(m).max_pool3d(x, 2, return_indices=True))),
    Case("FractionalMaxPool2d", lambda nn: nn.FractionalMaxPool2d(
        2, output_size=(4, 3), return_indices=True,
        _random_samples=_lib_tensor(nn, [[[0.1, 0.7], [0.5, 0.3], [0.9, 0.05]]] * 2)),
        [f(2, 3, 7, 6)]),
    Case("FractionalMaxPool2d-ratio-unbatched", lambda nn: nn.FractionalMaxPool2d(
        (3, 2), output_ratio=0.5, _random_samples=_lib_tensor(nn, [[[0.4, 0.2], [0.8, 0.6]]])),
        [f(2, 9, 8)]),
    Case("FractionalMaxPool3d", lambda nn: nn.FractionalMaxPool3d(
        2, output_size=(3, 2, 3), return_indices=True,
        _random_samples=_lib_tensor(nn, [[[0.1, 0.7, 0.3], [0.5, 0.2, 0.9]]])),
        [f(1, 2, 5, 4, 6)]),
    Case("AdaptiveLogSoftmaxWithLoss", lambda nn: nn.AdaptiveLogSoftmaxWithLoss(
        8, 10, [3, 6], div_value=2.0), [f(7, 8), const(np.array([0, 9, 4, 2, 7, 5, 3]))]),
    Case("AdaptiveLogSoftmaxWithLoss-log_prob-predict", lambda nn: nn.AdaptiveLogSoftmaxWithLoss(
        8, 10, [3], head_bias=True), [f(7, 8)],
        call=lambda m, x: (m.log_prob(x), m.predict(x.detach()))),
    # convolution
    Case("Conv1d", lambda nn: nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2),
         [f(2, 4, 9)]),
    Case("Conv1d-reflect", lambda nn: nn.Conv1d(2, 3, 3, padding=2, padding_mode="reflect",
                                                dilation=2), [f(2, 2, 9)]),
    Case("Conv2d", lambda nn: nn.Conv2d(3, 4, (3, 2), stride=(2, 1), padding=(1, 0)),
         [f(2, 3, 7, 6)]),
    Case("Conv2d-same-circular", lambda nn: nn.Conv2d(2, 2, 3, padding="same",
                                                      padding_mode="circular", bias=False),
         [f(1, 2, 5, 5)]),
    Case("Conv2d-f32", lambda nn: nn.Conv2d(3, 4, 3), [f(2, 3, 6, 6)], dtype=F32),
    Case("Conv3d", lambda nn: nn.Conv3d(2, 4, (2, 3, 2), stride=(1, 2, 1), padding=1, groups=2),
         [f(2, 2, 4, 5, 5)]),
    Case("Conv3d-replicate", lambda nn: nn.Conv3d(2, 2, 3, padding=1, padding_mode="replicate"),
         [f(1, 2, 4, 4, 4)]),
    Case("ConvTranspose1d", lambda nn: nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1,
                                                          output_padding=1, groups=2),
         [f(2, 4, 5)]),
    Case("ConvTranspose2d", lambda nn: nn.ConvTranspose2d(3, 2, (3, 2), stride=(2, 3),
                                                          dilation=(1, 2)), [f(2, 3, 4, 3)]),
    Case("ConvTranspose2d-outsize", lambda nn: nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1),
         [f(1, 3, 4, 4)], call=lambda m, x: m(x, output_size=[8, 8])),
    Case("ConvTranspose3d", lambda nn: nn.ConvTranspose3d(2, 2, 2, stride=2, bias=False),
         [f(1, 2, 2, 3, 2)]),
    # shape and resampling
    Case("PixelShuffle", lambda nn: nn.PixelShuffle(2), [f(2, 8, 3, 3)]),
    Case("PixelUnshuffle", lambda nn: nn.PixelUnshuffle(2), [f(2, 2, 4, 6)]),
    Case("ChannelShuffle", lambda nn: nn.ChannelShuffle(2), [f(2, 4, 3, 3)], grad=False),
    Case("Fold", lambda nn: nn.Fold((4, 5), 2), [f(2, 12, 12)]),
    Case("Unfold", lambda nn: nn.Unfold(2, padding=1, stride=2), [f(2, 3, 4, 5)]),
    Case("Upsample-nearest", lambda nn: nn.Upsample(scale_factor=2), [f(2, 3, 3, 4)]),
    Case("Upsample-bilinear", lambda nn: nn.Upsample(size=(5, 7), mode="bilinear"),
         [f(2, 3, 3, 4)]),
    Case("Upsample-bicubic", lambda nn: nn.Upsample(scale_factor=(1.5, 2), mode="bicubic",
                                                    align_corners=True), [f(1, 2, 3, 4)]),
    Case("Upsample-linear", lambda nn: nn.Upsample(scale_factor=2.5, mode="linear"),
         [f(2, 3, 4)]),
    Case("Upsample-trilinear", lambda nn: nn.Upsample(size=4, mode="trilinear"),
         [f(1, 2, 3, 2, 3)]),
    Case("Upsample-nearest-exact", lambda nn: nn.Upsample(size=(5, 3), mode="nearest-exact"),
         [f(1, 2, 3, 4)]),
    Case("UpsamplingNearest2d", lambda nn: nn.UpsamplingNearest2d(scale_factor=3),
         [f(1, 2, 2, 3)]),
    Case("UpsamplingBilinear2d", lambda nn: nn.UpsamplingBilinear2d(size=(4, 5)),
         [f(1, 2, 2, 3)]),
    Case("CosineSimilarity", lambda nn: nn.CosineSimilarity(dim=1), [f(3, 4), f(3, 4)]),
    Case("PairwiseDistance", lambda nn: nn.PairwiseDistance(p=3, keepdim=True),
         [f(3, 4), f(3, 4)]),
    # recurrent
    Case("RNN", lambda nn: nn.RNN(3, 4), [f(5, 2, 3)]),
    Case("RNN-relu-2layers-bidir", lambda nn: nn.RNN(3, 4, 2, nonlinearity="relu",
                                                     bidirectional=True, batch_first=True),
         [f(2, 5, 3), f(4, 2, 4)]),
    Case("RNN-unbatched", lambda nn: nn.RNN(3, 4, bias=False), [f(5, 3)]),
    Case("LSTM", lambda nn: nn.LSTM(3, 4), [f(5, 2, 3)]),
    Case("LSTM-2layers-bidir-proj", lambda nn: nn.LSTM(3, 5, 2, bidirectional=True, proj_size=2),
         [f(4, 3, 3)]),
    Case("LSTM-hx-batch-first", lambda nn: nn.LSTM(3, 4, batch_first=True),
         [f(2, 5, 3), f(1, 2, 4), f(1, 2, 4)], call=lambda m, x, h, c: m(x, (h, c))),
    Case("LSTM-dropout-eval", lambda nn: nn.LSTM(3, 4, 3, dropout=0.5), [f(4, 2, 3)],
         modes=("eval",)),
    Case("GRU", lambda nn: nn.GRU(3, 4, 2), [f(5, 2, 3)]),
    Case("GRU-bidir-unbatched", lambda nn: nn.GRU(3, 4, bidirectional=True), [f(5, 3), f(2, 4)]),
    Case("LSTM-packed", lambda nn: nn.LSTM(3, 4, 2, bidirectional=True), [f(5, 3, 3)],
         call=lambda m, x: m(_lib(m).nn.utils.rnn.pack_padded_sequence(
             x, [3, 5, 2], enforce_sorted=False))),
    Case("GRU-packed-padded-roundtrip", lambda nn: nn.GRU(3, 4, batch_first=True),
         [f(3, 5, 3)],
         call=lambda m, x: _lib(m).nn.utils.rnn.pad_packed_sequence(
             m(_lib(m).nn.utils.rnn.pack_padded_sequence(x, [5, 4, 2], batch_first=True))[0],
             batch_first=True, total_length=6)),
    Case("RNN-packed-sequence", lambda nn: nn.RNN(3, 2),
         [f(4, 3), f(2, 3), f(3, 3)],
         call=lambda m, a, b, c: m(_lib(m).nn.utils.rnn.pack_sequence([a, b, c],
                                                                      enforce_sorted=False))),
    Case("RNNCell", lambda nn: nn.RNNCell(3, 4, nonlinearity="relu"), [f(2, 3), f(2, 4)]),
    Case("RNNCell-unbatched", lambda nn: nn.RNNCell(3, 4), [f(3)]),
    Case("LSTMCell", lambda nn: nn.LSTMCell(3, 4), [f(2, 3), f(2, 4), f(2, 4)],
         call=lambda m, x, h, c: m(x, (h, c))),
    Case("GRUCell", lambda nn: nn.GRUCell(3, 4, bias=False), [f(2, 3), f(2, 4)]),
    # attention
    Case("MultiheadAttention", lambda nn: nn.MultiheadAttention(8, 2),
         [f(5, 3, 8), f(4, 3, 8), f(4, 3, 8)]),
    Case("MultiheadAttention-self-batch-first", lambda nn: nn.MultiheadAttention(
        6, 3, batch_first=True, add_bias_kv=True, add_zero_attn=True),
        [f(2, 4, 6)], call=lambda m, x: m(x, x, x, need_weights=False)),
    Case("MultiheadAttention-kvdim-masks", lambda nn: nn.MultiheadAttention(6, 2, kdim=4,
                                                                            vdim=5),
         [f(3, 2, 6), f(4, 2, 4), f(4, 2, 5),
          const(np.array([[False, False, True, False], [False, False, False, True]]))],
         call=lambda m, q, k, v, kpm: m(q, k, v, key_padding_mask=kpm,
                                        average_attn_weights=False)),
    # transformer (dropout only in eval: the random streams differ)
    Case("TransformerEncoderLayer", lambda nn: nn.TransformerEncoderLayer(8, 2, 16),
         [f(5, 3, 8)], modes=("eval",)),
    Case("TransformerEncoderLayer-nodrop-gelu-normfirst", lambda nn: nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, activation="gelu", norm_first=True, batch_first=True),
        [f(3, 5, 8)]),
    Case("TransformerDecoderLayer", lambda nn: nn.TransformerDecoderLayer(8, 4, 12, dropout=0.0),
         [f(4, 2, 8), f(6, 2, 8)]),
    Case("TransformerEncoder-causal", lambda nn: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, nn.LayerNorm(8),
        enable_nested_tensor=False),
        [f(5, 2, 8)], call=lambda m, x: m(x, mask=_lib(m).nn.Transformer
                                          .generate_square_subsequent_mask(5, dtype=x.dtype),
                                          is_causal=True)),
    Case("TransformerEncoder-padding-mask", lambda nn: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 2),
        [f(2, 5, 8), const(np.array([[False] * 5, [False, False, False, True, True]]))],
        call=lambda m, x, kpm: m(x, src_key_padding_mask=kpm)),
    Case("TransformerDecoder", lambda nn: nn.TransformerDecoder(
        nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=True), 2),
        [f(4, 2, 8), f(5, 2, 8)],
        call=lambda m, t, mem: m(t, mem, tgt_mask=_lib(m).nn.Transformer
                                 .generate_square_subsequent_mask(4, dtype=t.dtype))),
    Case("Transformer", lambda nn: nn.Transformer(8, 2, 2, 1, 16, dropout=0.0),
         [f(5, 2, 8), f(4, 2, 8)]),
]


def _lib_tensor(nn, value):
    mod = torch if nn is torch.nn else autograd_core
    return mod.tensor(value)


def _lib(m):
    return torch if type(m).__module__.startswith("torch") else autograd_core


def _F(m):
    return _lib(m).nn.functional


def _fix_inputs(case, rng, dtype):
    arrays = []
    for spec in case.inputs:
        if spec[0] == "logsm":
            a = rng.standard_normal(spec[1])
            a = a - np.log(np.exp(a).sum(-1, keepdims=True))
            arrays.append(a.astype(dtype))
        elif spec[0] == "const" and spec[1] is None:
            arrays.append(rng.standard_normal((3, 4)).astype(dtype) * 5)
        elif spec[0] == "nograd":
            arrays.append(_NoGrad(_gen(rng, spec[1], dtype)))
        else:
            arrays.append(_gen(rng, spec, dtype))
    return arrays


class _NoGrad:
    def __init__(self, array):
        self.array = array


def _to_torch(a):
    if isinstance(a, _NoGrad):
        return torch.tensor(a.array)
    if isinstance(a, np.ndarray):
        return torch.tensor(a, requires_grad=a.dtype.kind == "f")
    return a


def _to_ours(a):
    if isinstance(a, _NoGrad):
        return autograd_core.tensor(a.array)
    if isinstance(a, np.ndarray):
        return autograd_core.tensor(a, requires_grad=a.dtype.kind == "f")
    return a


def _flat_outputs(out):
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res += _flat_outputs(o)
        return res
    return [out]


def _tol(case):
    if case.atol is not None:
        return case.atol
    return 2e-4 if case.dtype == F32 else 1e-9


def _check_close(name, want, got, tol):
    want = want.detach().numpy() if hasattr(want, "detach") else np.asarray(want)
    got = got.detach().numpy() if hasattr(got, "detach") else np.asarray(got)
    assert want.shape == got.shape, f"{name}: shape {want.shape} != {got.shape}"
    np.testing.assert_allclose(got, want, rtol=tol * 10, atol=tol, err_msg=name)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_module_against_torch(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _run_case(case)


@pytest.mark.parametrize("case", [c for c in CASES if c.dtype == F64], ids=repr)
def test_module_against_torch_float32(case):
    """The same in float32 (no upcasts in the composed code), to float32 tolerances."""
    c32 = Case(case.name, case.ctor, case.inputs, F32, case.modes, case.call, case.grad,
               atol=5e-4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _run_case(c32)


def _run_case(case):
    tm = case.ctor(torch.nn)
    am = case.ctor(autograd_core.nn)
    assert repr(am) == sub_name(repr(tm))
    if case.dtype == F64:
        tm.double()
        am.double()
    tsd, asd = tm.state_dict(), am.state_dict()
    assert list(asd.keys()) == list(tsd.keys())
    assert [tuple(v.shape) for v in asd.values()] == [tuple(v.shape) for v in tsd.values()]
    assert [str(v.dtype) for v in asd.values()] == [sub_name(str(v.dtype)) for v in
                                                     tsd.values()]
    am.load_state_dict({k: autograd_core.tensor(v.numpy()) for k, v in tsd.items()})
    rng = np.random.default_rng(0)
    tol = _tol(case)
    for mode in case.modes:
        tm.train(mode == "train")
        am.train(mode == "train")
        arrays = _fix_inputs(case, rng, np.float64 if case.dtype == F64 else np.float32)
        t_in = [_to_torch(a) for a in arrays]
        a_in = [_to_ours(a) for a in arrays]
        call = case.call or (lambda m, *xs: m(*xs))
        t_out = _flat_outputs(call(tm, *t_in))
        a_out = _flat_outputs(call(am, *a_in))
        assert len(t_out) == len(a_out)
        for i, (t, a) in enumerate(zip(t_out, a_out)):
            if t is None:
                assert a is None
                continue
            assert sub_name(str(t.dtype)) == str(a.dtype), f"output {i} dtype"
            _check_close(f"{mode} output {i}", t, a, tol)
        for (name, tb), (aname, ab) in zip(tm.named_buffers(), am.named_buffers()):
            assert name == aname
            _check_close(f"{mode} buffer {name}", tb, ab, tol)
        if not case.grad:
            continue
        t_loss, a_loss = 0, 0
        for t, a in zip(t_out, a_out):
            if t is None or not t.requires_grad:
                continue
            g = rng.standard_normal(tuple(t.shape))
            t_loss = t_loss + (t * torch.tensor(g, dtype=t.dtype)).sum()
            a_loss = a_loss + (a * autograd_core.tensor(g).to(a.dtype)).sum()
        if isinstance(t_loss, int):
            continue
        t_loss.backward()
        a_loss.backward()
        for i, (t, a) in enumerate(zip(t_in, a_in)):
            if isinstance(t, torch.Tensor) and t.requires_grad:
                if t.grad is None:
                    assert a.grad is None or not np.any(a.grad.numpy())
                else:
                    _check_close(f"{mode} input grad {i}", t.grad, a.grad, tol)
        for (name, tp), (aname, ap) in zip(tm.named_parameters(), am.named_parameters()):
            assert name == aname
            if tp.grad is None:
                assert ap.grad is None, name
            else:
                _check_close(f"{mode} grad of {name}", tp.grad, ap.grad, tol)
        tm.zero_grad()
        am.zero_grad()


# ------------------------------------------------------------------ default initialisation

def _bound_check(t, bound):
    a = t.detach().numpy()
    assert np.abs(a).max() <= bound * (1 + 1e-6)
    if a.size >= 200:   # a uniform sample fills its range and is centred
        assert np.abs(a).max() > 0.8 * bound
        assert abs(a.mean()) < 0.2 * bound


@pytest.mark.parametrize("ctor, fan_in", [
    (lambda nn: nn.Linear(50, 40), 50),
    (lambda nn: nn.Conv1d(6, 30, 5), 30),
    (lambda nn: nn.Conv2d(6, 30, 3, groups=3), 18),
    (lambda nn: nn.Conv3d(4, 20, 2), 32),
    (lambda nn: nn.ConvTranspose2d(20, 6, 3), 54),
    (lambda nn: nn.Bilinear(20, 30, 10), 20),
], ids=["Linear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "Bilinear"])
def test_default_init_bounds(ctor, fan_in):
    autograd_core.manual_seed(0)
    m = ctor(autograd_core.nn)
    bound = 1 / math.sqrt(fan_in)
    _bound_check(m.weight, bound)
    _bound_check(m.bias, bound)


def test_default_init_of_other_modules():
    nn = autograd_core.nn
    autograd_core.manual_seed(0)
    e = nn.Embedding(100, 20, padding_idx=3).weight.detach().numpy()
    assert abs(e.std() - 1) < 0.1 and abs(e.mean()) < 0.1 and not e[3].any()
    mha = nn.MultiheadAttention(16, 4)
    _bound_check(mha.in_proj_weight, math.sqrt(6 / (16 + 48)))
    assert not mha.in_proj_bias.detach().numpy().any()
    assert not mha.out_proj.bias.detach().numpy().any()
    bn = nn.BatchNorm2d(5)
    assert bn.weight.tolist() == [1.0] * 5 and bn.bias.tolist() == [0.0] * 5
    assert bn.running_var.tolist() == [1.0] * 5 and int(bn.num_batches_tracked) == 0
    assert nn.PReLU(3).weight.tolist() == pytest.approx([0.25] * 3)
    assert nn.LayerNorm(4).weight.tolist() == [1.0] * 4
