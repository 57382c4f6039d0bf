"""Tensor element types (``autograd_core.float32`` ...) and PyTorch's type promotion.

>>> import autograd_core as torch
>>> torch.result_type(torch.tensor([1, 2]), 2.5)
autograd_core.float32
"""
cimport numpy as cnp
import numpy as np
import ml_dtypes

cnp.import_array()


cdef class dtype:
    """A tensor element type, as ``torch.dtype``: ``autograd_core.float32`` etc.

    >>> import autograd_core as torch
    >>> torch.tensor([1.5]).dtype
    autograd_core.float32
    """

    def __repr__(self):
        return "autograd_core." + self.name

    def __reduce__(self):
        return (dtype_by_name, (self.name,))

    @property
    def is_complex(self):
        return self.category == CAT_COMPLEX

    def to_complex(self):
        """The complex dtype whose parts are this floating dtype (complex of a complex
        dtype is itself).

        >>> import autograd_core as torch
        >>> torch.float64.to_complex()
        autograd_core.complex128
        """
        return complex_of(self)

    def to_real(self):
        """The dtype of a complex dtype's real and imaginary parts (a real dtype is its
        own).

        >>> import autograd_core as torch
        >>> torch.complex64.to_real()
        autograd_core.float32
        """
        return real_of(self)


# name, numpy name, rank, category, signed, ScalarType name, C++ name, C type name.
# The rank orders the promotion lattice: PyTorch's promote_types is the larger rank,
# except that uint8 with int8 gives int16 (promote_rank).
_DTYPE_SPECS = (
    ("bool", "bool", 0, CAT_BOOL, False, "Bool", "bool", "bool"),
    ("uint8", "uint8", 1, CAT_INT, False, "Byte", "unsigned char", "uint8_t"),
    ("int8", "int8", 2, CAT_INT, True, "Char", "signed char", "int8_t"),
    ("int16", "int16", 3, CAT_INT, True, "Short", "short int", "int16_t"),
    ("int32", "int32", 4, CAT_INT, True, "Int", "int", "int"),
    ("int64", "int64", 5, CAT_INT, True, "Long", "long int", "int64_t"),
    ("float16", "float16", 6, CAT_FLOAT, True, "Half", "c10::Half", "c10::Half"),
    ("float32", "float32", 7, CAT_FLOAT, True, "Float", "float", "float"),
    ("float64", "float64", 8, CAT_FLOAT, True, "Double", "double", "double"),
)

cdef list DTYPES_BY_RANK = []
# Sized to reach user-defined type numbers (ml_dtypes' bfloat16 registers one >= 256),
# so that dtype_of stays one list lookup for every dtype.
cdef list DTYPES_BY_TYPENUM = [None] * max(64, np.dtype(ml_dtypes.bfloat16).num + 1)
cdef dict _BY_NAME = {}


cdef dtype _new_dtype(tuple spec):
    name, npname, rank, category, signed, scalar_name, cpp_name, value_type_name = spec
    cdef dtype d = dtype.__new__(dtype)
    d.name = name
    d.np_dtype = np.dtype(npname)
    d.is_floating_point = category == CAT_FLOAT
    d.is_signed = signed
    d.itemsize = d.np_dtype.itemsize
    d.rank = rank
    d.category = category
    d.typenum = d.np_dtype.num
    d.scalar_name = scalar_name
    d.cpp_name = cpp_name
    d.value_type_name = value_type_name
    return d


for _spec in _DTYPE_SPECS:
    _d = _new_dtype(_spec)
    DTYPES_BY_RANK.append(_d)
    DTYPES_BY_TYPENUM[(<dtype>_d).typenum] = _d
    _BY_NAME[(<dtype>_d).name] = _d
# bfloat16: stored as ml_dtypes' bfloat16; in the lattice between float16 and float32
# (neither of float16, bfloat16 holds the other: together they promote to float32,
# promote_rank). Inserted by position, so the ranks of the dtypes above it follow.
_bf16 = _new_dtype(("bfloat16", ml_dtypes.bfloat16, 0, CAT_FLOAT, True, "BFloat16",
                    "c10::BFloat16", "c10::BFloat16"))
DTYPES_BY_RANK.insert(DTYPES_BY_RANK.index(_BY_NAME["float32"]), _bf16)
for _i, _d in enumerate(DTYPES_BY_RANK):
    (<dtype>_d).rank = _i
