"""Op table entries for reductions and linear algebra.

Collected by op_table.py (see op_spec.py for the format); the shared differential and gradcheck
tests run them against PyTorch. Matrices that are inverted, solved or take a
determinant are made well conditioned inside fn (``x + 3 * eye``): the table's domains
are elementwise.
"""
from op_spec import C, registrar

OPS = []
op = registrar(OPS)


def _shift(m, x, s=3.0):
    """x + s * I over the last two dims (a well-conditioned matrix)."""
    return x + s * m.eye(x.shape[-1], dtype=x.dtype)


# ------------------------------------------------------------------ prod

_PROD_ALL = [C(()), C((5,)), C((3, 4)), C((4, 3), nc=("t",)), C((2, 3), nc=("step",)),
             C((3, 4), domain="zeros", id="zeros"), C((1,))]
op("prod", lambda m, x: x.prod(), _PROD_ALL, ("ProdBackward0",))
op("prod.fn", lambda m, x: m.prod(x), [C((3, 4)), C((2, 2, 2))], ("ProdBackward0",))
op("prod.dtype", lambda m, x: x.prod(dtype=m.float64), [C((3, 4))], ("ProdBackward0",))
op("prod.dim", lambda m, x: x.prod(1),
   [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C((3, 1)), C((3, 4), domain="zeros", id="zeros")],
   ("ProdBackward1",))
op("prod.dim_keepdim", lambda m, x: m.prod(x, -1, keepdim=True),
   [C((3, 4)), C((5,)), C((3, 4), domain="zeros", id="zeros")], ("ProdBackward1",))
op("prod.dim0_0d", lambda m, x: x.prod(0), [C(())], ("ProdBackward1",), second_order=False)
op("prod.dim_dtype", lambda m, x: x.prod(0, dtype=m.float64), [C((3, 2))], ("ProdBackward1",))

# ------------------------------------------------------------------ max / min of two tensors

_MAX2 = [C((3, 4), (3, 4)), C((3, 4), (4,)), C((), (2, 3)), C((3, 4), (3, 4), nc=("t", None)),
         C((3, 4), (3, 4), ng=(1,)), C((8,), (8,), domain="ties", id="ties")]
op("max.binary", lambda m, a, b: m.max(a, b), _MAX2, ("MaximumBackward0",), domain="distinct",
   second_order=False)
op("max.binary_method", lambda m, a, b: a.max(b), [C((3, 4), (3, 1))], ("MaximumBackward0",),
   domain="distinct", second_order=False)
op("min.binary", lambda m, a, b: m.min(a, b), _MAX2, ("MinimumBackward0",), domain="distinct",
   second_order=False)
op("min.binary_method", lambda m, a, b: a.min(b), [C((2, 3), (3,))], ("MinimumBackward0",),
   domain="distinct", second_order=False)

# ------------------------------------------------------------------ amax / amin / argmax / argmin

_AMAX = [C(()), C((5,)), C((3, 4)), C((4, 3), nc=("t",)), C((3, 4), domain="ties", id="ties")]
op("amax", lambda m, x: x.amax(), _AMAX, ("AmaxBackward0",), domain="distinct", second_order=False)
op("amax.dim", lambda m, x: m.amax(x, 1), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)),
                                          C((3, 4), domain="ties", id="ties")],
   ("AmaxBackward0",), domain="distinct", second_order=False)
op("amax.dims_keepdim", lambda m, x: x.amax((0, 2), keepdim=True), [C((2, 3, 4))],
   ("AmaxBackward0",), domain="distinct", second_order=False)
op("amin", lambda m, x: m.amin(x), _AMAX, ("AminBackward0",), domain="distinct",
   second_order=False)
op("amin.dim", lambda m, x: x.amin(-1, True), [C((3, 4)), C((5,)), C((3, 4), domain="ties", id="ties")],
   ("AminBackward0",), domain="distinct", second_order=False)

_ARG = [C(()), C((5,)), C((3, 4)), C((4, 3), nc=("t",)), C((3, 4), domain="ties", id="ties")]
op("argmax", lambda m, x: x.argmax(), _ARG, (), domain="distinct", second_order=False)
op("argmax.dim", lambda m, x: m.argmax(x, 1), [C((3, 4)), C((2, 3, 4))], (), domain="distinct",
   second_order=False)
op("argmax.keepdim", lambda m, x: x.argmax(0, keepdim=True), [C((3, 4)), C(())], (),
   domain="distinct", second_order=False)
op("argmax.all_keepdim", lambda m, x: x.argmax(keepdim=True), [C((3, 4))], (),
   domain="distinct", second_order=False)
op("argmin", lambda m, x: m.argmin(x), _ARG, (), domain="distinct", second_order=False)
op("argmin.dim", lambda m, x: x.argmin(dim=-1, keepdim=True), [C((3, 4)), C((2, 3, 4))], (),
   domain="distinct", second_order=False)

# ------------------------------------------------------------------ var / std

_VAR = [C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C((3, 2), nc=("step",))]
op("var", lambda m, x: x.var(), _VAR, ("VarBackward0",))
op("var.fn", lambda m, x: m.var(x), [C((3, 4))], ("VarBackward0",))
op("var.dim", lambda m, x: x.var(1), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("VarBackward0",))
op("var.dim_1d", lambda m, x: x.var(0), [C((5,))], ("VarBackward0",))
op("var.dims_keepdim", lambda m, x: m.var(x, (0, 2), keepdim=True), [C((2, 3, 4))],
   ("VarBackward0",))
op("var.unbiased_false", lambda m, x: x.var(False), [C((3, 4))], ("VarBackward0",))
op("var.dim_unbiased_false", lambda m, x: x.var(0, False, True), [C((3, 4))], ("VarBackward0",))
op("var.correction", lambda m, x: x.var(dim=1, correction=0), [C((3, 4))], ("VarBackward0",))
op("var.correction2", lambda m, x: m.var(x, correction=2), [C((3, 4))], ("VarBackward0",))
op("var.none_keepdim", lambda m, x: x.var(None, keepdim=True), [C((3, 4))], ("VarBackward0",))
op("std", lambda m, x: x.std(), _VAR, ("StdBackward0",))
op("std.fn", lambda m, x: m.std(x, 1), [C((3, 4)), C((2, 3, 4))], ("StdBackward0",))
op("std.dims", lambda m, x: x.std((0, 1), keepdim=True), [C((3, 4, 2))], ("StdBackward0",))
op("std.unbiased_false", lambda m, x: m.std(x, 0, unbiased=False), [C((3, 4))], ("StdBackward0",))
op("std.correction", lambda m, x: x.std(correction=0), [C((3, 4)), C((4, 3), nc=("t",))],
   ("StdBackward0",))

# ------------------------------------------------------------------ logsumexp

op("logsumexp", lambda m, x: x.logsumexp(1),
   [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C((3, 1))], ("LogsumexpBackward0",))
op("logsumexp.fn", lambda m, x: m.logsumexp(x, -1), [C((5,)), C((3, 4))], ("LogsumexpBackward0",))
op("logsumexp.dims_keepdim", lambda m, x: m.logsumexp(x, (0, 2), keepdim=True), [C((2, 3, 4))],
   ("LogsumexpBackward0",))
op("logsumexp.0d", lambda m, x: x.logsumexp(0), [C(())], ("LogsumexpBackward0",), second_order=False)

# ------------------------------------------------------------------ vector norms

_NORM = [C(()), C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))]
_VN = ("LinalgVectorNormBackward0",)
op("norm", lambda m, x: x.norm(), _NORM, _VN, domain="nonzero")
op("norm.fn", lambda m, x: m.norm(x), [C((3, 4))], _VN, domain="nonzero")
op("norm.p1", lambda m, x: x.norm(1), _NORM, _VN, domain="nonzero", second_order=False)
op("norm.pinf", lambda m, x: x.norm(float("inf")),
   _NORM + [C((3, 4), domain="ties", id="ties")], _VN, domain="distinct", second_order=False)
op("norm.pninf", lambda m, x: m.norm(x, float("-inf")), [C((5,)), C((3, 4))], _VN,
   domain="distinct", second_order=False)
op("norm.p3", lambda m, x: x.norm(3), _NORM, _VN, domain="nonzero")
op("norm.p1_5", lambda m, x: x.norm(1.5), [C((5,)), C((3, 4))], _VN, domain="nonzero")
op("norm.p0_5", lambda m, x: x.norm(0.5), [C((5,)), C((3, 4))], _VN, domain="nonzero")
op("norm.pneg1", lambda m, x: x.norm(-1), [C((5,)), C((3, 4))], _VN, domain="nonzero")
op("norm.p0", lambda m, x: x.norm(0), [C((3, 4))], _VN, domain="nonzero", second_order=False)
op("norm.dim", lambda m, x: x.norm(dim=1), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))], _VN,
   domain="nonzero")
op("norm.p_dim_keepdim", lambda m, x: m.norm(x, 3, 0, True), [C((3, 4))], _VN, domain="nonzero")
op("norm.p1_dims", lambda m, x: x.norm(p=1, dim=(0, 2)), [C((2, 3, 4))], _VN, domain="nonzero",
   second_order=False)
op("norm.fro_dim", lambda m, x: x.norm("fro", dim=(0, 1)), [C((3, 4)), C((2, 3, 4))], _VN,
   domain="nonzero")
op("norm.dtype", lambda m, x: x.norm(dtype=m.float64), [C((3, 4))], _VN, domain="nonzero")
op("norm.zeros", lambda m, x: x.norm(dim=1), [C((4, 2), domain="zeros", id="zeros")], _VN,
   domain="zeros", second_order=False)
op("linalg.vector_norm", lambda m, x: m.linalg.vector_norm(x), [C((3, 4)), C((5,)), C(())], _VN,
   domain="nonzero")
op("linalg.vector_norm.ord", lambda m, x: m.linalg.vector_norm(x, 4, dim=-1, keepdim=True),
   [C((3, 4))], _VN, domain="nonzero")

# ------------------------------------------------------------------ matrix norms

op("linalg.norm", lambda m, x: m.linalg.norm(x), [C((3, 4)), C((5,)), C((2, 3, 4))], _VN,
   domain="nonzero")
op("linalg.norm.fro", lambda m, x: m.linalg.norm(x, "fro"), [C((3, 4))], _VN, domain="nonzero")
op("linalg.norm.vec_ord", lambda m, x: m.linalg.norm(x, 3), [C((5,))], _VN, domain="nonzero")
op("linalg.norm.dim1", lambda m, x: m.linalg.norm(x, dim=1), [C((3, 4))], _VN, domain="nonzero")
op("linalg.norm.ord1", lambda m, x: m.linalg.norm(x, 1), [C((3, 4)), C((4, 3), nc=("t",))],
   ("AmaxBackward0",), domain="nonzero", second_order=False,
   inner_grad_fns=("LinalgVectorNormBackward0",))
