# cython: language_level=3
"""PyTorch's CPU generator (torch.Generator, the default generator, manual_seed) and the
samplers every random op draws through; see random.pxd and csrc/agc_random.h.

Note [Random streams]: the generator is ATen's CPUGeneratorImpl (mt19937 seeded with
init_genrand, with the cached second Box-Muller sample), its get_state() bytes are
PyTorch's CPUGeneratorImplState, and each sampler applies ATen's CPU kernel to the
stream in the kernel's order and floating-point type, so seeded programs draw PyTorch's
numbers. Where ATen's kernel depends on the CPU, this follows PyTorch's own choice:
  - the kernels PyTorch builds for AVX2/AVX-512 fuse `x * std + mean` and
    `x * (to - from) + from` into one multiply-add; on older CPUs they do not;
  - float32/float16 normal_ on >= 16 contiguous elements runs the AVX2 kernel, whose
    float log/sin/cos (avx_mathfun's Cephes polynomials, some steps fused) are
    reproduced operation for operation in csrc/agc_random.c; on CPUs without AVX2
    (PyTorch's DEFAULT kernels, also under ATEN_CPU_CAPABILITY=default) the generic
    kernel's logf/sincosf and explicit fma;
  - bernoulli_(float p) draws from mt19937 on every CPU: PyTorch 2.13's
    bernoulli_scalar_kernel has no MKL branch any more (older MKL builds ran MKL's MCG31
    stream on Intel CPUs; 2.13's libtorch_cpu calls only the generic kernel, and links
    no VSL generator), so dropout masks no longer depend on the CPU vendor.
No sampler here depends on the thread count.
"""
import os

import numpy as np
cimport numpy as cnp
from cpython.pythread cimport (
    NOWAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_free_lock,
    PyThread_release_lock, WAIT_LOCK,
)
from libc.stdint cimport int64_t, uint32_t, uint64_t

from autograd_core._core.dtype cimport (dtype, bool_, uint8, int8, int16, int32, int64,
                                        float16, float32, float64, dtype_of, CAT_FLOAT,
                                        bfloat16, is_reduced_float)
from autograd_core._core.csrc cimport *   # agc_random.h: the generator and the samplers
from autograd_core._core.tensor cimport Tensor, make, check_float_kernel

cnp.import_array()


# PyTorch's default CPU seed for a new torch.Generator()
cdef uint64_t DEFAULT_SEED = 67280421310721


def _cpu_capability():
    """The kernel family PyTorch's dispatcher picks on this CPU ("DEFAULT", "AVX2" or
    "AVX512"), lowered by ATEN_CPU_CAPABILITY as PyTorch lowers it."""
    best = "AVX512" if agc_cpu_has_avx2() == 2 else "AVX2" if agc_cpu_has_avx2() else "DEFAULT"
    order = ["DEFAULT", "AVX2", "AVX512"]
    env = os.environ.get("ATEN_CPU_CAPABILITY", "").upper()
    if env in order and order.index(env) < order.index(best):
        return env
    return best


cdef bint VECTORISED = _cpu_capability() != "DEFAULT"
agc_random_set_fused(1 if VECTORISED else 0)


def _nondeterministic_seed():
    return int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)


cdef uint64_t _unpack_seed(object seed) except? 0:
    if isinstance(seed, Tensor):
        seed = seed.item()
    if isinstance(seed, bool) or not isinstance(seed, int):
        try:
            seed = seed.__index__()
        except AttributeError:
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    if seed < -(1 << 63) or seed >= (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    return <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)


# Note [Generator lock]
# The samplers' loops run without the GIL, so that threads drawing large tensors (or
# one drawing while others compute) run at once. A generator's state is then guarded
# by its own lock, as PyTorch's generator mutex: every use of the state holds it (the
# loops inside `with nogil`, the GIL-holding uses through _hold/_drop), so two threads
# sharing a generator draw one after the other, never from a torn state.
cdef inline void _hold(Generator g) noexcept:
    """Take g's lock; waiting for it without the GIL (its holder may be past its loop
    and need the GIL to return)."""
    if not PyThread_acquire_lock(g.lock, NOWAIT_LOCK):
        with nogil:
            PyThread_acquire_lock(g.lock, WAIT_LOCK)


