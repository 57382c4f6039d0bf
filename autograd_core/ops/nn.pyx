"""Neural-network ops (autograd_core.nn.functional's compiled part): activations,
softmax, losses, linear, padding, normalisation layers, embedding, dropout,
im2col/col2im, convolution and pooling.

One extension module, split by family as PyTorch's aten/src/ATen/native/ is: this file
holds the shared constants and helpers and includes one piece per family, each headed
by what it holds: _nn_activation.pxi (relu family ... gelu, softmax), _nn_attention.pxi
(scaled dot-product attention), _nn_loss.pxi, _nn_linear.pxi (and the buffer cache),
_nn_padding.pxi, _nn_distance.pxi, _nn_normalization.pxi, _nn_embedding.pxi,
_nn_dropout.pxi, _nn_convolution.pxi (im2col/col2im, convolution, conv_tbc),
_nn_pixel_shuffle.pxi, _nn_pooling.pxi, _nn_grid_sample.pxi (affine_grid, grid_sample).
The pieces share one namespace (a cdef function of one is called from another, e.g.
pooling's windows from convolution's im2col), so they are included, not compiled apart;
a jvp helper sits beside its op. setup.py's cythonize follows the includes: editing a
piece rebuilds this module.

Their nodes, wiring and Python wrappers are generated from the nn section of
derivatives.yaml (_gen_nn.pxi, included at the end); this file holds the forwards and
the derivative helpers the formulas call (named like PyTorch's FunctionsManual). As
everywhere, the helpers are written in the library's own ops (through OPS), so
create_graph and higher orders work; a few compute plain numpy values when grad mode
is off (outside create_graph), where no graph is wanted.

Note [Gradient ops that take the input]
PyTorch's backward of several nn ops (leaky_relu, hardtanh, nll_loss, pooling,
reflection padding ...) is an op of its own whose inputs are the incoming gradient AND
the forward input, with a zero derivative for the latter. Under create_graph the
first-order gradient therefore requires grad and its second derivative w.r.t. the
input is a zero tensor (not None). Those backward ops are table entries here
(leaky_relu_backward, nll_loss_backward, ...) with `self: zeros_like(grad)`.

Note [Backward links]
PyTorch's layer_norm, batch_norm and convolution backwards are ops of their own too
(native_layer_norm_backward, ...), whose nodes (NativeLayerNormBackwardBackward0, ...)
make every gradient they return depend on all their inputs. Here those first-order
gradients are computed in differentiable ops, and under create_graph each is passed
through a link op (_layer_norm_backward_link, ...) that records PyTorch's node: the
gradient flows through unchanged, and the input and weight edges get what PyTorch's
double-backward formulas give them beyond that (None, or zeros).

>>> import autograd_core as torch
>>> import autograd_core.nn.functional as F
>>> x = torch.tensor([[1., 2.]], requires_grad=True)
>>> F.log_softmax(x, 1).grad_fn.name()
'LogSoftmaxBackward0'
"""
include "_prelude.pxi"
from autograd_core._core.random cimport bernoulli_scalar_values, random_values
from libc.math cimport fabs, sqrt
from libc.stdint cimport int64_t, uint8_t

from cpython.pycapsule cimport PyCapsule_New
from libc.string cimport strcpy
from autograd_core._core.numpy_api cimport (
    PyDataMem_Handler, PyDataMemAllocator, PyDataMem_SetHandler)

import itertools
import math

# the C loops of csrc/agc_nn.c run on the process's thread pool (csrc/agc_parallel.h)
agc_nn_set_parallel_for(parallel_for_entry())

cdef double SQRT1_2 = 0.70710678118654752440
cdef double INV_SQRT_2PI = 0.39894228040143267794
cdef double SQRT_2_PI = 0.79788456080286535588   # sqrt(2 / pi)
cdef double GELU_C = 0.044715

