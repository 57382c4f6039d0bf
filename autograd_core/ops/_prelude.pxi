# What every op family module starts with: the core's vocabulary (tensor.pxd:
# making tensors, argument checks, saving, recording, the in-place driver, OPS).
cimport cython
cimport numpy as cnp
from cpython.object cimport PyObject

from autograd_core._core.csrc cimport *
from autograd_core._core.dtype cimport *
from autograd_core._core.tensor cimport *

import builtins
import inspect as _inspect
import warnings

import numpy as np

from autograd_core._core.tensor import name_node_types
from autograd_core._core.dtype import to_dtype_named as _to_dtype_named
# (clone(x, _contiguous_format): PyTorch's contiguous(); clone's default keeps a dense layout)
from autograd_core._core.tensor import contiguous_format as _contiguous_format

cnp.import_array()

# Note [Forward AD] (_core/_fw.pxi): the flag every recorded op reads first
cdef const int *FW_LEVEL_ON = fw_level_flag()
# Note [Complex autograd] (_core/_messages.pxi): set once complex values require grad
cdef const int *COMPLEX_GRAD_ON = complex_grad_flag()


# Note [__torch_function__ in the wrappers]: every generated Python wrapper (namespace
# function and Tensor method) checks its tensor arguments, once bound (Note [Keyword or
# positional]), for PyTorch's __torch_function__ protocol. The test is `type(x) is not
# Tensor` (one pointer comparison, so plain tensors pay nothing measurable) and only then
# has_torch_function: numbers and None never override; another type overrides when its class has a
# __torch_function__ that is not the disabled one (nn.Parameter's, as PyTorch's).
# handle_torch_function (autograd_core/overrides.py) then calls the overrides, as
# torch.overrides does. vmap's BatchedTensor is built on this.
from autograd_core.overrides import _handle_call as handle_torch_function
from autograd_core.overrides import _disabled_torch_function_impl


cdef inline bint has_torch_function(object x):
    cdef type t = type(x)
    if x is None or t is float or t is int or t is bool:
        return False
    f = getattr(t, "__torch_function__", None)
    return f is not None and f is not _disabled_torch_function_impl


cdef bint has_torch_function_list(object xs):
    if type(xs) is not list and type(xs) is not tuple:
        return False
    for x in xs:
        if type(x) is not Tensor and has_torch_function(x):
            return True
    return False


# Note [bfloat16 compute]: PyTorch's CPU kernels compute bfloat16 data in float (its
# opmath type) and round each result once. numpy's loops on ml_dtypes arrays do that
# for a single ufunc (add, exp, ...), so plain ufunc ops run on bfloat16 arrays as they
# are; a kernel written as several numpy steps (sigmoid, silu, softmax, layer_norm,
# gelu, their backwards), a C kernel over float/double only, a matrix product or a sum
# reads its bfloat16 operands through opmath() and rounds its result back to the
# input's dtype once (cast_array, through float: Note [bfloat16 casts]). Values are
# computed in double where numpy's float32 loops differ from a correctly rounded float
# result (its SIMD exp), which is what PyTorch's float kernels give to within an ulp.

cdef inline cnp.ndarray opmath(cnp.ndarray x):
    """x as the array a kernel computes on: float32 for bfloat16 (Note [bfloat16 compute]),
    x itself otherwise."""
    if cnp.PyArray_TYPE(x) == bfloat16.typenum:
        return cast_array(x, float32)
    return x


cdef str cpp_number(object x):
    """A number as PyTorch's C++ messages print it (ostream: -1 for -1.0, 1e-07)."""
    return format(x, "g") if isinstance(x, float) else str(x)


# scalar_in (Note [Complex Scalar arguments]) and complex_output_autograd_error (Note
# [Complex outputs PyTorch does not differentiate]) are the core's: _core/_messages.pxi


# Note [Saved index keys]: PyTorch's index nodes save their indices as SavedVariables
# (None for a full slice): grad_fn._saved_indices shows a tuple of tensors and None,
# _raw_saved_indices their SavedTensors (whose hooks apply, and whose versions are
# checked). A table op's `Any indices` is a numpy advanced key (index arrays, boolean
# masks, full slices): saved so, each array as a SavedTensor and each full slice as None.

