"""Linear algebra: one extension module whose code lives in family files it includes
(as PyTorch's aten/src/ATen/native/ splits LinearAlgebra.cpp, BatchLinearAlgebra.cpp,
Distance.cpp, ...):

  _linalg_products.pxi          mm, bmm, dot, mv, outer, matmul, addmm and the other
                                add-products, einsum, tensordot, kron, cross, vdot,
                                inner, multi_dot
  _linalg_decompositions.pxi    Cholesky, eigh/eig, SVD, QR, LU, Householder, LDL
  _linalg_solvers.pxi           inv, solve, solve_triangular, cholesky_solve,
                                cholesky_inverse, lu_solve, lstsq, pinv, ldl_solve,
                                tensorinv/tensorsolve
  _linalg_norms.pxi             vector/matrix norms, det, slogdet, logdet, cond, rank
  _linalg_matrix_functions.pxi  matrix_exp, matrix_power, trace, diag, tril/triu
  _linalg_distances.pxi         cdist, pdist, dist, cov, corrcoef

This file holds what they share (the adjoint, layout and argument-check helpers).
Their nodes, wiring and Python wrappers are generated from the linalg section of
derivatives.yaml (_gen_linalg.pxi, included at the end). The family files hold the
forwards, the helpers the derivative formulas call (named as PyTorch's
FunctionsManual: svd_backward, linalg_det_backward, ...; each backward and forward
derivative beside its op), and the ops PyTorch composes from others (matmul, outer,
einsum, tensordot, the matrix norms): those call the ops they are made of, so their
graphs hold those ops' nodes, as PyTorch's do. The files are included, not separate
modules, so that they call each other's cdef functions directly (setup.py's
cythonize tracks the includes: editing one rebuilds this module only).


>>> import autograd_core as torch
>>> a = torch.ones(2, 3, requires_grad=True)
>>> (a @ torch.ones(3, 4)).grad_fn.name()
'MmBackward0'
>>> (a[0] @ torch.ones(3, 4)).grad_fn.name()
'SqueezeBackward4'
"""
include "_prelude.pxi"



class _LinAlgError(RuntimeError):
    """A matrix that must be invertible is singular (autograd_core.linalg.LinAlgError;
    PyTorch's class has this name too)."""


LinAlgError = _LinAlgError


# ================================================================ shared helpers

cdef inline Py_ssize_t _ndim(Tensor t):
    return cnp.PyArray_NDIM(t._data)


cdef inline Tensor _mT(Tensor t):
    """The last two dims swapped (PyTorch's mT: a transpose)."""
    return OPS.transpose(t, -2, -1)


cdef inline Tensor _mH(Tensor t):
    """The conjugate transpose (PyTorch's mH): the transpose of a real tensor. The
    derivative helpers take adjoints where a real formula has transposes (Note [Complex
    autograd])."""
    return <Tensor>cj(OPS.transpose(t, -2, -1))


cdef inline Tensor _contiguous(Tensor t):
    """t, or a contiguous copy (PyTorch's contiguous(): a clone when t is not)."""
    if cnp.PyArray_IS_C_CONTIGUOUS(t._data):
        return t
    return OPS.clone(t, _contiguous_format)


cdef cnp.ndarray _column_major(object arr):
    """arr with each matrix (its last two dims) stored column by column: the layout
    LAPACK writes, which PyTorch's inv, solve and svd return (their strides show it)."""
    cdef cnp.ndarray a = as_array(arr)
    if cnp.PyArray_NDIM(a) < 2:
        return a if cnp.PyArray_IS_C_CONTIGUOUS(a) else a.copy()
    # a fresh buffer even when the transposed matrices are C-contiguous already (a
    # size-1 dim): numpy would keep the old strides, PyTorch's are the buffer's
    cdef cnp.ndarray t = np.array(np.swapaxes(a, -1, -2), order="C")
    if cnp.PyArray_SIZE(t) == 0:
        t = dense_empty(t)      # PyTorch's strides for the empty buffer, then swapped
    return np.swapaxes(t, -1, -2)


cdef object _mats(object arr, int tail):
    """arr as one batch dim of its last `tail` dims: reshape((-1,) + tail) cannot infer
    the batch when a matrix dim is 0, and PyTorch answers empty matrices."""
    cdef tuple s = shape_of(as_array(arr))
    cdef Py_ssize_t nb = 1, d
    for d in s[:len(s) - tail]:
        nb *= d
    return np.reshape(arr, (nb,) + s[len(s) - tail:])


cdef str _fmt_number(object v):
    """A number as PyTorch's C++ Scalar prints it (3.0 -> '3', inf -> 'inf')."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    cdef double f = float(v)
    if f != f:
        return "nan"
    if f == np.inf or f == -np.inf:
        return "inf" if f > 0 else "-inf"
    if f == int(f) and -1e16 < f < 1e16:
        return str(int(f))
    return repr(f)


# ================================================================ argument checks

cdef void _check_float_input(dtype d, str fname) except *:
    # (complex input reaches only the ops the complex guard lets through)
    if d.category != CAT_FLOAT and d.category != CAT_COMPLEX:
        raise RuntimeError(f"{fname}: Expected a floating point or complex tensor as input. "
                           f"Got {d.scalar_name}")


# ---------------------------------------------------------------- precision checks, diagonals

cdef void _check_low_precision(Tensor A, str fname) except *:
    """Floating inputs of float32 or wider (half has no LAPACK kernel)."""
    cdef dtype d = dtype_of(A._data)
    _check_float_input(d, fname)
    if d.rank < float32.rank:
        raise RuntimeError(f"{fname}: Low precision dtypes not supported. Got {d.scalar_name}")


cdef void _check_lu_precision(Tensor A, str fname) except *:
    """det and solve reach PyTorch's LU kernel, which has no half version."""
    cdef dtype d = dtype_of(A._data)
    _check_float_input(d, fname)
    if d.rank < float32.rank:
        raise not_implemented_for("lu_cpu", d)