DTYPES_BY_TYPENUM[(<dtype>_bf16).typenum] = _bf16
_BY_NAME["bfloat16"] = _bf16

# Note [Wide unsigned dtypes]
# uint16, uint32, uint64 as PyTorch has them on CPU: storage, casts and a few ops (the
# dtype guard's "unsigned" family, autograd_core/_complex.py), and no promotion with
# any other integer or bool dtype, nor with complex: PyTorch raises "Promotion for
# uint16, uint32, uint64 types is not supported" (promote_rank); with a floating
# dtype they give the floating dtype. Their ranks are consecutive, just above int64
# (inserted by position as bfloat16 is: no code names a rank number).
_WIDE_UNSIGNED_SPECS = (
    ("uint16", "uint16", 0, CAT_INT, False, "UInt16", "short unsigned int", "uint16_t"),
    ("uint32", "uint32", 0, CAT_INT, False, "UInt32", "unsigned int", "uint32_t"),
    ("uint64", "uint64", 0, CAT_INT, False, "UInt64", "long unsigned int", "uint64_t"),
)
_at = DTYPES_BY_RANK.index(_BY_NAME["int64"]) + 1
for _uspec in _WIDE_UNSIGNED_SPECS:
    _d = _new_dtype(_uspec)
    DTYPES_BY_RANK.insert(_at, _d)
    _at += 1
    DTYPES_BY_TYPENUM[(<dtype>_d).typenum] = _d
    _BY_NAME[(<dtype>_d).name] = _d
for _i, _d in enumerate(DTYPES_BY_RANK):
    (<dtype>_d).rank = _i

# numpy has two type numbers for each of the 32- and 64-bit integers on LP64.
DTYPES_BY_TYPENUM[np.dtype(np.longlong).num] = _BY_NAME["int64"]
DTYPES_BY_TYPENUM[np.dtype(np.intc).num] = _BY_NAME["int32"]
DTYPES_BY_TYPENUM[np.dtype(np.ulonglong).num] = _BY_NAME["uint64"]
DTYPES_BY_TYPENUM[np.dtype(np.uintc).num] = _BY_NAME["uint32"]

# Note [Complex ranks]
# The complex dtypes rank above every real dtype; their ranks are not written in the
# table above but given here from its length, so adding real dtypes to it moves them
# along (no code names a rank number: it looks ranks up from the dtype objects).
# promote_rank maps a complex operand to its parts' real dtype, promotes the reals and
# takes the complex type of the result (float64 with complex64 gives complex128).
# complex32 (ComplexHalf) is not provided.
_COMPLEX_SPECS = (
    ("complex64", "complex64", CAT_COMPLEX, True, "ComplexFloat", "c10::complex<float>",
     "c10::complex<float>", "float32"),
    ("complex128", "complex128", CAT_COMPLEX, True, "ComplexDouble", "c10::complex<double>",
     "c10::complex<double>", "float64"),
)
cdef dict _REAL_OF = {}      # complex dtype -> its parts' dtype
cdef dict _COMPLEX_OF = {}   # floating dtype -> its complex dtype
first_complex_rank = len(DTYPES_BY_RANK)
for _cspec in _COMPLEX_SPECS:
    _d = _new_dtype(_cspec[:2] + (len(DTYPES_BY_RANK),) + _cspec[2:7])
    DTYPES_BY_RANK.append(_d)
    DTYPES_BY_TYPENUM[(<dtype>_d).typenum] = _d
    _BY_NAME[(<dtype>_d).name] = _d
    _REAL_OF[_d] = _BY_NAME[_cspec[7]]
    _COMPLEX_OF[_BY_NAME[_cspec[7]]] = _d
complex64 = _BY_NAME["complex64"]
complex128 = _BY_NAME["complex128"]

bool_ = _BY_NAME["bool"]
uint8 = _BY_NAME["uint8"]
int8 = _BY_NAME["int8"]
int16 = _BY_NAME["int16"]
int32 = _BY_NAME["int32"]
int64 = _BY_NAME["int64"]
float16 = _BY_NAME["float16"]
bfloat16 = _BY_NAME["bfloat16"]
float32 = _BY_NAME["float32"]
float64 = _BY_NAME["float64"]
uint16 = _BY_NAME["uint16"]
uint32 = _BY_NAME["uint32"]
uint64 = _BY_NAME["uint64"]
default_float = float32