cdef tuple save_key(object key):
    return tuple([None if isinstance(k, slice) else save(make(<cnp.ndarray>k))
                  for k in (key if isinstance(key, tuple) else (key,))])


cdef tuple _saved_key(Node owner, object saved):
    if saved is None:                  # freed by backward
        raise RuntimeError(MSG_BACKWARD_TWICE)
    return saved


cdef tuple unpack_key(Node owner, object saved):
    """The numpy key save_key kept."""
    return tuple([slice(None) if s is None else unpack_saved(<SavedTensor>s, owner)._data
                  for s in _saved_key(owner, saved)])


cdef tuple key_tensors(Node owner, object saved):
    return tuple([None if s is None else unpack_saved(<SavedTensor>s, owner)
                  for s in _saved_key(owner, saved)])


cdef tuple raw_saved_key(Node owner, object saved):
    return tuple([raw_saved(owner, s) for s in _saved_key(owner, saved)])


# Note [Named results]: an op with several named returns (linalg.qr's Q and R, ...)
# gives PyTorch's torch.return_types.<op> named tuple; its C implementation returns a
# plain tuple and the generated Python wrapper names it.
cdef dict _NAMED_RESULT_TYPES = {}


cdef object named_result_type(str name, tuple fields):
    """The named tuple class of PyTorch's torch.return_types.<name> (made once per name):
    the one factory of named results, hand-written ops' and generated wrappers' alike."""
    cls = _NAMED_RESULT_TYPES.get(name)
    if cls is None:
        import collections

        def __repr__(self):
            body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
            return f"autograd_core.return_types.{type(self).__name__}(\n{body})"

        cls = type(name, (collections.namedtuple(name, fields),),
                   {"__slots__": (), "__repr__": __repr__})
        cls.__module__ = "autograd_core.return_types"
        _NAMED_RESULT_TYPES[name] = cls
    return cls


cdef object named_result(str name, tuple fields, tuple values):
    return named_result_type(name, fields)(*values)


# Note [out= arguments]: a torch.* function whose table row has `out: true` takes
# PyTorch's out= (one tensor, or a tuple of tensors for several returns). The generated
# wrapper checks out first (out_check), computes the result as without out, and
# writes it into out (out_write): out is resized to the result's
# shape (PyTorch's deprecation warning when it had elements), the result is cast to
# out's dtype by the in-place commit (PyTorch's "can't be cast" error when the cast
# would narrow the dtype's category), and out's version counter is bumped. As
# PyTorch's, the autograd error names the ATen op that runs (`out: gather` on
# take_along_dim's row), and an op without a derivative (eq, argmax) takes inputs that
# require grad. Like
# PyTorch, out= functions record no graph: with grad mode on, an input or out that
# requires grad is an error. The kernels that depart from these rules name their
# rule (Note [out= rules]).
#
# Note [out= rules]: PyTorch's out= kernels differ in what they do with out's dtype
# and with inputs that require grad. A row's `out_exact` / `out_dtype` / `out_grad`
# keys (derivatives.yaml), or a hand-written wrapper's `rule` argument, pick from
# these flags (a dtype rule, or'ed with an autograd rule); 0 is the common rule above.
# (A plain True, as the wrappers written before the flags pass, is OUT_EXACT.)
cdef enum:
    # dtype rules
    OUT_EXACT = 1        # out must have the result's dtype (PyTorch's "Expected out
                         # tensor to have dtype float, but got double instead"): the
                         # kernels that do not cast (matmul, sort, the decompositions)
    OUT_FOUND = 2        # the same, in the words of the structured kernels that infer
                         # their dtype from a number argument ("Found dtype Double but
                         # expected Float": clamp with number bounds, lerp's tensor weight)
    OUT_JOIN = 4         # cat's check: an out whose category is narrower than the
                         # inputs' is a TypeError naming torch.cat (stack, hstack, ...
                         # all run cat_out)
    OUT_ANY_CAST = 32    # out takes any dtype: the out= variant is copy_ (chain_matmul
                         # of one matrix)
    # (out_dtype: compute, the reductions that compute in out's dtype, acts on the
    # dtype argument before the computation: out_compute_dtype)
    # autograd rules: PyTorch composes the out= variant (CompositeImplicitAutograd, or
    # an out= that is copy_ of the functional result), so inputs that require grad
    # give out a history instead of the autograd error
    OUT_GRAD_COPY = 8    # out receives the result through a recorded copy_
                         # (CopyBackwards, whose other edge is the result's history)
    OUT_GRAD_NOT_IMPLEMENTED = 16   # the out kernel records PyTorch's NotImplemented
                         # node on out (its backward raises, naming the ATen op)
    _OUT_GRAD_RULES = 24
    # forward-AD rule: the out= variant is a composition ending in out.copy_(result)
    # (quantile, nanquantile, chain_matmul of one matrix): a dual input is no error, out
    # gets the result's tangent as copy_'s forward derivative gives it (with_out)
    OUT_FW_COPY = 64


