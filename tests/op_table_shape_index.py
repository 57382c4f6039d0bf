"""Op table entries of part shape_index: unflatten, broadcast_to, repeat/tile, flip, roll,
split/chunk, narrow/select, index_select, gather, scatter/scatter_add, masked_fill,
masked_select, movedim/moveaxis and more indexing keys (see op_spec.py for the format).

All these ops are linear in their differentiable inputs: PyTorch's second derivative is
zero (second_order=False); the first-order gradient's own grad_fn under create_graph is
checked (double_grad_fns) where PyTorch gives one.
"""
from op_spec import C, registrar

OPS = []
op = registrar(OPS, second_order=False)


_2D = [C((3, 4)), C((3, 4), nc=("t",)), C((3, 4), nc=("step",))]
_3D = [C((2, 3, 4)), C((2, 3, 4), nc=("t",)), C((2, 3, 4), nc=("step",))]

# ---- reshaping views

op("unflatten", lambda m, x: x.unflatten(1, (2, 2)), _2D, ("ViewBackward0",),
   double_grad_fns=("ViewBackward0",))
op("unflatten.infer", lambda m, x: m.unflatten(x, -1, (-1, 2)), [C((2, 3, 4)), C((4,))],
   ("ViewBackward0",))
op("unflatten.kw_list", lambda m, x: m.unflatten(x, dim=0, sizes=[1, 2, 1]), [C((2, 3))],
   ("ViewBackward0",))
op("broadcast_to", lambda m, x: m.broadcast_to(x, (2, 3, 4)), [C((3, 1)), C((4,)), C(()),
                                                               C((1, 3, 4), nc=("t",))],
   ("ExpandBackward0",))
op("broadcast_to.method", lambda m, x: x.broadcast_to(3, 4), [C((1, 4)), C((3, 4))],
   ("ExpandBackward0",))
op("movedim", lambda m, x: x.movedim(0, -1), _3D, ("PermuteBackward0",),
   double_grad_fns=("PermuteBackward0",))
op("movedim.tuples", lambda m, x: m.movedim(x, (0, 1), (2, 0)), _3D, ("PermuteBackward0",))
op("movedim.0d", lambda m, x: x.movedim(0, -1), [C(())], ("AliasBackward0",))
op("moveaxis", lambda m, x: m.moveaxis(x, [-1], [0]), [C((2, 3, 4))], ("PermuteBackward0",))
op("moveaxis.method", lambda m, x: x.moveaxis(1, 0), [C((3, 4))], ("PermuteBackward0",))
op("mT", lambda m, x: x.mT, [C((3, 4)), C((2, 3, 4)), C((3, 4), nc=("t",))],
   ("TransposeBackward0",))
op("contiguous", lambda m, x: x.contiguous(), [C((3, 4), nc=("t",)), C((3, 4), nc=("step",)),
                                               C((3, 4))],
   ("CloneBackward0",))
op("reshape.alias", lambda m, x: x.reshape(x.shape[0], -1), [C((4, 3, 2), nc=("step",))],
   ("ReshapeAliasBackward0",))
op("reshape.alias_t", lambda m, x: x.transpose(0, 1).reshape(3, 2, 4), [C((2, 3, 4))],
   ("ReshapeAliasBackward0",))
op("contiguous.view", lambda m, x: x.t().contiguous().view(-1), [C((3, 4))], ("ViewBackward0",))

# ---- copies that repeat or reorder

op("repeat", lambda m, x: x.repeat(2, 3), [C((3, 4)), C((4,)), C(()), C((3, 4), nc=("t",))],
   ("RepeatBackward0",), double_grad_fns=("SumBackward1",))
op("repeat.tuple_lead", lambda m, x: x.repeat((2, 1, 1, 2)), [C((2, 3, 4)), C((3, 2)), C(())],
   ("RepeatBackward0",))
op("repeat.ones", lambda m, x: x.repeat(1, 1), [C((3, 4))], ("RepeatBackward0",))
op("repeat.zero", lambda m, x: x.repeat(0, 2), [C((3, 4))], ("RepeatBackward0",))
op("repeat.empty", lambda m, x: x.repeat(()), [C(())], ("RepeatBackward0",))
op("tile", lambda m, x: m.tile(x, (2,)), [C((3, 4)), C((4,)), C(())], ("RepeatBackward0",))
op("tile.method", lambda m, x: x.tile(2, 1, 2), [C((3, 4)), C((3, 4), nc=("t",))],
   ("RepeatBackward0",))
op("flip", lambda m, x: m.flip(x, (0,)), _2D + [C((5,))], ("FlipBackward0",),
   double_grad_fns=("FlipBackward0",))
op("flip.dims", lambda m, x: x.flip(0, -1), _3D, ("FlipBackward0",))
op("flip.list_0d", lambda m, x: x.flip([0]), [C(()), C((3,))], ("FlipBackward0",))
op("flip.none", lambda m, x: x.flip(()), [C((3, 4))], ("FlipBackward0",))
op("roll", lambda m, x: m.roll(x, 1, 0), _2D + [C((5,))], ("RollBackward0",),
   double_grad_fns=("RollBackward0",))
op("roll.flat", lambda m, x: x.roll(-5), [C((3, 4)), C(()), C((3, 4), nc=("t",))],
   ("RollBackward0",))
op("roll.dims", lambda m, x: x.roll((1, -2, 7), (0, 2, 1)), _3D, ("RollBackward0",))
op("roll.repeated_dim", lambda m, x: m.roll(x, [1, 2], [1, 1]), [C((3, 5))], ("RollBackward0",))

# ---- multi-output views

op("split", lambda m, x: x.split(2), [C((5, 3)), C((4, 3)), C((5, 3), nc=("t",)), C((1,))],
   ("SplitBackward0",), double_grad_fns=("CatBackward0",))
op("split.dim", lambda m, x: m.split(x, 3, dim=-1), _3D + [C((2, 8))], ("SplitBackward0",))
op("split.big", lambda m, x: x.split(10, 1), [C((3, 4))], ("SplitBackward0",))
op("split.sizes", lambda m, x: x.split([1, 3], 1), _2D, ("SplitWithSizesBackward0",),
   double_grad_fns=("CatBackward0",))