op("linalg.norm.ordinf", lambda m, x: m.linalg.norm(x, float("inf")), [C((3, 4))],
   ("AmaxBackward0",), domain="nonzero", second_order=False)
op("linalg.norm.ordm1", lambda m, x: m.linalg.norm(x, -1), [C((3, 4))], ("AminBackward0",),
   domain="nonzero", second_order=False)
op("linalg.norm.ordminf", lambda m, x: m.linalg.norm(x, float("-inf")), [C((4, 3))],
   ("AminBackward0",), domain="nonzero", second_order=False)
op("linalg.norm.ord2", lambda m, x: m.linalg.norm(x, 2), [C((3, 4)), C((4, 3)), C((3, 3))],
   ("AmaxBackward0",), inner_grad_fns=("LinalgSvdBackward0",))
op("linalg.norm.ordm2", lambda m, x: m.linalg.norm(x, -2), [C((3, 4)), C((3, 3))],
   ("AminBackward0",), inner_grad_fns=("LinalgSvdBackward0",))
op("linalg.norm.nuc", lambda m, x: m.linalg.norm(x, "nuc"), [C((3, 4)), C((4, 3)), C((3, 3))],
   ("SumBackward1",), inner_grad_fns=("LinalgSvdBackward0",))
op("norm.nuc", lambda m, x: x.norm("nuc"), [C((3, 4))], ("SumBackward1",))
op("linalg.matrix_norm", lambda m, x: m.linalg.matrix_norm(x), [C((3, 4)), C((2, 3, 4))], _VN,
   domain="nonzero")
op("linalg.matrix_norm.nuc_keepdim", lambda m, x: m.linalg.matrix_norm(x, "nuc", keepdim=True),
   [C((3, 4)), C((2, 3, 2))], ("PermuteBackward0",))
op("linalg.matrix_norm.ord2_dims", lambda m, x: m.linalg.matrix_norm(x, 2, dim=(0, 2)),
   [C((3, 2, 4))], ("AmaxBackward0",))
op("linalg.matrix_norm.ord1_keepdim", lambda m, x: m.linalg.matrix_norm(x, 1, keepdim=True),
   [C((2, 3, 4))], ("AmaxBackward0",), domain="nonzero", second_order=False)
op("linalg.matrix_norm.inf_dims", lambda m, x: m.linalg.matrix_norm(x, float("inf"), dim=(2, 0)),
   [C((3, 2, 4))], ("AmaxBackward0",), domain="nonzero", second_order=False)

# ------------------------------------------------------------------ cumsum / cumprod

op("cumsum", lambda m, x: x.cumsum(1), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("CumsumBackward0",), second_order=False)
op("cumsum.fn", lambda m, x: m.cumsum(x, 0), [C((5,)), C((3, 4)), C((3, 2), nc=("step",)), C(())],
   ("CumsumBackward0",), second_order=False)
op("cumsum.dtype", lambda m, x: m.cumsum(x, -1, dtype=m.float64), [C((3, 4))],
   ("CumsumBackward0",), second_order=False)
op("cumprod", lambda m, x: x.cumprod(1),
   [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C((3, 4), domain="zeros", id="zeros")],
   ("CumprodBackward0",))
op("cumprod.fn", lambda m, x: m.cumprod(x, 0),
   [C((5,)), C((3, 4)), C(()), C((1,)), C((6,), domain="zeros", id="zeros")],
   ("CumprodBackward0",))
op("cumprod.dtype", lambda m, x: m.cumprod(x, -1, dtype=m.float64), [C((2, 3))],
   ("CumprodBackward0",))

# ------------------------------------------------------------------ all / any

op("all", lambda m, x: (x > 0).all(), [C((3, 4)), C(())], (), second_order=False)
op("all.dim", lambda m, x: m.all(x > 0, 1), [C((3, 4)), C((2, 3, 4))], (), second_order=False)
op("all.float", lambda m, x: m.all(x), [C((3, 4))], (), second_order=False)
op("any", lambda m, x: m.any(x > 1), [C((3, 4)), C(())], (), second_order=False)
op("any.dim_keepdim", lambda m, x: (x > 1).any(dim=0, keepdim=True), [C((3, 4))], (),
   second_order=False)

# ------------------------------------------------------------------ products

op("bmm", lambda m, a, b: m.bmm(a, b),
   [C((2, 3, 4), (2, 4, 5)), C((2, 3, 4), (2, 4, 2), nc=("t", "t")), C((1, 2, 3), (1, 3, 2), ng=(0,)),
    C((2, 3, 4), (2, 4, 1), ng=(1,))],
   ("BmmBackward0",))
op("bmm.method", lambda m, a, b: a.bmm(b), [C((2, 2, 3), (2, 3, 2))], ("BmmBackward0",))
op("dot", lambda m, a, b: m.dot(a, b), [C((4,), (4,)), C((3,), (3,), nc=("step", None)), C((3,), (3,), ng=(1,))],
   ("DotBackward0",))
op("dot.method", lambda m, a, b: a.dot(b), [C((5,), (5,))], ("DotBackward0",))
op("mv", lambda m, a, b: m.mv(a, b), [C((3, 4), (4,)), C((3, 4), (4,), nc=("t", "step"))],
   ("MvBackward0",))
op("mv.method", lambda m, a, b: a.mv(b), [C((2, 3), (3,))], ("MvBackward0",))
op("outer", lambda m, a, b: m.outer(a, b), [C((3,), (4,)), C((3,), (2,), nc=("step", None)),
                                            C((2,), (3,), ng=(0,))],
   ("MulBackward0",))
op("ger", lambda m, a, b: m.ger(a, b), [C((3,), (4,))], ("MulBackward0",))
op("outer.method", lambda m, a, b: a.outer(b), [C((2,), (2,))], ("MulBackward0",))
op("addmm", lambda m, i, a, b: m.addmm(i, a, b),
   [C((3, 4), (3, 2), (2, 4)), C((4,), (3, 2), (2, 4)), C((), (3, 2), (2, 4)),
    C((3, 1), (3, 2), (2, 4), nc=(None, "t", None)), C((3, 4), (3, 2), (2, 4), ng=(0,))],
   ("AddmmBackward0",))
op("addmm.beta_alpha", lambda m, i, a, b: m.addmm(i, a, b, beta=0.5, alpha=-2),
   [C((3, 4), (3, 2), (2, 4)), C((4,), (3, 2), (2, 4))], ("AddmmBackward0",))
op("addmm.beta0", lambda m, i, a, b: m.addmm(i, a, b, beta=0), [C((2, 2), (2, 3), (3, 2))],
   ("AddmmBackward0",))
op("addmm.method", lambda m, i, a, b: i.addmm(a, b, alpha=3), [C((2, 2), (2, 3), (3, 2))],
   ("AddmmBackward0",))

# ------------------------------------------------------------------ einsum

_ES = ("ViewBackward0", "PermuteBackward0", "SumBackward1", "MulBackward0")


def einsum_op(name, eq, cases, **kw):
    op("einsum." + name, lambda m, *xs: m.einsum(eq, *xs), cases, _ES, **kw)


einsum_op("mm", "ij,jk->ik", [C((2, 3), (3, 4)), C((2, 3), (3, 4), nc=("t", None)),
                              C((2, 3), (3, 4), ng=(1,))])
einsum_op("mm_implicit", "ij,jk", [C((2, 3), (3, 4))])
einsum_op("trace", "ii", [C((3, 3))], second_order=False)
einsum_op("diag", "ii->i", [C((3, 3))], second_order=False)
einsum_op("transpose", "ij->ji", [C((2, 3))], second_order=False)
einsum_op("implicit_sorted", "ji", [C((2, 3))], second_order=False)
einsum_op("identity", "ij", [C((2, 3))], second_order=False)
einsum_op("sum_all", "ij->", [C((2, 3))], second_order=False)
einsum_op("sum_rows", "ij->j", [C((2, 3))], second_order=False)
einsum_op("dot", "i,i", [C((4,), (4,))])
einsum_op("outer", "i,j->ij", [C((3,), (4,))])
einsum_op("outer_t", "i,j->ji", [C((3,), (2,))])
einsum_op("hadamard", "ij,ij->ij", [C((2, 3), (2, 3)), C((1, 3), (2, 3)), C((2, 1), (1, 3))])
einsum_op("row_dot", "ij,ij->i", [C((2, 3), (2, 3))])
einsum_op("mv", "ij,j->i", [C((2, 3), (3,))])
einsum_op("bmm", "bij,bjk->bik", [C((2, 2, 3), (2, 3, 4)), C((1, 2, 3), (2, 3, 2))])
einsum_op("ellipsis", "...ij->...ji", [C((2, 3, 4)), C((3, 4))], second_order=False)
einsum_op("ellipsis_mm", "...ij,...jk->...ik", [C((2, 1, 2, 3), (3, 3, 2)), C((2, 3), (3, 2))])
einsum_op("ellipsis_sum", "i...->...", [C((3, 2, 2))], second_order=False)
einsum_op("chain3", "ij,jk,kl->il", [C((2, 3), (3, 2), (2, 4))])
einsum_op("bilinear", "bn,anm,bm->ba", [C((2, 3), (2, 3, 4), (2, 4))])
einsum_op("repeated_3d", "iij->j", [C((3, 3, 2))], second_order=False)
einsum_op("repeated_two_ops", "ii,ij->j", [C((3, 3), (3, 2))])
einsum_op("broadcast_contract", "ij,jk->ik", [C((2, 1), (3, 4)), C((2, 3), (1, 4))])
einsum_op("scalar", ",ij->ij", [C((), (2, 3))])
op("einsum.sublist", lambda m, a, b: m.einsum(a, [0, 1], b, [1, 2], [0, 2]), [C((2, 3), (3, 2))],
   _ES)
op("einsum.list_operands", lambda m, a, b: m.einsum("ij,jk", [a, b]), [C((2, 3), (3, 2))], _ES)

# ------------------------------------------------------------------ tensordot

op("tensordot", lambda m, a, b: m.tensordot(a, b, dims=1), [C((2, 3), (3, 4)), C((2, 3, 4), (4, 2))],
   ("ViewBackward0",))
op("tensordot.lists", lambda m, a, b: m.tensordot(a, b, dims=([1, 0], [0, 2])),
   [C((3, 2, 4), (2, 5, 3))], ("ViewBackward0",))
op("tensordot.dims0", lambda m, a, b: m.tensordot(a, b, dims=0), [C((2, 3), (2,))],
   ("ViewBackward0",))