cdef inline void _drop(Generator g) noexcept:
    PyThread_release_lock(g.lock)


cdef class Generator:
    """A random number generator: PyTorch's CPU generator (mt19937), so that the same seed
    draws the same numbers as in PyTorch; ``get_state()`` is PyTorch's byte layout.

    >>> import autograd_core as torch
    >>> g = torch.Generator().manual_seed(0)
    >>> torch.rand(2, generator=g)
    tensor([0.4963, 0.7682])
    >>> g.initial_seed()
    0
    """

    def __cinit__(self, device="cpu"):
        self.lock = PyThread_allocate_lock()
        if self.lock == NULL:
            raise MemoryError()
        agc_gen_seed(&self.gen, DEFAULT_SEED)

    def __dealloc__(self):
        if self.lock != NULL:
            PyThread_free_lock(self.lock)

    def __init__(self, device="cpu"):
        name = str(device)
        if name.split(":")[0] != "cpu":
            raise RuntimeError(f"Generator: only the cpu device is supported, got {device}")

    @property
    def device(self):
        from autograd_core._core.tensor import device as _device
        return _device("cpu")

    def manual_seed(self, seed):
        """Seed the generator (any int in [-2**63, 2**64)); returns it."""
        cdef uint64_t value = _unpack_seed(seed)
        _hold(self)
        agc_gen_seed(&self.gen, value)
        _drop(self)
        return self

    def seed(self):
        """Seed from a non-deterministic source; returns the seed."""
        s = _nondeterministic_seed()
        _hold(self)
        agc_gen_seed(&self.gen, <uint64_t>s)
        _drop(self)
        return s

    def initial_seed(self):
        """The seed the generator was last seeded with."""
        return self.gen.seed

    def get_state(self):
        """The state as a uint8 tensor in PyTorch's layout (5056 bytes)."""
        cdef cnp.ndarray out = np.empty(AGC_GEN_STATE_BYTES, dtype=np.uint8)
        _hold(self)
        agc_gen_get_state(&self.gen, <unsigned char *>cnp.PyArray_DATA(out))
        _drop(self)
        return make(out)

    def set_state(self, new_state):
        """Restore a state from get_state() (this library's or PyTorch's); returns self."""
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        cdef cnp.ndarray arr = (<Tensor>new_state)._data
        if dtype_of(arr) is not uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if arr.size != AGC_GEN_STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {AGC_GEN_STATE_BYTES} "
                               f"but found the input RNG state size to be {arr.size}")
        arr = np.ascontiguousarray(arr.reshape(-1))
        _hold(self)
        rc = agc_gen_set_state(&self.gen, <const unsigned char *>cnp.PyArray_DATA(arr))
        _drop(self)
        if rc != 0:
            raise RuntimeError("Invalid mt19937 state")
        return self

    def __reduce__(self):
        cdef cnp.ndarray out = np.empty(AGC_GEN_STATE_BYTES, dtype=np.uint8)
        _hold(self)
        agc_gen_get_state(&self.gen, <unsigned char *>cnp.PyArray_DATA(out))
        _drop(self)
        return (Generator, ("cpu",), out.tobytes())

    def __setstate__(self, state):
        cdef cnp.ndarray arr = np.frombuffer(state, dtype=np.uint8).copy()
        _hold(self)
        rc = agc_gen_set_state(&self.gen, <const unsigned char *>cnp.PyArray_DATA(arr))
        _drop(self)
        if rc != 0:
            raise RuntimeError("Invalid mt19937 state")


cdef Generator default_generator = Generator()
default_generator.manual_seed(_nondeterministic_seed())


