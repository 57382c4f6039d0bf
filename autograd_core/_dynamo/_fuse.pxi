# Fused blocks of compiled mode (Note [Fused blocks] in autograd_core/_dynamo/__init__.py):
# included in _replay.pyx. A run of recorded elementwise steps becomes one program of
# csrc/agc_fuse.c's interpreter, forward and (for its one autograd node) backward.

cdef str _DOUBLE_BACKWARD = ("torch.compile with aot_autograd does not currently support "
                             "double backward")

# eager's LIBM_KERNEL_N (ops/pointwise.pyx): above it eager calls numpy's vectorised
# loops for the libm ops, and a block calls those loops on its tiles (Note [numpy's
# loops in a block])
cdef Py_ssize_t _LIBM_FUSE_N = 128
cdef frozenset _LIBM_OPS = frozenset({F_EXP, F_TANH, F_SIGMOID})

# Saved rows of this many bytes or more are arrays of their own (each under malloc's mmap
# threshold, reused from the heap as eager's saved tensors are), smaller ones one
# (rows, n) array: one (rows, n) array of chain100k's 200 rows, 80 MB, was mapped and
# page-faulted afresh at every replay
cdef Py_ssize_t _ROW_APART_BYTES = 1 << 16

# A program calling numpy's loops (CALL) runs in tiles this long: each call costs less per
# element than on AGC_FUSE_TILE's, and each saved row is written (and read back) in longer
# stretches
cdef size_t _CALL_TILE = 4096


# Note [Recomputed in backward]
# A block whose saved rows would be large (chain100k: 200 rows of 400 KB, 80 MB) writes
# none: its forward runs the program without saving and keeps a copy of its inputs (one
# pass over them; an input may be changed in place before the backward, and eager's
# values are those of the forward), and its backward's program runs the forward's
# instructions again on each tile before the backward's own, reading the recomputed
# values from registers where it would load saved rows. Its tiles are short enough that
# every value live at once stays in cache (_REMAT_SCRATCH), so the block makes one pass
# over its inputs and outputs forward and backward instead of writing the rows and
# reading them back: twice the arithmetic, a fraction of the memory traffic. The values
# are the saving program's bit for bit (the same instructions on the same inputs; each
# loop computes every element on its own, Note [numpy's loops in a block]). What the
# backward reads of the block's inputs and outputs is read in place and version-checked
# as before, and the gradients' node has the same edges (the saved tensors PyTorch's
# would have).
# Measured on chain16-style chains (tanh(y*1.01+0.01), float32, compiled / numpy floor,
# saving -> recomputing): 100,000 x 200 steps (80 MB of rows) 1.03x -> 0.72x, 30,000 x 100
# (12 MB) 0.99x -> 0.83x; at 8 MB saving is ahead (100,000 x 20: 0.69x -> 1.0x; 10,000 x
# 200: 0.53x -> 0.74x): rows that stay in the last-level cache cost less than recomputing.
cdef Py_ssize_t _REMAT_BYTES = 10 << 20     # saved rows at least this large: recomputed
cdef Py_ssize_t _REMAT_SCRATCH = 512 << 10  # a recomputing tile's registers, at most


# Note [numpy's loops in a block]
# Eager computes exp and tanh (and sigmoid's exp) of an array above LIBM_KERNEL_N
# elements with numpy's ufunc, whose loop for float32/float64 is a vectorised one of its
# own (not libm's expf/tanhf: other values in the last bits). A block that large calls
# that very loop (the ufunc's first loop for the dtype, the one numpy's type resolution
# picks) on each tile through agc_fuse.c's CALL instruction: numpy's loops compute each
# element on its own, so tiles give the whole array's values bit for bit. That is
# checked once per loop at its first use (values with the special cases, in tiles of
# odd sizes, against the ufunc's own call); a loop failing it leaves such blocks unfused
# as before. Sigmoid is eager's _ufunc_sigmoid's sequence: neg, exp, + 1, 1 / (the
# reciprocal is a correctly rounded division, as RDIVS).

@cython.final
cdef class _Loop:
    """A numpy ufunc's inner loop for one dtype (Note [numpy's loops in a block])."""
    cdef agc_fuse_loop fn
    cdef void *data


cdef dict _LOOPS = {}       # (ufunc name, typenum) -> _Loop, or None: its check failed


cdef int _call_loop(_Loop lp, cnp.ndarray x, cnp.ndarray out, Py_ssize_t tile):
    cdef char *args[2]
    cdef Py_ssize_t dims[1]
    cdef Py_ssize_t steps[2]
    cdef Py_ssize_t n = cnp.PyArray_SIZE(x), off = 0, item = cnp.PyArray_ITEMSIZE(x)
    steps[0] = steps[1] = item
    while off < n:
        dims[0] = min(tile, n - off)
        args[0] = <char *>cnp.PyArray_DATA(x) + off * item
        args[1] = <char *>cnp.PyArray_DATA(out) + off * item
        lp.fn(args, dims, steps, lp.data)
        off += tile
    return 0


cdef object _numpy_loop(str name, int typenum):
    """The loop numpy's ufunc `name` runs on a contiguous array of typenum, checked to
    give the ufunc's values in tiles; None if it cannot be used."""
    key = (name, typenum)
    if key in _LOOPS:
        return _LOOPS[key]
    cdef cnp.ufunc u = getattr(np, name)
    cdef _Loop lp = None
    cdef int i
    if u.nin == 1 and u.nout == 1:
        for i in range(u.ntypes):
            # (ufunc.types holds type numbers, in numpy's order of preference)
            if u.types[2 * i] == typenum and u.types[2 * i + 1] == typenum:
                lp = _Loop.__new__(_Loop)
                lp.fn = <agc_fuse_loop>u.functions[i]
                lp.data = u.data[i]
                break
    if lp is not None:
        dt = np.float32 if typenum == cnp.NPY_FLOAT else np.float64
        with np.errstate(all="ignore"):   # (1e300 overflows float32: inf, as meant)
            probe = np.concatenate([
                np.linspace(-120, 120, 4001),
                np.random.default_rng(0).standard_normal(3001) * 9,
                [0., -0., np.inf, -np.inf, np.nan, 1e-30, -1e-30, 1e-310, 88.72, 89., 709.78,
                 710., -745., -104., 1e300]]).astype(dt)
            want = u(probe)
            for tile in (_CALL_TILE, AGC_FUSE_TILE, 37, 1):
                got = np.empty_like(probe)
                _call_loop(lp, probe, got, tile)
                if not np.array_equal(got.view(np.uint8), want.view(np.uint8)):
                    lp = None
                    break
    _LOOPS[key] = lp
    return lp