op("tensordot.dims2", lambda m, a, b: m.tensordot(a, b), [C((2, 3, 4), (3, 4, 2))],
   ("ViewBackward0",))
op("tensordot.broadcast_dim", lambda m, a, b: m.tensordot(a, b, dims=([1], [0])),
   [C((2, 1), (3, 2))], ("ViewBackward0",))

# ------------------------------------------------------------------ trace, diag, tril / triu

op("trace", lambda m, x: m.trace(x), [C((3, 3)), C((3, 4)), C((4, 2), nc=("t",))],
   ("TraceBackward0",), second_order=False)
op("trace.method", lambda m, x: x.trace(), [C((2, 2))], ("TraceBackward0",), second_order=False)
op("diag.embed", lambda m, x: m.diag(x), [C((3,)), C((4,), nc=("step",))],
   ("DiagEmbedBackward0",), second_order=False)
op("diag.embed_offset", lambda m, x: x.diag(1), [C((3,))], ("DiagEmbedBackward0",),
   second_order=False)
op("diag.embed_neg_offset", lambda m, x: m.diag(x, diagonal=-2), [C((2,))],
   ("DiagEmbedBackward0",), second_order=False)
op("diag.extract", lambda m, x: m.diag(x), [C((3, 3)), C((3, 4)), C((4, 2), nc=("t",))],
   ("DiagonalBackward0_copy",), second_order=False)
op("diag.extract_offset", lambda m, x: x.diag(-1), [C((3, 4)), C((4, 3))],
   ("DiagonalBackward0_copy",), second_order=False)
op("diag.extract_offset_pos", lambda m, x: m.diag(x, 2), [C((3, 4))],
   ("DiagonalBackward0_copy",), second_order=False)
op("tril", lambda m, x: m.tril(x), [C((3, 4)), C((4, 3), nc=("t",)), C((2, 3, 3))],
   ("TrilBackward0",), second_order=False)
op("tril.diagonal", lambda m, x: x.tril(-1), [C((3, 4)), C((2, 3, 3))], ("TrilBackward0",),
   second_order=False)
op("triu", lambda m, x: m.triu(x), [C((3, 4)), C((4, 3), nc=("t",)), C((2, 3, 3))],
   ("TriuBackward0",), second_order=False)
op("triu.diagonal", lambda m, x: x.triu(diagonal=1), [C((3, 4)), C((4, 4))], ("TriuBackward0",),
   second_order=False)

# ------------------------------------------------------------------ inv, det, solve

_SQ = [C((3, 3)), C((2, 3, 3)), C((3, 3), nc=("t",)), C((1, 1))]
op("linalg.inv", lambda m, x: m.linalg.inv(_shift(m, x)), _SQ, ("LinalgInvExBackward0",))
op("inverse", lambda m, x: m.inverse(_shift(m, x)), [C((3, 3))], ("LinalgInvExBackward0",))
op("inverse.method", lambda m, x: _shift(m, x).inverse(), [C((2, 2))], ("LinalgInvExBackward0",))
op("linalg.det", lambda m, x: m.linalg.det(_shift(m, x)), _SQ, ("LinalgDetBackward0",))
op("linalg.det.raw", lambda m, x: m.linalg.det(x), [C((3, 3)), C((2, 2))], ("LinalgDetBackward0",))
op("det", lambda m, x: m.det(_shift(m, x)), [C((3, 3))], ("LinalgDetBackward0",))
op("det.method", lambda m, x: _shift(m, x).det(), [C((2, 2))], ("LinalgDetBackward0",))
op("linalg.solve", lambda m, a, b: m.linalg.solve(_shift(m, a), b),
   [C((3, 3), (3,)), C((3, 3), (3, 2)), C((2, 3, 3), (3,)), C((2, 3, 3), (2, 3)),
    C((3, 3), (2, 3, 2)), C((2, 1, 3, 3), (4, 3, 1)), C((3, 3), (3, 2), nc=("t", "t")),
    C((3, 3), (3,), ng=(0,)), C((3, 3), (3, 2), ng=(1,))],
   ("LinalgSolveExBackward0",))
op("linalg.solve.right", lambda m, a, b: m.linalg.solve(_shift(m, a), b, left=False),
   [C((3, 3), (2, 3)), C((2, 3, 3), (2, 4, 3))], ("LinalgSolveExBackward0",))

# ------------------------------------------------------------------ decompositions and solvers
# Matrices are made symmetric positive definite (_spd), symmetric (_sym) or well conditioned
# (_shift) inside fn. Eigenvectors and singular vectors are unique up to sign: fn fixes the
# sign of each by its first row (_sign_fix), so values and gradients compare exactly.


def _spd(m, x):
    return x @ x.mT + 3.0 * m.eye(x.shape[-1], dtype=x.dtype)


def _sym(m, x):
    return x + x.mT


def _sign_fix(m, V):
    """V with each column's sign set by its first entry (a constant, no history)."""
    return V * m.sign(V.detach()[..., :1, :])


def _svd_fixed(m, out):
    U, S, Vh = out
    s = m.sign(U.detach()[..., :1, :])
    return U * s, S, Vh * s.mT


_SQ3 = [C((3, 3)), C((2, 3, 3)), C((3, 3), nc=("t",))]
_CH = ("LinalgCholeskyExBackward0",)
op("linalg.cholesky", lambda m, x: m.linalg.cholesky(_spd(m, x)), _SQ3 + [C((1, 1))], _CH)
op("linalg.cholesky.upper", lambda m, x: m.linalg.cholesky(_spd(m, x), upper=True), _SQ3, _CH)
op("linalg.cholesky_ex", lambda m, x: m.linalg.cholesky_ex(_spd(m, x)), [C((3, 3)), C((2, 2, 2))],
   _CH)
op("linalg.cholesky_ex.not_pd",
   lambda m, x: m.linalg.cholesky_ex(_sym(m, x) - 5 * m.eye(3, dtype=x.dtype)).info, [C((3, 3))], (),
   second_order=False)
op("cholesky", lambda m, x: m.cholesky(_spd(m, x)), [C((3, 3)), C((2, 2, 2))], ("CholeskyBackward0",))
op("cholesky.upper_method", lambda m, x: _spd(m, x).cholesky(True), [C((3, 3))],
   ("CholeskyBackward0",))
op("cholesky_inverse", lambda m, x: m.cholesky_inverse(m.linalg.cholesky(_spd(m, x))),
   [C((3, 3)), C((2, 2, 2))], ("CholeskyInverseBackward0",))
op("cholesky_inverse.raw", lambda m, x: m.cholesky_inverse(x + 3 * m.eye(3, dtype=x.dtype), upper=True),
   [C((3, 3))], ("CholeskyInverseBackward0",), gradcheck=False)
op("cholesky_solve", lambda m, b, x: m.cholesky_solve(b, m.linalg.cholesky(_spd(m, x))),
   [C((3, 2), (3, 3)), C((2, 3, 1), (3, 3)), C((3, 2), (2, 3, 3)), C((3, 2), (3, 3), ng=(0,))],
   ("CholeskySolveBackward0",))
op("cholesky_solve.upper", lambda m, b, x: b.cholesky_solve(x + 3 * m.eye(3, dtype=x.dtype), True),
   [C((3, 2), (3, 3))], ("CholeskySolveBackward0",), gradcheck=False)

_IE = ("LinalgInvExBackward0",)
op("linalg.inv_ex", lambda m, x: m.linalg.inv_ex(_shift(m, x)), _SQ3, _IE)
op("linalg.inv_ex.singular", lambda m, x: m.linalg.inv_ex(x * 0).info, [C((3, 3)), C((2, 2, 2))], (),
   second_order=False)
op("linalg.solve_ex", lambda m, a, b: m.linalg.solve_ex(_shift(m, a), b),
   [C((3, 3), (3,)), C((2, 3, 3), (3, 2)), C((3, 3), (3, 2), ng=(0,))], ("LinalgSolveExBackward0",))
op("linalg.solve_ex.left_false", lambda m, a, b: m.linalg.solve_ex(_shift(m, a), b, left=False),
   [C((3, 3), (2, 3))], ("LinalgSolveExBackward0",))

_EH = ("LinalgEighBackward0",)
op("linalg.eigh", lambda m, x: (lambda r: (r.eigenvalues, _sign_fix(m, r.eigenvectors)))(
    m.linalg.eigh(_sym(m, x))), [C((3, 3)), C((2, 3, 3)), C((3, 3), nc=("t",))],
   _EH + ("MulBackward0",))
op("linalg.eigh.values_only", lambda m, x: m.linalg.eigh(_sym(m, x))[0], [C((3, 3))], _EH)
op("linalg.eigh.named", lambda m, x: m.linalg.eigh(_sym(m, x)).eigenvalues, [C((2, 2))], _EH)
op("linalg.eigh.upper", lambda m, x: (lambda r: (r[0], _sign_fix(m, r[1])))(
    m.linalg.eigh(x, UPLO="U")), [C((3, 3))], _EH + ("MulBackward0",), gradcheck=False)
op("linalg.eigvalsh", lambda m, x: m.linalg.eigvalsh(_sym(m, x)), [C((3, 3)), C((2, 4, 4))], _EH)
op("linalg.eigvalsh.upper", lambda m, x: m.linalg.eigvalsh(x, "U"), [C((3, 3))], _EH, gradcheck=False)
# eig of a real matrix: complex results (their moduli do not depend on the vectors' phases);
# A's gradient is the real part (handle_r_to_c)
op("linalg.eig", lambda m, x: (lambda r: (r.eigenvalues.abs(), r.eigenvectors.abs()))(
    m.linalg.eig(x)), [C((3, 3))], ("AbsBackward0",), inner_grad_fns=("LinalgEigBackward0",),
   gradcheck=False)

_SV = ("LinalgSvdBackward0",)
op("linalg.svd", lambda m, x: _svd_fixed(m, m.linalg.svd(x, full_matrices=False)),
   [C((3, 3)), C((3, 4)), C((4, 3)), C((2, 3, 2))], _SV + ("MulBackward0",))
op("linalg.svd.full", lambda m, x: m.linalg.svd(x).S, [C((3, 4)), C((4, 3))], _SV)
op("linalg.svd.full_u", lambda m, x: (lambda U, S, Vh: (U[..., :, :2] * m.sign(U.detach()[..., :1, :2]),
                                                      S))(*m.linalg.svd(x)),
   [C((4, 2))], _SV + ("MulBackward0",))
op("linalg.svdvals", lambda m, x: m.linalg.svdvals(x), [C((3, 4)), C((4, 3)), C((2, 3, 3))], _SV)
op("svd", lambda m, x: (lambda r: (r.U * m.sign(r.U.detach()[..., :1, :]), r.S,
                                   r.V * m.sign(r.U.detach()[..., :1, :])))(m.svd(x)),
   [C((3, 3)), C((4, 3)), C((2, 3, 4))], _SV + ("MulBackward0",))
