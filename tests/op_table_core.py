"""Op-table entries of the core ops: arithmetic and pow, the basic unary functions,
sum/mean/max/min, matrix products, shape ops, basic and advanced indexing, joining and
splitting, copies and dtype conversion, where, item assignment and in-place fills
(see op_spec.py for the format; op_table.py collects all families)."""
from op_spec import C, registrar

OPS = []
op = registrar(OPS)

# binary arithmetic: tensors with tensors (broadcasting, 0-d) and Python numbers both sides

_BIN_TT = [
    C((3, 4), (3, 4)), C((3, 4), (4,)), C((4,), (3, 4)), C((3, 1), (1, 4)),
    C((2, 1, 4), (3, 1)), C((), (2, 3)), C((2, 3), ()), C((), ()),
    C((3, 4), (3, 4), nc=("t", "step")), C((4, 3), (3,), nc=("step", None)),
    C((3, 4), (3, 4), ng=(1,)), C((3,), (3,), ng=(0, 1), id="no-requires-grad"),
]
_BIN_TS = [C((3, 4), 2.5), C((3, 4), -3), C((), 1.5), C((2, 5), 0.5, nc=("t",))]
_BIN_ST = [C(2.5, (3, 4)), C(-3, (3, 4)), C(1.5, ()), C(0.5, (2, 5), nc=("t",))]

op("add", lambda m, a, b: a + b, _BIN_TT + _BIN_TS + _BIN_ST, ("AddBackward0",),
   second_order=False)
op("add.fn", lambda m, a, b: m.add(a, b), [C((3, 4), (4,)), C((2, 3), 2.0)], ("AddBackward0",),
   second_order=False)
op("add.method_alpha", lambda m, a, b: a.add(b, alpha=2), [C((3, 4), (3, 1)), C((3,), ())],
   ("AddBackward0",), second_order=False)
op("sub", lambda m, a, b: a - b, _BIN_TT + _BIN_TS, ("SubBackward0",), second_order=False)
op("sub.fn", lambda m, a, b: m.sub(a, b), [C((3, 4), (4,))], ("SubBackward0",),
   second_order=False)
op("rsub", lambda m, a, b: a - b, _BIN_ST, ("RsubBackward1",), second_order=False)
op("mul", lambda m, a, b: a * b, _BIN_TT + _BIN_TS + _BIN_ST, ("MulBackward0",))
op("mul.fn", lambda m, a, b: m.mul(a, b), [C((3, 4), (4,)), C((3,), 4.0)], ("MulBackward0",))
op("mul.self", lambda m, a: a * a, [C((3, 4)), C(())], ("MulBackward0",))
op("div", lambda m, a, b: a / b, _BIN_TT + _BIN_TS, ("DivBackward0",), domain=("real", "nonzero"))
op("div.fn", lambda m, a, b: m.div(a, b), [C((3, 4), (4,))], ("DivBackward0",),
   domain=("real", "nonzero"))
op("true_divide.fn", lambda m, a, b: m.true_divide(a, b), [C((2, 3), (2, 3))], ("DivBackward0",),
   domain=("real", "nonzero"))
op("rdiv", lambda m, a, b: a / b, _BIN_ST, ("MulBackward0",), domain="nonzero",
   inner_grad_fns=("ReciprocalBackward0",))
op("pos", lambda m, a: +a, [C((3,))], (), second_order=False)  # +x is x itself

op("pow.tensor_scalar", lambda m, a, b: a ** b,
   [C((3, 4), 2), C((3, 4), 3), C((), 2), C((3, 4), 2.0), C((2, 3), 0), C((2, 3), 1),
    C((3, 4), -1, domain="nonzero"), C((3, 4), 0.5, domain="positive"),
    C((3, 4), -1.5, domain="positive"), C((4, 3), 2, nc=("t",))],
   ("PowBackward0",))
