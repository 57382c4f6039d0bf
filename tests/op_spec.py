"""The machinery of the op table: Case, OpSpec, input domains and input building.

The table itself is split by op family (op_table_core.py, op_table_shape_index.py,
op_table_elementwise.py, op_table_reduce_linalg.py, op_table_nn.py); each family imports
only this module, and op_table.py collects every family's entries (test_ops_differential.py
and test_gradcheck.py read op_table.OPS).

Each OpSpec applies one op through ``fn(mod, *inputs)`` where ``mod`` is ``torch`` or
``autograd_core`` (the same code runs on both).  A Case lists the op's inputs: a tuple
(a shape: a float tensor of that shape is made) or a Python number (passed as is).
Adding an OpSpec or a Case adds tests to test_ops_differential.py and test_gradcheck.py.

Domains (per op, or per tensor input as a tuple, or overridden per case):
  real      standard normal values
  positive  |x| + 0.5                   (log, sqrt, fractional powers, pow base)
  nonzero   sign(x) * (|x| + 0.3)       (abs, relu, divisors, masks: no kinks or ties at 0)
  distinct  a shuffled grid, step 0.25  (max/min: no ties, and gradcheck-safe)
  ties      small integers              (max/min ties; not differentiable: no gradcheck)
  zeros     normal values with exact zeros (abs/relu subgradient at 0; no gradcheck)

Non-contiguous inputs (Case.nc, one entry per tensor input):
  "t"     the leaf has the last two dims swapped and the op gets ``leaf.transpose(-1, -2)``
  "step"  the leaf has dim 0 doubled and the op gets ``leaf[::2]``
The leaf's gradient is what the tests compare.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Callable

import numpy as np

FLOAT_DTYPES = ("float32", "float64")


@dataclass(frozen=True)
class Case:
    inputs: tuple                 # shapes (tuples) or Python scalars, in fn's argument order
    nc: tuple = ()                # per tensor input: None | "t" | "step"
    no_grad: tuple = ()           # indices (among tensor inputs) of leaves without requires_grad
    domain: object = None         # overrides the op's domain for this case
    id: str | None = None

    @property
    def smooth(self):
        """False for cases at a kink or tie (excluded from numerical gradient checks)."""
        doms = self.domain if isinstance(self.domain, tuple) else (self.domain,)
        return not any(d in ("ties", "zeros") for d in doms)


def C(*inputs, nc=(), ng=(), domain=None, id=None):
    return Case(tuple(inputs), tuple(nc), tuple(ng), domain, id)


@dataclass
class OpSpec:
    name: str
    fn: Callable
    cases: list
    grad_fns: tuple               # grad_fn class names PyTorch gives the op's output(s)
    domain: object = "real"       # str, or a tuple with one domain per tensor input
    dtypes: tuple = FLOAT_DTYPES
    inner_grad_fns: tuple = ()    # nodes PyTorch puts below the output's grad_fn (each case)
    double_grad_fns: tuple = ()   # grad_fn names of the first-order grads under create_graph
    second_order: bool = True     # PyTorch's second derivative is nonzero for some case
    gradcheck: bool = True        # False: excluded from (grad)gradcheck (e.g. float32 output)
    double_backward: bool = True  # False: PyTorch's second derivative raises (not compared)


# ------------------------------------------------------------------ input building

def is_shape(x):
    return isinstance(x, tuple)


def case_seed(*parts):
    return zlib.crc32("|".join(str(p) for p in parts).encode())


def _domain_values(rng, shape, domain):
    n = int(np.prod(shape, dtype=np.int64))
    if domain == "real":
        a = rng.standard_normal(n)
    elif domain == "positive":
        a = np.abs(rng.standard_normal(n)) + 0.5
    elif domain == "nonzero":
        x = rng.standard_normal(n)
        a = np.where(x >= 0, 1.0, -1.0) * (np.abs(x) + 0.3)
    elif domain == "distinct":
        a = (rng.permutation(n) - n / 2.0) * 0.25 + rng.uniform(-0.05, 0.05, n)
    elif domain == "ties":
        a = rng.integers(-1, 2, n).astype(np.float64)
    elif domain == "zeros":
        a = rng.standard_normal(n)
        a[rng.random(n) < 0.4] = 0.0
        if n:
            a[0] = 0.0
    else:
        raise ValueError(f"unknown domain {domain!r}")
    return a.reshape(shape)


def _leaf_shape(shape, nc):
    if nc is None:
        return shape
    if nc == "t":
        assert len(shape) >= 2, "'t' needs a tensor of 2 or more dims"
        return shape[:-2] + (shape[-1], shape[-2])
    if nc == "step":
        assert len(shape) >= 1, "'step' needs a tensor of 1 or more dims"
        return (2 * shape[0],) + shape[1:]
    raise ValueError(f"unknown non-contiguity {nc!r}")


def make_arrays(spec, case, dtype, seed):
    """The leaves' numpy arrays (one per tensor input), from a fixed seed."""
    rng = np.random.default_rng(seed)
    domain = case.domain if case.domain is not None else spec.domain
    arrays = []
    k = 0
    for x in case.inputs:
        if not is_shape(x):
            continue
        d = domain[k] if isinstance(domain, tuple) else domain
        nc = case.nc[k] if k < len(case.nc) else None
        arrays.append(_domain_values(rng, _leaf_shape(x, nc), d).astype(dtype))
        k += 1
    return arrays