# the fast ops a block takes, by their forward instruction (a tensor operand; a number)
cdef dict _FUSE_BINARY = {F_ADD: (AGC_F_ADD, AGC_F_ADDS), F_SUB: (AGC_F_SUB, AGC_F_SUBS),
                          F_MUL: (AGC_F_MUL, AGC_F_MULS), F_DIV: (AGC_F_DIV, AGC_F_DIVS)}
cdef dict _FUSE_UNARY = {F_NEG: AGC_F_NEG, F_EXP: AGC_F_EXP, F_TANH: AGC_F_TANH,
                         F_SIGMOID: AGC_F_SIGMOID, F_RELU: AGC_F_RELU}


# Note [Tiles of a broadcast block]
# A LOAD of a broadcast input points its register into the input when the tile's
# stretch of the repeated values lies within one period, else copies the runs (a bias of
# 256 floats in 512-element tiles: a copy per tile, a pass over the block as costly as
# the add). Tiles that divide every broadcast period make every such LOAD in place: a
# program without CALLs takes the longest such tile up to AGC_FUSE_TILE, if it is at
# least _BCAST_TILE_MIN long (shorter ones would cost more in per-tile dispatch than the
# copies). Each element is computed on its own, so the tile never changes a value.
cdef size_t _BCAST_TILE_MIN = 128


cdef size_t _bcast_tile(list ir):
    """The tile of a program without CALLs (ir: _allocate's) whose broadcast LOADs all
    point into their inputs (Note [Tiles of a broadcast block]); AGC_FUSE_TILE when
    none is needed or none is long enough."""
    cdef size_t g = 0, a, b, t
    cdef list e
    for e in ir:
        if e[0] == AGC_F_LOAD and e[3] > 0:
            a, b = <size_t>e[3], g
            while b:
                a, b = b, a % b
            g = a
    if g == 0 or g % AGC_FUSE_TILE == 0:
        return AGC_FUSE_TILE
    t = min(g, <size_t>AGC_FUSE_TILE)
    while g % t:
        t -= 1
    return t if t >= _BCAST_TILE_MIN else AGC_FUSE_TILE


@cython.final
cdef class _Prog:
    """A program of agc_fuse.c, its registers allocated."""
    cdef agc_fuse_ins *ins
    cdef size_t n
    cdef int nreg
    cdef size_t tile            # elements per tile (AGC_FUSE_TILE, or _CALL_TILE)

    def __dealloc__(self):
        free(self.ins)


cdef _Prog _allocate(list ir):
    """ir: [op, dst, a, b, s, c] over virtual registers (-1: none; c a third operand, of
    DIV_OTHER_BWD; LOAD's b is a broadcast input's period, not a register; a CALL's
    _Loop follows as a seventh item) -> a program
    over as few registers as a linear scan gives (an instruction may write a register it
    reads: the loops read element i before writing it). The scan's tables are C arrays
    over the (dense) virtual registers: a block of chain16's 60,000 steps has programs
    of ~100,000 instructions."""
    cdef Py_ssize_t i, n = len(ir), nv = 1, v, va, vb, vc, vd
    cdef list e
    for i in range(n):
        e = <list>ir[i]
        for v in (e[1], e[2], e[5]) if e[0] == AGC_F_LOAD else (e[1], e[2], e[3], e[5]):
            if v >= nv:
                nv = v + 1
    cdef _Prog p = _Prog.__new__(_Prog)
    p.ins = <agc_fuse_ins *>malloc(max(n, 1) * sizeof(agc_fuse_ins))
    cdef Py_ssize_t *last = <Py_ssize_t *>malloc(nv * sizeof(Py_ssize_t))
    cdef int *phys = <int *>malloc(nv * sizeof(int))
    cdef int *free_regs = <int *>malloc(nv * sizeof(int))
    cdef Py_ssize_t nfree = 0
    cdef int nreg = 0, r
    try:
        if p.ins == NULL or last == NULL or phys == NULL or free_regs == NULL:
            raise MemoryError()
        for v in range(nv):
            last[v] = -1
            phys[v] = -1
        for i in range(n):
            e = <list>ir[i]
            if e[0] == AGC_F_LOAD:
                continue
            for v in (e[2], e[3], e[5]):
                if v >= 0:
                    last[v] = i
        p.n = n
        p.tile = AGC_FUSE_TILE
        for i in range(n):
            e = <list>ir[i]
            p.ins[i].op = e[0]
            vd = e[1]
            if e[0] == AGC_F_LOAD:
                va = vb = vc = -1
                p.ins[i].a = -1
                p.ins[i].b = e[3]
                p.ins[i].s = <double>e[4]
            else:
                va, vb, vc = e[2], e[3], e[5]
                p.ins[i].a = phys[va] if va >= 0 else -1
                p.ins[i].b = phys[vb] if vb >= 0 else -1
                p.ins[i].s = <double>(phys[vc] if vc >= 0 else e[4])
            p.ins[i].loop = NULL
            p.ins[i].loop_data = NULL
            if e[0] == AGC_F_CALL:
                p.ins[i].loop = (<_Loop>e[6]).fn
                p.ins[i].loop_data = (<_Loop>e[6]).data
                p.tile = _CALL_TILE
            # operands read for the last time free their registers (each once)
            if va >= 0 and last[va] == i:
                free_regs[nfree] = phys[va]
                nfree += 1
            if vb >= 0 and vb != va and last[vb] == i:
                free_regs[nfree] = phys[vb]
                nfree += 1
            if vc >= 0 and vc != va and vc != vb and last[vc] == i:
                free_regs[nfree] = phys[vc]
                nfree += 1
            if vd >= 0:
                if nfree:
                    nfree -= 1
                    r = free_regs[nfree]
                else:
                    r = nreg
                    nreg += 1
                phys[vd] = r
                if last[vd] < 0:   # never read: free again at once
                    free_regs[nfree] = r
                    nfree += 1
                p.ins[i].r = r
            else:
                p.ins[i].r = 0
        p.nreg = max(nreg, 1)
        if p.tile == AGC_FUSE_TILE:
            p.tile = _bcast_tile(ir)
    finally:
        free(last)
        free(phys)
        free(free_regs)
    return p