op("pow.tensor_tensor", lambda m, a, b: a ** b,
   [C((3, 4), (3, 4)), C((3, 4), (4,)), C((3, 1), ()), C((), (3,)), C((4, 3), (4, 3), nc=("t", None)),
    C((3, 4), (3, 4), ng=(1,)), C((3, 4), (3, 4), ng=(0,))],
   ("PowBackward1",), domain=("positive", "real"))
op("pow.scalar_tensor", lambda m, a, b: a ** b,
   [C(2.0, (3, 4)), C(2, (3, 4)), C(0.5, ()), C(3.0, (2, 5), nc=("t",))], ("PowBackward2",))
op("pow.fn", lambda m, a, b: m.pow(a, b),
   [C((3, 4), 2), C((3, 4), (4,)), C(2.0, (3,))], ("PowBackward0", "PowBackward1", "PowBackward2"),
   domain="positive")
op("pow.method", lambda m, a, b: a.pow(b), [C((3, 4), 3), C((3, 4), (3, 4))],
   ("PowBackward0", "PowBackward1"), domain="positive")

# unary elementwise: function and method forms

_UNARY = [C(()), C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C((3, 2), nc=("step",))]


def unary(name, grad_fn, domain="real", extra=(), double=(), second_order=True, dunder=None):
    op(name, lambda m, x: getattr(m, name)(x), _UNARY + list(extra), (grad_fn,), domain=domain,
       double_grad_fns=double, second_order=second_order)
    op(name + ".method", lambda m, x: getattr(x, name)(), [C((3, 4)), C(())], (grad_fn,),
       domain=domain, double_grad_fns=double, second_order=second_order)
    if dunder:
        op(name + ".op", dunder, [C((3, 4))], (grad_fn,), domain=domain,
           double_grad_fns=double, second_order=second_order)


unary("neg", "NegBackward0", second_order=False, dunder=lambda m, x: -x)
unary("abs", "AbsBackward0", "nonzero", extra=[C((12,), domain="zeros")], second_order=False,
      dunder=lambda m, x: abs(x))
unary("exp", "ExpBackward0")
unary("log", "LogBackward0", "positive")
unary("sqrt", "SqrtBackward0", "positive")
unary("sin", "SinBackward0")
unary("cos", "CosBackward0")
unary("tanh", "TanhBackward0", double=("TanhBackwardBackward0",))
unary("sigmoid", "SigmoidBackward0", double=("SigmoidBackwardBackward0",))
unary("relu", "ReluBackward0", "nonzero", extra=[C((12,), domain="zeros")],
      double=("ThresholdBackwardBackward0",), second_order=False)

# reductions

_RED = [C(()), C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))]
op("sum", lambda m, x: x.sum(), _RED, ("SumBackward0",), second_order=False)
op("sum.fn", lambda m, x: m.sum(x), [C((3, 4))], ("SumBackward0",), second_order=False)
op("sum.dim", lambda m, x: x.sum(1), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("SumBackward1",), second_order=False)
op("sum.dim_neg", lambda m, x: m.sum(x, -1), [C((3, 4)), C((5,))], ("SumBackward1",),
   second_order=False)
op("sum.dim0_0d", lambda m, x: x.sum(0), [C(())], ("SumBackward1",), second_order=False)
op("sum.dims", lambda m, x: x.sum((0, 2)), [C((2, 3, 4)), C((2, 3, 4), nc=("step",))],
   ("SumBackward1",), second_order=False)
op("sum.keepdim", lambda m, x: x.sum(dim=1, keepdim=True), [C((3, 4)), C((2, 3, 4))],
   ("SumBackward1",), second_order=False)
op("sum.dims_keepdim", lambda m, x: m.sum(x, (-1, 0), keepdim=True), [C((2, 3, 4))],
   ("SumBackward1",), second_order=False)
op("mean", lambda m, x: x.mean(), _RED, ("MeanBackward0",), second_order=False)
op("mean.fn", lambda m, x: m.mean(x), [C((3, 4))], ("MeanBackward0",), second_order=False)
op("mean.dim", lambda m, x: x.mean(0), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("MeanBackward1",), second_order=False)
op("mean.dims", lambda m, x: m.mean(x, (1, 2)), [C((2, 3, 4))], ("MeanBackward1",),
   second_order=False)