op("split.sizes_fn_tuple", lambda m, x: m.split(x, (2, 0, 1)), [C((3, 2))],
   ("SplitWithSizesBackward0",))
op("split.use_some", lambda m, x: x.split(2)[1] * 2, [C((5, 3))], ("MulBackward0",))
op("split_with_sizes", lambda m, x: x.split_with_sizes([2, 2], 1), [C((3, 4))],
   ("SplitWithSizesBackward0",))
op("chunk", lambda m, x: x.chunk(2), [C((4, 3)), C((5, 3)), C((4, 3), nc=("t",)), C((1,))],
   ("SplitBackward0",), double_grad_fns=("CatBackward0",))
op("chunk.uneven", lambda m, x: m.chunk(x, 4, 1), [C((2, 6)), C((2, 3)), C((2, 9))],
   ("SplitBackward0",))
op("chunk.empty", lambda m, x: x.chunk(3), [C((0, 2))], ("SplitWithSizesBackward0",))
op("unbind.neg_dim", lambda m, x: x.unbind(-1), _2D, ("UnbindBackward0",),
   double_grad_fns=("StackBackward0",))

# ---- selecting views

op("narrow", lambda m, x: x.narrow(1, 1, 2), _2D, ("SliceBackward0",),
   double_grad_fns=("SliceBackwardBackward0",))
op("narrow.fn_neg", lambda m, x: m.narrow(x, -1, -3, 2), _3D, ("SliceBackward0",))
op("narrow.tensor_start", lambda m, x: x.narrow(0, m.tensor(1), 2), [C((3, 4))],
   ("SliceBackward0",))
op("narrow.empty", lambda m, x: x.narrow(0, 3, 0), [C((3, 4))], ("SliceBackward0",))
op("select", lambda m, x: x.select(1, 2), _2D + _3D, ("SelectBackward0",),
   double_grad_fns=("SelectBackwardBackward0",))
op("select.fn_neg", lambda m, x: m.select(x, -1, -1), [C((3, 4)), C((5,))],
   ("SelectBackward0",))
op("diagonal", lambda m, x: x.diagonal(), _2D + [C((2, 3, 4))], ("DiagonalBackward0",),
   double_grad_fns=("DiagonalBackwardBackward0",))
op("diagonal.fn_offset_dims", lambda m, x: m.diagonal(x, -1, 2, 0), _3D, ("DiagonalBackward0",))
op("diagonal.offset_past_end", lambda m, x: x.diagonal(5), [C((3, 4))], ("DiagonalBackward0",))

# ---- index gathering / scattering

op("index_select", lambda m, x: x.index_select(1, m.tensor([0, 2, 2, 3])), _2D,
   ("IndexSelectBackward0",), double_grad_fns=("IndexAddBackward0",))
op("index_select.fn", lambda m, x: m.index_select(x, 0, m.tensor([1, 1], dtype=m.int32)),
   [C((3, 4)), C((2,))], ("IndexSelectBackward0",))
op("index_select.0d_index", lambda m, x: x.index_select(-1, m.tensor(2)), [C((2, 3))],
   ("IndexSelectBackward0",))
op("index_select.0d", lambda m, x: x.index_select(0, m.tensor([0])), [C(())],
   ("IndexSelectBackward0",))
op("index_select.empty", lambda m, x: x.index_select(0, m.tensor([], dtype=m.int64)),
   [C((3, 4))], ("IndexSelectBackward0",))

_GIDX = [[0, 2, 2, 1], [1, 1, 1, 0]]
op("gather", lambda m, x: x.gather(0, m.tensor(_GIDX)), _2D, ("GatherBackward0",),
   double_grad_fns=("ScatterAddBackward0",))
op("gather.dim1_small", lambda m, x: m.gather(x, 1, m.tensor([[3, 3, 0], [1, 0, 0]])), _2D,
   ("GatherBackward0",))
op("gather.3d", lambda m, x: x.gather(-1, m.tensor([[[1], [0]], [[3], [3]]], dtype=m.int32)),
   _3D, ("GatherBackward0",))
op("gather.larger_dim", lambda m, x: x.gather(1, m.tensor([[0, 1, 1, 0, 2]])), [C((2, 3))],
   ("GatherBackward0",))
op("gather.0d", lambda m, x: x.gather(0, m.tensor(0)), [C(())], ("GatherBackward0",))
op("gather.0d_idx", lambda m, x: x.gather(0, m.tensor(2)), [C((3,))], ("GatherBackward0",))

_SIDX = [[0, 2, 1, 1], [2, 0, 0, 2]]        # no repeated target positions in a column
op("scatter", lambda m, x, s: x.scatter(0, m.tensor(_SIDX), s),
   [C((3, 4), (2, 4)), C((3, 4), (2, 4), nc=("t", None)), C((3, 4), (2, 4), ng=(0,)),
    C((3, 4), (2, 4), ng=(1,))], ("ScatterBackward0",),
   double_grad_fns=("ScatterBackward1", "GatherBackward0"))
op("scatter.fn", lambda m, x, s: m.scatter(x, 1, m.tensor([[3, 0], [1, 2], [0, 3]]), s),
   [C((3, 4), (3, 2))], ("ScatterBackward0",))
op("scatter.value", lambda m, x: x.scatter(1, m.tensor([[3, 0], [1, 2], [0, 0]]), 1.5),
   _2D, ("ScatterBackward1",), double_grad_fns=("ScatterBackward1",))
op("scatter.value_kw", lambda m, x: m.scatter(x, 0, m.tensor([[2, 0, 1, 1]]), value=-2),
   [C((3, 4))], ("ScatterBackward1",))
op("scatter.0d", lambda m, x, s: x.scatter(0, m.tensor(0), s), [C((), ())],
   ("ScatterBackward0",))
