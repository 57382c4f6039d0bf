# PyTorch's CPU generator and the samplers that draw from it (csrc/agc_random.c does the
# per-element work, linked into this module only). Every random op in the library draws
# through the functions below, so a seeded program reproduces PyTorch's numbers.
cimport numpy as cnp
from cpython.pythread cimport PyThread_type_lock
from libc.stdint cimport int32_t, uint32_t, uint64_t

from autograd_core._core.csrc cimport agc_gen
from autograd_core._core.dtype cimport dtype



cdef class Generator:
    # torch.Generator for the CPU: the mt19937 state and the cached normal samples,
    # and the lock every use of them holds (Note [Generator lock] in random.pyx)
    cdef agc_gen gen
    cdef PyThread_type_lock lock


# The generator an op draws from: `generator` (checked to be a Generator), or the default.
cdef Generator generator_or_default(object generator)

# Samplers. `like` gives the shape, the dtype and the order of the draws: PyTorch's
# kernels visit a tensor in memory order, so an in-place sampler passes its (possibly
# transposed) target; a new tensor passes a fresh array. Each returns a new C-contiguous
# array of like's shape and dtype.
cdef cnp.ndarray uniform_values(object generator, cnp.ndarray like, double lo, double hi)
cdef cnp.ndarray normal_values(object generator, cnp.ndarray like, double mean, double std)
# random_(from, to) with to=None meaning the dtype's top; from_=None: random_() / random_(to)
cdef cnp.ndarray random_values(object generator, cnp.ndarray like, object from_, object to)
cdef cnp.ndarray exponential_values(object generator, cnp.ndarray like, double lambd)
cdef cnp.ndarray cauchy_values(object generator, cnp.ndarray like, double median, double sigma)
cdef cnp.ndarray log_normal_values(object generator, cnp.ndarray like, double mean, double std)
cdef cnp.ndarray geometric_values(object generator, cnp.ndarray like, double p)
cdef cnp.ndarray bernoulli_scalar_values(object generator, cnp.ndarray like, double p)
# p: probabilities already broadcast to like's shape (float32 or float64)
cdef cnp.ndarray bernoulli_tensor_values(object generator, cnp.ndarray like, cnp.ndarray p)
cdef cnp.ndarray randperm_values(object generator, Py_ssize_t n)
cdef cnp.ndarray poisson_values(object generator, cnp.ndarray rates)
cdef cnp.ndarray binomial_values(object generator, cnp.ndarray count, cnp.ndarray prob)
# multinomial with replacement over the rows of a 2-D float array (checked by the caller)
cdef cnp.ndarray multinomial_with_replacement(object generator, cnp.ndarray probs,
                                              Py_ssize_t n_sample)
# _standard_gamma: a sample per alpha (float32 or float64), drawn in C order of its shape
cdef cnp.ndarray standard_gamma_values(object generator, cnp.ndarray alpha)
# _sample_dirichlet: gammas in double, normalised over the last dim, clamped into (0, 1)
cdef cnp.ndarray dirichlet_values(object generator, cnp.ndarray alpha)
# the reparameterised gradients (not random; arrays of one float dtype, one shape)
cdef cnp.ndarray standard_gamma_grad_values(cnp.ndarray alpha, cnp.ndarray x)
cdef cnp.ndarray dirichlet_grad_values(cnp.ndarray x, cnp.ndarray alpha, cnp.ndarray total)