op("mean.keepdim", lambda m, x: x.mean(-1, keepdim=True), [C((3, 4)), C((2, 3, 4))],
   ("MeanBackward1",), second_order=False)

_MAXALL = [C(()), C((5,)), C((3, 4)), C((4, 3), nc=("t",)), C((3, 4), domain="ties", id="ties")]
op("max", lambda m, x: x.max(), _MAXALL, ("MaxBackward1",), domain="distinct", second_order=False)
op("max.fn", lambda m, x: m.max(x), [C((3, 4))], ("MaxBackward1",), domain="distinct",
   second_order=False)
op("min", lambda m, x: x.min(), _MAXALL, ("MinBackward1",), domain="distinct", second_order=False)
op("min.fn", lambda m, x: m.min(x), [C((3, 4))], ("MinBackward1",), domain="distinct",
   second_order=False)
_MAXDIM = [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))]
op("max.dim", lambda m, x: x.max(1), _MAXDIM, ("MaxBackward0",), domain="distinct",
   second_order=False)
op("max.dim_fn_keepdim", lambda m, x: m.max(x, dim=-1, keepdim=True), _MAXDIM,
   ("MaxBackward0",), domain="distinct", second_order=False)
op("max.dim0_0d", lambda m, x: m.max(x, 0), [C(())], ("MaxBackward0",), domain="distinct",
   second_order=False)
op("min.dim", lambda m, x: x.min(0), _MAXDIM + [C((5,))], ("MinBackward0",), domain="distinct",
   second_order=False)
op("min.dim_fn_keepdim", lambda m, x: m.min(x, 1, True), _MAXDIM, ("MinBackward0",),
   domain="distinct", second_order=False)
op("max.dim_values", lambda m, x: x.max(dim=1).values, [C((3, 4))], ("MaxBackward0",),
   domain="distinct", second_order=False)
op("min.dim_values", lambda m, x: x.min(dim=0)[0], [C((3, 4))], ("MinBackward0",),
   domain="distinct", second_order=False)

# matrix products

op("matmul", lambda m, a, b: a @ b,
   [C((3,), (3,)), C((2, 3), (3,)), C((3,), (3, 4)), C((2, 3), (3, 4)),
    C((2, 2, 3), (2, 3, 4)), C((2, 2, 3), (3, 4)), C((2, 3), (2, 3, 4)),
    C((2, 1, 2, 3), (3, 3, 2)), C((2, 2, 3), (3,)), C((3,), (2, 3, 4)),
    C((2, 3), (3, 4), nc=("t", "t")), C((2, 3), (3,), nc=(None, "step")),
    C((2, 3), (3, 4), ng=(0,)), C((2, 3), (3, 4), ng=(1,))],
   ("DotBackward0", "MvBackward0", "SqueezeBackward4", "MmBackward0", "UnsafeViewBackward0",
    "CloneBackward0", "ViewBackward0"))
op("matmul.fn", lambda m, a, b: m.matmul(a, b), [C((2, 3), (3, 4)), C((2, 2, 3), (2, 3, 2))],
   ("MmBackward0", "UnsafeViewBackward0"))
op("matmul.method", lambda m, a, b: a.matmul(b), [C((2, 3), (3,))], ("MvBackward0",))
op("mm", lambda m, a, b: m.mm(a, b), [C((2, 3), (3, 4)), C((2, 3), (3, 4), nc=("t", "t"))],
   ("MmBackward0",))
op("mm.method", lambda m, a, b: a.mm(b), [C((1, 3), (3, 1))], ("MmBackward0",))

# shape ops

op("reshape", lambda m, x: x.reshape(6, 2), [C((3, 4)), C((2, 3, 2))], ("ViewBackward0",),
   second_order=False)
op("reshape.infer", lambda m, x: x.reshape(-1, 3), [C((3, 4)), C((12,))], ("ViewBackward0",),
   second_order=False)