cdef int out_check(str name, object out, Py_ssize_t n) except -1:
    if n == 1:
        if not isinstance(out, Tensor):
            raise not_tensor_error(name, "out", 0, out)
        outs = (out,)
    else:
        if not isinstance(out, (tuple, list)) or len(out) != n or not all(
                isinstance(o, Tensor) for o in out):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                            f"{type(out).__name__}")
        outs = tuple(out)
    if grad_enabled() and any_requires_grad(outs):
        _out_grad_error(name)
    return 0


cdef int _out_grad_error(str name) except -1:
    raise RuntimeError(f"{name}(): functions with out=... arguments don't support "
                       f"automatic differentiation, but one of the arguments requires grad.")


cdef Tensor _out_write_one(Tensor out, Tensor result, bint copy=False, bint any_cast=False):
    """copy: write through copy_, which records CopyBackwards for a result that requires
    grad (OUT_GRAD_COPY), after the same checks as the in-place commit's unless any_cast
    (OUT_ANY_CAST: copy_'s cast)."""
    cdef tuple shape = shape_of(result._data)
    cdef VersionCounter vc
    check_inplace(out, ())     # (an inference tensor outside inference mode)
    cdef bint resize = shape_of(out._data) != shape
    if (resize or copy) and not any_cast:
        # PyTorch checks the cast before resizing: a refused cast leaves out as it was
        # (a detached result: the dry run must not touch the result's history)
        inplace_commit(make(np.empty(shape, dtype=out._data.dtype)), make(result._data))
    if resize:
        if cnp.PyArray_SIZE(out._data) != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(shape_of(out._data))}, which does not match the required output "
                f"shape {list(shape)}. This behavior is deprecated, and in a future PyTorch "
                f"release outputs will not be resized unless they have zero elements. You "
                f"can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                f"elements with t.resize_(0).", UserWarning, stacklevel=3)
        # PyTorch's resize_output: not a write of its own (only the values' is counted)
        vc = version_counter(out)
        v = vc.version
        OPS.resize_(out, shape)
        vc.version = v
    if copy:
        return OPS.copy_(out, result, False)
    return inplace_commit(out, result)


cdef int out_check_list(str name, object out, int pos) except -1:
    """out= of an op returning Tensor[] (split_copy): a sequence of tensors (pos: its
    argument index in PyTorch's messages)."""
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                        f"{type(out).__name__}")
    for i, o in enumerate(out):
        if not isinstance(o, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {pos}, but got "
                            f"{type(o).__name__}")
    return 0


cdef object out_write_list(str kernel, object out, object compute):
    """out= of an op returning Tensor[]: PyTorch's kernels run below autograd (no graph,
    no autograd error) and return None. compute() gives the pieces; kernel names
    PyTorch's kernel. split_copy's copies each piece into its out tensor as copy_ does
    (a cast, no resize); split_with_sizes_copy's wants each out of the piece's dtype and
    resizes it as other outs are."""
    cdef list pieces
    cdef bint exact = kernel.startswith("split_with_sizes")
    with NoGradGuard():
        pieces = list(compute())
        if len(out) != len(pieces):
            raise RuntimeError(f"{kernel} expected an out= argument of size {len(pieces)}, "
                               f"got size {len(out)}")
        if not exact:
            for o, piece in zip(out, pieces):
                OPS.copy_(<Tensor>o, <Tensor>piece, False)
            return None
        for o, piece in zip(out, pieces):
            _out_dtype_exact(<Tensor>o, <Tensor>piece)
        for o, piece in zip(out, pieces):
            _out_write_one(<Tensor>o, <Tensor>piece)
    return None


