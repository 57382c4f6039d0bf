"""torch.func differences from PyTorch found during integration, each compared with
PyTorch on the same program: reductions called as functions under vmap, non-tensor aux
of the has_aux transforms, and the dtype of binary ops on logically 0-d batched samples
(Note [Function form of reductions], Note [Promotion of logically 0-d samples] in
autograd_core/func/_vmap.py)."""
import pytest

from _diff import data, same, warns

# ------------------------------------------------------------------ 1. reductions as functions

# each case: a function of (mod, t) for one sample t of shape (3, 4) (or (2, 4) for in_dims=1)
_REDUCTIONS = {
    "sum": lambda m, t: m.sum(t),
    "sum_dim": lambda m, t: m.sum(t, dim=1),
    "sum_dim_pos_keepdim": lambda m, t: m.sum(t, 1, keepdim=True),
    "sum_dtype": lambda m, t: m.sum(t, dtype=m.float64),
    "sum_neg_dim": lambda m, t: m.sum(t, -1),
    "sum_tuple_dims": lambda m, t: m.sum(t, (0, -1)),
    "sum_empty_dims": lambda m, t: m.sum(t, dim=[]),
    "mean": lambda m, t: m.mean(t),
    "mean_none": lambda m, t: m.mean(t, None),
    "mean_dim_keepdim": lambda m, t: m.mean(t, dim=0, keepdim=True),
    "mean_dtype": lambda m, t: m.mean(t, dtype=m.float64),
    "amax": lambda m, t: m.amax(t),
    "amax_dim": lambda m, t: m.amax(t, dim=1),
    "amin_pos": lambda m, t: m.amin(t, 0),
    "prod": lambda m, t: m.prod(t),
    "prod_dim": lambda m, t: m.prod(t, 1),
    "prod_dim_dtype": lambda m, t: m.prod(t, 1, dtype=m.float64),
    "std": lambda m, t: m.std(t),
    "std_unbiased": lambda m, t: m.std(t, False),
    "std_dim_correction": lambda m, t: m.std(t, dim=1, correction=0),
    "var": lambda m, t: m.var(t),
    "var_dim_keepdim": lambda m, t: m.var(t, 0, keepdim=True),
    "logsumexp": lambda m, t: m.logsumexp(t, 1),
    "logsumexp_dims": lambda m, t: m.logsumexp(t, dim=(0, 1)),
    "logsumexp_keepdim": lambda m, t: m.logsumexp(t, 0, keepdim=True),
    "max": lambda m, t: m.max(t),
    "max_dim": lambda m, t: m.max(t, 1),
    "max_dim_keepdim": lambda m, t: m.max(t, dim=1, keepdim=True),
    "min": lambda m, t: m.min(t),
    "min_dim": lambda m, t: m.min(t, 0),
    "argmax": lambda m, t: m.argmax(t),
    "argmax_dim": lambda m, t: m.argmax(t, 1),
    "argmin_dim": lambda m, t: m.argmin(t, dim=0),
    "norm": lambda m, t: m.norm(t),
    "all": lambda m, t: m.all(t > 0),
    "any_dim": lambda m, t: m.any(t > 0, dim=1),
    "nansum": lambda m, t: m.nansum(t),
    "nanmean_dim": lambda m, t: m.nanmean(t, 1),
    "median": lambda m, t: m.median(t),
    "median_dim": lambda m, t: m.median(t, 1),
    "std_mean_dim": lambda m, t: m.std_mean(t, 1),
    "var_mean": lambda m, t: m.var_mean(t),
    "count_nonzero": lambda m, t: m.count_nonzero(t > 0),
    "aminmax": lambda m, t: m.aminmax(t),
    "aminmax_dim": lambda m, t: m.aminmax(t, dim=1),
    "cumsum": lambda m, t: m.cumsum(t, 1),
    "method_sum": lambda m, t: t.sum(),
    "method_sum_keepdim": lambda m, t: t.sum(1, keepdim=True),
    "method_max": lambda m, t: t.max(),
    "method_max_dim": lambda m, t: t.max(dim=0),
    "method_std": lambda m, t: t.std(1),
    "method_mean_dtype": lambda m, t: t.mean(dtype=m.float64),
}


@pytest.mark.parametrize("case", sorted(_REDUCTIONS))
@pytest.mark.parametrize("how", ["in_dims0", "in_dims1", "nested"])
def test_vmap_reduction_function_form(case, how):
    fn = _REDUCTIONS[case]

    def prog(m):
        x = data(m, 2, 3, 4, seed=3).float()
        f = lambda t: fn(m, t)    # noqa: E731
        if how == "in_dims0":
            run = lambda: m.func.vmap(f)(x)    # noqa: E731
        elif how == "in_dims1":
            run = lambda: m.func.vmap(f, in_dims=1)(x)   # noqa: E731
        else:
            # samples of shape (3,) from a (2, 3, 4) batch: vmap over dims 2 then 0
            run = lambda: m.func.vmap(m.func.vmap(f, in_dims=1), in_dims=2)(x)  # noqa: E731
        # (the warnings too: a reduction with a batching rule in PyTorch takes no
        # per-sample fallback here)
        return warns(run)
    # nested: the samples are 1-d, so dim=1 cases raise PyTorch's IndexError
    same(prog, may_raise=(how == "nested"))