op("reshape.fn", lambda m, x: m.reshape(x, (4, 3)), [C((3, 4))], ("ViewBackward0",),
   second_order=False)
op("reshape.0d", lambda m, x: x.reshape(()), [C((1,)), C((1, 1))], ("ViewBackward0",),
   second_order=False)
op("reshape.from_0d", lambda m, x: x.reshape(1, 1), [C(())], ("ViewBackward0",),
   second_order=False)
op("reshape.noncontig", lambda m, x: x.reshape(12), [C((4, 3), nc=("t",)), C((3, 4), nc=("step",))],
   ("UnsafeViewBackward0", "ViewBackward0"), second_order=False)
op("view", lambda m, x: x.view(2, 6), [C((3, 4)), C((12,))], ("ViewBackward0",),
   second_order=False)
op("view.infer", lambda m, x: x.view(-1), [C((3, 4)), C(())], ("ViewBackward0",),
   second_order=False)
op("view.noncontig_ok", lambda m, x: x.view(2, 2, 3), [C((4, 3), nc=("step",))],
   ("ViewBackward0",), second_order=False)
op("view_as", lambda m, a, b: a.view_as(b), [C((3, 4), (2, 6), ng=(1,))], ("ViewBackward0",),
   second_order=False)
op("flatten", lambda m, x: x.flatten(), [C((3, 4)), C((2, 3, 4)), C(()), C((5,)),
                                          C((4, 3), nc=("t",))],
   ("ViewBackward0", "UnsafeViewBackward0"), second_order=False)
op("flatten.fn", lambda m, x: m.flatten(x, 1), [C((2, 3, 4)), C((2, 3))], ("ViewBackward0",),
   second_order=False)
op("flatten.range", lambda m, x: x.flatten(0, 1), [C((2, 3, 4))], ("ViewBackward0",),
   second_order=False)
op("transpose", lambda m, x: x.transpose(0, 1), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("TransposeBackward0",), second_order=False)
op("transpose.fn", lambda m, x: m.transpose(x, -1, 0), [C((2, 3, 4)), C((5,))],
   ("TransposeBackward0",), second_order=False)
op("swapaxes", lambda m, x: x.swapaxes(0, 2), [C((2, 3, 4))], ("TransposeBackward0",),
   second_order=False)
op("t", lambda m, x: x.t(), [C((3, 4)), C((5,)), C(()), C((4, 3), nc=("t",))], ("TBackward0",),
   second_order=False)
op("t.fn", lambda m, x: m.t(x), [C((3, 4))], ("TBackward0",), second_order=False)
op("T", lambda m, x: x.T, [C((3, 4)), C((4, 3), nc=("t",))], ("PermuteBackward0",),
   second_order=False)
op("permute", lambda m, x: x.permute(2, 0, 1), [C((2, 3, 4)), C((2, 4, 3), nc=("t",))],
   ("PermuteBackward0",), second_order=False)
op("permute.fn", lambda m, x: m.permute(x, (1, 0)), [C((3, 4))], ("PermuteBackward0",),
   second_order=False)
op("permute.neg", lambda m, x: x.permute(-1, 0, 1), [C((2, 3, 4))], ("PermuteBackward0",),
   second_order=False)
op("squeeze", lambda m, x: x.squeeze(), [C((1, 3, 1, 2)), C((3, 4)), C((1,)), C(())],
   ("SqueezeBackward0",), second_order=False)
op("squeeze.dim", lambda m, x: x.squeeze(0), [C((1, 3, 1, 2)), C((3, 4)), C(())],
   ("SqueezeBackward1",), second_order=False)
op("squeeze.fn_dim", lambda m, x: m.squeeze(x, -1), [C((3, 1)), C((3, 4, 1), nc=("step",))],
   ("SqueezeBackward1",), second_order=False)
op("squeeze.dims", lambda m, x: x.squeeze((0, 2)), [C((1, 3, 1, 2)), C((1, 3, 2))],
   ("SqueezeBackward2",), second_order=False)