cdef str out_dtype_message(dtype want, dtype got):
    # PyTorch's exact-dtype out= check quotes c10's type names
    return f"Expected out tensor to have dtype {want.cpp_name}, but got {got.cpp_name} instead"


cdef int _out_dtype_exact(Tensor o, Tensor r, int rule=OUT_EXACT) except -1:
    cdef dtype od = dtype_of(o._data), rd = dtype_of(r._data)
    if rule & OUT_JOIN:
        if rd.category > od.category:
            raise TypeError(f"torch.cat(): input types can't be cast to the desired output "
                            f"type {od.scalar_name}")
    elif od is not rd:
        if rule & OUT_FOUND:
            raise RuntimeError(f"Found dtype {od.scalar_name} but expected {rd.scalar_name}")
        raise RuntimeError(out_dtype_message(rd, od))
    return 0



cdef object with_out(str name, object out, object result, object fields=None,
                     int rule=0, tuple operands=()):
    """result, or with out given, result written into out: the hand-written wrappers
    (python: manual) compute as without out, then hand the result here (rule: Note
    [out= rules]; operands: the inputs an OUT_GRAD_NOT_IMPLEMENTED node takes)."""
    if out is None:
        return result
    out_check(name, out, 1 if isinstance(result, Tensor) else len(result))
    if fw_active() and not rule & OUT_FW_COPY:
        out_forward_ad_check(name, (out, result))
    written = out_write(name, out, result if isinstance(result, Tensor) else tuple(result),
                        fields, rule, operands)
    if rule & OUT_FW_COPY and fw_active():
        _out_copy_tangent(<Tensor>out, <Tensor>result)
    return written


cdef int _out_copy_tangent(Tensor out, Tensor result) except -1:
    """out.copy_(result)'s forward derivative (OUT_FW_COPY): out's tangent is a copy of
    result's (in result's dtype, as PyTorch's), or zeros when result has none and out
    had one."""
    t = fw_grad_of(result)
    if t is not None:
        with NoGradGuard():
            set_fw_grad(out, OPS.clone(<Tensor>t, None))
    elif fw_grad_of(out) is not None:
        set_fw_grad(out, make(np.zeros(shape_of(out._data), out._data.dtype)))
    return 0


class _NotGiven:
    """The default of an argument PyTorch's out= overload has no default for (a table
    row's out_needs): sum(x, out=o) is a TypeError, sum(x, None, out=o) is not."""
    __slots__ = ()

    def __repr__(self):
        return "None"


cdef object NOT_GIVEN = _NotGiven()   # (C level: the wrappers test it on every call)


# Note [Keyword or positional]
# PyTorch's parser names an argument's position in its messages only when the call gave
# the argument by position ("argument 'eps' (position 2) must be float" for
# logit(x, 1j), "argument 'eps' must be float" for logit(x, eps=1j)). A Python def
# binds both calls alike, so a generated wrapper (ops/_codegen.py, gen_wrapper) takes
# each such argument twice: a positional-only parameter _a<i> and a keyword-only one
# under the argument's name, both ARG_MISSING unless given. bind_arg takes the one given
# (PyTorch's error when both are), missing_arguments is PyTorch's error for required
# ones left out, and an argument's checker gets its position, or 0 (no position) when
# _a<i> was not given (_core/_messages.pxi, _at). The split costs a few pointer
# comparisons per call; introspection (inspect.signature, help) shows the plain
# signature, which wrapper_signature builds when first asked for.
class _ArgMissing:
    """The default of a wrapper's parameters: the argument was not given this way."""
    __slots__ = ()

    def __repr__(self):
        return "<missing>"


cdef object ARG_MISSING = _ArgMissing()