def test_vmap_reduction_function_form_matches_method_form():
    def prog(m):
        x = data(m, 4, 5, seed=1)
        return (m.func.vmap(lambda t: m.sum(t))(x), m.func.vmap(lambda t: t.sum())(x),
                m.func.vmap(lambda t: m.max(t, 0))(x), m.func.vmap(lambda t: t.max(0))(x))
    same(prog)


def test_vmap_binary_max_min_function_form():
    def prog(m):
        x, y = data(m, 3, 4, seed=1), data(m, 3, 4, seed=2)
        return warns(lambda: (m.func.vmap(m.max)(x, y), m.func.vmap(m.min)(x, y),
                              m.func.vmap(lambda a: m.max(a, y[0]))(x)))
    same(prog)


def test_vmap_reduction_bad_dim_error():
    def prog(m):
        x = data(m, 2, 3)
        return m.func.vmap(lambda t: m.sum(t, dim=3))(x)
    same(prog, must_raise=True)


# ------------------------------------------------------------------ 2. has_aux

_AUXES = {
    "int": lambda m, x: 3,
    "float": lambda m, x: 2.5,
    "none": lambda m, x: None,
    "str": lambda m, x: "aux",
    "dict_with_int": lambda m, x: {"a": x * 2, "b": 1},
    "tuple_mixed": lambda m, x: (x, 2),
    "list_of_tensors": lambda m, x: [x * 2, x.sum()],
    "dict_of_tensors": lambda m, x: {"a": x * 2},
    "tensor": lambda m, x: x.sin(),
    "empty_list": lambda m, x: [],
}


def _transform_call(m, api, aux_fn, x):
    vec = lambda t: (t ** 2, aux_fn(m, t))          # noqa: E731
    scalar = lambda t: ((t ** 2).sum(), aux_fn(m, t))   # noqa: E731
    F = m.func
    if api == "jvp":
        return F.jvp(vec, (x,), (m.ones_like(x),), has_aux=True)
    if api == "vjp":
        out, vjp_fn, aux = F.vjp(vec, x, has_aux=True)
        return out, vjp_fn(m.ones_like(out)), aux
    if api == "grad":
        return F.grad(scalar, has_aux=True)(x)
    if api == "grad_and_value":
        return F.grad_and_value(scalar, has_aux=True)(x)
    if api == "jacrev":
        return F.jacrev(vec, has_aux=True)(x)
    return F.jacfwd(vec, has_aux=True)(x)


@pytest.mark.parametrize("aux", sorted(_AUXES))
@pytest.mark.parametrize("api", ["jvp", "vjp", "grad", "grad_and_value", "jacrev", "jacfwd"])
def test_has_aux_non_tensor(api, aux):
    def prog(m):
        return _transform_call(m, api, _AUXES[aux], data(m, 3, seed=4))
    ok = aux in ("list_of_tensors", "dict_of_tensors", "tensor", "empty_list")
    same(prog, must_raise=not ok)


def test_grad_has_aux_output_error_comes_first():
    # grad checks its output before it unwraps aux: a non-scalar output wins
    def prog(m):
        return m.func.grad(lambda t: (t * 2, 1), has_aux=True)(data(m, 3))
    same(prog, must_raise=True)


def test_jvp_has_aux_not_a_pair():
    def prog(m):
        x = data(m, 3)
        return m.func.jvp(lambda t: t * 2, (x,), (x,), has_aux=True)
    same(prog, must_raise=True)


def test_has_aux_under_vmap():
    def prog(m):
        x = data(m, 2, 3, seed=5)
        g = m.func.grad(lambda t: ((t ** 3).sum(), {"sq": t ** 2}), has_aux=True)
        bad = m.func.grad(lambda t: ((t ** 3).sum(), {"n": 1}), has_aux=True)
        from _diff import catch
        return m.func.vmap(g)(x), catch(lambda: m.func.vmap(bad)(x))
    same(prog)


# ------------------------------------------------------------------ 3. dtype promotion

_BINARY = {
    "add": lambda m, a, b: m.add(a, b),
    "radd_operator": lambda m, a, b: b + a,
    "mul": lambda m, a, b: m.mul(a, b),
    "sub": lambda m, a, b: a - b,
    "rsub": lambda m, a, b: b - a,
    "div": lambda m, a, b: a / b,
    "maximum": lambda m, a, b: m.maximum(a, b),
    "minimum": lambda m, a, b: m.minimum(b, a),
    "max_binary": lambda m, a, b: m.max(a, b),
    "atan2": lambda m, a, b: m.atan2(a, b),
    "pow": lambda m, a, b: m.pow(a.abs() + 1, b),
    "fmax": lambda m, a, b: m.fmax(a, b),
    "hypot": lambda m, a, b: m.hypot(a, b),
    "copysign": lambda m, a, b: m.copysign(a, b),
    "fmod": lambda m, a, b: m.fmod(a, b),
    "xlogy": lambda m, a, b: m.xlogy(a, b.abs() + 1),
    "logaddexp": lambda m, a, b: m.logaddexp(a, b),
    "eq": lambda m, a, b: a == b,
    "lt": lambda m, a, b: m.lt(a, b),
    "method_mul": lambda m, a, b: b.mul(a),
    # PyTorch's own rules for these promote the physical operands (kept as PyTorch)
    "where": lambda m, a, b: m.where(b > 0, a, b),
    "clamp_tensor_min": lambda m, a, b: m.clamp(b, a),
    "addcmul": lambda m, a, b: m.addcmul(b, a, b),
    "addcdiv": lambda m, a, b: m.addcdiv(b, b, a),
    "lerp": lambda m, a, b: m.lerp(b, b, a),
}

