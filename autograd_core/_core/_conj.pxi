# The lazy conjugate and negative bits: conj() and _neg_view() as views.
#
# Note [Conjugate and negative views]
# In PyTorch x.conj() of a complex tensor is a view of x's memory with a bit set
# (is_conj()): reading it conjugates, writing into it writes the conjugate into x, and
# an in-place change of x is seen through it. _neg_view(x) (and x.conj().imag) carry
# the negative bit the same way. Here every op reads a tensor's values straight from
# its `_data` ndarray, so `_data` must hold the tensor's true values; the bit cannot
# mean "the memory holds something else". So a conj (neg) view owns a twin: an array
# with exactly its source's layout (shape, byte strides, offset within the source's
# memory extent) over a buffer of its own, holding conj(source) (-source). The pair is
# a Mirror, kept in one process-wide list while the twin's buffer lives (every view of
# the conj view is a numpy view into that buffer, so they all keep it alive).
#
# Keeping them equal: every write into a tensor's memory ends in bump_version (the
# in-place driver's commit, copy_, setitem, index_put_, out=, optimizers' in-place
# updates, custom Functions' mark_dirty, increment_version), which calls sync_mirrors
# when any mirror exists (one C-level check otherwise: the hot path pays nothing). The
# written array's memory decides: inside a twin's buffer, the twin is written back into
# its source (conj/neg again), and so on up a chain (a conj view of a neg view);
# then every twin whose source overlaps what was written is refreshed from it, in
# creation order (so a twin of a twin is refreshed after its source). Writes that do
# not go through the library (numpy writing into from_numpy's array) are not seen.
#
# The bits are not stored: a tensor's bits are those of the twin its memory lies in
# (lazy_bits), which is right for every view of a conj view (they inherit the bit in
# PyTorch too), for detach() (an alias), and wrong for nothing that makes new memory
# (clone, contiguous copies: no bit, as PyTorch's). A real view of a conjugated complex
# twin (y.imag) is negated where it reads imaginary parts. Because twin and source
# share a layout, any view of a twin maps to the same view of the source (map_to_source:
# same strides, the same byte offset): conj() of a conj view is that plain view, and
# autograd's region of a write through a twin (region_within), storage_offset() and
# data_ptr() are the source's.
#
# Autograd: a write through a conj view is recorded on the base as a CopySlices over the
# conjugated values (write_region applies the bits to the values, recorded), and the
# view's history read afresh after a write replays the views in PyTorch's order
# (replay_view_steps, Note [View replay steps]: an as_strided per plain view op, a
# ConjBackward0 / NegViewBackward0 per conj / neg, installed by ops/view.pyx as
# regenerate_lazy_view). A first gradient reaching AccumulateGrad as a conj view
# nothing else holds is stored as one (conj_grad), as PyTorch stores it.

cdef enum:
    LAZY_CONJ = 1
    LAZY_NEG = 2


cdef class Mirror:
    cdef int kind                # LAZY_CONJ or LAZY_NEG: twin = conj(source) or -source
    cdef int bits                # the twin's own bits: kind XOR the source's bits
    cdef cnp.ndarray source      # the array whose values the twin mirrors
    cdef object buffer_ref       # weakref to the twin's buffer (the numpy base of its views)
    cdef Py_ssize_t lo, hi       # the buffer's byte range
    cdef Py_ssize_t delta        # source address - twin address (same layout)
    cdef tuple twin_shape
    cdef tuple twin_strides
    cdef Py_ssize_t twin_offset  # the twin's first byte within the buffer


cdef list _mirrors = []          # the live Mirrors, in creation order
cdef bint _any_mirrors = False   # = bool(_mirrors): the one check of bump_version


cdef void _forget_mirror(Mirror m) noexcept:
    global _any_mirrors
    try:
        _mirrors.remove(m)
    except ValueError:
        pass
    _any_mirrors = len(_mirrors) > 0


cdef inline Py_ssize_t _addr(cnp.ndarray a) noexcept:
    return <Py_ssize_t>cnp.PyArray_DATA(a)