op("scatter_add", lambda m, x, s: x.scatter_add(0, m.tensor(_GIDX), s),
   [C((3, 4), (2, 4)), C((3, 4), (2, 4), nc=("t", "step")), C((3, 4), (2, 4), ng=(0,)),
    C((3, 4), (2, 5), ng=(1,))], ("ScatterAddBackward0",),
   double_grad_fns=("GatherBackward0",))
op("scatter_add.fn", lambda m, x, s: m.scatter_add(x, 1, m.tensor([[0, 0], [3, 3], [1, 0]]), s),
   [C((3, 4), (3, 2))], ("ScatterAddBackward0",))


# ---- flat addressing: take / put

op("take", lambda m, x: x.take(m.tensor([0, 5, 5, -1])), _2D, ("TakeBackward0",),
   double_grad_fns=("PutBackward0",))
op("take.fn_2d_index", lambda m, x: m.take(x, m.tensor([[11, 0], [3, 3]])), [C((3, 4)), C((12,))],
   ("TakeBackward0",))
op("take.0d", lambda m, x: x.take(m.tensor([0, -1])), [C(())], ("TakeBackward0",))
op("put", lambda m, x, s: x.put(m.tensor([0, 5, 11]), s),
   [C((3, 4), (3,)), C((3, 4), (3,), nc=("t", None)), C((3, 4), (3,), ng=(0,)),
    C((3, 4), (3,), ng=(1,))], ("PutBackward0",),
   double_grad_fns=("PutBackward0", "ViewBackward0"))
op("put.accumulate", lambda m, x, s: m.put(x, m.tensor([[1, 1], [-1, 0]]), s, accumulate=True),
   [C((3, 4), (4,)), C((3, 4), (2, 2), nc=("step", None))], ("PutBackward0",))

def _inplace(f, returns_target=True):
    def run(m, x, *rest):
        y = x * 1.0
        r = f(m, y, *rest)
        if returns_target and r is not y:
            raise AssertionError("an in-place op must return its target")
        return y
    return run


op("squeeze_", _inplace(lambda m, y: y.squeeze_()), [C((3, 1, 4)), C((1,)), C((3, 4))],
   ("SqueezeBackward3",))
op("squeeze_.dim", _inplace(lambda m, y: y.squeeze_(-1)), [C((3, 4, 1)), C((3, 4))],
   ("SqueezeBackward4",))
op("squeeze_.dims", _inplace(lambda m, y: y.squeeze_((0, 2))), [C((1, 3, 1)), C((2, 3, 1))],
   ("SqueezeBackward5",))
op("unsqueeze_", _inplace(lambda m, y: y.unsqueeze_(-1)), [C((3, 4)), C(())],
   ("UnsqueezeBackward1",))
op("transpose_", _inplace(lambda m, y: y.transpose_(0, -1)), [C((2, 3, 4)), C((3,))],
   ("TransposeBackward1",))
op("swapdims_", _inplace(lambda m, y: y.swapdims_(1, 0)), [C((3, 4))], ("TransposeBackward1",))
op("swapaxes_", _inplace(lambda m, y: y.swapaxes_(0, 1)), [C((3, 4))], ("TransposeBackward1",))
op("t_", _inplace(lambda m, y: y.t_()), [C((3, 4)), C((3,)), C(())], ("TBackward1",))
op("t_.view", lambda m, x: (x * 1)[1:].t_(), [C((3, 4))], ("TBackward1",))

op("as_strided", lambda m, x: m.as_strided(x, (2, 2), (1, 2)), [C((6,)), C((3, 4))],
   ("AsStridedBackward0",))
op("as_strided.overlapping", lambda m, x: x[1:].as_strided((3, 2), (1, 1)), [C((3, 4))],
   ("AsStridedBackward0",))
op("as_strided.offset", lambda m, x: x.as_strided((2,), (3,), 2), [C((3, 4))],
   ("AsStridedBackward0",))
op("as_strided_", _inplace(lambda m, y: y.as_strided_((2, 3), (1, 2), 1)), [C((3, 4))],
   ("AsStridedBackward1",))

op("unfold", lambda m, x: x.unfold(1, 2, 1), [C((3, 4)), C((3, 5), nc=("t",))],
   ("UnfoldBackward0",), double_grad_fns=("UnfoldBackwardBackward0",))
op("unfold.step", lambda m, x: x.unfold(0, 2, 3), [C((7,)), C((2, 3))], ("UnfoldBackward0",))
op("unfold.0d", lambda m, x: x.unfold(0, 1, 1), [C(())], ("UnfoldBackward0",))

# ---- copies of views (PyTorch's *_copy: the view's node, named <Node>_copy)

op("view_copy", lambda m, x: m.view_copy(x, (4, -1)), [C((3, 4)), C((4, 3), nc=("t",))],
   ("ViewBackward0_copy",))
op("t_copy", lambda m, x: m.t_copy(x), [C((3, 4)), C((3,))], ("TBackward0_copy",))
op("transpose_copy", lambda m, x: m.transpose_copy(x, -1, 0), [C((2, 3, 4))],
   ("TransposeBackward0_copy",))
op("unsqueeze_copy", lambda m, x: m.unsqueeze_copy(x, -1), [C((3, 4)), C(())],
   ("UnsqueezeBackward0_copy",))
op("select_copy", lambda m, x: m.select_copy(x, 1, -1), [C((3, 4))], ("SelectBackward0_copy",))
op("expand_copy", lambda m, x: m.expand_copy(x, (2, 3, 4)), [C((3, 1)), C((4,))],
   ("ExpandBackward0_copy",))
op("permute_copy", lambda m, x: m.permute_copy(x, (2, 0, 1)), [C((2, 3, 4))],
   ("PermuteBackward0_copy",))
op("alias_copy", lambda m, x: m.alias_copy(x), [C((3, 4)), C(())], ("AliasBackward0_copy",))
op("diagonal_copy", lambda m, x: m.diagonal_copy(x, 1, -1, 0), [C((3, 4)), C((2, 3, 4))],
   ("DiagonalBackward0_copy",))