cdef Tensor _diag_embed_last(Tensor v):
    """Batches of diagonal matrices from the last dim of v."""
    cdef Py_ssize_t k = shape_of(v._data)[-1]
    return OPS.mul(OPS.unsqueeze(v, -1), make(np.eye(k, dtype=v._data.dtype)))


cdef Tensor _skew(Tensor t):
    return OPS.sub(t, _mH(t), 1)


# ================================================================ square matrices, right-hand sides

cdef void _check_square(Tensor A, str fname) except *:
    if _ndim(A) < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    cdef tuple s = shape_of(A._data)
    if s[-1] != s[-2]:
        raise RuntimeError(f"{fname}: A must be batches of square matrices, but they are "
                           f"{s[-2]} by {s[-1]} matrices")


cdef bint _solve_is_vector_rhs(tuple sa, tuple sb):
    """PyTorch's linalg_solve_is_vector_rhs: B is a (batch of) vector."""
    return len(sb) == 1 or (len(sa) - 1 == len(sb) and sb == sa[:-1])


# ================================================================ decompositions and solvers: shared helpers
# PyTorch's linalg decompositions and solvers. The values come from numpy's LAPACK
# (the same routines PyTorch calls: potrf, syevd, gesdd, geqrf/orgqr) or, where numpy
# has no routine (getrf, trsm, sytrf/sytrs, orgqr on given reflectors, the matrix
# exponential), from numpy code that follows LAPACK's algorithm. The derivative
# helpers are PyTorch's FunctionsManual ones, written in the library's own ops so
# that higher orders need no second copy.

cdef inline void _no_history(Tensor t) noexcept:
    """An output PyTorch marks non-differentiable although it is floating point."""
    keep_counter(t)  # Note [Counters made by the node]
    t._grad_fn = None
    t._requires_grad = False


cdef object sum_to_shape(object grad, tuple shape):
    """A gradient summed over the batch dims its input was broadcast along (None
    stays None)."""
    if grad is None or shape_of((<Tensor>grad)._data) == shape:
        return grad
    return OPS.sum_to(<Tensor>grad, shape)


cdef Tensor _int_tensor(object values, dtype d):
    return make(np.array(values, dtype=d.np_dtype))


cdef void _check_matrix(Tensor A, str fname, bint square) except *:
    if _ndim(A) < 2:
        raise RuntimeError(f"{fname}: The input tensor A must have at least 2 dimensions.")
    cdef tuple s = shape_of(A._data)
    if square and s[-1] != s[-2]:
        raise RuntimeError(f"{fname}: A must be batches of square matrices, but they are "
                           f"{s[-2]} by {s[-1]} matrices")


cdef void _check_linalg_input(Tensor A, str fname, bint square) except *:
    _check_matrix(A, fname, square)
    _check_float_input(dtype_of(A._data), fname)


cdef Tensor _eye_like(Tensor A, Py_ssize_t n):
    return make(np.eye(n, dtype=A._data.dtype))


cdef Tensor _narrow(Tensor t, Py_ssize_t dim, Py_ssize_t start, Py_ssize_t length):
    return OPS.narrow(t, dim, start, length)


cdef object _batch_prefix(tuple batch, Py_ssize_t b):
    return f"(Batch element {b}): " if len(batch) else ""


# ---------------------------------------------------------------- forward derivatives: shared helpers
# The `result:` formulas (Note [Forward AD] in _core/_fw.pxi) call PyTorch's
# FunctionsManual jvps, each beside its op in the family files, written in the
# library's ops (a tangent that requires grad gets a history: reverse-over-forward);
# a jvp of several outputs returns one tangent per differentiable output, as a tuple.

cdef Tensor _eye_mask(Py_ssize_t k):
    return make(np.eye(k, dtype=bool))


cdef Tensor _off_diagonal_denominator(Tensor E):
    """E with ones on its diagonal: the diagonal of what it divides is zero (or unused)."""
    cdef Py_ssize_t k = shape_of(E._data)[-1]
    return OPS.where(_eye_mask(k), make_scalar(1, dtype_of(E._data)), E)


cdef Tensor _symH(Tensor X):
    """X + X^H (X + X^T for a real X)."""
    return OPS.add(X, _mH(X), 1)


# ================================================================ the families
include "_linalg_products.pxi"
include "_linalg_decompositions.pxi"
include "_linalg_solvers.pxi"
include "_linalg_norms.pxi"
include "_linalg_matrix_functions.pxi"
include "_linalg_distances.pxi"


include "_gen_linalg.pxi"