cdef Mirror mirror_of(cnp.ndarray a):
    """The live mirror whose twin buffer holds a's memory, or None."""
    if not _any_mirrors:
        return None
    cdef Py_ssize_t p = _addr(a)
    cdef Mirror m
    for m in _mirrors:
        if m.lo <= p < m.hi or (p == m.hi and m.lo == m.hi):
            return m
    return None


cdef cnp.ndarray _twin_of(Mirror m):
    """The twin array itself (rebuilt over its buffer: the twin object may be gone while
    views of it live)."""
    buf = m.buffer_ref()
    if buf is None:
        return None
    return np.ndarray(m.twin_shape, dtype=m.source.dtype, buffer=buf, offset=m.twin_offset,
                      strides=m.twin_strides)


cdef cnp.ndarray _over_source(Mirror m, cnp.ndarray a):
    """The view of m's source memory that a (a view into m's twin) is the mirror of."""
    cdef cnp.ndarray src = m.source
    cdef cnp.ndarray out = strided_array_over(
        src, a.descr, cnp.PyArray_NDIM(a), cnp.PyArray_DIMS(a), cnp.PyArray_STRIDES(a),
        <void *>(_addr(a) + m.delta), cnp.PyArray_ISWRITEABLE(a))
    return out


cdef cnp.ndarray map_to_source(cnp.ndarray a):
    """a itself, or, when a lies in a twin, the same view of the memory it mirrors (all
    the way down a chain of twins): where a's elements live for autograd's regions,
    storage_offset and data_ptr."""
    cdef Mirror m
    if not _any_mirrors:
        return a
    m = mirror_of(a)
    while m is not None:
        a = _over_source(m, a)
        m = mirror_of(a)
    return a


cdef int _apply(int kind, cnp.ndarray src, cnp.ndarray out) except -1:
    with quiet():
        if kind == LAZY_CONJ:
            np.conjugate(src, out=out)
        else:
            np.negative(src, out=out)
    return 0


cdef int lazy_bits(Tensor t) except -1:
    """t's conjugate (LAZY_CONJ) and negative (LAZY_NEG) bits (Note [Conjugate and
    negative views]): those of the twin holding its memory."""
    if not _any_mirrors:
        return 0
    cdef cnp.ndarray a = t._data
    cdef Mirror m = mirror_of(a)
    if m is None:
        return 0
    cdef int bits = m.bits
    cdef cnp.ndarray src = m.source
    if cnp.PyArray_ISCOMPLEX(src) and not cnp.PyArray_ISCOMPLEX(a):
        # a real view of a complex twin: the real or the imaginary parts
        if bits & LAZY_CONJ:
            bits &= ~LAZY_CONJ
            if (_addr(a) - (m.lo + m.twin_offset)) % cnp.PyArray_ITEMSIZE(src) != 0:
                bits ^= LAZY_NEG
    return bits