# Note [Saved rows reused]
# A block's forward writes the values its backward reads into saved rows (chain100k:
# 200 rows of 400 KB). Fresh rows at every replay are fresh pages (malloc returns the
# freed rows' memory to the system past its trim threshold, and the next replay faults
# 80 MB in again: ~40% of chain100k's fused forward). When the backward has read them
# (release_saved: the node is done with them), the node hands the rows back to its block
# if nothing else holds them, and the block's next replay writes into them: one set
# kept per block, alive between calls like a caching allocator's blocks. A node whose
# graph is dropped without a backward, or retained (retain_graph), keeps its rows.


cdef inline Py_ssize_t _nrows(object rows):
    if rows is None:
        return 0
    if type(rows) is tuple:
        return len(<tuple>rows)
    return cnp.PyArray_DIMS(<cnp.ndarray>rows)[0]


cdef object _new_rows(cnp.ndarray like, Py_ssize_t rows):
    """Saved rows of like's size and dtype: a (rows, n) array, or a tuple of arrays when
    a row is large (_ROW_APART_BYTES)."""
    if rows and cnp.PyArray_NBYTES(like) >= _ROW_APART_BYTES:
        return tuple([empty_like_array(like) for _ in range(rows)])
    return _flat_array(like, rows)


cdef int _row_pointers(void **ptrs, object rows, Py_ssize_t nrows,
                       Py_ssize_t row_bytes) except -1:
    """The data pointers of saved rows (_new_rows: a tuple of arrays, or one (rows, n)
    array whose rows are row_bytes apart) into ptrs[0..nrows)."""
    cdef Py_ssize_t k
    cdef char *base
    if nrows and type(rows) is tuple:
        for k in range(nrows):
            ptrs[k] = cnp.PyArray_DATA(<cnp.ndarray>(<tuple>rows)[k])
    elif nrows:
        base = <char *>cnp.PyArray_DATA(<cnp.ndarray>rows)
        for k in range(nrows):
            ptrs[k] = base + k * row_bytes
    return 0


cdef int _run_prog(_Prog p, int typenum, list ins, list outs, Py_ssize_t n,
                   object in_rows=None, object out_rows=None) except -1:
    """Run p over arrays of n elements (ins, outs: contiguous ndarrays of typenum; then
    the rows of in_rows / out_rows (_new_rows) as further inputs / outputs)."""
    cdef size_t item = 4 if typenum == cnp.NPY_FLOAT else 8
    cdef Py_ssize_t k, nin = len(ins), nout = len(outs)
    cdef Py_ssize_t rin = _nrows(in_rows)
    cdef Py_ssize_t rout = _nrows(out_rows)
    cdef void **pin = <void **>malloc((nin + rin + 1) * sizeof(void *))
    cdef void **pout = <void **>malloc((nout + rout + 1) * sizeof(void *))
    cdef void *scratch = malloc(<size_t>p.nreg * p.tile * item)
    if pin == NULL or pout == NULL or scratch == NULL:
        free(pin)
        free(pout)
        free(scratch)
        raise MemoryError()
    for k in range(len(ins)):
        pin[k] = cnp.PyArray_DATA(<cnp.ndarray>ins[k])
    for k in range(len(outs)):
        pout[k] = cnp.PyArray_DATA(<cnp.ndarray>outs[k])
    _row_pointers(pin + nin, in_rows, rin, n * item)
    _row_pointers(pout + nout, out_rows, rout, n * item)
    with nogil:
        if typenum == cnp.NPY_FLOAT:
            agc_fuse_run_f32(p.ins, p.n, <const float *const *>pin, <float *const *>pout,
                             <size_t>n, <float *>scratch, p.tile)
        else:
            agc_fuse_run_f64(p.ins, p.n, <const double *const *>pin, <double *const *>pout,
                             <size_t>n, <double *>scratch, p.tile)
    free(pin)
    free(pout)
    free(scratch)
    return 0


cdef cnp.ndarray _empty_of(tuple shape, int typenum):
    """An uninitialised C-contiguous array of shape and typenum (np.empty without the
    Python call: a gradient of the backward's, once per replay)."""
    cdef cnp.npy_intp dims[32]
    cdef Py_ssize_t i, nd = len(shape)
    if nd > 32 or 0 in shape:
        return <cnp.ndarray>np.empty(shape, dtype=cnp.PyArray_DescrFromType(typenum))
    for i in range(nd):
        dims[i] = <cnp.npy_intp>shape[i]
    return <cnp.ndarray>cnp.PyArray_EMPTY(<int>nd, dims, typenum, 0)


cdef inline cnp.ndarray _flat_array(cnp.ndarray like, Py_ssize_t rows):
    cdef cnp.npy_intp dims[2]
    dims[0] = rows
    dims[1] = cnp.PyArray_SIZE(like)
    return <cnp.ndarray>cnp.PyArray_EMPTY(2, dims, cnp.PyArray_TYPE(like), 0)