op("unsqueeze", lambda m, x: x.unsqueeze(0), [C((3, 4)), C(()), C((4, 3), nc=("t",))],
   ("UnsqueezeBackward0",), second_order=False)
op("unsqueeze.fn_neg", lambda m, x: m.unsqueeze(x, -1), [C((3, 4)), C((5,))],
   ("UnsqueezeBackward0",), second_order=False)
op("unsqueeze.mid", lambda m, x: x.unsqueeze(1), [C((3, 4))], ("UnsqueezeBackward0",),
   second_order=False)
op("expand", lambda m, x: x.expand(4, 3), [C((1, 3)), C((3,)), C(()), C((4, 3))],
   ("ExpandBackward0",), second_order=False)
op("expand.minus1", lambda m, x: x.expand(2, -1, 4), [C((3, 1)), C((1, 3, 1)),
                                                     C((3, 1), nc=("t",))],
   ("ExpandBackward0",), second_order=False)
op("expand.tuple", lambda m, x: x.expand((2, 3)), [C((1, 1))], ("ExpandBackward0",),
   second_order=False)
op("expand_as", lambda m, a, b: a.expand_as(b), [C((3, 1), (3, 4), ng=(1,))], ("ExpandBackward0",),
   second_order=False)

# indexing

_IDX2 = [C((4, 5)), C((4, 5), nc=("t",)), C((4, 5), nc=("step",))]
_IDX3 = [C((3, 4, 5)), C((3, 4, 5), nc=("t",))]


def index_op(name, key_fn, grad_fn, cases, domain="real"):
    op("index." + name, lambda m, x: x[key_fn(m)], cases, (grad_fn,), domain=domain,
       second_order=False)


index_op("int", lambda m: 1, "SelectBackward0", _IDX2 + [C((5,))])
index_op("neg_int", lambda m: -1, "SelectBackward0", _IDX2 + [C((5,))])
index_op("slice", lambda m: slice(1, 3), "SliceBackward0", _IDX2 + [C((5,))])
index_op("slice_neg", lambda m: slice(-3, None), "SliceBackward0", _IDX2)
index_op("slice_step", lambda m: slice(None, None, 2), "SliceBackward0", _IDX2 + [C((5,))])
index_op("slice_start_step", lambda m: slice(1, None, 3), "SliceBackward0", _IDX2)
index_op("slice_full", lambda m: slice(None), "SliceBackward0", _IDX2)
index_op("none", lambda m: None, "UnsqueezeBackward0", _IDX2 + [C(())])
index_op("ellipsis", lambda m: Ellipsis, "AliasBackward0", _IDX2 + [C(())])
index_op("ellipsis_int", lambda m: (Ellipsis, 1), "SelectBackward0", _IDX3 + [C((4, 5))])
index_op("int_slice", lambda m: (1, slice(None, None, 2)), "SliceBackward0", _IDX2 + _IDX3)
index_op("slice_int", lambda m: (slice(None), -2), "SelectBackward0", _IDX2 + _IDX3)
index_op("int_int", lambda m: (1, 2), "SelectBackward0", _IDX2 + _IDX3)
index_op("none_slice_ellipsis", lambda m: (None, slice(1, None), Ellipsis, None),
         "UnsqueezeBackward0", _IDX2 + _IDX3)
index_op("mix", lambda m: (slice(None, None, 2), None, Ellipsis, 0), "SelectBackward0", _IDX3)
index_op("int_tensor_0d", lambda m: m.tensor(2), "SelectBackward0", _IDX2)
index_op("int_tensor", lambda m: m.tensor([0, 2, 2, -1]), "IndexBackward0", _IDX2 + [C((5,))])
index_op("int_tensor_2d", lambda m: m.tensor([[0, 1], [3, 0]]), "IndexBackward0", _IDX2)
index_op("int_list", lambda m: [3, 0, 1], "IndexBackward0", _IDX2 + [C((5,))])
index_op("two_lists", lambda m: ([0, 1, 2], [3, 0, 0]), "IndexBackward0", _IDX2 + _IDX3)
index_op("slice_list", lambda m: (slice(None), [0, 2]), "IndexBackward0", _IDX2 + _IDX3)
index_op("int_list_mixed", lambda m: (1, [0, 2]), "IndexBackward0", _IDX2 + _IDX3)
index_op("bool_tensor", lambda m: m.tensor([True, False, True, True]), "IndexBackward0",
         _IDX2 + [C((4,))])