op("svd.values", lambda m, x: x.svd()[1], [C((3, 4))], _SV)
op("svd.no_uv", lambda m, x: m.svd(x, compute_uv=False), [C((3, 4)), C((4, 2))], _SV)

_QR = ("LinalgQrBackward0",)
op("linalg.qr", lambda m, x: m.linalg.qr(x), [C((3, 3)), C((4, 3)), C((3, 4)), C((2, 3, 2)),
                                               C((3, 3), nc=("t",))], _QR)
op("linalg.qr.complete", lambda m, x: m.linalg.qr(x, mode="complete"), [C((3, 4)), C((3, 3))], _QR,
   dtypes=("float64",))
op("linalg.qr.complete_f32", lambda m, x: m.linalg.qr(_shift(m, x), mode="complete"), [C((3, 3))], _QR)
op("linalg.qr.R", lambda m, x: m.linalg.qr(x)[1], [C((4, 3))], _QR)
op("linalg.qr.Q", lambda m, x: m.linalg.qr(x).Q, [C((3, 4))], _QR)
op("qr", lambda m, x: m.qr(x), [C((4, 3))], _QR)
op("qr.some_false_method", lambda m, x: x.qr(False), [C((2, 3))], _QR)

_SL = ("LinalgSlogdetBackward0",)
op("linalg.slogdet", lambda m, x: m.linalg.slogdet(_shift(m, x)), _SQ3 + [C((1, 1))], _SL)
op("linalg.slogdet.raw", lambda m, x: m.linalg.slogdet(x), [C((3, 3)), C((2, 2, 2))], _SL)
op("slogdet", lambda m, x: m.slogdet(x), [C((3, 3))], _SL)
op("slogdet.method", lambda m, x: x.slogdet().logabsdet, [C((2, 2))], _SL)
op("logdet", lambda m, x: m.logdet(_spd(m, x)), [C((3, 3)), C((2, 2, 2))], ("WhereBackward0",))
op("logdet.negative", lambda m, x: (x * 0 - m.eye(3, dtype=x.dtype)).logdet(), [C((3, 3))],
   ("WhereBackward0",), second_order=False, gradcheck=False)

_ME = ("LinalgMatrixExpBackward0",)
op("linalg.matrix_exp", lambda m, x: m.linalg.matrix_exp(x),
   [C((3, 3)), C((2, 2, 2)), C((3, 3), nc=("t",)), C((1, 1))], _ME)
op("linalg.matrix_exp.large", lambda m, x: m.linalg.matrix_exp(4 * x), [C((3, 3))], _ME)
op("linalg.matrix_exp.small", lambda m, x: m.linalg.matrix_exp(0.01 * x), [C((3, 3))], _ME)
op("matrix_exp", lambda m, x: m.matrix_exp(x), [C((2, 2))], _ME)
op("matrix_exp.method", lambda m, x: x.matrix_exp(), [C((3, 3))], _ME)

op("linalg.matrix_power.0", lambda m, x: m.linalg.matrix_power(x, 0), [C((3, 3)), C((2, 2, 2))],
   ("CopyBackwards",), second_order=False)
op("linalg.matrix_power.1", lambda m, x: m.linalg.matrix_power(x, 1), [C((3, 3))],
   ("CloneBackward0",), second_order=False)
op("linalg.matrix_power.2", lambda m, x: m.linalg.matrix_power(x, 2), [C((3, 3)), C((2, 2, 2))],
   ("MmBackward0", "UnsafeViewBackward0"))
op("linalg.matrix_power.5", lambda m, x: m.linalg.matrix_power(x, 5), [C((3, 3)), C((2, 2, 2))],
   ("MmBackward0", "UnsafeViewBackward0"))
op("linalg.matrix_power.neg1", lambda m, x: m.linalg.matrix_power(_shift(m, x), -1), [C((3, 3))], _IE)
op("linalg.matrix_power.neg3", lambda m, x: m.linalg.matrix_power(_shift(m, x), -3), [C((3, 3))],
   ("MmBackward0",))
op("matrix_power", lambda m, x: m.matrix_power(x, 3), [C((2, 2))], ("MmBackward0",))
op("matrix_power.method", lambda m, x: x.matrix_power(4), [C((2, 2))], ("MmBackward0",))

op("linalg.matrix_rank", lambda m, x: m.linalg.matrix_rank(x), [C((3, 4)), C((2, 3, 3))], (),
   second_order=False)
op("linalg.matrix_rank.deficient", lambda m, x: m.linalg.matrix_rank(x[..., :1] * x[..., :1, :].mT),
   [C((3, 3))], (), second_order=False)
op("linalg.matrix_rank.tols", lambda m, x: (m.linalg.matrix_rank(x, atol=1.0, rtol=0.1),
                                            m.linalg.matrix_rank(x, hermitian=True)),
   [C((4, 4))], (), second_order=False)

_PI = ("LinalgPinvBackward0",)
op("linalg.pinv", lambda m, x: m.linalg.pinv(x), [C((3, 3)), C((3, 4)), C((4, 3)), C((2, 3, 2))], _PI,
   dtypes=("float64",))
op("linalg.pinv.f32", lambda m, x: m.linalg.pinv(_shift(m, x)), [C((3, 3)), C((2, 2, 2))], _PI)
op("linalg.pinv.hermitian", lambda m, x: m.linalg.pinv(_spd(m, x), hermitian=True), [C((3, 3))], _PI)
op("linalg.pinv.rtol", lambda m, x: m.linalg.pinv(x, rtol=0.3), [C((3, 4))], _PI, gradcheck=False)
op("pinverse", lambda m, x: m.pinverse(x), [C((4, 3))], _PI)
op("pinverse.method", lambda m, x: x.pinverse(rcond=1e-3), [C((2, 3))], _PI)

# square inputs shifted to be well conditioned: on an ill-conditioned random matrix
# torch's own float32 gradient moves by 1e-5 between CPUs (seen on an AVX512 Xeon)
op("linalg.cond", lambda m, x: m.linalg.cond(_shift(m, x) if x.shape[-1] == x.shape[-2] else x),
   [C((3, 3)), C((3, 4)), C((2, 3, 3))], ("SqueezeBackward1",))
op("linalg.cond.m2", lambda m, x: m.linalg.cond(x, -2), [C((3, 3))], ("SqueezeBackward1",))
op("linalg.cond.fro_value", lambda m, x: m.linalg.cond(x.detach(), "fro"), [C((3, 3))], (),
   second_order=False)
op("linalg.cond.inf_value", lambda m, x: m.linalg.cond(x.detach(), float("inf")), [C((2, 3, 3))], (),
   second_order=False)
op("linalg.cond.singular", lambda m, x: (m.linalg.cond(x.detach() * 0, "nuc"),
                                         m.linalg.cond(x.detach() * 0, "fro"),
                                         m.linalg.cond(x.detach() * 0, 1)), [C((3, 3))], (),
   second_order=False)
op("linalg.cond.nuc", lambda m, x: m.linalg.cond(_shift(m, x), "nuc"), [C((3, 3)), C((2, 2, 2))],
   ("MulBackward0",))

_ST = ("LinalgSolveTriangularBackward0",)
op("linalg.solve_triangular", lambda m, a, b: m.linalg.solve_triangular(_shift(m, a), b, upper=True),
   [C((3, 3), (3, 2)), C((2, 3, 3), (3, 1)), C((3, 3), (2, 3, 2)), C((3, 3), (3, 2), ng=(0,)),
    C((3, 3), (3, 2), nc=("t", "t"))], _ST)
op("linalg.solve_triangular.lower_right", lambda m, a, b: m.linalg.solve_triangular(
    _shift(m, a), b, upper=False, left=False), [C((3, 3), (2, 3))], _ST)
op("linalg.solve_triangular.unit", lambda m, a, b: m.linalg.solve_triangular(
    a, b, upper=False, unitriangular=True), [C((3, 3), (3, 2))], _ST)
_TS = ("TriangularSolveBackward0",)
op("triangular_solve", lambda m, b, a: m.triangular_solve(b, _shift(m, a)),
   [C((3, 2), (3, 3)), C((2, 3, 1), (3, 3))], _TS)
op("triangular_solve.transpose_lower_unit", lambda m, b, a: b.triangular_solve(
    _shift(m, a), upper=False, transpose=True, unitriangular=True), [C((3, 2), (3, 3))], _TS)
op("triangular_solve.solution", lambda m, b, a: m.triangular_solve(b, _shift(m, a)).solution,
   [C((3, 2), (3, 3))], _TS)

_LF = ("LinalgLuFactorExBackward0",)
op("linalg.lu_factor", lambda m, x: m.linalg.lu_factor(x), _SQ3 + [C((3, 4)), C((4, 3))], _LF)
op("linalg.lu_factor_ex", lambda m, x: m.linalg.lu_factor_ex(x), [C((3, 3)), C((2, 2, 3))], _LF)
op("linalg.lu_factor_ex.singular", lambda m, x: m.linalg.lu_factor_ex(x.detach() * 0),
   [C((3, 3))], (), second_order=False)
op("lu", lambda m, x: m.lu(x), [C((3, 3))], _LF)
op("lu.infos_method", lambda m, x: x.lu(get_infos=True), [C((3, 3))], _LF)
_LU = ("LinalgLuBackward0",)
op("linalg.lu", lambda m, x: m.linalg.lu(x), _SQ3 + [C((3, 4)), C((4, 3)), C((2, 2, 4))], _LU)
op("linalg.lu.L", lambda m, x: m.linalg.lu(x).L, [C((3, 3)), C((4, 2))], _LU)
op("linalg.lu.U", lambda m, x: m.linalg.lu(x).U, [C((3, 3)), C((2, 4))], _LU)
_UP = ("LuUnpackBackward0",)
op("lu_unpack", lambda m, x: m.lu_unpack(*m.linalg.lu_factor(x)),
   [C((3, 3)), C((3, 4)), C((4, 3)), C((2, 3, 3))], _UP)
op("lu_unpack.no_pivots", lambda m, x: m.lu_unpack(*m.linalg.lu_factor(x), unpack_pivots=False),
   [C((3, 3))], _UP)
op("lu_unpack.no_data", lambda m, x: m.lu_unpack(*m.linalg.lu_factor(x.detach()), unpack_data=False),
   [C((3, 3))], (), second_order=False)
_LS = ("LinalgLuSolveBackward0",)
op("linalg.lu_solve", lambda m, a, b: m.linalg.lu_solve(*m.linalg.lu_factor(_shift(m, a)), b),
   [C((3, 3), (3, 2)), C((2, 3, 3), (3, 1)), C((3, 3), (2, 3, 2)), C((3, 3), (3, 2), ng=(0,))], _LS)