# (batched samples' dtype, other operand, in_dims): the batched operand a is logically 0-d
_OPERANDS = {
    "f64_sample_f32_vector": ("float64", "f32_vec", (0, None)),
    "f32_sample_f64_vector": ("float32", "f64_vec", (0, None)),
    "int_sample_f32_vector": ("int64", "f32_vec", (0, None)),
    "f64_sample_int_vector": ("float64", "int_vec", (0, None)),
    "f64_sample_batched_f32_rows": ("float64", "f32_rows", (0, 0)),
    "f32_sample_f64_0d": ("float32", "f64_0d", (0, None)),
    "f64_sample_bool_vector": ("float64", "bool_vec", (0, None)),
    "int_sample_int32_vector": ("int64", "i32_vec", (0, None)),
}


def _operands(m, sample_dtype, other):
    a = (data(m, 3, seed=7) * 3).to(getattr(m, sample_dtype))
    vec = data(m, 4, seed=8) * 3
    b = {"f32_vec": vec.float(), "f64_vec": vec, "int_vec": vec.long(),
         "f32_rows": data(m, 3, 4, seed=9).float(), "f64_0d": vec[0],
         "bool_vec": vec > 0, "i32_vec": vec.int()}[other]
    return a, b


@pytest.mark.parametrize("operands", sorted(_OPERANDS))
@pytest.mark.parametrize("op", sorted(_BINARY))
def test_vmap_binary_promotion_of_logical_scalar(op, operands):
    sample_dtype, other, in_dims = _OPERANDS[operands]

    def prog(m):
        a, b = _operands(m, sample_dtype, other)
        f = lambda x, y: _BINARY[op](m, x, y)     # noqa: E731
        return m.func.vmap(f, in_dims=in_dims)(a, b)
    # (int samples with float-only ops, bool operands with some ops: PyTorch's errors)
    same(prog, may_raise=True)


def test_vmap_maximum_float64_sample_float32_vector_is_float32():
    # the reported case, spelled out
    def prog(m):
        a = m.tensor([1.5, -2.0, 3.0], dtype=m.float64)
        b = m.tensor([0.5, 1.0, -1.0, 2.0])
        r = m.func.vmap(m.maximum, in_dims=(0, None))(a, b)
        return r, r.dtype
    got = same(prog)
    assert str(got[1]) == "autograd_core.float32"


def test_vmap_promotion_nested_levels():
    def prog(m):
        a = data(m, 2, 3, seed=1)                       # float64 samples, 0-d inside both
        b = data(m, 4, seed=2).float()
        inner = m.func.vmap(lambda x, y: m.add(x, y), in_dims=(0, None))
        return m.func.vmap(inner, in_dims=(0, None))(a, b)
    same(prog)


def test_vmap_promotion_gradient():
    # the cast is part of the graph: gradients come back in the input's dtype
    def prog(m):
        a = data(m, 3, seed=1, requires_grad=True)
        b = data(m, 4, seed=2).float()
        r = m.func.vmap(m.mul, in_dims=(0, None))(a, b)
        r.sum().backward()
        return r, a.grad
    same(prog)


@pytest.mark.parametrize("transform", ["grad", "vjp", "jacrev", "vmap grad"])
def test_results_differentiable_through_closures(transform):
    # PyTorch's outer autograd level differentiates a transform's results w.r.t. tensors
    # the function closes over (a module's parameters): they carry a grad_fn and a loss
    # built from them reaches the closure's .grad (a detached result dropped that term)
    def prog(m):
        fn = m.func
        w = m.tensor([2.0, 3.0], requires_grad=True)
        x = m.tensor([1.0, 4.0])
        f = lambda a: (a * w).sin()
        if transform == "grad":
            r = fn.grad(lambda a: f(a).sum())(x)
        elif transform == "vjp":
            r = fn.vjp(f, x)[1](m.ones(2))[0]
        elif transform == "jacrev":
            r = fn.jacrev(f)(x)
        else:
            r = fn.vmap(fn.grad(lambda a: f(a).sum()), in_dims=1)(x.unsqueeze(1))
        r.pow(2).sum().backward()
        return r.detach(), r.requires_grad, type(r.grad_fn).__name__, w.grad
    same(prog)