index_op("bool_tensor_2d", lambda m: m.tensor([[True, False, True, False, False]] * 4),
         "IndexBackward0", _IDX2)
op("index.mask_from_data", lambda m, x: x[x > 0], [C((4, 5)), C((5, 4), nc=("t",))],
   ("IndexBackward0",), domain="nonzero", second_order=False)

# joining, splitting, copies, dtype conversion

op("cat", lambda m, a, b: m.cat([a, b]), [C((2, 3), (4, 3)), C((3,), (2,)), C((3, 2), (2, 2), nc=("t", None)),
                                           C((2, 3), (1, 3), ng=(1,))],
   ("CatBackward0",), second_order=False)
op("cat.dim1", lambda m, a, b: m.cat((a, b), 1), [C((2, 3), (2, 1)), C((2, 2, 3), (2, 4, 3))],
   ("CatBackward0",), second_order=False)
op("cat.dim_neg", lambda m, a, b, c: m.cat([a, b, c], dim=-1),
   [C((2, 3), (2, 1), (2, 2)), C((2, 3), (2, 3), (2, 1), nc=(None, "t", None))],
   ("CatBackward0",), second_order=False)
op("cat.single", lambda m, a: m.cat([a]), [C((2, 3))], ("CatBackward0",), second_order=False)
op("stack", lambda m, a, b: m.stack([a, b]), [C((2, 3), (2, 3)), C((), ()), C((2, 3), (2, 3), nc=("t", None))],
   ("StackBackward0",), second_order=False)
op("stack.dim", lambda m, a, b, c: m.stack((a, b, c), 1), [C((2, 3), (2, 3), (2, 3))],
   ("StackBackward0",), second_order=False)
op("stack.dim_neg", lambda m, a, b: m.stack([a, b], dim=-1), [C((3,), (3,)), C((2, 3), (2, 3))],
   ("StackBackward0",), second_order=False)
op("clone", lambda m, x: x.clone(), [C((3, 4)), C(()), C((4, 3), nc=("t",))], ("CloneBackward0",),
   second_order=False)
op("clone.fn", lambda m, x: m.clone(x), [C((3,))], ("CloneBackward0",), second_order=False)
# .double() on float64 and .float() on float32 return the input itself (a leaf, no grad_fn).
op("double", lambda m, x: x.double(), [C((3, 4)), C(()), C((4, 3), nc=("t",))],
   ("ToCopyBackward0",), second_order=False)
# (float32 outputs are too coarse for central differences at eps=1e-6: no gradcheck)
op("float", lambda m, x: x.float(), [C((3, 4)), C(())], ("ToCopyBackward0",), second_order=False,
   gradcheck=False)
op("to.float64", lambda m, x: x.to(m.float64), [C((3, 4))], ("ToCopyBackward0",),
   second_order=False)
op("to.float32_kw", lambda m, x: x.to(dtype=m.float32), [C((3, 4))], ("ToCopyBackward0",),
   second_order=False, gradcheck=False)
op("to.chain", lambda m, x: x.double().float() * 2, [C((3,))], ("MulBackward0",),
   second_order=False, gradcheck=False)
op("unbind", lambda m, x: m.unbind(x), [C((3, 4)), C((4,)), C((4, 3), nc=("t",))],
   ("UnbindBackward0",), second_order=False)
op("unbind.dim", lambda m, x: x.unbind(1), [C((3, 4)), C((2, 3, 4))], ("UnbindBackward0",),
   second_order=False)
op("iter", lambda m, x: list(x), [C((3, 4)), C((3,))], ("UnbindBackward0",), second_order=False)
op("iter.use", lambda m, x: m.stack([r * (i + 1) for i, r in enumerate(x)]), [C((3, 2))],
   ("StackBackward0",), second_order=False)