op("linalg.lu_solve.adjoint", lambda m, a, b: m.linalg.lu_solve(*m.linalg.lu_factor(_shift(m, a)), b,
                                                               adjoint=True), [C((3, 3), (3, 2))], _LS)
op("linalg.lu_solve.right", lambda m, a, b: m.linalg.lu_solve(*m.linalg.lu_factor(_shift(m, a)), b,
                                                             left=False), [C((3, 3), (2, 3))], _LS)
op("linalg.lu_solve.right_adjoint", lambda m, a, b: m.linalg.lu_solve(
    *m.linalg.lu_factor(_shift(m, a)), b, left=False, adjoint=True), [C((3, 3), (2, 3))], _LS)
op("lu_solve", lambda m, b, a: m.lu_solve(b, *m.linalg.lu_factor(_shift(m, a))),
   [C((3, 2), (3, 3))], _LS)
op("lu_solve.method", lambda m, b, a: b.lu_solve(*m.linalg.lu_factor(_shift(m, a))),
   [C((3, 1), (3, 3))], _LS)

_LQ = ("LinalgLstsqBackward0",)
op("linalg.lstsq.f32", lambda m, a, b: m.linalg.lstsq(_shift(m, a), b).solution,
   [C((3, 3), (3, 2))], _LQ)
op("linalg.lstsq", lambda m, a, b: m.linalg.lstsq(a, b).solution,
   [C((4, 3), (4, 2)), C((3, 3), (3, 1)), C((2, 4, 2), (1, 4, 2)), C((4, 3), (4,)),
    C((4, 3), (4, 2), ng=(0,)), C((4, 3), (4, 2), ng=(1,))], _LQ,
   dtypes=("float64",))
op("linalg.lstsq.wide", lambda m, a, b: m.linalg.lstsq(a, b).solution, [C((2, 3), (2, 2))], _LQ,
   dtypes=("float64",))
op("linalg.lstsq.all", lambda m, a, b: m.linalg.lstsq(a, b), [C((4, 3), (4, 2))], _LQ,
   dtypes=("float64",))
op("linalg.lstsq.gelsd", lambda m, a, b: m.linalg.lstsq(a, b, driver="gelsd"),
   [C((4, 2), (4, 2)), C((2, 4, 2), (2, 4, 1)), C((4, 2), (4,)), C((2, 4, 2), (2, 4))], _LQ,
   dtypes=("float64",))
op("linalg.lstsq.gels", lambda m, a, b: m.linalg.lstsq(a, b, driver="gels"), [C((4, 2), (4, 2))], _LQ,
   dtypes=("float64",))
op("linalg.lstsq.gelss_rcond", lambda m, a, b: m.linalg.lstsq(a, b, 0.1, driver="gelss"),
   [C((4, 2), (4, 2))], _LQ,
   dtypes=("float64",))

_HP = ("LinalgHouseholderProductBackward0",)
op("linalg.householder_product", lambda m, a, t: m.linalg.householder_product(a, t),
   [C((3, 3), (3,)), C((4, 3), (2,)), C((4, 2), (2,)), C((2, 3, 2), (2, 2)), C((4, 3), (3,), ng=(1,)),
    C((3, 3), (3,), nc=("t", None))], _HP)
op("orgqr", lambda m, a, t: m.orgqr(a, t), [C((3, 2), (2,))], _HP)
op("orgqr.method", lambda m, a, t: a.orgqr(t), [C((3, 3), (1,))], _HP)
op("geqrf.values", lambda m, x: m.geqrf(x.detach()), [C((4, 3)), C((3, 4)), C((2, 3, 3))], (),
   second_order=False)
op("geqrf.roundtrip", lambda m, x: m.linalg.householder_product(*m.geqrf(x.detach())), [C((4, 3))], (),
   second_order=False)
_OR = ("OrmqrBackward0",)
op("ormqr", lambda m, a, t, c: m.ormqr(a, t, c),
   [C((4, 3), (3,), (4, 2)), C((3, 3), (3,), (3, 3)), C((2, 3, 2), (2, 2), (2, 3, 1))], _OR,
   dtypes=("float64",))
op("ormqr.bad_args", lambda m, a, t, c: m.ormqr(a, t, c), [C((3, 3), (2,), (3, 3)), C((2, 3, 2), (2, 2), (3, 1)),
                                                         C((2, 3, 2), (1, 2), (2, 3, 1))], _OR,
   second_order=False, gradcheck=False)
op("ormqr.transpose", lambda m, a, t, c: m.ormqr(a, t, c, transpose=True), [C((3, 2), (2,), (3, 2))], _OR)
op("ormqr.right", lambda m, a, t, c: a.ormqr(t, c, left=False), [C((3, 2), (2,), (2, 3))], _OR)
op("ormqr.right_transpose", lambda m, a, t, c: m.ormqr(a, t, c, False, True),
   [C((3, 3), (3,), (1, 3))], _OR)

op("linalg.ldl_factor", lambda m, x: m.linalg.ldl_factor(_sym(m, x.detach())),
   [C((3, 3)), C((5, 5)), C((2, 4, 4))], (), second_order=False)
op("linalg.ldl_factor_ex", lambda m, x: m.linalg.ldl_factor_ex(_spd(m, x.detach())), [C((4, 4))], (),
   second_order=False)
op("linalg.ldl_factor.pivoting", lambda m, x: m.linalg.ldl_factor(x.detach() * m.tensor(
    [[0.01, 1, 2, 3], [1, 0.02, 5, 6], [2, 5, 0.03, 7], [3, 6, 7, 0.04]], dtype=x.dtype)),
   [C((4, 4), domain="positive")], (), second_order=False)
op("linalg.ldl_solve", lambda m, x, b: m.linalg.ldl_solve(*m.linalg.ldl_factor(_sym(m, x.detach())),
                                                          b.detach()),
   [C((3, 3), (3, 2)), C((6, 6), (6, 1)), C((2, 4, 4), (4, 2))], (), second_order=False)

# ------------------------------------------------------------------ compositions

op("linalg.matmul", lambda m, a, b: m.linalg.matmul(a, b), [C((2, 3), (3, 4)), C((2, 2, 3), (3,))],
   ("MmBackward0", "UnsafeViewBackward0", "ViewBackward0"))
op("linalg.diagonal", lambda m, x: m.linalg.diagonal(x), [C((3, 3)), C((2, 3, 4))],
   ("DiagonalBackward0",), second_order=False)
op("linalg.diagonal.args", lambda m, x: m.linalg.diagonal(x, offset=1, dim1=0, dim2=2),
   [C((3, 2, 4))], ("DiagonalBackward0",), second_order=False)
op("linalg.vecdot", lambda m, a, b: m.linalg.vecdot(a, b), [C((3, 4), (3, 4)), C((2, 3), (3,)),
                                                           C((4,), (4,))],
   ("SumBackward1", "VdotBackward0"))
op("linalg.vecdot.dim", lambda m, a, b: m.linalg.vecdot(a, b, dim=0), [C((3, 4), (3, 1))],
   ("SumBackward1",))
_CR = ("LinalgCrossBackward0",)
op("linalg.cross", lambda m, a, b: m.linalg.cross(a, b), [C((3,), (3,)), C((4, 3), (4, 3)),
                                                         C((4, 3), (1, 3)), C((2, 3), (2, 3), ng=(1,))],
   _CR)
op("linalg.cross.dim", lambda m, a, b: m.linalg.cross(a, b, dim=0), [C((3, 2), (3, 2))], _CR)
op("cross", lambda m, a, b: m.cross(a, b, dim=1), [C((2, 3), (2, 3))], _CR)
op("cross.default_dim", lambda m, a, b: a.cross(b), [C((3, 4), (3, 4))], _CR)
op("linalg.vander", lambda m, x: m.linalg.vander(x), [C((3,)), C((2, 4))], ("CatBackward0",))
op("linalg.vander.0d", lambda m, x: m.linalg.vander(x), [C(())], ("CatBackward0",), second_order=False,
   gradcheck=False)
op("linalg.vander.N", lambda m, x: m.linalg.vander(x, N=4), [C((3,))], ("CatBackward0",))
_MD = ("ViewBackward0",)
op("linalg.multi_dot", lambda m, *xs: m.linalg.multi_dot(list(xs)),
   [C((2, 3), (3, 4)), C((2, 3), (3, 4), (4, 1)), C((4, 1), (1, 3), (3, 2)), C((3,), (3, 2)),
    C((3,), (3, 3), (3,)), C((2, 3), (3, 2), (2, 4), (4, 1), (1, 3))], _MD)
op("chain_matmul", lambda m, *xs: m.chain_matmul(*xs), [C((2, 3), (3, 4), (4, 2)), C((2, 2), (2, 2))],
   _MD)
op("chain_matmul.one", lambda m, x: m.chain_matmul(x), [C((2, 3))], ("CloneBackward0",),
   second_order=False)
op("linalg.tensorinv", lambda m, x: m.linalg.tensorinv(_shift(m, x).reshape(4, 2, 2), ind=1),
   [C((4, 4))], ("ReshapeAliasBackward0", "ViewBackward0"))
op("linalg.tensorinv.ind2", lambda m, x: m.linalg.tensorinv(_shift(m, x).reshape(2, 2, 2, 2)),
   [C((4, 4))], ("ReshapeAliasBackward0", "ViewBackward0"))
op("linalg.tensorsolve", lambda m, a, b: m.linalg.tensorsolve(_shift(m, a).reshape(2, 3, 6), b),
   [C((6, 6), (2, 3))], ("ViewBackward0",))
op("linalg.tensorsolve.dims", lambda m, a, b: m.linalg.tensorsolve(
    _shift(m, a).reshape(6, 2, 3), b, dims=(0,)), [C((6, 6), (2, 3))], ("ViewBackward0",))
op("inner", lambda m, a, b: m.inner(a, b), [C((3,), (3,)), C((2, 3), (4, 3)), C((), (2, 3))],
   ("ViewBackward0", "MulBackward0"))
op("inner.method", lambda m, a, b: a.inner(b), [C((2, 2, 3), (3,))], ("ViewBackward0",))
op("vdot", lambda m, a, b: m.vdot(a, b), [C((4,), (4,)), C((3,), (3,), ng=(0,))], ("VdotBackward0",))
op("vdot.method", lambda m, a, b: a.vdot(b), [C((2,), (2,))], ("VdotBackward0",))
op("adjoint", lambda m, x: m.adjoint(x), [C((2, 3)), C((2, 3, 4))], ("TransposeBackward0",),
   second_order=False)