# PyTorch's reduction enum (at::Reduction)
cdef enum Reduction:
    REDUCTION_NONE = 0
    REDUCTION_MEAN = 1
    REDUCTION_SUM = 2

# the non-constant padding modes
cdef enum PadMode:
    PAD_REFLECT = 0
    PAD_REPLICATE = 1
    PAD_CIRCULAR = 2


# ================================================================ helpers

cdef inline cnp.ndarray cast_like(object arr, cnp.ndarray like):
    """arr with like's dtype (numpy may widen a scalar result)."""
    cdef cnp.ndarray a = as_array(arr)
    if cnp.PyArray_TYPE(a) != cnp.PyArray_TYPE(like):
        a = cast_array(a, dtype_of(like))  # (bfloat16 through float)
    return a


cdef inline Tensor const(object arr):
    """A constant (no history) from numpy values."""
    return make(as_array(arr))


cdef Tensor reduce_loss(Tensor loss, object reduction):
    """A loss tensor reduced as reduction says (recorded: MeanBackward0 / SumBackward0)."""
    if reduction == REDUCTION_MEAN:
        return OPS.mean(loss, None, False, None)
    if reduction == REDUCTION_SUM:
        return OPS.sum(loss, None, False, None)
    return loss


cdef cnp.ndarray reduce_loss_values(cnp.ndarray loss, object reduction):
    if reduction == REDUCTION_NONE:
        return loss
    # PyTorch reduces these losses with its mean / sum: the same summation order
    # (Note [Sum order] in csrc/agc_sum.h), through the reduce family's forwards
    if reduction == REDUCTION_MEAN:
        return cast_like(OPS.mean(const(loss), None, False, None)._data, loss)
    return cast_like(OPS.sum(const(loss), None, False, None)._data, loss)


cdef void check_not_differentiable(str fname, str arg, Tensor t) except *:
    if t is not None and requires_grad_of(t) and grad_enabled():
        raise RuntimeError(
            f"The function '{fname}' is not differentiable with respect to argument '{arg}'. "
            "This input cannot have requires_grad True.")


cdef tuple pair(object v, str name, int n=2):
    """An int or a sequence of n (or 1) ints as a tuple of n ints."""
    if isinstance(v, Tensor):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        if len(v) == 1:
            return tuple([int(v[0])] * n)
        if len(v) != n:
            raise RuntimeError(f"{name} must be a number or a tuple of {n} numbers")
        return tuple([int(a) for a in v])
    return tuple([int(v)] * n)


cdef inline Py_ssize_t floor_div(Py_ssize_t a, Py_ssize_t b):
    return a // b if a >= 0 else -((-a + b - 1) // b)


cdef inline Py_ssize_t conv_out(Py_ssize_t size, Py_ssize_t p_total, Py_ssize_t k,
                                Py_ssize_t d, Py_ssize_t s):
    return floor_div(size + p_total - d * (k - 1) - 1, s) + 1


cdef inline bint c_float(cnp.ndarray a):
    """float32 or float64: the dtypes the C loops of csrc/agc_nn.c are written for."""
    cdef int t = cnp.PyArray_TYPE(a)
    return t == cnp.NPY_FLOAT32 or t == cnp.NPY_FLOAT64


cdef inline object numel(Tensor t):
    return cnp.PyArray_SIZE(t._data)


# ================================================================ the families
# (one piece per family: the module docstring lists them)
include "_nn_activation.pxi"
include "_nn_attention.pxi"
include "_nn_loss.pxi"
include "_nn_linear.pxi"
include "_nn_padding.pxi"
include "_nn_distance.pxi"
include "_nn_normalization.pxi"
include "_nn_embedding.pxi"
include "_nn_dropout.pxi"
include "_nn_convolution.pxi"
include "_nn_pixel_shuffle.pxi"
include "_nn_pooling.pxi"
include "_nn_grid_sample.pxi"

include "_gen_nn.pxi"