op("split_copy", lambda m, x: m.split_copy(x, 2), [C((5, 3))], ("SplitBackward0_copy",))
op("split_with_sizes_copy", lambda m, x: m.split_with_sizes_copy(x, [1, 3], 1), [C((3, 4))],
   ("SplitWithSizesBackward0_copy",))
op("unsafe_split", lambda m, x: m.unsafe_split(x, 2), [C((5, 3)), C((4, 3), nc=("t",))],
   ("UnsafeSplitBackward0",))
op("unsafe_chunk", lambda m, x: x.unsafe_chunk(2, 1), [C((3, 4))], ("UnsafeSplitBackward0",))
op("unsafe_split_with_sizes", lambda m, x: m.unsafe_split_with_sizes(x, [3, 1], 1),
   [C((3, 4))], ("UnsafeSplitWithSizesBackward0",))
op("tensor_split", lambda m, x: m.tensor_split(x, 3), [C((7, 2)), C((2,))], ("SliceBackward0",))
op("tensor_split.indices", lambda m, x: x.tensor_split([1, 5], 1), [C((2, 4))],
   ("SliceBackward0",))
op("hsplit", lambda m, x: m.hsplit(x, 2), [C((3, 4))], ("SliceBackward0",))
op("vsplit", lambda m, x: m.vsplit(x, [1]), [C((3, 4))], ("SliceBackward0",))
op("dsplit", lambda m, x: x.dsplit(2), [C((2, 3, 4))], ("SliceBackward0",))
op("scatter_", _inplace(lambda m, y, s: y.scatter_(1, m.tensor([[1, 0], [2, 3], [0, 3]]), s)),
   [C((3, 4), (3, 2)), C((3, 4), (3, 2), ng=(1,)), C((3, 4), (3, 2), ng=(0,))],
   ("ScatterBackward0",))
op("scatter_.value", _inplace(lambda m, y: y.scatter_(0, m.tensor([[1, 0, 2, 2]]), 0.5)),
   [C((3, 4))], ("ScatterBackward1",))
op("scatter_.value_kw", _inplace(lambda m, y: y.scatter_(0, m.tensor([[1, 0, 2, 2]]), value=3)),
   [C((3, 4))], ("ScatterBackward1",))
op("scatter_add_", _inplace(lambda m, y, s: y.scatter_add_(0, m.tensor(_GIDX), s)),
   [C((3, 4), (2, 4)), C((3, 4), (2, 4), ng=(1,))], ("ScatterAddBackward0",))
op("put_", _inplace(lambda m, y, s: y.put_(m.tensor([2, 7, 2]), s, accumulate=True)),
   [C((3, 4), (3,)), C((3, 4), (3,), ng=(1,))], ("PutBackward0",))
op("put_.on_view", _inplace(lambda m, y, s: y[:, 1:].put_(m.tensor([0, 4]), s), False),
   [C((3, 4), (2,))], ("CopySlices",))
op("scatter_.on_view", _inplace(lambda m, y, s: y[1:].scatter_(1, m.tensor([[1], [2]]), s), False),
   [C((3, 4), (2, 1))], ("CopySlices",))

# ---- masks

op("masked_fill", lambda m, x: x.masked_fill(x > 0, 0.5), _2D + [C(())],
   ("MaskedFillBackward0",), domain="nonzero", double_grad_fns=("MaskedFillBackward0",))
op("masked_fill.broadcast_mask", lambda m, x: m.masked_fill(x, m.tensor([True, False, False, True]), -1),
   [C((3, 4)), C((4,))], ("MaskedFillBackward0",))
op("masked_fill.broadcast_self", lambda m, x: x.masked_fill(m.tensor([[True], [False]]), 2.0),
   [C((3,)), C((1, 3))], ("MaskedFillBackward0",))
op("masked_fill.tensor_value", lambda m, x, v: x.masked_fill(x > 0, v),
   [C((3, 4), ()), C((3, 4), (), ng=(0,)), C((3, 4), (), ng=(1,)), C((3, 4), (), nc=("t",))],
   ("MaskedFillBackward0", "MaskedFillBackward1"), domain="nonzero",
   double_grad_fns=("MaskedFillBackward0", "SumBackward0"))
op("masked_fill.tensor_value_f64", lambda m, x, v: x.masked_fill(x > 0, v.double()),
   [C((3, 4), ())], ("MaskedFillBackward1",), domain="nonzero")
op("masked_fill_", _inplace(lambda m, y: y.masked_fill_(y < 0, 1.0)), _2D,
   ("MaskedFillBackward0",), domain="nonzero")
op("masked_fill_.tensor_value", _inplace(lambda m, y, v: y.masked_fill_(y < 0, v)),
   [C((3, 4), ()), C((3, 4), (), ng=(0,))], ("MaskedFillBackward1",), domain="nonzero")
op("masked_fill_.broadcast", _inplace(lambda m, y: y.masked_fill_(m.tensor([False, True, True, False]), 1)),
   [C((3, 4))], ("MaskedFillBackward0",))
op("masked_fill_.on_view", _inplace(lambda m, y: y[:, 1].masked_fill_(y[:, 1] > 0, 0.0), False),
   [C((3, 4))], ("CopySlices",), domain="nonzero")
op("masked_select", lambda m, x: x.masked_select(x > 0), _2D, ("MaskedSelectBackward0",),
   domain="nonzero", double_grad_fns=("MaskedScatterBackward0",))
op("masked_select.broadcast", lambda m, x: m.masked_select(x, m.tensor([[True], [False], [True]])),
   [C((3, 4)), C((4,))], ("MaskedSelectBackward0",))
op("masked_select.0d", lambda m, x: x.masked_select(m.tensor(True)), [C(()), C((2, 3))],
   ("MaskedSelectBackward0",))

# ---- more indexing keys (x[key]) and item assignment


def _index(name, key_fn, grad_fn, cases, **kw):
    op("index2." + name, lambda m, x: x[key_fn(m)], cases, (grad_fn,), **kw)