op("adjoint.method", lambda m, x: x.adjoint(), [C((3, 3))], ("TransposeBackward0",),
   second_order=False)
op("addmv", lambda m, i, a, v: m.addmv(i, a, v), [C((3,), (3, 4), (4,)), C((1,), (3, 4), (4,)),
                                                  C((), (2, 3), (3,)), C((3,), (3, 4), (4,), ng=(0,))],
   ("AddmvBackward0",))
op("addmv.beta_alpha", lambda m, i, a, v: i.addmv(a, v, beta=0.5, alpha=-2), [C((3,), (3, 2), (2,))],
   ("AddmvBackward0",))
op("addr", lambda m, i, a, b: m.addr(i, a, b), [C((3, 4), (3,), (4,)), C((4,), (3,), (4,))],
   ("AddrBackward0",))
op("addr.beta_alpha", lambda m, i, a, b: i.addr(a, b, beta=2, alpha=0.5), [C((2, 3), (2,), (3,))],
   ("AddrBackward0",))
op("baddbmm", lambda m, i, a, b: m.baddbmm(i, a, b), [C((2, 3, 4), (2, 3, 2), (2, 2, 4)),
                                                      C((3, 1), (2, 3, 2), (2, 2, 4))],
   ("BaddbmmBackward0",))
op("baddbmm.beta_alpha", lambda m, i, a, b: i.baddbmm(a, b, beta=0.5, alpha=3),
   [C((2, 2, 2), (2, 2, 3), (2, 3, 2))], ("BaddbmmBackward0",))
op("addbmm", lambda m, i, a, b: m.addbmm(i, a, b), [C((3, 4), (2, 3, 2), (2, 2, 4)),
                                                    C((4,), (2, 3, 2), (2, 2, 4))],
   ("AddbmmBackward0",))
op("addbmm.beta_alpha", lambda m, i, a, b: i.addbmm(a, b, beta=-1, alpha=0.5),
   [C((2, 2), (3, 2, 3), (3, 3, 2))], ("AddbmmBackward0",))
op("dist", lambda m, a, b: m.dist(a, b), [C((3, 4), (3, 4)), C((3, 4), (4,)), C((3,), (3,), ng=(1,))],
   ("DistBackward0",), domain="nonzero")
op("dist.p", lambda m, a, b: a.dist(b, 3), [C((3, 4), (3, 4))], ("DistBackward0",), domain="nonzero")
op("dist.p1", lambda m, a, b: m.dist(a, b, 1), [C((5,), (5,))], ("DistBackward0",), domain="distinct",
   second_order=False)
op("nuclear_norm", lambda m, x: m.nuclear_norm(x), [C((3, 4)), C((3, 3))], ("SumBackward1",))
op("nuclear_norm.dim", lambda m, x: m.nuclear_norm(x, (0, 2), keepdim=True), [C((3, 2, 4))],
   ("PermuteBackward0",))
op("nuclear_norm.keepdim", lambda m, x: m.nuclear_norm(x, True), [C((3, 4))], ("PermuteBackward0",))
op("frobenius_norm", lambda m, x: m.frobenius_norm(x, (0, 1)), [C((3, 4)), C((2, 3, 4))],
   ("NormBackward1",), domain="nonzero")
op("frobenius_norm.keepdim", lambda m, x: m.frobenius_norm(x, 1, True), [C((3, 4))],
   ("NormBackward1",), domain="nonzero")

# ------------------------------------------------------------------ distances, covariance

_CD = ("CdistBackward0",)
op("cdist", lambda m, a, b: m.cdist(a, b), [C((3, 2), (4, 2)), C((2, 3, 2), (4, 2)), C((1, 2), (3, 2)),
                                            C((3, 2), (4, 2), ng=(0,))], _CD, second_order=False,
   double_backward=False)
for _p in (0.0, 0.5, 1.0, 1.5, 3.0, float("inf")):
    op(f"cdist.p{_p}", lambda m, a, b, _p=_p: m.cdist(a, b, p=_p), [C((3, 2), (4, 2)), C((2, 2, 3), (2, 3, 3))],
       _CD, domain="distinct", second_order=False, double_backward=False)
op("cdist.mm", lambda m, a, b: m.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
   [C((3, 2), (4, 2)), C((2, 3, 2), (4, 2))], ("ViewBackward0",),
   inner_grad_fns=("EuclideanDistBackward0",), dtypes=("float64",))
op("cdist.mm_large", lambda m, a, b: m.cdist(a, b), [C((26, 2), (3, 2))], ("ViewBackward0",),
   inner_grad_fns=("EuclideanDistBackward0",), dtypes=("float64",))
op("cdist.no_mm", lambda m, a, b: m.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist"),
   [C((26, 2), (3, 2))], _CD, second_order=False, double_backward=False)
_PD = ("PdistBackward0",)
op("pdist", lambda m, x: m.pdist(x), [C((4, 3)), C((2, 2)), C((1, 3))], _PD, second_order=False,
   double_backward=False)
for _p in (0.0, 1.0, 1.5, 3.0, float("inf")):
    op(f"pdist.p{_p}", lambda m, x, _p=_p: m.pdist(x, _p), [C((4, 3))], _PD, domain="distinct",
       second_order=False, double_backward=False)
op("cov", lambda m, x: m.cov(x), [C((3, 5)), C((5,)), C((2, 3), nc=("t",))], ("SqueezeBackward0",))
op("cov.method_correction", lambda m, x: x.cov(correction=0), [C((3, 4))], ("SqueezeBackward0",))
op("cov.weights", lambda m, x, aw: m.cov(x, fweights=m.tensor([1, 2, 3, 1]), aweights=aw.abs() + 0.5),
   [C((2, 4), (4,))], ("SqueezeBackward0",))
op("cov.fweights", lambda m, x: m.cov(x, correction=2, fweights=m.tensor([2, 1, 1])), [C((2, 3))],
   ("SqueezeBackward0",))
op("cov.int", lambda m, x: m.cov((x.detach() * 3).long()), [C((2, 4))], (), second_order=False)
op("corrcoef", lambda m, x: m.corrcoef(x), [C((3, 5)), C((2, 4), nc=("t",))], ("ClampBackward1",))
op("corrcoef.1d", lambda m, x: x.corrcoef(), [C((4,))], ("DivBackward0",), second_order=False)
op("norm_except_dim", lambda m, x: m.norm_except_dim(x), [C((3, 4)), C((2, 3, 2))], ("ViewBackward0",),
   domain="nonzero")
op("norm_except_dim.dim_pow", lambda m, x: m.norm_except_dim(x, 3, 1), [C((3, 4))], ("ViewBackward0",),
   domain="nonzero")
op("norm_except_dim.all", lambda m, x: m.norm_except_dim(x, 2, -1), [C((3, 4))], ("NormBackward0",),
   domain="nonzero")
# torch._weight_norm: PyTorch's fused node when dim is the first or last dim (its double
# backward holds the norms constant, so it is not the true second derivative: the first
# row is gradchecked at first order only, the second compares the second order with
# PyTorch's and skips gradgradcheck), its composition otherwise
op("_weight_norm", lambda m, v, g: m._weight_norm(v, g, 0), [C((3, 4), (3, 1))],
   ("WeightNormInterfaceBackward0",), domain="nonzero", double_backward=False, second_order=False)
op("_weight_norm.second_order", lambda m, v, g: m._weight_norm(v, g, 1), [C((3, 4), (1, 4))],
   ("WeightNormInterfaceBackward0",), domain="nonzero", gradcheck=False)
op("_weight_norm.composite", lambda m, v, g: m._weight_norm(v, g, 1),
   [C((2, 3, 2), (1, 3, 1))], ("MulBackward0",), domain="nonzero")

GRAD_FN_ALLOWLIST = {
    "GeqrfBackward0": "geqrf's outputs carry it, but its backward raises (as PyTorch's): "
                      "test_linalg_decompositions.py::test_geqrf_is_not_differentiable",
    "CdistBackwardBackward0": "cdist's first derivative under create_graph; its backward raises "
                              "(as PyTorch's): test_linalg_decompositions.py::"
                              "test_distance_double_backward_raises",
    "PdistBackwardBackward0": "pdist's first derivative under create_graph, as "
                              "CdistBackwardBackward0",
}
op("kron", lambda m, a, b: m.kron(a, b), [C((2, 3), (3, 2)), C((3,), (3, 2)), C((), (2,)), C((2,), ()),
                                          C((2, 1, 2), (2, 2)), C((2, 3), (3, 2), ng=(1,))],
   ("UnsafeViewBackward0",))
op("kron.method", lambda m, a, b: a.kron(b), [C((2, 2), (2, 2))], ("UnsafeViewBackward0",))
op("kron.layouts", lambda m, a, b: m.kron(a, b),
   [C((2, 3), (2, 3), nc=("t", "t")), C((2, 3), (3, 2), nc=("step", None))], ("UnsafeViewBackward0",))
# PyTorch's product of the two views cannot be viewed back when the operands' layouts
# disagree (one transposed): its view error
op("kron.layouts_error", lambda m, a, b: m.kron(a, b),
   [C((2, 3), (3, 2), nc=("t", None)), C((2, 3), (3, 2), nc=(None, "t")),
    C((2, 3, 2), (2, 2), nc=("t", None)), C((3, 2), (2, 3, 2), nc=(None, "t")),
    C((1, 3), (2, 2), nc=("t", "t"))],
   ("UnsafeViewBackward0",), second_order=False, gradcheck=False)
op("kron.expanded", lambda m, a, b: m.kron(a.expand(2, 3), b), [C((1, 3), (2, 2))], ("UnsafeViewBackward0",))
op("kron.int", lambda m, a, b: m.kron((a.detach() * 3).long(), b), [C((2,), (2,))],
   ("UnsafeViewBackward0",), second_order=False)
# ------------------------------------------------------------------ sorting and selection
# "distinct" inputs: with ties PyTorch's nth_element may pick another index of equal values.

_SEL = dict(domain="distinct", second_order=False)
_SORTC = [C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C(())]
op("sort", lambda m, x: x.sort(), _SORTC, ("SortBackward0",), **_SEL)
op("sort.dim_desc", lambda m, x: m.sort(x, 0, True), [C((3, 4)), C((4, 3), nc=("t",))],
   ("SortBackward0",), **_SEL)
op("sort.stable", lambda m, x: m.sort(x, stable=True, dim=-1, descending=True), [C((3, 4))],
   ("SortBackward1",), **_SEL)
op("sort.ties", lambda m, x: m.sort(x, dim=1, stable=False), [C((3, 6), domain="ties", id="ties")],
   ("SortBackward1",), **_SEL)
op("sort.stable_positional_dim", lambda m, x: m.sort(x, 1, stable=False), [C((3, 4))],
   ("SortBackward1",), gradcheck=False, **_SEL)  # raises, as PyTorch