cdef class CompiledFunctionBackward(Node):
    """The one autograd node of a fused block (PyTorch's compiled graphs' grad_fn): its
    backward is a fused program too, reading the forward values it saved."""
    cdef _Prog prog
    cdef object saved           # (_new_rows) the forward values the backward reads that
                                # are neither an input nor an output of the block
    cdef tuple direct           # the block's input and output arrays the backward reads
                                # (eager's nodes save those tensors themselves, not copies)
    cdef int typenum
    cdef object dtype           # the block's dtype
    cdef Py_ssize_t n           # the block's elements
    cdef int nout               # the block's outputs (gradients in)
    cdef int nin                # the block's tensor inputs (gradients out)
    cdef tuple shapes           # per input: its shape (the gradient's)
    cdef tuple has              # per input: whether the program computes its gradient
    cdef tuple share            # per input: the input whose gradient array it shares (k
                                # itself; another when both are one register, as add's)
    cdef tuple versions         # (VersionCounter, version, array) per saved value that is
                                # an input or output tensor: eager's nodes save those, and
                                # refuse a backward after an in-place change of one
    cdef tuple inputs           # the inputs its gradients' node (create_graph) has
                                # edges to, as PyTorch's has to its saved tensors: the
                                # inputs the backward reads. An output or intermediate it
                                # reads is saved detached there (sigmoid(u), relu(u)), so
                                # a second pass asking for an input's gradient gives None,
                                # as PyTorch's does (fuzzer seed 33101845); none for a
                                # linear block

    cdef int nvisible           # its edges shown in next_functions: one per input, as
                                # PyTorch's (the edges after them are further uses)

    cdef int num_outputs(self) noexcept:
        return self.nout

    @property
    def next_functions(self):
        return Node.next_functions.__get__(self)[:self.nvisible]

    cdef FusedBlock block       # its block: the saved rows go back to it once read

    cdef void release_saved(self) noexcept:
        rows = self.saved
        self.saved = None
        if self.block is not None and rows is not None:
            self.block.take_back(rows)   # (rows: held by this frame alone, or shared)
        self.block = None
        self.direct = None
        self.inputs = None

    def __repr__(self):
        return f"<torch.autograd.function.CompiledFunctionBackward object at {id(self):#x}>"

    cdef tuple apply(self, tuple grads):
        cdef Py_ssize_t k, n
        cdef list ins = [], outs = []
        cdef cnp.ndarray g, like = None
        if self.saved is None:
            raise RuntimeError(MSG_BACKWARD_TWICE)
        cdef VersionCounter vc
        for vc, version, arr in self.versions:
            if vc.version != version:
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified "
                    f"by an inplace operation: [{legacy_type_name(make(arr))} "
                    f"{shape_str(shape_of(arr))}] is at version {vc.version}; expected "
                    f"version {version} instead. Hint: enable anomaly detection to find the "
                    "operation that failed to compute its gradient, with "
                    "autograd_core.autograd.set_detect_anomaly(True, check_nan=False).")
        n = self.n
        for k in range(self.nout):
            x = grads[k] if k < len(grads) else None
            if x is None:
                g = <cnp.ndarray>np.zeros(n, dtype=self.dtype)
            else:
                g = (<Tensor>x)._data
                if cnp.PyArray_TYPE(g) != self.typenum or not cnp.PyArray_IS_C_CONTIGUOUS(g):
                    g = <cnp.ndarray>np.ascontiguousarray(g, dtype=self.dtype)
            ins.append(g)
        ins.extend(self.direct)
        cdef Py_ssize_t j
        for k in range(self.nin):
            j = self.share[k]
            # (an input without a gradient gets no store: its entry is never written)
            outs.append(_empty_of(<tuple>self.shapes[k], self.typenum)
                        if j == k or j < 0 else outs[j])
        _run_prog(self.prog, self.typenum, ins, outs, n, self.saved)
        cdef list res = []
        cdef dict made = {}
        cdef bint create = grad_enabled()
        for k in range(self.nin):
            if not (self.has[k] and needs_input_grad(self, k)):
                res.append(None)
                continue
            j = self.share[k]
            t = made.get(j)
            if t is None:
                t = made[j] = make(<cnp.ndarray>outs[j])
            elif create:
                # (each output of the double-backward node is a tensor of its own)
                t = make(<cnp.ndarray>np.copy(outs[j]))
            # else: one tensor for both, as eager's AddBackward0 returns grad twice
            res.append(t)
        cdef tuple out = tuple(res)
        if create:
            # create_graph=True: PyTorch's compiled backward is once differentiable (its
            # gradients have a node that refuses a second backward)
            back = CompiledFunctionBackwardBackward.__new__(CompiledFunctionBackwardBackward)
            (<CompiledFunctionBackwardBackward>back).nout = len(out)
            record_outputs(back, out, tuple([x for x in grads if x is not None])
                           + (self.inputs or ()))
        return out


cdef class CompiledFunctionBackwardBackward(Node):
    """The node of a fused block's gradients under create_graph=True: a second
    backward through it raises PyTorch's error."""

    def __repr__(self):
        return (f"<torch.autograd.function.CompiledFunctionBackwardBackward object at "
                f"{id(self):#x}>")

    cdef int nout

    cdef int num_outputs(self) noexcept:
        return self.nout

    cdef tuple apply(self, tuple grads):
        raise RuntimeError(_DOUBLE_BACKWARD)


cdef inline bint _plain_number(object x):
    return type(x) is float or type(x) is int