# Note [Dtype guard] (_core/_messages.pxi): the numpy type numbers of the dtypes whose
# op support is limited (complex, the wide unsigned ints), as one bit mask, so that
# the guard's test of an argument is one shift and one AND.
guarded_typenums = 0
for _d in (complex64, complex128, uint16, uint32, uint64):
    guarded_typenums |= (<unsigned long long>1) << (<dtype>_d).typenum
guarded_typenums |= (<unsigned long long>1) << np.dtype(np.ulonglong).num
guarded_typenums |= (<unsigned long long>1) << np.dtype(np.uintc).num


# The core's vocabulary for Python code, read from the table above (Python cannot read
# a dtype's cdef fields): a dtype name's ScalarType name in PyTorch's messages
# ("float32": "Float"; the legacy FloatTensor/FloatStorage names are it plus the kind)
# and its C++ type name ("float32": "float", "int64": "long int"). Python code looks
# names up here and keeps no copy.
import types as _types
SCALAR_NAMES = _types.MappingProxyType(
    {n: (<dtype>d).scalar_name for n, d in _BY_NAME.items()})
CPP_NAMES = _types.MappingProxyType({n: (<dtype>d).cpp_name for n, d in _BY_NAME.items()})
del _types


def dtype_by_name(name):
    """The dtype called ``name`` ("float32", ...)."""
    return _BY_NAME[name]


def all_dtypes():
    """All supported dtypes, by name."""
    return dict(_BY_NAME)


cdef dtype dtype_from_numpy(object np_dtype):
    """The dtype storing a numpy dtype, or None when autograd_core has none."""
    cdef int num = np_dtype.num
    return <dtype>DTYPES_BY_TYPENUM[num] if 0 <= num < len(DTYPES_BY_TYPENUM) else None


cdef dtype to_dtype(object d):
    """A user's dtype argument: an autograd_core dtype or one of the Python types
    PyTorch accepts (float, int, bool). Strings and numpy dtypes are refused as
    PyTorch refuses them (silently reading "float32" would make programs that fail
    under PyTorch run here)."""
    if isinstance(d, dtype):
        return <dtype>d
    if d is float:
        return float64  # a Python float is a C double, whatever the default dtype
    if d is int:
        return int64
    if d is bool:
        return bool_
    raise _dtype_type_error(d, None)


cdef object _dtype_type_error(object d, str fname):
    """PyTorch's TypeError for a dtype argument of another type; PyTorch's parser
    prefixes the function's name (fname, None: a caller that knows none)."""
    msg = f"argument 'dtype' must be autograd_core.dtype, not {type(d).__name__}"
    return TypeError(msg if fname is None else f"{fname}(): {msg}")


def to_dtype_named(d, str fname):
    """to_dtype for a dtype argument of the function fname: its TypeError names fname
    as PyTorch's does ("zeros(): argument 'dtype' must be ...")."""
    if isinstance(d, dtype) or d is float or d is int or d is bool:
        return to_dtype(d)
    raise _dtype_type_error(d, fname)


def get_default_dtype():
    """The dtype of floating-point data created without one (float32 at start).

    >>> import autograd_core as torch
    >>> torch.get_default_dtype()
    autograd_core.float32
    """
    return default_float


def set_default_dtype(d):
    """Set the default floating-point dtype (float32 or float64, as PyTorch allows).

    >>> import autograd_core as torch
    >>> torch.set_default_dtype(torch.float64); torch.tensor([1.]).dtype
    autograd_core.float64
    >>> torch.set_default_dtype(torch.float32)
    """
    global default_float
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as "
                        "the default type")
    if not (<dtype>d).is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    default_float = <dtype>d


cdef dtype default_complex():
    """The dtype a Python complex takes: the complex type of the default float."""
    return complex128 if default_float is float64 else complex64


cdef dtype complex_of(dtype d):
    """d's complex dtype (PyTorch's toComplexType)."""
    if d.category == CAT_COMPLEX:
        return d
    c = _COMPLEX_OF.get(d)
    if c is None:
        if d is float16:
            raise RuntimeError("complex32 (ComplexHalf) is not supported by autograd_core")
        raise RuntimeError(f"Unknown Complex ScalarType for {d.scalar_name}")
    return <dtype>c