op("sort.ties_desc", lambda m, x: m.sort(x, descending=True), [C((8,), domain="ties", id="ties")],
   ("SortBackward0",), **_SEL)
op("argsort", lambda m, x: m.argsort(x), [C((5,)), C((3, 4)), C((3, 4), domain="ties", id="ties")],
   (), **_SEL)
op("argsort.stable_positional_dim", lambda m, x: x.argsort(0, stable=True), [C((3, 4))], (),
   gradcheck=False, **_SEL)  # raises, as PyTorch
op("argsort.desc_stable", lambda m, x: x.argsort(dim=0, descending=True, stable=True),
   [C((3, 4)), C((6, 2), domain="ties", id="ties")], (), **_SEL)
op("msort", lambda m, x: m.msort(x), [C((3, 4)), C((5,))], ("SortBackward0",), **_SEL)
op("topk", lambda m, x: x.topk(2), [C((5,)), C((3, 4)), C((4, 3), nc=("t",))], ("TopkBackward0",),
   **_SEL)
op("topk.smallest_dim0", lambda m, x: m.topk(x, 3, 0, largest=False), [C((4, 3)), C((3, 2, 2))],
   ("TopkBackward0",), **_SEL)
op("topk.all", lambda m, x: m.topk(x, 4, dim=1, sorted=True), [C((2, 4))], ("TopkBackward0",),
   **_SEL)
op("kthvalue", lambda m, x: x.kthvalue(2), [C((5,)), C((3, 4)), C((4, 3), nc=("t",))],
   ("KthvalueBackward0",), **_SEL)
op("kthvalue.dim_keepdim", lambda m, x: m.kthvalue(x, 3, 0, True), [C((4, 3)), C((3, 2, 2))],
   ("KthvalueBackward0",), **_SEL)
# Note [Selection order]: which of equal elements topk / kthvalue pick (and so where the
# gradient goes) follows PyTorch's unstable CPU kernels
op("topk.ties", lambda m, x: m.topk(x, 3, 1, largest=False, sorted=False),
   [C((4, 9), domain="ties", id="ties"), C((2, 40), domain="ties", id="ties_nth"),
    C((2, 200), domain="ties", id="ties_partial")], ("TopkBackward0",), **_SEL)
op("topk.ties_largest", lambda m, x: x.topk(5, 0),
   [C((20, 3), domain="ties", id="ties"), C((330, 2), domain="ties", id="ties_partial")],
   ("TopkBackward0",), **_SEL)
op("kthvalue.ties", lambda m, x: x.kthvalue(4, 0, True),
   [C((9, 3), domain="ties", id="ties"), C((40, 2), domain="ties", id="ties_long")],
   ("KthvalueBackward0",), **_SEL)
op("median", lambda m, x: x.median(), [C((5,)), C((3, 4)), C(()), C((4, 3), nc=("t",))],
   ("MedianBackward0",), **_SEL)
op("median.ties", lambda m, x: m.median(x), [C((3, 4), domain="ties", id="ties")],
   ("MedianBackward0",), **_SEL)
op("median.dim", lambda m, x: m.median(x, 1), [C((3, 4)), C((3, 5)), C((2, 3, 4))],
   ("MedianBackward1",), **_SEL)
op("median.dim_keepdim", lambda m, x: x.median(0, keepdim=True), [C((4, 3)), C(())],
   ("MedianBackward1",), **_SEL)
op("nanmedian", lambda m, x: m.nanmedian(x), [C((5,)), C((3, 4))], ("NanmedianBackward0",), **_SEL)
op("nanmedian.nan", lambda m, x: m.nanmedian(x.masked_fill(x < 0, float("nan"))),
   [C((3, 4))], ("NanmedianBackward0",), **_SEL)
op("nanmedian.dim", lambda m, x: x.nanmedian(-1), [C((3, 4)), C((2, 3, 5))],
   ("NanmedianBackward1",), **_SEL)
op("mode", lambda m, x: x.mode(), [C((3, 6), domain="ties", id="ties"), C((5,))],
   ("ModeBackward0",), **_SEL)
op("mode.dim_keepdim", lambda m, x: m.mode(x, 0, True), [C((6, 3), domain="ties", id="ties")],
   ("ModeBackward0",), **_SEL)

# ------------------------------------------------------------------ NaN-ignoring, paired, counting

_RED = [C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C(())]
op("nansum", lambda m, x: x.nansum(), _RED, ("NansumBackward0",), second_order=False)
op("nansum.dim", lambda m, x: m.nansum(x, 1, keepdim=True), [C((3, 4)), C((2, 3, 4))],
   ("NansumBackward0",), second_order=False)
op("nansum.nan_dims", lambda m, x: m.nansum(x.masked_fill(x < 0, float("nan")), (0, 2)),
   [C((2, 3, 4))], ("NansumBackward0",), second_order=False)
op("nansum.dtype", lambda m, x: x.nansum(dtype=m.float64), [C((3, 4))], ("NansumBackward0",),
   second_order=False)
op("nanmean", lambda m, x: m.nanmean(x), [C((5,)), C((3, 4))], ("DivBackward0",),
   second_order=False, inner_grad_fns=("NansumBackward0",))
op("nanmean.dim_nan", lambda m, x: m.nanmean(x.masked_fill(x < 0, float("nan")), 1),
   [C((3, 4))], ("DivBackward0",), second_order=False)
op("var_mean", lambda m, x: m.var_mean(x), _RED[:4], ("VarMeanBackward0",))
op("var_mean.dim", lambda m, x: m.var_mean(x, 1, keepdim=True), [C((3, 4)), C((2, 3, 4))],
   ("VarMeanBackward0",))
op("var_mean.dims_correction", lambda m, x: m.var_mean(x, (0, 2), correction=0),
   [C((2, 3, 4))], ("VarMeanBackward0",))
op("var_mean.unbiased", lambda m, x: m.var_mean(x, 0, False), [C((3, 4))], ("VarMeanBackward0",))
op("var_mean.var_only", lambda m, x: m.var_mean(x, 1)[0], [C((3, 4))], ("VarMeanBackward0",))
op("var_mean.mean_only", lambda m, x: m.var_mean(x, 1)[1], [C((3, 4))], ("VarMeanBackward0",),
   second_order=False)
op("std_mean", lambda m, x: m.std_mean(x), _RED[:4], ("StdMeanBackward0",))
op("std_mean.dim", lambda m, x: m.std_mean(x, -1, keepdim=True), [C((3, 4)), C((2, 3, 4))],
   ("StdMeanBackward0",))
op("std_mean.unbiased_false", lambda m, x: m.std_mean(x, unbiased=False), [C((3, 4))],
   ("StdMeanBackward0",))
op("count_nonzero", lambda m, x: m.count_nonzero(x), [C((3, 4), domain="zeros", id="zeros")], (),
   second_order=False)
op("count_nonzero.dims", lambda m, x: x.count_nonzero((0, 2)),
   [C((2, 3, 4), domain="zeros", id="zeros")], (), second_order=False)
op("count_nonzero.dim", lambda m, x: m.count_nonzero(x, dim=-1), [C((3, 4), domain="zeros", id="zeros")], (),
   second_order=False)
op("aminmax", lambda m, x: m.aminmax(x), [C((5,)), C((3, 4)), C(()), C((3, 4), domain="ties", id="ties")],
   ("AminmaxBackward0",), domain="distinct", second_order=False)
op("aminmax.dim", lambda m, x: x.aminmax(dim=1, keepdim=True), [C((3, 4)), C((2, 3, 4))],
   ("AminmaxBackward0",), domain="distinct", second_order=False)
op("aminmax.min_only", lambda m, x: m.aminmax(x, dim=0).min, [C((3, 4))], ("AminmaxBackward0",),
   domain="distinct", second_order=False)

# ------------------------------------------------------------------ cumulative

op("cummax", lambda m, x: x.cummax(1), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("CummaxBackward0",), domain="distinct", second_order=False)
op("cummax.ties", lambda m, x: m.cummax(x, 0), [C((6, 2), domain="ties", id="ties")],
   ("CummaxBackward0",), second_order=False)
op("cummin", lambda m, x: m.cummin(x, -1), [C((3, 4)), C((5,)), C(())], ("CumminBackward0",),
   domain="distinct", second_order=False)
op("cummin.ties", lambda m, x: x.cummin(1), [C((2, 6), domain="ties", id="ties")],
   ("CumminBackward0",), second_order=False)
op("logcumsumexp", lambda m, x: x.logcumsumexp(1), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("LogcumsumexpBackward0",))
op("logcumsumexp.fn", lambda m, x: m.logcumsumexp(x, 0), [C((5,)), C(())], ("LogcumsumexpBackward0",))

# ------------------------------------------------------------------ differences, sum_to_size, renorm

op("diff", lambda m, x: m.diff(x), [C((5,)), C((3, 4)), C((4, 3), nc=("t",))], ("SubBackward0",),
   second_order=False)
op("diff.n2_dim0", lambda m, x: x.diff(2, 0), [C((4, 3)), C((2, 3))], ("SubBackward0",),
   second_order=False)
op("diff.prepend_append", lambda m, x, p, a: m.diff(x, dim=1, prepend=p, append=a),
   [C((3, 4), (3, 1), (3, 2)), C((3, 4), (3, 1), (3, 2), ng=(1,))], ("SubBackward0",),
   second_order=False)
op("sum_to_size", lambda m, x: x.sum_to_size(1, 4), [C((3, 4)), C((3, 4), nc=("t",))],
   ("SumBackward1",), second_order=False)
op("sum_to_size.lead", lambda m, x: x.sum_to_size((3, 1)), [C((2, 3, 4))], ("ViewBackward0",),
   second_order=False)