def make_leaves(mod, arrays, case, requires_grad=True):
    return [mod.tensor(a.copy(), requires_grad=requires_grad and k not in case.no_grad)
            for k, a in enumerate(arrays)]


def apply_case(spec, case, mod, leaves):
    """Run the op on the leaves (made non-contiguous as the case asks) and the scalars."""
    return spec.fn(mod, *case_args(case, leaves))


def case_args(case, leaves):
    """fn's arguments: the leaves (made non-contiguous as the case asks) and the scalars."""
    args = []
    k = 0
    for x in case.inputs:
        if not is_shape(x):
            args.append(x)
            continue
        t = leaves[k]
        nc = case.nc[k] if k < len(case.nc) else None
        if nc == "t":
            t = t.transpose(-1, -2)
        elif nc == "step":
            t = t[::2]
        args.append(t)
        k += 1
    return args


def case_id(spec, i):
    c = spec.cases[i]
    if c.id:
        return f"{spec.name}-{c.id}"
    parts = []
    k = 0
    for x in c.inputs:
        if is_shape(x):
            s = "x".join(map(str, x)) or "0d"
            nc = c.nc[k] if k < len(c.nc) else None
            if nc:
                s += f"~{nc}"
            if k in c.no_grad:
                s += "~ng"
            parts.append(s)
            k += 1
        else:
            parts.append(repr(x))
    return f"{spec.name}-{'_'.join(parts)}"


def numel(case):
    return sum(int(np.prod(x)) for x in case.inputs if is_shape(x))


# ------------------------------------------------------------------ building a family's table

def registrar(ops, **defaults):
    """A function ``op(name, fn, cases, grad_fns, **kwargs)`` that appends an OpSpec to
    ``ops`` (kwargs not given take ``defaults``): each family table's ``op``."""
    def op(*args, **kwargs):
        for k, v in defaults.items():
            kwargs.setdefault(k, v)
        ops.append(OpSpec(*args, **kwargs))
    return op


def complex_dual_inputs(spec, case):
    """A case's float64 inputs made complex (an imaginary part drawn from its seed) and a
    complex tangent for each: the complex forward-AD tables' inputs."""
    seed = case_seed(spec.name, case.inputs)
    arrays = make_arrays(spec, case, "float64", seed)
    g = np.random.default_rng(seed + 7)
    arrays = [a + 1j * g.standard_normal(a.shape) for a in arrays]
    rng = np.random.default_rng(seed + 1)
    tangents = [(rng.standard_normal(a.shape) + 1j * rng.standard_normal(a.shape))
                .astype(a.dtype) for a in arrays]
    return arrays, tangents