cdef object make_lazy_array(Tensor self, int kind):
    """A twin of self's values for a new conj (kind LAZY_CONJ) or neg view; when self
    is itself such a view of that kind, the plain view of what it mirrors instead
    (conj of a conj view)."""
    global _any_mirrors
    cdef cnp.ndarray a = self._data
    cdef Mirror m = mirror_of(a)
    if m is not None and m.kind == kind and (cnp.PyArray_ISCOMPLEX(a)
                                             or not cnp.PyArray_ISCOMPLEX(m.source)):
        return _over_source(m, a)
    cdef char *lo
    cdef char *hi
    _memory_bounds(a, &lo, &hi)
    cdef Py_ssize_t item = cnp.PyArray_ITEMSIZE(a)
    cdef Py_ssize_t nbytes = <Py_ssize_t>(hi - lo) if cnp.PyArray_SIZE(a) else 0
    buf = np.empty((nbytes + item - 1) // item + 1, dtype=a.dtype)
    cdef Mirror r = Mirror.__new__(Mirror)
    r.kind = kind
    r.bits = kind ^ (lazy_bits(self) if m is not None else 0)
    r.source = a
    r.twin_offset = (<char *>cnp.PyArray_DATA(a) - lo) if cnp.PyArray_SIZE(a) else 0
    r.twin_shape = shape_of(a)
    r.twin_strides = (<object>a).strides
    twin = np.ndarray(r.twin_shape, dtype=a.dtype, buffer=buf, offset=r.twin_offset,
                      strides=r.twin_strides)
    r.lo = _addr(buf)
    r.hi = r.lo + cnp.PyArray_NBYTES(buf)
    r.delta = _addr(a) - _addr(twin)
    _apply(kind, a, twin)
    if not cnp.PyArray_ISWRITEABLE(a):
        twin.flags.writeable = False
    r.buffer_ref = weakref.ref(buf, lambda _ref, r=r: _forget_mirror(r))
    _mirrors.append(r)
    _any_mirrors = True
    return twin


cdef inline bint _overlaps(Py_ssize_t lo, Py_ssize_t hi, list dirty) noexcept:
    cdef tuple d
    for d in dirty:
        if lo < <Py_ssize_t>d[1] and <Py_ssize_t>d[0] < hi:
            return True
    return False


cdef tuple _bounds(cnp.ndarray a):
    cdef char *lo
    cdef char *hi
    if cnp.PyArray_SIZE(a) == 0:
        return (0, 0)
    _memory_bounds(a, &lo, &hi)
    return (<Py_ssize_t>lo, <Py_ssize_t>hi)


cdef int sync_mirrors(cnp.ndarray written) except -1:
    """After a write into `written`: write back through twins, refresh the twins of
    what changed (Note [Conjugate and negative views])."""
    cdef list dirty = [_bounds(written)]
    cdef Mirror m = mirror_of(written)
    cdef cnp.ndarray twin
    cdef int depth = 0
    while m is not None and depth < 64:
        twin = _twin_of(m)
        if twin is None:
            break
        if cnp.PyArray_ISWRITEABLE(m.source):
            _apply(m.kind, twin, m.source)
        dirty.append(_bounds(m.source))
        m = mirror_of(m.source)
        depth += 1
    cdef Py_ssize_t s_lo, s_hi
    for m in list(_mirrors):
        s_lo, s_hi = _bounds(m.source)
        if s_hi > s_lo and _overlaps(s_lo, s_hi, dirty):
            twin = _twin_of(m)
            if twin is None:
                continue
            _apply(m.kind, m.source, twin)
            dirty.append((m.lo, m.hi))
    return 0


# ops/view.pyx installs the recorder of a lazy view's history read afresh after its base
# was written: fn(view, source_tensor, bits) gives view the node over source_tensor
cdef object _regenerate_lazy_view = None


def _set_lazy_view_regenerator(fn):
    global _regenerate_lazy_view
    _regenerate_lazy_view = fn


def _lazy_view(Tensor self, int kind):
    """For ops/view.pyx: a new conj (1) or neg (2) view of self, with its replay steps
    (Note [View replay steps])."""
    cdef cnp.ndarray arr = <cnp.ndarray>make_lazy_array(self, kind)
    cdef Tensor view = make_view(self, arr)
    cdef tuple before = view_steps_of(self)
    if before is None:
        # self is its base's region (one as_strided of the base, as PyTorch collapses
        # views of plain views) or the base itself
        before = () if self._base is None else ((0, self._data),)
    tensor_extra(view).view_steps = before + ((kind, arr),)
    return view


def _lazy_bits(Tensor t):
    """For the modules above the core: t's lazy bits (1 conj, 2 neg)."""
    return lazy_bits(t)


def _live_mirrors():
    """How many conj/neg twins are alive (tests check they are freed)."""
    return len(_mirrors)


# ---------------------------------------------------------------- autograd

cdef AsStridedBackward0 _as_strided_node(cnp.ndarray a, Tensor within):
    """An AsStridedBackward0 taking a's elements (an array over within's memory) out of
    within (Note [View + in-place])."""
    cdef AsStridedBackward0 node = AsStridedBackward0.__new__(AsStridedBackward0)
    node.region = region_within(a, within)
    node.base_shape = region_base_shape(a, within)
    node.reals = reals_of_complex(a, within._data)
    node.size = shape_of(a)
    node.stride = _elem_strides(a)
    node.storage_offset = ((_addr(map_to_source(a)) - _addr(map_to_source(within._data)))
                           // cnp.PyArray_ITEMSIZE(a))
    return node


# Note [View replay steps]
# PyTorch reads a view's history afresh after an in-place write (into it, its base or
# a sibling) by replaying the view from its base. A view taken through plain view ops
# only is one as_strided of the base (AsStridedBackward0). conj() and _neg_view() are
# no as_strided: from the first of them on, PyTorch replays each view op on its own,
# in the order taken: a conj (neg) as ConjBackward0 (NegViewBackward0), every other
# view op as an AsStridedBackward0 of that view's geometry. So b.conj().view(2, 2).t()
# replays as conj, as_strided, as_strided, and b.conj()[1:].conj() (no conj bit) as
# conj, as_strided, conj. A tensor's view_steps (in its TensorExtra) keep that recipe
# for the views that need it: a tuple of (kind, array), kind 0 (as_strided to array's
# geometry), LAZY_CONJ or LAZY_NEG (array: the view's values after that step). _lazy_view starts it (the
# region of the base taken first, then the conj/neg step); make_view extends it by one
# as_strided step for every view of a tensor that has one. Every other tensor keeps
# None (one pointer test per view op). The arrays are over the base's memory or a
# twin of it, so map_to_source places each one in the base's memory (regions, offsets).

cdef Node replay_view_steps(Tensor view, Tensor out):
    """out's history (view's values) read afresh from view's base by its replay steps
    (Note [View replay steps]); None when view has none or they cannot be replayed here
    (a base without history, a real view of complex memory): the caller's as_strided
    history then."""
    cdef tuple steps = view_steps_of(view)
    cdef Tensor base = view._base
    if (steps is None or base is None or base._grad_fn is None
            or _regenerate_lazy_view is None):
        return None
    cdef int typenum = cnp.PyArray_TYPE(base._data)
    cdef tuple step
    for step in steps:
        if cnp.PyArray_TYPE(<cnp.ndarray>step[1]) != typenum:
            return None
    cdef Py_ssize_t k, n = len(steps)
    cdef Py_ssize_t item = cnp.PyArray_ITEMSIZE(base._data)
    cdef Py_ssize_t origin = _addr(map_to_source(base._data))
    cdef Tensor holder = base, t
    cdef cnp.ndarray arr
    cdef AsStridedBackward0 node
    for k in range(n):
        step = steps[k]
        arr = <cnp.ndarray>step[1]
        t = out if k == n - 1 else make(arr)
        if <int>step[0] == 0:
            node = _as_strided_node(arr, holder)
            node.storage_offset = (_addr(map_to_source(arr)) - origin) // item
            record(node, t, (holder,))
        else:
            # t holds holder's history, then its ConjBackward0 / NegViewBackward0
            t._grad_fn = holder._grad_fn
            t._output_nr = holder._output_nr
            t._requires_grad = True
            _regenerate_lazy_view(t, holder._data, <int>step[0])
        t._output_nr = 0
        holder = t
    return out._grad_fn


cdef Tensor conj_grad(Tensor g, Tensor var):
    """.grad for a first gradient g that is a conj view nothing else holds. PyTorch's
    AccumulateGrad stores such a gradient as it is (is_conj() True: ConjBackward0 the
    last node, a view of a conj seed); here a conj view over a private copy with the
    variable's layout, equal values, so .grad aliases no memory a user can reach."""
    cdef cnp.ndarray arr = _clone_obey_contract(g._data, var._data)
    _apply(LAZY_CONJ, arr, arr)
    return make(<cnp.ndarray>make_lazy_array(make(arr), LAZY_CONJ))