# where, item assignment and in-place ops (beyond the core list: they cover the remaining
# Node classes autograd_core defines, see test_every_node_class_is_covered)

op("where", lambda m, a, b: m.where(a > 0, a, b), [C((3, 4), (3, 4)), C((3, 4), (4,)), C((), (3,))],
   ("WhereBackward0",), domain="nonzero", second_order=False)
op("where.scalar", lambda m, a: m.where(a > 0, a, 0.0), [C((3, 4))], ("WhereBackward0",),
   domain="nonzero", second_order=False)
op("setitem.basic", lambda m, a, b: _setitem(a, (1, slice(None, None, 2)), b),
   [C((3, 4), (2,)), C((3, 4), ()), C((3, 4), (2,), ng=(1,))], ("CopySlices",),
   second_order=False)
op("setitem.scalar", lambda m, a: _setitem(a, (slice(None), 0), 2.0), [C((3, 4))],
   ("CopySlices",), second_order=False)
op("setitem.advanced", lambda m, a, b: _setitem(a, m.tensor([0, 2]), b),
   [C((3, 4), (4,)), C((3, 4), (2, 4))], ("IndexPutBackward0",), second_order=False)


op("inplace.through_view", lambda m, a, b: _mul_through_view(a, b),
   [C((3, 4), (4,)), C((3, 4), ())], ("AsStridedBackward0",))
op("inplace.copy_", lambda m, a, b: _copy_into(a, b), [C((3, 4), (3, 4)), C((3, 4), (4,))],
   ("CopyBackwards",), second_order=False)

op("inplace.fill_scalar", lambda m, a: (a * 1.0).fill_(2.5), [C((3, 4)), C(())],
   ("FillBackward2",), second_order=False)
op("inplace.fill_tensor", lambda m, a, v: (a * 1.0).fill_(v), [C((3, 4), ()), C((3,), (), ng=(0,))],
   ("FillBackward3",), second_order=False)
op("inplace.zero_", lambda m, a: (a * 1.0).zero_(), [C((3, 4))], ("ZeroBackward0",),
   second_order=False)
op("fill.scalar", lambda m, a: m.fill(a, 2.5), [C((3, 4)), C(())], ("FillBackward0",),
   second_order=False)
op("fill.tensor", lambda m, a, v: m.fill(a, v), [C((3, 4), ()), C((3,), (), ng=(0,))],
   ("FillBackward1",), second_order=False)


def _setitem(a, key, v):
    y = a * 1.0
    y[key] = v
    return y


def _mul_through_view(a, b):
    """An in-place op on a view: the view's grad_fn is rebuilt over its base's history."""
    y = a * 1.0
    v = y[1]
    v.mul_(b)
    return v


def _copy_into(a, b):
    y = a * 1.0
    y.copy_(b)
    return y


# Node classes no table entry's output carries, each with the reason.
GRAD_FN_ALLOWLIST = {
    "FunctionNode": "base class of custom autograd.Function nodes (users see <Name>Backward)",
    "Error": "the node behind once_differentiable under create_graph (it raises when "
             "differentiated): checked in tests/test_engine_hooks.py",
    "SgnBackward0": "sign inside abs's derivative (its own derivative is zero): reached only "
                    "by double backward, checked through abs's second-order tests",
    "GatherBackward0": "backward of the scatter in max/min(dim)'s derivative: only reached by "
                       "double backward with a differentiable upstream grad (gradgradcheck)",
    "CompiledFunctionBackward": "a fused block's one node in compiled mode (no op of its "
                                "own): tests/test_compile_fusion.py",
    "CompiledFunctionBackwardBackward": "the node of a fused block's gradients under "
                                        "create_graph (raises when differentiated): "
                                        "tests/test_compile_fusion.py",
    "CppFunction": "PyTorch's Identity node of unpack_dual's primal (no op of the table): "
                   "tests/test_forward_ad.py",
}