cdef inline object bind_arg(object positional, object keyword, str fname, str name):
    """An argument given by position or by keyword (ARG_MISSING: neither)."""
    if positional is ARG_MISSING:
        return keyword
    if keyword is not ARG_MISSING:
        raise TypeError(f"{fname}() got multiple values for argument '{name}'")
    return positional


cdef object missing_arguments(str fname, tuple named):
    """PyTorch's TypeError for a call leaving out a required argument: named holds the
    required arguments (name, value) in order; PyTorch lists every required one from
    the first missing on (its grammar: "1 ... arguments", "2 ... argument")."""
    cdef Py_ssize_t i = 0
    while i < len(named) and named[i][1] is not ARG_MISSING:
        i += 1
    names = [n for n, _ in named[i:]]
    return TypeError(f"{fname}() missing {len(names)} required positional argument"
                     f"{'s' if len(names) == 1 else ''}: "
                     + ", ".join(f'"{n}"' for n in names))


class _WrapperSignature(_inspect.Signature):
    """A generated wrapper's signature as its arguments read (Note [Keyword or
    positional]): parsed from its text the first time it is asked for, so that
    importing the ops makes none."""
    __slots__ = ("_text", "_sig")

    def __init__(self, text):
        self._text = text
        self._sig = None

    def _real(self):
        if self._sig is None:
            ns = {"NOT_GIVEN": NOT_GIVEN}
            exec(f"def f({self._text}): pass", ns)
            self._sig = _inspect.signature(ns["f"])
        return self._sig

    @property
    def parameters(self):
        return self._real().parameters

    @property
    def return_annotation(self):
        return self._real().return_annotation

    def replace(self, **changes):
        return self._real().replace(**changes)

    def __reduce__(self):
        return self._real().__reduce__()


def wrapper_signature(str text):
    return _WrapperSignature(text)


# Note [Wrapper names]
# Cython writes a def's own name into the argument errors it raises before the body
# runs ("abs() got an unexpected keyword argument 'foo'", "abs() takes at most 1
# positional argument (3 given)"), so a generated wrapper (ops/_codegen.py, gen_wrapper)
# is a def under its public name, as PyTorch's messages quote it. A module-level def
# named abs, sum, min, max, round, pow, all or any would replace the builtin for every
# line of the module, so the defs live in the bodies of two classes of the family's
# _gen_*.pxi, _FUNCTION_WRAPPERS and _METHOD_WRAPPERS (a function and its method may
# share a name), and are bound at module level under _py_<name> / _pym_<name>, the
# names the tables and the hand-written code use; the classes are deleted after. A
# class body is a namespace only: the functions are the same objects with the same
# call path, so the success path costs nothing more. A method without arguments
# (t.abs()) is METH_O, whose errors Cython words from the PyMethodDef's ml_name:
# name_meth_o points that at "TensorBase.<name>", PyTorch's name for such a method
# ("TensorBase.abs() takes no keyword arguments").
cdef inline dtype arg_dtype(object d, str fname):
    """A wrapper's dtype argument (to_dtype), its TypeError prefixed with the function's
    name as PyTorch's parser words it ("cumsum(): argument 'dtype' must be ...")."""
    if isinstance(d, dtype):
        return <dtype>d
    return _arg_dtype_other(d, fname)


cdef dtype _arg_dtype_other(object d, str fname):
    return _to_dtype_named(d, fname)


cdef extern from "Python.h":
    ctypedef struct PyMethodDef:
        const char *ml_name
    ctypedef struct PyCFunctionObject:
        PyMethodDef *m_ml

cdef list _METH_O_NAMES = []     # (the ml_name buffers: alive as long as the module)


cdef int name_meth_o(object f, str public) except -1:
    """Name the METH_O wrapper f TensorBase.<public> in its argument errors (Note
    [Wrapper names]); its __name__ stays public."""
    cdef bytes name = f"TensorBase.{public}".encode()
    _METH_O_NAMES.append(name)
    (<PyCFunctionObject*><PyObject*>f).m_ml.ml_name = <const char*>name
    f.__name__ = public
    return 0


cdef int no_out(str name, object out) except -1:
    """An overload PyTorch gives no out= (sum(input), where(cond, number, t), ...): its
    argument parser's TypeError."""
    if out is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got an "
                        f"unexpected keyword argument 'out' for this overload")
    return 0