@cython.final
cdef class FusedBlock:
    """A run of elementwise steps replayed as one fused program (Note [Fused blocks])."""
    cdef tuple steps            # the steps it stands for (the unfused replay, as fallback)
    cdef tuple in_slots         # its tensor inputs' slots
    cdef tuple in_grad          # per input: whether it required grad when planned
    cdef tuple in_shapes        # per input: its shape (the block's, or a broadcast's)
    cdef Py_ssize_t like        # an input of the block's shape (the outputs' template)
    cdef bint bcast             # some input is a broadcast one
    cdef Py_ssize_t first       # the slot of its first step's output
    cdef tuple out_slots        # its outputs' slots (read after the block)
    cdef tuple out_grad         # per output: whether it requires grad
    cdef int typenum
    cdef tuple shape
    cdef _Prog fwd              # without saving (no gradient needed)
    cdef _Prog fwd_saving       # storing the values the backward reads, after the outputs
    cdef Py_ssize_t nsaved
    cdef _Prog bwd
    cdef bint remat             # the backward recomputes the forward (Note [Recomputed in
                                # backward]): bwd does, and the node keeps input copies
    cdef tuple bwd_has          # per edge: whether the backward computes its gradient
    cdef tuple bwd_share        # per edge: the edge whose gradient array it shares
    cdef tuple bwd_edges        # per edge of its node: the input it leads to (each input,
                                # then one per further use of an input)
    cdef tuple direct           # (is_output, index) of the input and output tensors the
                                # backward reads (in place; their versions are checked)
    cdef bint grad              # planned with a node
    cdef tuple frees
    cdef bint planned           # its programs are made (at its first run)
    cdef bint unfused           # planned as the unfused steps (libm ops on large arrays)
    cdef tuple in_meta          # its node's input_meta when bcast (made at its first run)
    cdef object spare           # saved rows of an earlier replay, read by its backward
                                # and handed back (Note [Saved rows reused])

    cdef void take_back(self, object rows) noexcept:
        """Keep rows (a finished backward's saved rows) for the next replay when nothing
        else holds them (Note [Saved rows reused])."""
        cdef Py_ssize_t i
        if self.spare is not None or _refcnt(<PyObject *>rows) != 1:
            return
        if type(rows) is tuple:
            for i in range(PyTuple_GET_SIZE(rows)):
                if _refcnt(PyTuple_GET_ITEM(rows, i)) != 1:
                    return
        self.spare = rows
    cdef dict last_read         # until then: slot -> the slot after its last reader

    cdef bint _inputs_hold(self, list vals):
        cdef Py_ssize_t i
        cdef Tensor t
        cdef cnp.ndarray a
        for i in range(len(self.in_slots)):
            x = vals[<Py_ssize_t>self.in_slots[i]]
            if type(x) is not Tensor:
                return False
            t = <Tensor>x
            a = t._data
            if (cnp.PyArray_TYPE(a) != self.typenum or not cnp.PyArray_IS_C_CONTIGUOUS(a)
                    or shape_of(a) != self.in_shapes[i]
                    or (requires_grad_of(t) and grad_enabled()) != <bint>self.in_grad[i]):
                return False
        return True

    cdef int run(self, list vals) except -1:
        cdef Py_ssize_t i, k
        cdef cnp.ndarray like
        cdef object saved = None
        cdef list ins, outs
        if not self.planned:
            _plan_block(self, vals)
            self.last_read = None
        if self.unfused or not self._inputs_hold(vals):
            for s in self.steps:
                _run_step(<Step>s, vals)
            return 0
        ins = [(<Tensor>vals[<Py_ssize_t>k])._data for k in self.in_slots]
        like = <cnp.ndarray>ins[self.like]
        outs = [empty_like_array(like) for k in self.out_slots]
        if self.grad:
            saved = self.spare
            self.spare = None
        if self.grad and self.remat:
            if saved is None:
                saved = tuple([empty_like_array(<cnp.ndarray>a) for a in ins])
            for i in range(len(ins)):
                cnp.PyArray_CopyInto(<cnp.ndarray>(<tuple>saved)[i], <cnp.ndarray>ins[i])
            _run_prog(self.fwd, self.typenum, ins, outs, cnp.PyArray_SIZE(like))
        elif self.grad:
            if saved is None:
                saved = _new_rows(like, self.nsaved)
            _run_prog(self.fwd_saving, self.typenum, ins, outs, cnp.PyArray_SIZE(like), None,
                      saved)
        else:
            _run_prog(self.fwd, self.typenum, ins, outs, cnp.PyArray_SIZE(like))
        vals.extend([None] * len(self.steps))
        cdef list tensors = []
        cdef CompiledFunctionBackward node
        cdef VersionCounter vc
        for i in range(len(self.out_slots)):
            t = make(<cnp.ndarray>outs[i])
            vals[<Py_ssize_t>self.out_slots[i]] = t
            tensors.append(t if self.out_grad[i] else None)
        if self.grad:
            node = CompiledFunctionBackward.__new__(CompiledFunctionBackward)
            node.prog = self.bwd
            node.saved = saved
            node.block = self
            node.typenum = self.typenum
            node.dtype = like.dtype
            node.n = cnp.PyArray_SIZE(like)
            node.nout = len(self.out_slots)
            node.nin = len(self.bwd_edges)
            node.nvisible = len(self.in_slots)
            node.shapes = (self.shape,) * node.nin
            node.has = self.bwd_has
            node.share = self.bwd_share
            checks = []
            direct = []
            read = []
            for is_out, k in self.direct:
                if is_out:
                    t = tensors[k]
                    direct.append(outs[k])
                else:
                    t = vals[<Py_ssize_t>self.in_slots[k]]
                    direct.append((<Tensor>t)._data)
                    read.append(t)
                if t is None:
                    continue
                vc = version_counter(<Tensor>t)
                checks.append((vc, vc.version, (<Tensor>t)._data))
            node.direct = tuple(direct)
            node.versions = tuple(checks)
            edges = tuple([vals[<Py_ssize_t>self.in_slots[i]] for i in self.bwd_edges])
            node.inputs = tuple(read)
            record_outputs(node, tuple(tensors), edges)
            if self.bcast:
                # a broadcast input's gradient leaves the block unreduced: the engine
                # sums it to the input's shape as it sums eager's (AddBackward0, ...);
                # the same per replay (_inputs_hold: shapes and dtype as planned)
                if self.in_meta is None:
                    self.in_meta = tuple([
                        None if self.in_shapes[i] == self.shape else
                        (self.in_shapes[i], dtype_of(<cnp.ndarray>ins[i]))
                        for i in self.bwd_edges])
                set_input_meta(node, self.in_meta)
        for k in self.frees:
            vals[k] = None
        return 0