cdef dtype real_of(dtype d):
    """The dtype of d's real and imaginary parts (PyTorch's toRealValueType)."""
    return <dtype>_REAL_OF[d] if d.category == CAT_COMPLEX else d


cdef int _promote_complex_rank(int a, int b) except -2:
    # Note [Complex ranks]: promote the parts' real dtypes, then take the complex type
    cdef int ra = a, rb = b
    if a >= first_complex_rank:
        ra = (<dtype>_REAL_OF[DTYPES_BY_RANK[a]]).rank
    if b >= first_complex_rank:
        rb = (<dtype>_REAL_OF[DTYPES_BY_RANK[b]]).rank
    cdef int r = promote_rank(ra, rb)
    return (<dtype>_COMPLEX_OF[DTYPES_BY_RANK[r]]).rank


cdef inline bint _is_wide_unsigned_rank(int r) noexcept:
    return uint16.rank <= r <= uint64.rank


cdef int _promote_wide_unsigned_rank(int a, int b) except -2:
    # Note [Wide unsigned dtypes]: only a floating dtype promotes with them
    cdef dtype da = <dtype>DTYPES_BY_RANK[a], db = <dtype>DTYPES_BY_RANK[b]
    if da.category == CAT_FLOAT:
        return a
    if db.category == CAT_FLOAT:
        return b
    raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                       f"attempted to promote {da.scalar_name} and {db.scalar_name}")


cdef int promote_rank(int a, int b) except -2:
    if a == NO_RANK:
        return b
    if b == NO_RANK:
        return a
    if a == b:
        return a
    if _is_wide_unsigned_rank(a) or _is_wide_unsigned_rank(b):
        return _promote_wide_unsigned_rank(a, b)
    if a >= first_complex_rank or b >= first_complex_rank:
        return _promote_complex_rank(a, b)
    if (a == uint8.rank and b == int8.rank) or (a == int8.rank and b == uint8.rank):
        return int16.rank  # uint8 with int8 needs int16
    if (a == float16.rank and b == bfloat16.rank) or (a == bfloat16.rank and b == float16.rank):
        return float32.rank  # neither half type holds the other
    return a if a > b else b


cdef dtype promote(dtype a, dtype b):
    return <dtype>DTYPES_BY_RANK[promote_rank(a.rank, b.rank)]


cdef inline Category _category_of_rank(int r):
    return (<dtype>DTYPES_BY_RANK[r]).category


cdef int combine_categories(int higher, int lower) except -2:
    # PyTorch's combine_categories: a higher operand group decides the result unless
    # a lower group brings a higher category (an int tensor times a float scalar).
    # A complex lower group over a floating higher one gives the floating dtype's
    # complex type (a float64 tensor times 1j is complex128).
    if higher != NO_RANK and _category_of_rank(higher) == CAT_COMPLEX:
        return higher
    if lower != NO_RANK and _category_of_rank(lower) == CAT_COMPLEX:
        if higher != NO_RANK and _category_of_rank(higher) == CAT_FLOAT:
            # float16 would give complex32, which autograd_core does not have
            return (<dtype>_COMPLEX_OF.get(DTYPES_BY_RANK[higher], complex64)).rank
        return lower
    if higher != NO_RANK and _category_of_rank(higher) == CAT_FLOAT:
        return higher
    if higher == bool_.rank or (lower != NO_RANK and _category_of_rank(lower) == CAT_FLOAT):
        return promote_rank(higher, lower)
    if higher != NO_RANK:
        return higher
    return lower


cdef int scalar_rank(object x) noexcept:
    """The rank a Python number takes in promotion (bool, int64, the default float, the
    default complex)."""
    if isinstance(x, bool):
        return bool_.rank
    if isinstance(x, int):
        return int64.rank
    if isinstance(x, complex):
        return default_complex().rank
    return default_float.rank


def promote_types(type1, type2):
    """The smallest dtype both dtypes convert to without losing category.

    >>> import autograd_core as torch
    >>> torch.promote_types(torch.uint8, torch.int8)
    autograd_core.int16
    """
    return promote(to_dtype(type1), to_dtype(type2))