cdef object out_compute_dtype(str name, object out, object dtype_arg, Tensor input):
    """out_dtype: compute (Note [out= rules]): the reductions whose out= kernel computes
    in out's dtype (sum, prod, cumsum, cumprod, nansum: an int or bool out is accepted,
    and the input is cast to it first), the dtype argument the op runs with. A given
    dtype must be out's."""
    cdef dtype od = dtype_of((<Tensor>out)._data), d
    # nansum's (and nanmean's) kernel on a floating input is a TensorIterator reduction
    # over floating dtypes only, whose dtype check words its message its own way
    cdef str float_kernel = _OUT_FLOAT_KERNELS.get(name) \
        if dtype_of(input._data).category == CAT_FLOAT else None
    if dtype_arg is None:
        if float_kernel is not None and od.category != CAT_FLOAT:
            raise not_implemented_for(float_kernel, od)
        return od
    d = to_dtype(dtype_arg)
    if d is not od:
        if float_kernel is not None:
            raise RuntimeError(f"{name}: provided dtype must match dtype of result. Got "
                               f"{od.scalar_name} and {d.scalar_name}.")
        raise RuntimeError(out_dtype_message(d, od))
    return d


cdef dict _OUT_FLOAT_KERNELS = {"nansum": "nansum_cpu"}


cdef int out_forward_ad_check(str name, tuple tensors) except -1:
    """PyTorch's out= variants have no forward derivative: a dual input or out raises
    (Note [Forward AD] in _core/_fw.pxi). The one check of an out= call, made before
    computing, as PyTorch's check reads the inputs (an op whose result gets no tangent,
    such as eq or scatter_reduce's prod, raises too): the generated wrappers and the
    hand-written ones that call out_write pass the op's tensor arguments and out;
    with_out, handed a computed result, passes out and that result. out_write itself
    does not check."""
    for t in tensors:
        if isinstance(t, (list, tuple)):
            out_forward_ad_check(name, tuple(t))
        elif isinstance(t, Tensor) and fw_grad_of(<Tensor>t) is not None:
            raise NotImplementedError(f"Trying to use forward AD with {name}_out that does not "
                                      "support it because it is an out= function")
    return 0


cdef object out_write(str name, object out, object result, object fields, int rule=0,
                      tuple operands=()):
    """rule: Note [out= rules]; operands: the inputs of an OUT_GRAD_NOT_IMPLEMENTED
    node. The caller has made out_forward_ad_check."""
    cdef bint graph = False
    # a result that requires grad: a differentiable op had an input requiring grad
    # (PyTorch's static rule, here read off the computed result, so that the ops
    # written as compositions need no flag)
    if grad_enabled() and (requires_grad_of(<Tensor>result) if isinstance(result, Tensor)
                           else any_requires_grad(tuple(result))):
        if not rule & _OUT_GRAD_RULES:
            _out_grad_error(name)
        graph = True
    if rule & (OUT_EXACT | OUT_FOUND | OUT_JOIN):
        for o, r in (((out, result),) if isinstance(result, Tensor) else zip(out, result)):
            _out_dtype_exact(<Tensor>o, <Tensor>r, rule)
    cdef bint any_cast = rule & OUT_ANY_CAST
    cdef bint copy = any_cast or (graph and rule & OUT_GRAD_COPY)
    if graph and rule & OUT_GRAD_NOT_IMPLEMENTED:
        # the values without their history, then out's own node
        written = out_write(name, out, make((<Tensor>result)._data) if isinstance(
            result, Tensor) else tuple([make((<Tensor>r)._data) for r in result]),
            fields, rule)
        for o in ((out,) if isinstance(result, Tensor) else out):
            OPS.not_implemented_node(<Tensor>o, operands, name)
        return written
    if isinstance(result, Tensor):
        return _out_write_one(<Tensor>out, <Tensor>result, copy, any_cast)
    cdef tuple outs = tuple([_out_write_one(<Tensor>o, <Tensor>r, copy, any_cast)
                             for o, r in zip(out, result)])
    if fields is None:
        return outs
    return named_result(name + "_out", fields, outs)