cdef object _slot_meta(Py_ssize_t k, dict metas, list vals):
    """(dtype number, shape, contiguous) of slot k: a planned step's recorded result, or
    the tensor an input or constant slot holds now; None for anything else."""
    m = metas.get(k)
    if m is not None:
        return m
    if k < len(vals):
        x = vals[k]
        if type(x) is Tensor:
            a = (<Tensor>x)._data
            return (cnp.PyArray_TYPE(a), shape_of(a), cnp.PyArray_IS_C_CONTIGUOUS(a))
    return None


cdef Py_ssize_t _bcast_period(object meta, tuple block):
    """The number of elements of an operand of meta (dtype number, shape, contiguous)
    that a block of meta `block` can load as a broadcast (its values repeated along the
    block, Note [Fused blocks]): a C-contiguous operand of the block's dtype whose shape,
    leading 1s dropped, is a suffix of the block's (a row vector, a scalar tensor). 0 if
    none (a column vector (n, 1), a non-contiguous or empty operand)."""
    if meta is None:
        return 0
    tn, shape, contig = meta
    btn, bshape, _ = block
    if tn != btn or not contig or len(shape) > len(bshape):
        return 0
    cdef Py_ssize_t i = 0, m = 1
    while i < len(shape) and shape[i] == 1:
        i += 1
    tail = shape[i:]
    if len(tail) and tuple(bshape[len(bshape) - len(tail):]) != tail:
        return 0
    for d in tail:
        m *= <Py_ssize_t>d
    return m


cdef bint _fusible(Step s, dict metas, list vals):
    """Whether step s can join a fused block (Note [Fused blocks])."""
    if s.meta is None or (s.fast not in _FUSE_BINARY and s.fast not in _FUSE_UNARY):
        return False
    tn, shape, contig = s.meta
    if not contig or (tn != cnp.NPY_FLOAT and tn != cnp.NPY_DOUBLE):
        return False
    m0 = _slot_meta(s.s0, metas, vals)
    if m0 != s.meta:
        # a broadcast first operand: the other one has the block's shape
        if (s.fast not in _FUSE_BINARY or s.s1 < 0 or _bcast_period(m0, s.meta) == 0
                or _slot_meta(s.s1, metas, vals) != s.meta):
            return False
    if s.fast in _FUSE_BINARY:
        if s.fast == F_DIV:
            if s.template[2] is not None:
                return False
        elif s.fast == F_ADD or s.fast == F_SUB:
            alpha = s.template[2]
            if not _plain_number(alpha) or alpha != 1:
                return False
        if s.s1 >= 0:
            m1 = _slot_meta(s.s1, metas, vals)
            return m1 == s.meta or (m0 == s.meta and _bcast_period(m1, s.meta) > 0)
        return _plain_number(s.template[1])
    return s.fast in _FUSE_UNARY