def get_default_generator():
    """The generator random ops use when given none (torch.default_generator)."""
    return default_generator


cdef Generator generator_or_default(object generator):
    if generator is None:
        return default_generator
    if isinstance(generator, Generator):
        return <Generator>generator
    raise TypeError(f"expected a Generator, but got {type(generator).__name__}")


# ---------------------------------------------------------------- draw order

cdef tuple _draw_order(cnp.ndarray like):
    """The axes in the order PyTorch's TensorIterator walks a nullary kernel over `like`
    (outermost first): by decreasing stride, i.e. memory order; None when that is C order."""
    if cnp.PyArray_IS_C_CONTIGUOUS(like):
        return None
    cdef int nd = cnp.PyArray_NDIM(like)
    strides = [like.strides[i] for i in range(nd)]
    perm = tuple(sorted(range(nd), key=lambda i: -strides[i]))
    return None if perm == tuple(range(nd)) else perm


cdef class _Draw:
    """A buffer to draw into in PyTorch's order, then shaped like `like`."""
    cdef tuple perm
    cdef tuple shape
    cdef Py_ssize_t n

    cdef cnp.ndarray buffer(self, cnp.ndarray like, object np_dtype):
        self.perm = _draw_order(like)
        shape = (<object>like).shape
        self.shape = shape if self.perm is None else tuple(shape[i] for i in self.perm)
        self.n = like.size
        return np.empty(self.n, dtype=np_dtype)

    cdef cnp.ndarray finish(self, cnp.ndarray flat, object np_dtype):
        cdef cnp.ndarray out = flat.reshape(self.shape)
        if self.perm is not None:
            out = np.ascontiguousarray(out.transpose(np.argsort(self.perm)))
        if out.dtype != np_dtype:
            out = out.astype(np_dtype)
        return out


cdef inline void *_ptr(cnp.ndarray a):
    return cnp.PyArray_DATA(a)


cdef object _to_float_dtype(cnp.ndarray values, dtype d):
    """double results rounded to d as C++'s static_cast does (to half and bfloat16
    through float)."""
    if is_reduced_float(d):
        return values.astype(np.float32).astype(d.np_dtype)
    return values


# ---------------------------------------------------------------- samplers

cdef cnp.ndarray _complex_draw(cnp.ndarray like, cnp.ndarray parts):
    """parts (like's shape + (2,), real) as like's complex dtype."""
    return np.ascontiguousarray(parts).view(like.dtype).reshape((<object>like).shape)


