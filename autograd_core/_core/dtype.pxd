# dtypes and PyTorch's type promotion. Every field is documented here; the code is
# in dtype.pyx.
cimport numpy as cnp

# A dtype's category: PyTorch promotes across categories bool < integer < floating
# < complex.
cdef enum Category:
    CAT_BOOL = 0
    CAT_INT = 1
    CAT_FLOAT = 2
    CAT_COMPLEX = 3

# Rank of "no operand of this kind" in the promotion lattice (see promote_rank).
cdef enum:
    NO_RANK = -1


cdef class dtype:
    cdef readonly str name           # PyTorch's name without the module: "float32"
    cdef readonly object np_dtype    # the numpy dtype that stores it
    cdef readonly bint is_floating_point
    cdef readonly bint is_signed
    cdef readonly int itemsize
    cdef int rank                    # position in the promotion lattice (promote_rank)
    cdef Category category
    cdef int typenum                 # numpy's type number (cnp.NPY_FLOAT, ...)
    cdef str scalar_name             # PyTorch's ScalarType name in messages: "Float"
    cdef str cpp_name                # the C++ type in messages: "float", "long int", "c10::Half"
    cdef str value_type_name         # the C type in overflow messages: "int64_t"


# The dtypes, by name. Python code reaches them through dtype_by_name().
cdef dtype bool_, uint8, int8, int16, int32, int64, float16, float32, float64
cdef dtype bfloat16
# The wide unsigned dtypes (Note [Wide unsigned dtypes] in dtype.pyx).
cdef dtype uint16, uint32, uint64
# Bit n set when numpy type number n is a dtype of limited op support (Note [Dtype
# guard]): complex and the wide unsigned ints.
cdef unsigned long long guarded_typenums
# The complex dtypes (Note [Complex ranks] in dtype.pyx).
cdef dtype complex64, complex128
cdef int first_complex_rank          # the lowest rank of a complex dtype

# The default floating dtype (set_default_dtype changes it; float32 at start).
cdef dtype default_float

cdef list DTYPES_BY_RANK             # the dtypes, indexed by rank
cdef list DTYPES_BY_TYPENUM          # numpy type number -> dtype, or None


cdef inline dtype dtype_of(cnp.ndarray arr):
    return <dtype>DTYPES_BY_TYPENUM[cnp.PyArray_TYPE(arr)]


cdef inline bint is_float_array(cnp.ndarray arr):
    """Whether arr holds a floating dtype: numpy's float types or bfloat16 (a
    user-defined numpy type, which PyArray_ISFLOAT does not count; the extra test runs
    only for non-float arrays)."""
    return cnp.PyArray_ISFLOAT(arr) or cnp.PyArray_TYPE(arr) == bfloat16.typenum


cdef inline dtype float_or_default(dtype d):
    """The dtype a float-valued op computes in: d if floating, else the default float."""
    return d if d.category >= CAT_FLOAT else default_float


cdef inline bint is_guarded_array(cnp.ndarray arr) noexcept:
    """Whether arr's dtype has limited op support (Note [Dtype guard]): one shift and
    one AND on its type number (bfloat16's user type number is past the mask)."""
    cdef int t = cnp.PyArray_TYPE(arr)
    return t < 64 and (guarded_typenums >> t) & 1


cdef inline bint is_complex_array(cnp.ndarray arr) noexcept:
    """Whether arr holds complex values (one C macro: the complex guard's check)."""
    return cnp.PyArray_ISCOMPLEX(arr)


cdef inline bint is_wide_unsigned(dtype d) noexcept:
    """Whether d is uint16, uint32 or uint64: the unsigned dtypes PyTorch has on CPU
    for storage, casts and a few ops only (Note [Wide unsigned dtypes] in dtype.pyx);
    the one test of that family, so each op's refusal reads the same."""
    return d is uint16 or d is uint32 or d is uint64


cdef inline bint is_reduced_float(dtype d) noexcept:
    """Whether d is float16 or bfloat16: the 16-bit floats that PyTorch's CPU kernels
    compute in float32 (an op's accumulator, random sampling, printing)."""
    return d is float16 or d is bfloat16


cdef inline bint is_grad_array(cnp.ndarray arr):
    """Whether arr's dtype can carry a gradient: floating or complex (Note [Complex
    autograd] in _core/_messages.pxi)."""
    return is_float_array(arr) or cnp.PyArray_ISCOMPLEX(arr)


cdef dtype to_dtype(object d)
cdef dtype dtype_from_numpy(object np_dtype)
cdef int promote_rank(int a, int b) except -2
cdef dtype promote(dtype a, dtype b)
cdef int scalar_rank(object x) noexcept
cdef dtype default_complex()
cdef dtype complex_of(dtype d)
cdef dtype real_of(dtype d)
cdef int combine_categories(int higher, int lower) except -2