def _plan_block(FusedBlock b, list vals):
    """Fill in b's programs: its run of fusible steps, whose outputs take slots b.first,
    ..., planned at its first run (vals holds its inputs); slots last read after the
    run (or by the output) are its outputs."""
    cdef tuple run = b.steps
    cdef Py_ssize_t first = b.first
    cdef dict last_read = b.last_read
    cdef Step s
    cdef Py_ssize_t i, end = first + len(run)
    cdef dict vreg = {}          # slot -> virtual register of its value
    cdef dict needs = {}         # virtual register -> whether it carries a gradient
    cdef list fwd = []           # forward ir
    cdef list nodes = []         # (op, out, a, b, s) per step, for the backward
    cdef list in_slots = []
    cdef int nv = 0
    cdef bint ggrad = grad_enabled()
    b.planned = True
    b.typenum, b.shape, _ = (<Step>run[0]).meta
    numel = 1
    for d in b.shape:
        numel *= d
    # eager hands libm ops on arrays this large to numpy's vectorised loops: the block
    # calls them too (Note [numpy's loops in a block]), or runs unfused without them
    cdef dict loops = None       # F_EXP / F_TANH -> _Loop
    if numel > _LIBM_FUSE_N and any((<Step>x).fast in _LIBM_OPS for x in run):
        loops = {}
        for x in run:
            f = (<Step>x).fast
            if f in _LIBM_OPS:
                f = F_EXP if f == F_SIGMOID else f
                if f not in loops:
                    loops[f] = _numpy_loop("exp" if f == F_EXP else "tanh", b.typenum)
                if loops[f] is None:
                    b.unfused = True
                    return b
    in_grad = []
    in_shapes = []
    in_period = []

    def operand(Py_ssize_t k):
        nonlocal nv
        if k in vreg:
            return vreg[k]
        in_slots.append(k)
        t = <Tensor>vals[k]
        rg = ggrad and requires_grad_of(t)
        in_grad.append(rg)
        shape = shape_of(t._data)
        in_shapes.append(shape)
        period = -1
        if shape != b.shape:
            period = cnp.PyArray_SIZE(t._data)
        in_period.append(period)
        fwd.append([AGC_F_LOAD, nv, -1, period, len(in_slots) - 1, -1])
        vreg[k] = nv
        needs[nv] = rg
        nv += 1
        return nv - 1

    for i in range(len(run)):
        s = <Step>run[i]
        a = operand(s.s0)
        bb = -1
        if s.fast in _FUSE_BINARY and s.s1 >= 0:
            bb = operand(s.s1)
        sc = 0.0
        if s.fast in _FUSE_BINARY:
            if s.s1 >= 0:
                op = (<tuple>_FUSE_BINARY[s.fast])[0]
            else:
                sc = <double>s.template[1]
                op = (<tuple>_FUSE_BINARY[s.fast])[1]
        else:
            op = _FUSE_UNARY[s.fast]
        if loops is not None and s.fast in _LIBM_OPS:
            if s.fast == F_SIGMOID:
                # eager's _ufunc_sigmoid: 1 / (exp(-x) + 1), each step rounded
                fwd.append([AGC_F_NEG, nv, a, -1, 0.0, -1])
                fwd.append([AGC_F_CALL, nv + 1, nv, -1, 0.0, -1, loops[F_EXP]])
                fwd.append([AGC_F_ADDS, nv + 2, nv + 1, -1, 1.0, -1])
                fwd.append([AGC_F_RDIVS, nv + 3, nv + 2, -1, 1.0, -1])
                nv += 3
            else:
                fwd.append([AGC_F_CALL, nv, a, -1, 0.0, -1, loops[s.fast]])
        else:
            fwd.append([op, nv, a, bb, sc, -1])
        nodes.append((op, nv, a, bb, sc))
        needs[nv] = needs[a] or (bb >= 0 and needs[bb])
        vreg[first + i] = nv
        nv += 1

    out_slots = [k for k in range(first, end) if last_read.get(k, -1) >= end]
    b.in_slots = tuple(in_slots)
    b.in_grad = tuple(in_grad)
    b.in_shapes = tuple(in_shapes)
    b.like = in_shapes.index(b.shape)
    b.bcast = any(shp != b.shape for shp in in_shapes)
    b.out_slots = tuple(out_slots)
    b.out_grad = tuple([needs[vreg[k]] for k in out_slots])
    b.grad = any(b.out_grad)
    stores = [[AGC_F_STORE, -1, vreg[k], -1, j, -1] for j, k in enumerate(out_slots)]
    b.nsaved = 0
    if not b.grad:
        b.fwd = _allocate(fwd + stores)
        return b
    # (planned with a node, the block runs fused only while its inputs require grad as
    # now: the program without saving is never needed)

    # the backward, in reverse: adjoints as virtual registers; the forward values it
    # reads are the block's input and output arrays themselves (what eager's nodes save)
    # or saved rows of the intermediates, loaded where used. Its inputs: the outputs'
    # gradients, the direct arrays, then the rows.
    cdef list bwd = []
    cdef dict adj = {}
    cdef dict rows = {}          # forward virtual register -> saved row
    cdef dict direct = {}        # forward virtual register -> its index among the direct
    cdef list row_loads = []     # the LOADs of rows (their input index fixed up at the end)
    nbv = [nv]                   # backward registers are numbered after the forward's
    nout = len(out_slots)
    in_index = {vreg[k]: i for i, k in enumerate(in_slots)}
    out_index = {vreg[k]: j for j, k in enumerate(out_slots)}
    cdef dict uses = {}          # input register -> its uses' gradients, in eager's order

    def new():
        nbv[0] += 1
        return nbv[0] - 1

    def saved(v):
        r = new()
        if v in out_index or v in in_index:
            if v not in direct:
                direct[v] = len(direct)
            period = -1 if v in out_index else in_period[in_index[v]]
            bwd.append([AGC_F_LOAD, r, -1, period, nout + direct[v], -1])
            return r
        if v not in rows:
            rows[v] = len(rows)
        e = [AGC_F_LOAD, r, -1, -1, rows[v], -1]
        row_loads.append(e)
        bwd.append(e)
        return r

    def emit(op, a, bb=-1, sc=0.0, c=-1):
        r = new()
        bwd.append([op, r, a, bb, sc, c])
        return r

    def contrib(v, g):
        if not needs[v]:
            return
        if v in in_index:
            # an input's gradients leave the block one per use (see below)
            uses.setdefault(v, []).append(g)
            return
        if v in adj:
            adj[v] = emit(AGC_F_ADD, adj[v], g)
        else:
            adj[v] = g

    for j, k in enumerate(out_slots):
        if needs[vreg[k]]:
            adj[vreg[k]] = emit(AGC_F_LOAD, -1, -1, j)
    for op, v, a, bb, sc in reversed(nodes):
        if v not in adj:
            continue
        g = adj.pop(v)
        if op == AGC_F_ADD:
            contrib(a, g)
            contrib(bb, g)
        elif op == AGC_F_SUB:
            contrib(a, g)
            if needs[bb]:
                contrib(bb, emit(AGC_F_NEG, g))
        elif op == AGC_F_MUL:
            if needs[a]:
                contrib(a, emit(AGC_F_MUL, g, saved(bb)))
            if needs[bb]:
                contrib(bb, emit(AGC_F_MUL, g, saved(a)))
        elif op == AGC_F_DIV:
            if needs[a]:
                contrib(a, emit(AGC_F_DIV, g, saved(bb)))
            if needs[bb]:
                contrib(bb, emit(AGC_F_DIV_OTHER_BWD, g, saved(a), 0.0, saved(bb)))
        elif op == AGC_F_ADDS or op == AGC_F_SUBS:
            contrib(a, g)
        elif op == AGC_F_MULS:
            contrib(a, emit(AGC_F_MULS, g, -1, sc))
        elif op == AGC_F_DIVS:
            contrib(a, emit(AGC_F_DIVS, g, -1, sc))
        elif op == AGC_F_NEG:
            contrib(a, emit(AGC_F_NEG, g))
        elif op == AGC_F_EXP:
            contrib(a, emit(AGC_F_MUL, g, saved(v)))
        elif op == AGC_F_TANH:
            contrib(a, emit(AGC_F_TANH_BWD, g, saved(v)))
        elif op == AGC_F_SIGMOID:
            contrib(a, emit(AGC_F_SIGMOID_BWD, g, saved(v)))
        elif op == AGC_F_RELU:
            contrib(a, emit(AGC_F_RELU_BWD, g, saved(v)))
    # The node's edges: one per input, carrying its first use's gradient, then one per
    # further use of an input. An input read by several steps (or twice by one, x * x)
    # gets each use's gradient apart, in the order eager's nodes would deliver them
    # (later steps first, self before other: the reversed walk above), and the engine
    # adds them into the input's buffer, reducing each broadcast one first, as it does
    # eager's: summing them in the block would associate them otherwise whenever the
    # input has a gradient from outside the block too, and a broadcast input's uses
    # would be added before their reduction
    edges = list(range(len(in_slots)))
    grads_of = [uses.get(vreg[k], []) for k in in_slots]
    edge_g = [gl[0] if gl else None for gl in grads_of]
    for i in range(len(in_slots)):
        for g in grads_of[i][1:]:
            edges.append(i)
            edge_g.append(g)
    has = []
    share = []
    first_of = {}
    for e in range(len(edges)):
        g = edge_g[e]
        # (an input needing no gradient, or one no output depends on, gets none: as
        # in eager, where no node on a path to the outputs reaches it)
        has.append(g is not None)
        if g is None:
            share.append(-1)
        elif g in first_of:
            share.append(first_of[g])    # one array for both (stored once: add's)
        else:
            first_of[g] = e
            share.append(e)
            bwd.append([AGC_F_STORE, -1, g, -1, e, -1])
    b.bwd_edges = tuple(edges)
    for e in row_loads:
        e[4] += nout + len(direct)
    b.bwd_has = tuple(has)
    b.bwd_share = tuple(share)
    b.direct = tuple([(True, out_index[v]) if v in out_index else (False, in_index[v])
                      for v in sorted(direct, key=direct.get)])
    b.nsaved = len(rows)
    cdef Py_ssize_t item = 4 if b.typenum == cnp.NPY_FLOAT else 8
    if len(rows) * numel * item >= _REMAT_BYTES:
        _plan_recompute(b, fwd, bwd, row_loads, {r: v for v, r in rows.items()}, stores,
                        nout + len(direct), item)
        return b
    b.bwd = _allocate(bwd)
    # each saved value is stored right where it is made (its register is free again at
    # once: the program needs as many registers as the unsaved forward)
    saving = []
    for e in fwd:
        saving.append(e)
        r = rows.get(e[1])
        if r is not None:
            saving.append([AGC_F_STORE, -1, e[1], -1, nout + r, -1])
    b.fwd_saving = _allocate(saving + stores)
    return b