cdef cnp.ndarray _complex_parts(cnp.ndarray like):
    """Note [Complex samplers]: PyTorch's uniform_ and normal_ on a complex tensor fill
    view_as_real of it, real and imaginary part of each element in turn; this is a
    real array laid out as that view (like's strides, the two parts innermost) to draw
    into: the samplers walk it in memory order, as TensorIterator does, and normal_
    takes its serial path for it unless it is contiguous, as PyTorch's kernel does."""
    cdef object rd = np.float32 if like.dtype == np.complex64 else np.float64
    cdef Py_ssize_t part = np.dtype(rd).itemsize
    shape = (<object>like).shape
    if cnp.PyArray_IS_C_CONTIGUOUS(like) or like.size == 0:
        return np.empty(shape + (2,), dtype=rd)
    strides = tuple(abs(st) for st in (<object>like).strides)
    cdef Py_ssize_t span = 1
    for n, st in zip(shape, strides):
        span += (n - 1) * (st // (2 * part))
    return np.lib.stride_tricks.as_strided(np.empty(2 * span, dtype=rd), shape + (2,),
                                           strides + (part,))


cdef cnp.ndarray uniform_values(object generator, cnp.ndarray like, double lo, double hi):
    cdef Generator g = generator_or_default(generator)
    cdef dtype d = dtype_of(like)
    if cnp.PyArray_ISCOMPLEX(like):
        return _complex_draw(like, uniform_values(generator, _complex_parts(like), lo, hi))
    cdef _Draw dr = _Draw()
    cdef cnp.ndarray buf
    if d is float64:
        buf = dr.buffer(like, np.float64)
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_uniform_double(&g.gen, <double *>cnp.PyArray_DATA(buf), dr.n, lo, hi)
            PyThread_release_lock(g.lock)
    elif is_reduced_float(d):
        # the float kernel, rounded to half; a value that rounds to `to` becomes `from`
        buf = dr.buffer(like, np.float32)
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_uniform_float(&g.gen, <float *>cnp.PyArray_DATA(buf), dr.n, <float>lo, <float>hi, 24)
            PyThread_release_lock(g.lock)
        h = buf.astype(d.np_dtype)
        buf = np.where(h == h.dtype.type(hi), h.dtype.type(lo), h)
    else:
        buf = dr.buffer(like, np.float32)
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_uniform_float(&g.gen, <float *>cnp.PyArray_DATA(buf), dr.n, <float>lo, <float>hi, 24)
            PyThread_release_lock(g.lock)
    return dr.finish(buf, d.np_dtype)


cdef cnp.ndarray normal_values(object generator, cnp.ndarray like, double mean, double std):
    cdef Generator g = generator_or_default(generator)
    cdef dtype d = dtype_of(like)
    if cnp.PyArray_ISCOMPLEX(like):
        # each part normal with variance std**2 / 2 (Note [Complex samplers])
        return _complex_draw(like, normal_values(generator, _complex_parts(like), mean,
                                                 std / 1.4142135623730951))
    cdef _Draw dr = _Draw()
    cdef cnp.ndarray buf
    cdef bint fill = like.size >= 16 and cnp.PyArray_IS_C_CONTIGUOUS(like)
    if fill and d is float32:
        buf = dr.buffer(like, np.float32)
        if VECTORISED:
            with nogil:  # Note [Generator lock]
                PyThread_acquire_lock(g.lock, WAIT_LOCK)
                agc_normal_fill_float_avx2(&g.gen, <float *>cnp.PyArray_DATA(buf), dr.n, <float>mean, <float>std)
                PyThread_release_lock(g.lock)
        else:
            with nogil:  # Note [Generator lock]
                PyThread_acquire_lock(g.lock, WAIT_LOCK)
                agc_normal_fill_float(&g.gen, <float *>cnp.PyArray_DATA(buf), dr.n, <float>mean, <float>std)
                PyThread_release_lock(g.lock)
        return dr.finish(buf, d.np_dtype)
    if fill and is_reduced_float(d):
        # (PyTorch's reduced-precision normal_ fills both through the same float path)
        buf = dr.buffer(like, np.float32)
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_normal_fill_half(&g.gen, <float *>cnp.PyArray_DATA(buf), dr.n, <float>mean, <float>std,
                                 1 if VECTORISED else 0)
            PyThread_release_lock(g.lock)
        return dr.finish(buf, d.np_dtype)
    buf = dr.buffer(like, np.float64)
    if fill and d is float64:
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_normal_fill_double(&g.gen, <double *>cnp.PyArray_DATA(buf), dr.n, mean, std)
            PyThread_release_lock(g.lock)
    else:
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_normal_serial(&g.gen, <double *>cnp.PyArray_DATA(buf), dr.n, mean, std)
            PyThread_release_lock(g.lock)
    return dr.finish(_to_float_dtype(buf, d), d.np_dtype)


cdef object _dtype_top(dtype d):
    """random_()'s exclusive upper bound for d: 2**digits + 1 for floats, max + 1 for ints."""
    if d is bool_:
        return 2
    if d is float16:
        return (1 << 11) + 1
    if d is bfloat16:
        return (1 << 8) + 1
    if d is float32:
        return (1 << 24) + 1
    if d is float64:
        return (1 << 53) + 1
    return int(np.iinfo(d.np_dtype).max) + 1


cdef cnp.ndarray random_values(object generator, cnp.ndarray like, object from_, object to):
    cdef Generator g = generator_or_default(generator)
    cdef dtype d = dtype_of(like)
    cdef _Draw dr = _Draw()
    cdef cnp.ndarray buf = dr.buffer(like, np.int64)
    cdef uint64_t top, span
    cdef int64_t base
    cdef int wide
    if from_ is None and to is None:
        # random_(): draw % top (bool: the low bit), a 64-bit draw for int64 and double
        top = 0 if d is bool_ else <uint64_t>_dtype_top(d)
        wide = 1 if (d is int64 or d is float64) else 0
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_random_default(&g.gen, <int64_t *>cnp.PyArray_DATA(buf), dr.n, top, wide)
            PyThread_release_lock(g.lock)
        return dr.finish(buf, d.np_dtype)
    lo = 0 if from_ is None else from_
    if to is None and lo == -(1 << 63) and (d is int64 or d is float32 or d is float64):
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_random_full64(&g.gen, <int64_t *>cnp.PyArray_DATA(buf), dr.n)
            PyThread_release_lock(g.lock)
        return dr.finish(buf, d.np_dtype)
    hi = _dtype_top(d) if to is None else to
    # a 64-bit draw when the range needs it and the dtype can hold it
    span, base = <uint64_t>(hi - lo), <int64_t>lo
    wide = 1 if (d is int64 or d is float32 or d is float64) else 0
    with nogil:  # Note [Generator lock]
        PyThread_acquire_lock(g.lock, WAIT_LOCK)
        agc_random_from_to(&g.gen, <int64_t *>cnp.PyArray_DATA(buf), dr.n, span, base, wide)
        PyThread_release_lock(g.lock)
    return dr.finish(buf, d.np_dtype)


cdef enum _FloatDraw:
    DRAW_EXPONENTIAL, DRAW_CAUCHY, DRAW_LOG_NORMAL, DRAW_GEOMETRIC


cdef cnp.ndarray _float_draw(object generator, cnp.ndarray like, _FloatDraw kind, double a,
                             double b):
    """The draws computed in double and cast to like's floating type (exponential_,
    cauchy_, log_normal_, geometric_): kind's C sampler with parameters a (and b)."""
    cdef Generator g = generator_or_default(generator)
    cdef _Draw dr = _Draw()
    cdef cnp.ndarray buf = dr.buffer(like, np.float64)
    cdef double *out = <double *>cnp.PyArray_DATA(buf)
    with nogil:  # Note [Generator lock]
        PyThread_acquire_lock(g.lock, WAIT_LOCK)
        if kind == DRAW_EXPONENTIAL:
            agc_exponential(&g.gen, out, dr.n, a)
        elif kind == DRAW_CAUCHY:
            agc_cauchy(&g.gen, out, dr.n, a, b)
        elif kind == DRAW_LOG_NORMAL:
            agc_log_normal(&g.gen, out, dr.n, a, b)
        else:
            agc_geometric(&g.gen, out, dr.n, a)
        PyThread_release_lock(g.lock)
    return dr.finish(_to_float_dtype(buf, dtype_of(like)), like.dtype)


cdef cnp.ndarray exponential_values(object generator, cnp.ndarray like, double lambd):
    return _float_draw(generator, like, DRAW_EXPONENTIAL, lambd, 0)


cdef cnp.ndarray cauchy_values(object generator, cnp.ndarray like, double median, double sigma):
    return _float_draw(generator, like, DRAW_CAUCHY, median, sigma)


cdef cnp.ndarray log_normal_values(object generator, cnp.ndarray like, double mean, double std):
    return _float_draw(generator, like, DRAW_LOG_NORMAL, mean, std)


cdef cnp.ndarray geometric_values(object generator, cnp.ndarray like, double p):
    return _float_draw(generator, like, DRAW_GEOMETRIC, p, 0)


cdef cnp.ndarray bernoulli_scalar_values(object generator, cnp.ndarray like, double p):
    cdef Generator g = generator_or_default(generator)
    cdef _Draw dr = _Draw()
    cdef cnp.ndarray buf = dr.buffer(like, np.uint8)
    with nogil:  # Note [Generator lock]
        PyThread_acquire_lock(g.lock, WAIT_LOCK)
        agc_bernoulli_scalar(&g.gen, <unsigned char *>cnp.PyArray_DATA(buf), dr.n, p)
        PyThread_release_lock(g.lock)
    return dr.finish(buf, like.dtype)


cdef cnp.ndarray bernoulli_tensor_values(object generator, cnp.ndarray like, cnp.ndarray p):
    cdef Generator g = generator_or_default(generator)
    cdef _Draw dr = _Draw()
    cdef cnp.ndarray buf = dr.buffer(like, np.uint8)
    cdef cnp.ndarray pp = p if dr.perm is None else p.transpose(dr.perm)
    if p.dtype == np.float64:
        pp = np.ascontiguousarray(pp, dtype=np.float64)
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_bernoulli_double_p(&g.gen, <unsigned char *>cnp.PyArray_DATA(buf), dr.n, <const double *>cnp.PyArray_DATA(pp))
            PyThread_release_lock(g.lock)
    else:
        pp = np.ascontiguousarray(pp, dtype=np.float32)
        with nogil:  # Note [Generator lock]
            PyThread_acquire_lock(g.lock, WAIT_LOCK)
            agc_bernoulli_float_p(&g.gen, <unsigned char *>cnp.PyArray_DATA(buf), dr.n, <const float *>cnp.PyArray_DATA(pp))
            PyThread_release_lock(g.lock)
    return dr.finish(buf, like.dtype)


cdef cnp.ndarray randperm_values(object generator, Py_ssize_t n):
    cdef Generator g = generator_or_default(generator)
    cdef cnp.ndarray out = np.empty(n, dtype=np.int64)
    with nogil:  # Note [Generator lock]
        PyThread_acquire_lock(g.lock, WAIT_LOCK)
        agc_randperm(&g.gen, <int64_t *>cnp.PyArray_DATA(out), n)
        PyThread_release_lock(g.lock)
    return out


cdef cnp.ndarray poisson_values(object generator, cnp.ndarray rates):
    cdef Generator g = generator_or_default(generator)
    cdef cnp.ndarray r, out
    r, out = _kernel_operands(True, (rates,))
    with nogil:  # Note [Generator lock]
        PyThread_acquire_lock(g.lock, WAIT_LOCK)
        agc_poisson(&g.gen, <double *>cnp.PyArray_DATA(out), r.size, <const double *>cnp.PyArray_DATA(r))
        PyThread_release_lock(g.lock)
    return out.reshape((<object>rates).shape).astype(rates.dtype)


cdef list _kernel_operands(bint dbl, tuple arrays):
    """The operands of a float/double C kernel: contiguous, in the kernel's dtype, and
    the kernel's output buffer (last) of the first operand's size."""
    ft = np.float64 if dbl else np.float32
    cdef list out = [np.ascontiguousarray(x, dtype=ft) for x in arrays]
    out.append(np.empty((<cnp.ndarray>out[0]).size, dtype=ft))
    return out


cdef cnp.ndarray binomial_values(object generator, cnp.ndarray count, cnp.ndarray prob):
    cdef Generator g = generator_or_default(generator)
    cdef bint dbl = count.dtype == np.float64
    cdef cnp.ndarray c, p, out
    c, p, out = _kernel_operands(dbl, (count, prob))
    cdef void *pc = cnp.PyArray_DATA(c)
    cdef void *pp = cnp.PyArray_DATA(p)
    cdef void *po = cnp.PyArray_DATA(out)
    with nogil:  # Note [Generator lock]
        PyThread_acquire_lock(g.lock, WAIT_LOCK)
        if dbl:
            agc_binomial_double(&g.gen, <double *>po, c.size, <const double *>pc,
                                <const double *>pp)
        else:
            agc_binomial_float(&g.gen, <float *>po, c.size, <const float *>pc, <const float *>pp)
        PyThread_release_lock(g.lock)
    return out.reshape((<object>count).shape).astype(count.dtype)


cdef cnp.ndarray multinomial_with_replacement(object generator, cnp.ndarray probs,
                                              Py_ssize_t n_sample):
    cdef Generator g = generator_or_default(generator)
    cdef Py_ssize_t n_dist = probs.shape[0], n_cat = probs.shape[1], i
    cdef cnp.ndarray out = np.empty((n_dist, n_sample), dtype=np.int64)
    cdef cnp.ndarray cum, row
    for i in range(n_dist):
        row = probs[i]
        # running sums in the row's type, then normalised by the total
        cum = np.cumsum(row, dtype=row.dtype)
        total = cum[n_cat - 1]
        cum = np.ascontiguousarray((cum / total).astype(row.dtype), dtype=np.float64)
        _hold(g)
        agc_multinomial_row(&g.gen, <int64_t *>_ptr(out[i]), n_sample, <double *>_ptr(cum), n_cat)
        _drop(g)
    return out


cdef cnp.ndarray standard_gamma_values(object generator, cnp.ndarray alpha):
    # ATen's kernel writes a fresh contiguous output and walks it in C order
    cdef Generator g = generator_or_default(generator)
    cdef bint dbl = alpha.dtype == np.float64
    cdef cnp.ndarray a, out
    a, out = _kernel_operands(dbl, (alpha,))
    cdef void *pa = cnp.PyArray_DATA(a)
    cdef void *po = cnp.PyArray_DATA(out)
    with nogil:  # Note [Generator lock]
        PyThread_acquire_lock(g.lock, WAIT_LOCK)
        if dbl:
            agc_standard_gamma_double(&g.gen, <double *>po, a.size, <const double *>pa)
        else:
            agc_standard_gamma_float(&g.gen, <float *>po, a.size, <const float *>pa)
        PyThread_release_lock(g.lock)
    return out.reshape((<object>alpha).shape)


cdef cnp.ndarray dirichlet_values(object generator, cnp.ndarray alpha):
    # gammas in double whatever alpha's type (against underflow), as ATen's
    # _s_dirichlet_cpu, then normalised over the last dim and clamped into
    # [smallest normal, largest value below 1] of alpha's type
    cdef Generator g = generator_or_default(generator)
    cdef cnp.ndarray a, gam
    a, gam = _kernel_operands(True, (alpha,))
    with nogil:  # Note [Generator lock]
        PyThread_acquire_lock(g.lock, WAIT_LOCK)
        agc_dirichlet_gamma(&g.gen, <double *>cnp.PyArray_DATA(gam), a.size,
                            <const double *>cnp.PyArray_DATA(a))
        PyThread_release_lock(g.lock)
    shape = (<object>alpha).shape
    cdef Py_ssize_t k = shape[-1] if len(shape) else 1
    cdef Py_ssize_t nrows = gam.size // k if k else 0
    cdef cnp.ndarray sums = np.empty(nrows, dtype=np.float64)
    if nrows:
        agc_dirichlet_row_sums(<const double *>cnp.PyArray_DATA(gam), nrows, k,
                               <double *>cnp.PyArray_DATA(sums))
    ratio = gam.reshape(nrows, k) / sums.reshape(nrows, 1)
    np_dtype = alpha.dtype
    tiny = np.finfo(np_dtype).tiny
    top = np.nextafter(np_dtype.type(1), np_dtype.type(0))
    with np.errstate(invalid="ignore"):
        res = ratio.astype(np_dtype)
        # std::max(min, v) keeps min for NaN; std::min(top, v) keeps v
        res = np.where(tiny < res, res, tiny).astype(np_dtype)
        res = np.where(res > top, top, res).astype(np_dtype)
    return np.ascontiguousarray(res.reshape(shape))


cdef cnp.ndarray standard_gamma_grad_values(cnp.ndarray alpha, cnp.ndarray x):
    cdef bint dbl = alpha.dtype == np.float64
    cdef cnp.ndarray a, v, out
    a, v, out = _kernel_operands(dbl, (alpha, x))
    cdef void *pa = cnp.PyArray_DATA(a)
    cdef void *pv = cnp.PyArray_DATA(v)
    cdef void *po = cnp.PyArray_DATA(out)
    with nogil:
        if dbl:
            agc_standard_gamma_grad_double(<double *>po, a.size, <const double *>pa,
                                           <const double *>pv)
        else:
            agc_standard_gamma_grad_float(<float *>po, a.size, <const float *>pa,
                                          <const float *>pv)
    return out.reshape((<object>alpha).shape)


cdef cnp.ndarray dirichlet_grad_values(cnp.ndarray x, cnp.ndarray alpha, cnp.ndarray total):
    cdef bint dbl = x.dtype == np.float64
    cdef cnp.ndarray xv, a, t, out
    xv, a, t, out = _kernel_operands(dbl, (x, alpha, total))
    cdef void *px = cnp.PyArray_DATA(xv)
    cdef void *pa = cnp.PyArray_DATA(a)
    cdef void *pt = cnp.PyArray_DATA(t)
    cdef void *po = cnp.PyArray_DATA(out)
    with nogil:
        if dbl:
            agc_dirichlet_grad_double(<double *>po, xv.size, <const double *>px,
                                      <const double *>pa, <const double *>pt)
        else:
            agc_dirichlet_grad_float(<float *>po, xv.size, <const float *>px,
                                     <const float *>pa, <const float *>pt)
    return out.reshape((<object>x).shape)


# ---------------------------------------------------------------- for the Python layer

def sample_uniform(cnp.ndarray like, double lo, double hi, generator=None):
    """uniform_values for the Python layer (rand): an array like `like`."""
    check_float_kernel(dtype_of(like), "check_uniform_bounds")
    return uniform_values(generator, like, lo, hi)


def sample_normal(cnp.ndarray like, double mean, double std, generator=None):
    """normal_values for the Python layer (randn, normal)."""
    check_float_kernel(dtype_of(like), "normal_kernel_cpu")
    return normal_values(generator, like, mean, std)


def sample_random(cnp.ndarray like, low, high, generator=None):
    """random_values for the Python layer (randint): integers in [low, high)."""
    return random_values(generator, like, low, high)


def sample_randperm(Py_ssize_t n, generator=None):
    """randperm_values for the Python layer."""
    return randperm_values(generator, n)


def manual_seed(seed):
    """Seed the default generator; returns it."""
    return default_generator.manual_seed(seed)


def seed():
    """Seed the default generator non-deterministically; returns the seed."""
    return default_generator.seed()


def initial_seed():
    """The default generator's seed."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state (a uint8 tensor)."""
    return default_generator.get_state()


def set_rng_state(new_state):
    """Restore the default generator's state."""
    default_generator.set_state(new_state)


def sample_exponential(cnp.ndarray like, double lambd, generator=None):
    """exponential_values for the Python layer (multinomial without replacement)."""
    return exponential_values(generator, like, lambd)


def sample_multinomial_rows(cnp.ndarray probs, Py_ssize_t n_sample, generator=None):
    """multinomial_with_replacement for the Python layer: probs 2-D, checked."""
    return multinomial_with_replacement(generator, probs, n_sample)


def check_multinomial_input(cnp.ndarray probs):
    """multinomial's dtype check, PyTorch's message."""
    cdef dtype d = dtype_of(probs)
    if d.category != CAT_FLOAT:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{d.scalar_name}")