_IDX3 = [C((3, 4, 5)), C((3, 4, 5), nc=("t",)), C((3, 4, 5), nc=("step",))]
_index("slice_step_neg_start", lambda m: (slice(-1, None, 2), slice(None, -1)), "SliceBackward0",
       _IDX3)
_index("slice_big_stop", lambda m: slice(1, 100), "SliceBackward0", _IDX3)
_index("slice_empty", lambda m: (slice(None), slice(3, 1)), "SliceBackward0", _IDX3)
_index("ellipsis_slice", lambda m: (Ellipsis, slice(None, None, 3)), "SliceBackward0", _IDX3)
_index("int_none_int", lambda m: (0, None, -1), "SelectBackward0", _IDX3)
_index("list_none", lambda m: ([2, 0], None), "IndexBackward0", _IDX3)
_index("slice_tensor_slice", lambda m: (slice(None), m.tensor([[0, 3], [1, 1]]), slice(1, 3)),
       "IndexBackward0", _IDX3)
_index("two_separated", lambda m: (m.tensor([0, 2]), slice(None), m.tensor([1, 4])),
       "IndexBackward0", _IDX3)
_index("tensor_int", lambda m: (m.tensor([0, 2, 2]), 1), "IndexBackward0", _IDX3)
_index("int_slice_tensor", lambda m: (1, slice(None, None, 2), m.tensor([4, 0])),
       "IndexBackward0", _IDX3)
_index("ellipsis_tensor", lambda m: (Ellipsis, m.tensor([1, 1])), "IndexBackward0", _IDX3)
_index("bool_mask_2d", lambda m: m.tensor([[True, False, True, False]] * 3), "IndexBackward0",
       _IDX3)
_index("bool_mask_slice", lambda m: (slice(None), m.tensor([True, False, True, True])),
       "IndexBackward0", _IDX3)
_index("bool_list", lambda m: [True, False, True], "IndexBackward0", _IDX3)
_index("bool_scalar", lambda m: True, "IndexBackward0", [C((3, 4))])
_index("none_only", lambda m: (None, None), "UnsqueezeBackward0", [C((3, 4)), C(())])
_index("empty_tuple", lambda m: (), "AliasBackward0", [C((3, 4)), C(())])
_index("int_0d_tensor_pair", lambda m: (m.tensor(1), m.tensor(-1)), "SelectBackward0",
       [C((3, 4))])
_index("int32_tensor", lambda m: m.tensor([2, 0], dtype=m.int32), "IndexBackward0", [C((3, 4))])
_index("uint8_mask", lambda m: m.tensor([1, 0, 1], dtype=m.uint8), "IndexBackward0", [C((3, 4))])
_index("repeated", lambda m: (m.tensor([1, 1, 1]), m.tensor([2, 2, 0])), "IndexBackward0",
       [C((3, 4))], double_grad_fns=("IndexPutImplBackward0",))


def _set(key_fn):
    def run(m, x, v):
        y = x * 1.0
        y[key_fn(m)] = v
        return y
    return run


def _set_scalar(key_fn, value):
    def run(m, x):
        y = x * 1.0
        y[key_fn(m)] = value
        return y
    return run


op("setitem2.step", _set(lambda m: (slice(None, None, 2), slice(1, None))),
   [C((3, 4), (2, 3)), C((3, 4), (3,)), C((3, 4), (2, 3), nc=("t", None)),
    C((3, 4), (1, 3), ng=(0,))], ("CopySlices",))
op("setitem2.ellipsis_none", _set(lambda m: (Ellipsis, None, 1)),
   [C((2, 3, 4), (2, 3, 1)), C((2, 3, 4), ())], ("CopySlices",))
op("setitem2.tensor_repeated", _set(lambda m: m.tensor([0, 2, 0])),
   [C((3, 4), (3, 4)), C((3, 4), (4,)), C((3, 4), ())], ("IndexPutBackward0",),
   gradcheck=False)  # repeated targets: PyTorch's value gradient is not the Jacobian
op("setitem2.two_tensors", _set(lambda m: (m.tensor([0, 1]), slice(None), m.tensor([2, 2]))),
   [C((2, 3, 4), (2, 3)), C((2, 3, 4), (3,))], ("IndexPutBackward0",))
op("setitem2.mask", _set(lambda m: m.tensor([[True, False, True, False]] * 3)),
   [C((3, 4), ()), C((3, 4), (6,))], ("IndexPutBackward0",))
op("setitem2.mask_rows", _set(lambda m: m.tensor([True, False, True])),
   [C((3, 4), (4,)), C((3, 4), (2, 4)), C((3, 4), (), ng=(0,))], ("IndexPutBackward0",))
op("setitem2.scalar_int", _set_scalar(lambda m: (1, 2), 7), [C((3, 4))], ("CopySlices",))
op("setitem2.scalar_mask", _set_scalar(lambda m: m.tensor([[True, False, True, False]] * 3), 0.0),
   [C((3, 4))], ("IndexPutBackward0",))
op("setitem2.dtype_value", lambda m, x, v: _set(lambda m: 1)(m, x, v.double()),
   [C((3, 4), (4,))], ("CopySlices",))


def _set_view(m, x, v):
    y = x * 2.0
    z = y[1:]          # a view of the non-leaf y
    z[0, ::2] = v      # assignment into the view: y's history is rebased (CopySlices)
    return y


op("setitem2.into_view", _set_view, [C((3, 4), (2,)), C((3, 4), ())], ("CopySlices",))


def _set_view_out(m, x, v):
    y = x * 2.0
    z = y.t()
    z[1] = v
    return z


op("setitem2.view_output", _set_view_out, [C((3, 4), (3,))], ("AsStridedBackward0",))


def _set_whole(key_fn):
    def run(m, x, v):
        y = x * 1.0
        y[key_fn(m)] = v
        return y
    return run


# the whole tensor: PyTorch fills with a 0-d value (FillBackward3), else copies (CopyBackwards)
# (gradcheck=False: the target's gradient is a constant zero tensor, as PyTorch's, which the
# library's gradgradcheck does not line up with its numerical outputs)
op("setitem2.whole_fill", _set_whole(lambda m: Ellipsis), [C((3, 4), ()), C((3, 4), (), ng=(0,))],
   ("FillBackward3",), gradcheck=False)