cdef int _plan_recompute(FusedBlock b, list fwd, list bwd, list row_loads, dict row_of,
                         list stores, Py_ssize_t first_copy, Py_ssize_t item) except -1:
    """b's programs when its backward recomputes the forward (Note [Recomputed in
    backward]): the forward without saving, and a backward whose inputs are the outputs'
    gradients, the direct arrays, then copies of the block's inputs (from first_copy
    on): the forward's instructions on those copies, then the backward's, each load of a
    saved row replaced by the register the recomputation left the value in."""
    cdef dict row_reg = {}       # backward register of a row's load -> forward register
    cdef list e, prog = []
    cdef int i
    cdef set row_load_ids = {id(e) for e in row_loads}
    for e in fwd:
        if e[0] == AGC_F_LOAD:
            e = list(e)
            e[4] = first_copy + e[4]
        prog.append(e)
    # (the rows' loads: their index was fixed up to first_copy + row; row_of: row ->
    # the forward register that made it)
    for e in bwd:
        if id(e) in row_load_ids:
            row_reg[e[1]] = row_of[e[4] - first_copy]
            continue
        e = list(e)
        for i in (2, 3, 5):
            if not (i == 3 and e[0] == AGC_F_LOAD) and e[i] in row_reg:
                e[i] = row_reg[e[i]]
        prog.append(e)
    b.remat = True
    b.fwd = _allocate(fwd + stores)
    cdef _Prog p = _allocate(prog)
    cdef Py_ssize_t tile = _REMAT_SCRATCH // (p.nreg * item)
    # (whole SIMD vectors per tile; numpy's loops give the same values at any length)
    p.tile = <size_t>max(16, min(<Py_ssize_t>p.tile, tile - tile % 16))
    b.bwd = p
    return 0


cdef void _reads(Step s, set out):
    for pos, k in s.subs:
        out.add(k)
    for pos, t in s.nested:
        _slots_in(t, out)


def plan_fusion(tuple steps, list vals, object out, Py_ssize_t min_run=2):
    """The steps with each maximal run of at least min_run fusible elementwise steps
    (Note [Fused blocks]) replaced by one FusedBlock. vals holds the inputs and constants
    of this (first fused) replay; the recording's other facts are in the steps."""
    cdef Py_ssize_t i, j, n = len(steps), first = len(vals), k
    cdef Step s
    cdef dict metas = {}
    cdef set rd
    cdef list slot_of = []
    cdef Py_ssize_t nxt = first
    cdef tuple pair
    for s in steps:
        if s.name.endswith("_") or s.name == "_index_put_impl":
            return steps   # an in-place op: every step stays as it is
    # last_slot: slot -> the first output slot of its last reader (a run whose outputs
    # end before it is read past its end), or past every slot when the output reads it
    cdef dict last_slot = {}
    for i in range(n):
        s = <Step>steps[i]
        slot_of.append(nxt)
        for pair in s.subs:
            last_slot[pair[1]] = nxt
        if s.nested:
            rd = set()
            _reads(s, rd)
            for k in rd:
                last_slot[k] = nxt
        if s.meta is not None:
            metas[nxt] = s.meta
        nxt += 1 if s.nout < 0 else s.nout
    keep = set()
    _slots_in(out, keep)
    for k in keep:
        last_slot[k] = nxt + 1
    cdef list plan = []
    cdef FusedBlock blk
    i = 0
    while i < n:
        s = <Step>steps[i]
        j = i
        while j < n and _fusible(<Step>steps[j], metas, vals) and \
                (<Step>steps[j]).meta == s.meta:
            j += 1
        if j - i >= min_run:
            run = steps[i:j]
            blk = FusedBlock.__new__(FusedBlock)
            blk.steps = run
            blk.first = slot_of[i]
            blk.last_read = last_slot
            frees = []
            for st in run:
                frees.extend((<Step>st).frees)
            blk.frees = tuple(frees)
            plan.append(blk)
            i = j
        else:
            plan.append(s)
            i += 1
    return tuple(plan)