op("renorm", lambda m, x: x.renorm(2, 0, 1.0), [C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",))],
   ("RenormBackward0",))
op("renorm.p1_dim1", lambda m, x: m.renorm(x, 1, 1, 0.8), [C((3, 4))], ("RenormBackward0",),
   domain="nonzero")
op("renorm.p3", lambda m, x: m.renorm(x, 3, -1, 0.5), [C((3, 4))], ("RenormBackward0",),
   domain="nonzero")
op("renorm.big_max", lambda m, x: x.renorm(2, 0, 100.0), [C((3, 4))], ("RenormBackward0",),
   second_order=False)
op("renorm_", lambda m, x: (x * 1.0).renorm_(2, 1, 0.7), [C((3, 4))], ("RenormBackward0",))

# ------------------------------------------------------------------ counting and binning (no gradients)

op("histc", lambda m, x: m.histc(x, 6), [C((20,)), C((3, 4))], (), second_order=False)
op("histc.range", lambda m, x: x.histc(bins=4, min=-1, max=1), [C((5, 4))], (), second_order=False)
op("bincount", lambda m, x: m.bincount(m.tensor([0, 4, 4, 1, 2])), [C(())], (), second_order=False)
op("bincount.weights", lambda m, x: m.bincount(m.tensor([0, 4, 4, 1]), x.detach(), minlength=7),
   [C((4,))], (), second_order=False)
op("searchsorted", lambda m, x, v: m.searchsorted(m.sort(x)[0].detach(), v.detach()),
   [C((6,), (3, 2)), C((2, 5), (2, 3))], (), second_order=False)
op("searchsorted.right_int32", lambda m, x, v: m.searchsorted(m.sort(x)[0].detach(), v.detach(),
                                                             right=True, out_int32=True),
   [C((6,), (4,))], (), second_order=False)
op("searchsorted.side_sorter", lambda m, x, v: m.searchsorted(x.detach(), v.detach(), side="right",
                                                             sorter=m.argsort(x)),
   [C((6,), (4,))], (), second_order=False)
op("searchsorted.scalar", lambda m, x: m.searchsorted(m.sort(x)[0].detach(), 0.1), [C((6,))], (),
   second_order=False)
op("bucketize", lambda m, x: m.bucketize(x.detach(), m.tensor([-1.0, 0.0, 0.5])), [C((3, 4))], (),
   second_order=False)
op("bucketize.right", lambda m, x: m.bucketize(x.detach(), m.tensor([-1.0, 0.0, 0.5]), right=True,
                                               out_int32=True), [C((5,))], (), second_order=False)
op("unique", lambda m, x: m.unique(x.detach(), return_inverse=True, return_counts=True),
   [C((3, 4), domain="ties", id="ties")], (), second_order=False)
op("unique.dim", lambda m, x: m.unique(x.detach(), dim=1, return_counts=True),
   [C((2, 6), domain="ties", id="ties")], (), second_order=False)
op("unique_consecutive", lambda m, x: m.unique_consecutive(x.detach(), return_inverse=True,
                                                           return_counts=True),
   [C((8,), domain="ties", id="ties")], (), second_order=False)
op("unique_consecutive.dim", lambda m, x: x.detach().unique_consecutive(dim=0),
   [C((6, 1), domain="ties", id="ties")], (), second_order=False)

GRAD_FN_ALLOWLIST.update({
    "FftR2CBackward0": "the FFT primitives' nodes (complex values, which the op table does "
                       "not draw): their gradients, second and forward derivatives are "
                       "compared with PyTorch's in test_fft.py::test_gradients_as_pytorch "
                       "and test_second_derivatives_and_forward_mode_as_pytorch",
    "FftC2RBackward0": "as FftR2CBackward0",
    "FftC2CBackward0": "as FftR2CBackward0",
    "ComplexBackward0": "complex-valued nodes (the op table draws real values): their "
                        "gradients are compared with PyTorch's in test_complex_autograd.py",
    "ConjBackward0": "as ComplexBackward0",
    "PolarBackward0": "as ComplexBackward0",
    "ViewAsComplexBackward0": "as ComplexBackward0",
    "ViewAsRealBackward0": "as ComplexBackward0",
    "ConjPhysicalBackward0": "as ComplexBackward0; also test_conj_bit.py::test_grad_fn_names",
    "ViewAsRealBackward0_copy": "as ConjPhysicalBackward0",
    "NegViewBackward0": "the lazy negative view's node: its graphs and gradients are "
                        "compared with PyTorch's in test_conj_bit.py (grad_fn names, "
                        "in-place autograd through neg views)",
    "Unique2Backward0": "unique of a tensor that requires grad: its backward raises, as "
                        "PyTorch's (test_reduce_linalg.py::test_unique_nodes)",
    "UniqueDimBackward0": "unique(dim=...), as Unique2Backward0",
    "UniqueConsecutiveBackward0": "unique_consecutive (with or without dim), as Unique2Backward0",
})

# ------------------------------------------------------------------ trapezoid / gradient

op("trapezoid", lambda m, y: m.trapezoid(y), [C((5,)), C((3, 4)), C((4, 3), nc=("t",))],
   ("MulBackward1",), second_order=False)
op("trapezoid.dx_dim", lambda m, y: m.trapezoid(y, dx=0.5, dim=0), [C((3, 4))], ("MulBackward1",),
   second_order=False)
op("trapezoid.x", lambda m, y, x: m.trapezoid(y, x), [C((3, 4), (4,)), C((3, 4), (3, 4)),
                                                       C((3, 4), (4,), ng=(1,))],
   ("DivBackward1",))
op("trapezoid.x_dim0", lambda m, y, x: m.trapezoid(y, x, dim=0), [C((3, 4), (3,)), C((2, 3, 4), (3, 4))],
   ("DivBackward1",))
op("trapezoid.positional_dx", lambda m, y: m.trapezoid(y, 2.0), [C((3, 4))], ("MulBackward1",),
   second_order=False, gradcheck=False)  # raises, as PyTorch
op("trapezoid.empty", lambda m, y: m.trapezoid(y, dim=0), [C((0, 3))], (), second_order=False)
op("trapz", lambda m, y, x: m.trapz(y, x), [C((3, 4), (4,))], ("DivBackward1",))
op("trapz.dx", lambda m, y: m.trapz(y, dx=3, dim=-2), [C((3, 4))], ("MulBackward1",),
   second_order=False)
op("cumulative_trapezoid", lambda m, y: m.cumulative_trapezoid(y), [C((5,)), C((3, 4))],
   ("CumsumBackward0",), second_order=False)
op("cumulative_trapezoid.x", lambda m, y, x: m.cumulative_trapezoid(y, x, dim=0),
   [C((3, 4), (3,)), C((3, 4), (3, 4), ng=(0,))], ("DivBackward1",))
op("gradient", lambda m, x: m.gradient(x), [C((5,)), C((3, 4)), C((4, 3), nc=("t",))],
   ("CatBackward0",), second_order=False)
op("gradient.spacing_dim", lambda m, x: m.gradient(x, spacing=2.0, dim=1), [C((3, 4))],
   ("CatBackward0",), second_order=False)
op("gradient.edge2_list", lambda m, x: m.gradient(x, spacing=[0.5, 3], edge_order=2),
   [C((3, 4))], ("CatBackward0",), second_order=False)
op("gradient.coordinates", lambda m, x, c: m.gradient(x, spacing=(c.detach().cumsum(0) + 5,), dim=1),
   [C((3, 4), (4,), ng=(1,), domain=("real", "positive"))], ("CatBackward0",), second_order=False)
op("gradient.coordinates_edge2", lambda m, x, c: m.gradient(x, spacing=[c.detach().cumsum(0)], dim=0,
                                                            edge_order=2),
   [C((4, 3), (4,), ng=(1,), domain=("real", "positive"))], ("CatBackward0",), second_order=False)

# ------------------------------------------------------------------ quantiles (distinct: no ties)

_Q = dict(domain="distinct", second_order=False)
op("quantile", lambda m, x: m.quantile(x, 0.3), [C((5,)), C((3, 4)), C((4, 3), nc=("t",))],
   ("SqueezeBackward4",), **_Q)
op("quantile.dim", lambda m, x: x.quantile(0.75, dim=1), [C((3, 4)), C((2, 3, 4))],
   ("SqueezeBackward4",), **_Q)
op("quantile.dim0_keepdim", lambda m, x: m.quantile(x, 0.5, 0, True), [C((4, 3)), C((3, 2, 2))],
   ("SqueezeBackward4",), **_Q)
op("quantile.q_tensor", lambda m, x: m.quantile(x, m.tensor([0.0, 0.25, 1.0], dtype=x.dtype), dim=1),
   [C((3, 4))], ("SqueezeBackward4",), **_Q)
op("quantile.q_tensor_all", lambda m, x: x.quantile(m.tensor([0.1, 0.9], dtype=x.dtype), keepdim=True),
   [C((3, 4))], ("SqueezeBackward4",), **_Q)
for _mode in ("lower", "higher", "midpoint", "nearest"):
    op(f"quantile.{_mode}", (lambda md: lambda m, x: m.quantile(x, 0.4, -1, interpolation=md))(_mode),
       [C((3, 5))], ("SqueezeBackward4",), **_Q)
op("quantile.nan", lambda m, x: m.quantile(x.masked_fill(x < 0, float("nan")), 0.4, dim=1),
   [C((3, 4))], ("SqueezeBackward4",), gradcheck=False, **_Q)  # NaN values
op("nanquantile", lambda m, x: m.nanquantile(x.masked_fill(x < 0, float("nan")), 0.4, dim=1),
   [C((3, 4)), C((3, 5))], ("SqueezeBackward4",), **_Q)
op("nanquantile.all", lambda m, x: x.nanquantile(0.6), [C((3, 4))], ("SqueezeBackward4",), **_Q)

# ------------------------------------------------------------------ histogram (no gradients)

op("histogram", lambda m, x: m.histogram(x.detach(), 5), [C((20,)), C((3, 4))], (),
   second_order=False)
op("histogram.range_density", lambda m, x: x.detach().histogram(4, range=(-1.0, 1.0), density=True),
   [C((5, 4))], (), second_order=False)
op("histogram.edges_weight", lambda m, x: m.histogram(x.detach(), m.tensor([-1.0, 0.0, 0.5, 2.0],
                                                                          dtype=x.dtype),
                                                      weight=x.detach().abs()),
   [C((3, 4))], (), second_order=False)


def _flat_hdd(r):
    """histogramdd's (hist, (edges, ...)) flattened for the table's comparison."""
    return (r.hist,) + tuple(r.bin_edges)


op("histogramdd", lambda m, x: _flat_hdd(m.histogramdd(x.detach(), bins=[3, 2])),
   [C((10, 2)), C((2, 3, 2))], (), second_order=False)
op("histogramdd.int_bins_range_density", lambda m, x: _flat_hdd(m.histogramdd(
    x.detach(), 2, range=[-1.0, 1.0, -0.5, 0.5, 0.0, 2.0], density=True)),
   [C((8, 3))], (), second_order=False)
op("histogramdd.edges_weight", lambda m, x: _flat_hdd(m.histogramdd(
    x.detach(), bins=[m.tensor([-1.0, 0.0, 2.0], dtype=x.dtype), m.tensor([-2.0, 2.0], dtype=x.dtype)],
    weight=x.detach()[:, 0].abs())), [C((6, 2))], (), second_order=False)
op("histogramdd.1d_input", lambda m, x: _flat_hdd(m.histogramdd(x.detach(), 2)), [C((5,))], (),
   second_order=False, gradcheck=False)  # raises, as PyTorch