op("setitem2.whole_fill_scalar", _set_scalar(lambda m: slice(None), 2.5), [C((3, 4))],
   ("FillBackward3",))
op("setitem2.whole_copy", _set_whole(lambda m: ()), [C((3, 4), (3, 4)), C((3, 4), (4,)),
                                                      C((3, 4), (1, 4), ng=(1,)), C((), ())],
   ("CopyBackwards",), gradcheck=False)

# ---- index_add / index_fill / index_copy / index_put

op("index_add", lambda m, x, s: x.index_add(0, m.tensor([2, 0, 2]), s),
   [C((3, 4), (3, 4)), C((3, 4), (3, 4), nc=("t", None)), C((3, 4), (3, 4), ng=(0,)),
    C((3, 4), (3, 4), ng=(1,))], ("IndexAddBackward0",))
op("index_add.alpha_dim1", lambda m, x, s: m.index_add(x, 1, m.tensor([3, 1]), s, alpha=-2.5),
   [C((3, 4), (3, 2))], ("IndexAddBackward0",))
op("index_add.0d", lambda m, x, s: x.index_add(0, m.tensor([0]), s), [C((), ())],
   ("IndexAddBackward0",))
op("index_add_", _inplace(lambda m, y, s: y.index_add_(1, m.tensor([0, 0]), s, alpha=2)),
   [C((3, 4), (3, 2)), C((3, 4), (3, 2), ng=(1,))], ("IndexAddBackward0",))
op("index_fill", lambda m, x: x.index_fill(1, m.tensor([0, 2]), -1.5), _2D,
   ("IndexFillBackward0",), double_grad_fns=("IndexFillBackward0",))
op("index_fill.tensor_value", lambda m, x, v: m.index_fill(x, 0, m.tensor([2, 2, 0]), v),
   [C((3, 4), ()), C((3, 4), (), ng=(0,)), C((3, 4), (), ng=(1,))],
   ("IndexFillBackward1", "IndexFillBackward0"))
op("index_fill.0d", lambda m, x: x.index_fill(0, m.tensor(0), 2.0), [C(())], ("IndexFillBackward0",))
op("index_fill_", _inplace(lambda m, y: y.index_fill_(0, m.tensor([1]), 3)), [C((3, 4))],
   ("IndexFillBackward0",))
op("index_copy", lambda m, x, s: x.index_copy(0, m.tensor([2, 0]), s),
   [C((3, 4), (2, 4)), C((3, 4), (2, 4), ng=(0,)), C((3, 4), (2, 4), ng=(1,))],
   ("IndexCopyBackward0",))
op("index_copy.dim1", lambda m, x, s: m.index_copy(x, 1, m.tensor([3, 1, 0]), s), [C((2, 4), (2, 3))],
   ("IndexCopyBackward0",))
op("index_copy_", _inplace(lambda m, y, s: y.index_copy_(1, m.tensor([2]), s)), [C((3, 4), (3, 1))],
   ("IndexCopyBackward0",))
op("index_put", lambda m, x, v: x.index_put((m.tensor([0, 2]), m.tensor([1, 3])), v),
   [C((3, 4), (2,)), C((3, 4), ()), C((3, 4), (2,), ng=(0,)), C((3, 4), (2,), ng=(1,))],
   ("IndexPutBackward0",))
op("index_put.accumulate", lambda m, x, v: m.index_put(x, (m.tensor([1, 1]),), v, accumulate=True),
   [C((3, 4), (2, 4)), C((3, 4), (4,))], ("IndexPutBackward0",))
op("index_put.none_error", lambda m, x, v: x.index_put((None, m.tensor([True, False, True, False])), v),
   [C((3, 4), (3, 2))], ("IndexPutBackward0",),
   gradcheck=False)  # raises, as PyTorch
op("index_put.mask_cols", lambda m, x, v: x.index_put((m.tensor([True, False, True]), m.tensor([0, 3])), v),
   [C((3, 4), (2,)), C((3, 4), ())], ("IndexPutBackward0",))
op("index_put.mask_scalar_f32", lambda m, x: x.index_put((x > 0,), m.tensor(2.0)), [C((3, 4))],
   ("IndexPutBackward0",), domain="nonzero")
op("index_put_", _inplace(lambda m, y, v: y.index_put_((m.tensor([0, 0, 2]),), v, accumulate=True)),
   [C((3, 4), (3, 4)), C((3, 4), (4,), ng=(1,))], ("IndexPutBackward0",))
op("take_along_dim", lambda m, x: m.take_along_dim(x, m.tensor([[0, 2], [1, 1], [3, 0]]), 1), _2D,
   ("GatherBackward0",))
op("take_along_dim.broadcast", lambda m, x: x.take_along_dim(m.tensor([[2], [0]]), dim=0), [C((3, 4))],
   ("GatherBackward0",))
op("take_along_dim.flat", lambda m, x: m.take_along_dim(x, m.tensor([0, 11, 5])), [C((3, 4))],
   ("GatherBackward0",))

# ---- scatter_reduce

_SRIDX = [[0, 1], [0, 0], [3, 1]]
for _red in ("sum", "mean", "amax", "amin", "prod"):
    for _inc in (True, False):
        op(f"scatter_reduce.{_red}{'' if _inc else '_exclude'}",
           (lambda r, i: lambda m, x, s: x.scatter_reduce(1, m.tensor(_SRIDX), s, r,
                                                         include_self=i))(_red, _inc),
           [C((3, 4), (3, 2)), C((3, 4), (3, 2), ng=(0,)), C((3, 4), (3, 2), ng=(1,))],
           ("ScatterReduceBackward0",), domain="distinct" if _red in ("amax", "amin") else "real",
           second_order=_red == "prod")
op("scatter_reduce.amax_ties", lambda m, x, s: m.scatter_reduce(x, 0, m.tensor([[0, 0], [0, 1]]), s,
                                                                 "amax"),
   [C((2, 2), (2, 2), domain="ties", id="ties")], ("ScatterReduceBackward0",))
op("scatter_reduce.prod_zeros", lambda m, x, s: x.scatter_reduce(0, m.tensor([[0, 1, 0]]), s, "prod"),
   [C((2, 3), (1, 3), domain="zeros", id="zeros")], ("ScatterReduceBackward0",))
op("scatter_reduce_", _inplace(lambda m, y, s: y.scatter_reduce_(1, m.tensor(_SRIDX), s, "sum")),
   [C((3, 4), (3, 2))], ("ScatterReduceBackward0",))

# ---- select / slice / diagonal scatter, masked_scatter

op("select_scatter", lambda m, x, s: m.select_scatter(x, s, 0, 1),
   [C((3, 4), (4,)), C((3, 4), (4,), ng=(0,)), C((3, 4), (4,), ng=(1,))],
   ("SelectScatterBackward0",), double_grad_fns=("SelectScatterBackward0", "SelectBackward0"))
op("select_scatter.neg", lambda m, x, s: x.select_scatter(s, -1, -2), [C((2, 3, 4), (2, 3))],
   ("SelectScatterBackward0",))
op("slice_scatter", lambda m, x, s: m.slice_scatter(x, s, 1, 1, None, 2),
   [C((3, 4), (3, 2)), C((3, 4), (3, 2), ng=(1,))], ("SliceScatterBackward0",))
op("slice_scatter.default", lambda m, x, s: x.slice_scatter(s), [C((3, 4), (3, 4))],
   ("SliceScatterBackward0",))
op("diagonal_scatter", lambda m, x, s: m.diagonal_scatter(x, s),
   [C((3, 4), (3,)), C((3, 4), (3,), ng=(0,))], ("DiagonalScatterBackward0",))
op("diagonal_scatter.offset", lambda m, x, s: x.diagonal_scatter(s, -1, 1, 2),
   [C((2, 3, 4), (2, 2))], ("DiagonalScatterBackward0",))
op("masked_scatter", lambda m, x, s: x.masked_scatter(x > 0, s),
   [C((3, 4), (3, 4)), C((3, 4), (14,)), C((3, 4), (3, 4), ng=(0,))], ("MaskedScatterBackward0",),
   domain="nonzero")
op("masked_scatter.broadcast", lambda m, x, s: m.masked_scatter(x, m.tensor([True, False, True, True]), s),
   [C((3, 4), (9,))], ("MaskedScatterBackward0",))
op("masked_scatter_", _inplace(lambda m, y, s: y.masked_scatter_(y > 0, s)), [C((3, 4), (12,))],
   ("MaskedScatterBackward0",), domain="nonzero")

# ---- nonzero (no gradients)

op("nonzero", lambda m, x: m.nonzero(x), [C((3, 4), domain="zeros", id="zeros"), C(())], ())
op("nonzero.as_tuple", lambda m, x: x.nonzero(as_tuple=True),
   [C((3, 4), domain="zeros", id="zeros"), C(())], ())
op("argwhere", lambda m, x: m.argwhere(x), [C((2, 3, 2), domain="zeros", id="zeros")], ())
op("nonzero_static", lambda m, x: m.nonzero_static(x, size=5), [C((3, 4), domain="zeros", id="zeros")], ())
op("nonzero_static.fill", lambda m, x: x.nonzero_static(size=20, fill_value=7),
   [C((3, 4), domain="zeros", id="zeros")], ())

# ---- stacking and arranging

op("hstack", lambda m, x, y: m.hstack([x, y]), [C((3, 4), (3, 2)), C((4,), (2,)), C((), ())],
   ("CatBackward0",))
op("vstack", lambda m, x, y: m.vstack((x, y)), [C((3, 4), (2, 4)), C((4,), (4,)), C((2, 4), (4,))],
   ("CatBackward0",))
op("row_stack", lambda m, x, y: m.row_stack([x, y]), [C((4,), (1, 4))], ("CatBackward0",))
op("dstack", lambda m, x, y: m.dstack([x, y]), [C((3, 4), (3, 4)), C((4,), (4,)), C((2, 1, 2), (2, 1, 1))],
   ("CatBackward0",))
op("column_stack", lambda m, x, y, z: m.column_stack([x, y, z]),
   [C((3,), (3, 2), (3,)), C((), (1, 2), ())], ("CatBackward0",))
op("concatenate", lambda m, x, y: m.concatenate([x, y], 1), [C((3, 4), (3, 2))], ("CatBackward0",))
op("atleast_1d", lambda m, x: m.atleast_1d(x), [C(()), C((3,)), C((3, 4))], ("ViewBackward0",))
op("atleast_2d", lambda m, x, y: m.atleast_2d(x, y), [C(()), C((3,), (2, 3))][1:] + [C((), (3,))],
   ("ViewBackward0", "UnsqueezeBackward0"))
op("atleast_3d", lambda m, x, y, z: m.atleast_3d([x, y, z]), [C((), (3,), (2, 3)), C((2, 3, 4), (1,), ())],
   ("ViewBackward0", "UnsqueezeBackward0"))
op("broadcast_tensors", lambda m, x, y: m.broadcast_tensors(x, y),
   [C((3, 1), (4,)), C((3, 4), (4,)), C((), (2, 3))], ("ExpandBackward0",))
op("meshgrid", lambda m, x, y: m.meshgrid(x, y, indexing="ij"), [C((3,), (4,)), C((), (2,))],
   ("ExpandBackward0",))
op("meshgrid.xy", lambda m, x, y, z: m.meshgrid([x, y, z], indexing="xy"), [C((3,), (4,), (2,))],
   ("ExpandBackward0",))
op("cartesian_prod", lambda m, x, y: m.cartesian_prod(x, y), [C((3,), (2,))], ("StackBackward0",))
op("cartesian_prod.one", lambda m, x: m.cartesian_prod(x), [C((3,))], ())
op("rot90", lambda m, x: m.rot90(x), _2D + [C((2, 3, 4))], ("Rot90Backward0",),
   double_grad_fns=("Rot90Backward0",))
op("rot90.k", lambda m, x: x.rot90(-3, [2, 0]), [C((2, 3, 4))], ("Rot90Backward0",))
op("rot90.k2", lambda m, x: x.rot90(2, (1, 0)), [C((3, 4))], ("Rot90Backward0",))
op("rot90.k0", lambda m, x: m.rot90(x, 4), [C((3, 4))], ("Rot90Backward0",))
op("fliplr", lambda m, x: m.fliplr(x), _2D, ("FlipBackward0",))
op("flipud", lambda m, x: x.flipud(), _2D + [C((4,))], ("FlipBackward0",))
op("ravel", lambda m, x: m.ravel(x), _2D + [C(())], ("ViewBackward0",))
op("repeat_interleave", lambda m, x: m.repeat_interleave(x, 2), [C((3, 4)), C(()), C((3, 4), nc=("t",))],
   ("ViewBackward0",))
op("repeat_interleave.dim", lambda m, x: x.repeat_interleave(3, dim=1), [C((2, 3))], ("ViewBackward0",))
op("repeat_interleave.tensor", lambda m, x: x.repeat_interleave(m.tensor([1, 0, 2]), dim=0),
   [C((3, 4))], ("IndexSelectBackward0",))
op("repeat_interleave.tensor1", lambda m, x: m.repeat_interleave(x, m.tensor([2]), 1), [C((3, 2))],
   ("IndexSelectBackward0",))
op("repeat_interleave.counts", lambda m, x: m.repeat_interleave(m.tensor([2, 0, 3])), [C(())], ())
op("index2.range", lambda m, x: x[range(1, 3)], [C((3, 4)), C((4, 2))], ("IndexBackward0",))
op("index2.range_tuple", lambda m, x: x[:, range(0, 4, 2)], [C((3, 4))], ("IndexBackward0",))

# ---- index_reduce, as_strided_scatter, fill_diagonal_, unravel_index

for _red in ("prod", "mean", "amax", "amin"):
    for _inc in (True, False):
        op(f"index_reduce.{_red}{'' if _inc else '_exclude'}",
           (lambda r, i: lambda m, x, s: x.index_reduce(0, m.tensor([2, 0, 2]), s, r,
                                                       include_self=i))(_red, _inc),
           [C((3, 4), (3, 4)), C((3, 4), (3, 4), ng=(0,)), C((3, 4), (3, 4), ng=(1,))],
           ("IndexReduceBackward0",), domain="distinct" if _red in ("amax", "amin") else "real",
           second_order=_red == "prod")
op("index_reduce_", _inplace(lambda m, y, s: y.index_reduce_(1, m.tensor([3, 1]), s, "mean")),
   [C((3, 4), (3, 2))], ("IndexReduceBackward0",))
# PyTorch's self-gradient of as_strided_scatter is grad at the scattered positions (its
# as_strided_scatter_backward), where the derivative is grad elsewhere: only src's is compared
op("as_strided_scatter", lambda m, x, s: m.as_strided_scatter(x, s, (2, 2), (1, 4), 1),
   [C((3, 4), (2, 2), ng=(0,))], ("AsStridedScatterBackward0",))
op("as_strided_scatter.no_offset", lambda m, x, s: x.as_strided_scatter(s, (3,), (5,)),
   [C((3, 4), (3,), ng=(0,))], ("AsStridedScatterBackward0",))
op("fill_diagonal_", _inplace(lambda m, y: y.fill_diagonal_(2.5)), [C((3, 4)), C((4, 3)), C((2, 2, 2))],
   ("CopySlices",))
op("fill_diagonal_.wrap", _inplace(lambda m, y: y.fill_diagonal_(-1, wrap=True)), [C((9, 4)), C((7, 3))],
   ("CopySlices",))
op("unravel_index", lambda m, x: m.unravel_index(m.tensor([5, 11, -1, 0]), (3, 4)), [C(())], ())
op("unravel_index.0d", lambda m, x: m.unravel_index(m.tensor(7), m.Size([2, 2, 2])), [C(())], ())

# ---- block_diag, combinations

op("block_diag", lambda m, a, b, c: m.block_diag(a, b, c), [C((2, 3), (4,), ()), C((1, 1), (2, 2), (3,))],
   ("BlockDiagBackward0",))
op("block_diag.ng", lambda m, a, b: m.block_diag(a, b), [C((2, 3), (2,), ng=(0,))],
   ("BlockDiagBackward0",))
op("combinations", lambda m, x: m.combinations(x), [C((4,)), C((1,))], ("StackBackward0",))
op("combinations.r3", lambda m, x: m.combinations(x, 3), [C((5,))], ("StackBackward0",))
op("combinations.replacement", lambda m, x: m.combinations(x, 2, with_replacement=True), [C((3,))],
   ("StackBackward0",))
op("combinations.r0", lambda m, x: m.combinations(x, r=0), [C((3,))], ())

# ---- diag_embed / diagflat

op("diag_embed", lambda m, x: m.diag_embed(x), [C((3,)), C((2, 3)), C((3, 2), nc=("t",))],
   ("DiagEmbedBackward0",), double_grad_fns=("DiagonalBackward0",))
op("diag_embed.offset_dims", lambda m, x: x.diag_embed(-1, 0, 2), [C((2, 3))], ("DiagEmbedBackward0",))
op("diag_embed.dims_swapped", lambda m, x: m.diag_embed(x, 2, dim1=-1, dim2=0), [C((2, 3))],
   ("DiagEmbedBackward0",))
op("diag_embed.same_dims", lambda m, x: m.diag_embed(x, 0, 1, 1), [C((2, 3))], ("DiagEmbedBackward0",),
   gradcheck=False)  # raises, as PyTorch
op("diagflat", lambda m, x: m.diagflat(x), [C((3,)), C((2, 2)), C(())], ("DiagEmbedBackward0",))
op("diagflat.offset", lambda m, x: x.diagflat(-2), [C((2, 2), nc=("t",))], ("DiagEmbedBackward0",))
