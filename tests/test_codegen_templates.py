"""The templated forwards of ops/derivatives.yaml (the `forward:` key, ops/_codegen.py):
the generator's wiring (which node a template records, what an in-place template
commits) and the ops moved into the table, each compared with PyTorch (values,
gradients, grad_fn names, errors)."""
import glob
import os
import re
import runpy

import pytest

from _diff import catch, data, graph_desc, same, same_error

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS_DIR = os.path.join(ROOT, "autograd_core", "ops")
CODEGEN = runpy.run_path(os.path.join(OPS_DIR, "_codegen.py"))


def _ops():
    return {op.name: op for op in CODEGEN["load_table"](os.path.join(OPS_DIR, "derivatives.yaml"))}


OPS = _ops()


# ------------------------------------------------------------------ the generator

def _family_source(family):
    """A family module's hand-written code: <family>.pyx and the pieces it includes
    (ops/_<family>_<piece>.pxi, a large family split by files)."""
    paths = [os.path.join(OPS_DIR, f"{family}.pyx")]
    paths += sorted(glob.glob(os.path.join(OPS_DIR, f"_{family}_*.pxi")))
    return "".join(open(p).read() for p in paths)


def test_every_template_has_its_values_function_in_its_family_module():
    code = {}
    missing = []
    for op in OPS.values():
        if op.forward == "manual":
            continue
        template = re.match(r"(\w+)\(", op.forward).group(1)
        if template == "inplace":
            template = re.match(r"inplace\((\w+)\(", op.forward).group(1)
        if template in ("inplace_of", "random_sampler") or template in CODEGEN["_COMPOSED_FORWARDS"]:
            continue                      # written by the generator itself
        src = code.setdefault(op.family, _family_source(op.family))
        if not re.search(rf"^cdef (?:inline )?[\w.]+ {template}_values\(", src, re.M):
            missing.append((op.name, template))
    assert not missing


def test_templated_forwards_are_not_also_written_by_hand():
    dup = []
    for op in OPS.values():
        if op.forward == "manual":
            continue
        if re.search(rf"^cdef \w+ {op.cname}\(", _family_source(op.family), re.M):
            dup.append(op.name)
    assert not dup


def test_inplace_variants_are_not_also_written_by_hand():
    # (the in-place driver writes op_<name>_ of every row with `inplace:`)
    dup = [op.inplace for op in OPS.values() if op.inplace and re.search(
        rf"^cdef \w+ op_{op.inplace}\(", _family_source(op.family), re.M)]
    assert not dup


@pytest.mark.parametrize("name", ["scatter_reduce", "index_reduce", "nan_to_num"])
def test_complex_autograd_of_the_inplace_variant_only(name):
    # Note [Complex autograd of the in-place variant only]: the functional form is the
    # hand-written <name>_forward with the refusal after it; the in-place variant calls
    # <name>_forward itself
    op = OPS[name]
    assert op.complex_autograd == "inplace_only" and op.inplace == name + "_"
    src = _family_source(op.family)
    assert re.search(rf"^cdef Tensor {name}_forward\(", src, re.M)
    assert not re.search(rf"^cdef \w+ op_{name}_?\(", src, re.M)
    code = CODEGEN["gen_complex_refusal"](op)
    assert re.search(rf"cdef Tensor result = {name}_forward\(self, ", code)
    assert f'raise complex_output_autograd_error("{name}")' in code
    inplace = CODEGEN["gen_inplace_impl"](op)
    assert f"inplace_commit(self, {name}_forward(_self_source, " in inplace
    assert f"op_{name}(" not in inplace.replace(f"op_{name}_(", "")


def test_complex_autograd_marker_needs_an_inplace_variant():
    TableError = CODEGEN["TableError"]
    entry = {"func": "frac(Tensor self) -> Tensor", "node": "FracBackward0",
             "self": "grad", "complex_autograd": "inplace_only"}
    with pytest.raises(TableError):
        CODEGEN["_parse_entry"]("pointwise", entry)
    with pytest.raises(TableError):
        CODEGEN["_parse_entry"]("pointwise", {**entry, "inplace": True,
                                              "complex_autograd": "always"})
    assert CODEGEN["_parse_entry"]("pointwise", {**entry, "inplace": True}).complex_autograd \
        == "inplace_only"


def test_always_position_rows():
    # Note [Keyword or positional]: the arguments a row lists give their position in
    # messages however they came; a list serves every wrapper, a mapping one kind
    TableError = CODEGEN["TableError"]
    entry = {"func": "f(Tensor self, float p=2.0, int q=0) -> Tensor", "variants": "function, method"}
    op = CODEGEN["_parse_entry"]("pointwise", {**entry, "always_position": "p"})
    assert op.always_position == {"function": {"p"}, "method": {"p"}}
    op = CODEGEN["_parse_entry"]("pointwise", {**entry, "always_position": {"method": ["q"]}})
    assert op.always_position == {"method": {"q"}}
    fn = CODEGEN["gen_wrapper"](op, "_py_f", "OPS.f", "f")
    meth = CODEGEN["gen_wrapper"](op, "_pym_f", "OPS.f", "f", method=True)
    assert 'arg_int(q, "f", "q", (3 if _a2 is not ARG_MISSING else 0))' in fn
    assert 'arg_int(q, "f", "q", 2)' in meth
    assert 'arg_float(p, "f", "p", (1 if _a1 is not ARG_MISSING else 0))' in meth
    for bad in ("r", "self", {"functional": ["p"]}):
        with pytest.raises(TableError):
            CODEGEN["_parse_entry"]("pointwise", {**entry, "always_position": bad})
    assert OPS["cdist"].always_position == {"function": {"p"}, "method": {"p"}}


def test_several_nodes_pick_by_which_operands_are_numbers():
    code = CODEGEN["gen_forward"](OPS["xlogy"])
    # xlogy(number, t): the node whose self is non_differentiable, then both tensors,
    # then other a number (the order the hand-written forward tested them in)
    assert re.findall(r"(if|elif|else)\b[^\n]*\n\s+record_(\w+)", code) == [
        ("if", "XlogyBackward1"), ("elif", "XlogyBackward0"), ("else", "XlogyBackward2")]
    assert "if not isinstance(self, Tensor):" in code
    assert "elif isinstance(other, Tensor):" in code


def test_inplace_template_records_on_the_source_and_commits():
    code = CODEGEN["gen_forward"](OPS["eq_"])
    assert "inplace_source(self, (other, ))" in code
    assert "cast_array(compare_values(_self_source, other, _np_equal), dtype_of(self._data))" in code
    assert "record_EqBackward1(result, _self_source, other)" in code
    assert code.rstrip().endswith("return inplace_commit(self, result)")


def test_dim_normalizing_templates_record_the_normalized_dim():
    code = CODEGEN["gen_forward"](OPS["cumsum"])
    assert "_v0, _dim = cumulative_values(self, dim, dtype, _np_cumsum, \"cumsum_out_cpu\")" in code
    assert "record_CumsumBackward0(result, self, _dim, dtype)" in code


def test_bad_template_uses_are_refused():
    TableError = CODEGEN["TableError"]
    op = OPS["normal_"]
    op2 = type(op)(**{**op.__dict__, "forward": "random_sampler(_normal_check)"})
    with pytest.raises(TableError):
        CODEGEN["gen_forward"](op2)
    op3 = type(op)(**{**OPS["add"].__dict__, "forward": "inplace_of(sub)"})
    with pytest.raises(TableError):
        CODEGEN["gen_forward"](op3)


# ------------------------------------------------------------------ the moved ops, against PyTorch

def _grad_prog(name, *args, **kwargs):
    def prog(mod):
        x = data(mod, 3, 4, requires_grad=True)
        out = getattr(mod, name)(x, *args, **kwargs)
        y = out[0] if isinstance(out, tuple) else out
        y.sum().backward()
        return tuple(out) if isinstance(out, tuple) else out, x.grad, y.grad_fn.name()
    return prog


@pytest.mark.parametrize("name,args", [
    ("cumsum", (-1,)), ("cumprod", (0,)), ("cummax", (1,)), ("cummin", (-2,)),
    ("amax", ((0, 1),)), ("amin", (-1, True)), ("max", (1,)), ("min", (0, True)),
    ("median", (-1,)), ("nanmedian", (0,)), ("median", ()), ("nanmedian", ()),
])
def test_moved_reductions_match_pytorch(name, args):
    same(_grad_prog(name, *args))


@pytest.mark.parametrize("name,args", [
    ("argmax", ()), ("argmax", (1, True)), ("argmin", (0,)),
    ("all", ()), ("any", (1,)), ("all", ((0, 1), True)),
])
def test_moved_index_reductions_match_pytorch(name, args):
    same(lambda mod: getattr(mod, name)(data(mod, 3, 4) > 0 if name in ("all", "any")
                                        else data(mod, 3, 4), *args))


def test_moved_reduction_errors_match_pytorch():
    same_error(lambda mod: mod.cumsum(data(mod, 2, 3), 2))
    same_error(lambda mod: mod.cumsum(data(mod, 2, 3), 0, dtype=mod.bool))
    same_error(lambda mod: mod.amax(mod.zeros(0, 3), 0))
    same_error(lambda mod: mod.argmax(mod.zeros(0)))
    same_error(lambda mod: mod.max(data(mod, 2, 3), 5))


@pytest.mark.parametrize("prog", [
    lambda mod: mod.xlogy(2.0, data(mod, 3, requires_grad=True, lo=0.1)),
    lambda mod: mod.xlogy(data(mod, 3, requires_grad=True), data(mod, 3, lo=0.1)),
    lambda mod: mod.xlogy(data(mod, 3, requires_grad=True), 3.0),
    lambda mod: mod.copysign(data(mod, 3, requires_grad=True), -2.0),
    lambda mod: mod.copysign(data(mod, 3, requires_grad=True), data(mod, 3, seed=1)),
    lambda mod: mod.fmod(data(mod, 3, requires_grad=True), 0.3),
    lambda mod: mod.fmod(data(mod, 3, requires_grad=True), data(mod, 3, seed=2, lo=0.5)),
    lambda mod: mod.hypot(data(mod, 3, requires_grad=True), data(mod, 3, seed=1)),
    lambda mod: mod.special.zeta(data(mod, 3, lo=2, hi=3), 2.0),
    lambda mod: mod.special.xlog1py(2.0, data(mod, 3, requires_grad=True)),
    lambda mod: mod.special.chebyshev_polynomial_t(data(mod, 4), 3),
    lambda mod: mod.add(data(mod, 3, requires_grad=True), data(mod, 3, seed=1), alpha=2),
    lambda mod: mod.sub(data(mod, 3, requires_grad=True), 1.5),
    lambda mod: mod.mul(data(mod, 3, requires_grad=True), data(mod, 3, seed=1)),
    lambda mod: mod.bitwise_left_shift(mod.tensor([1, 3, -4]), mod.tensor([1, 70, 2])),
    lambda mod: mod.bitwise_right_shift(mod.tensor([8, -8]), 2),
])
def test_moved_binaries_match_pytorch(prog):
    def run(mod):
        y = prog(mod)
        return y, graph_desc(y.grad_fn) if y.grad_fn is not None else None
    same(run)


def test_moved_binary_errors_match_pytorch():
    same_error(lambda mod: mod.hypot(mod.tensor([1, 2]), mod.tensor([3, 4])))
    same_error(lambda mod: mod.fmod(mod.tensor([True]), mod.tensor([True])))
    same_error(lambda mod: mod.fmod(mod.tensor([3]), 0))
    same_error(lambda mod: mod.bitwise_left_shift(mod.tensor([1.0]), 1))


@pytest.mark.parametrize("name", ["floor_divide_", "remainder_", "xlogy_",
                                  "bitwise_left_shift_", "bitwise_right_shift_",
                                  "eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
def test_moved_inplace_ops_match_pytorch(name):
    integer = "shift" in name

    def prog(mod):
        a = mod.tensor([5, -7, 9]) if integer else data(mod, 3, requires_grad=True) * 1
        r = getattr(a, name)(mod.tensor([1, 2, 1]) if integer else 0.25)
        return r, a, None if r.grad_fn is None else r.grad_fn.name()
    same(prog)


def test_inplace_comparison_with_a_tensor_records_the_tensor_node():
    def prog(mod):
        a = data(mod, 3, requires_grad=True) * 1
        a.lt_(data(mod, 3, seed=4))
        a.sum().backward()
        return a, a.grad_fn.name()
    same(prog)


def test_inplace_of_refuses_a_leaf_as_pytorch():
    same_error(lambda mod: data(mod, 3, requires_grad=True).remainder_(2))


@pytest.mark.parametrize("call", [
    lambda mod, t: t.normal_(std=-1.0),
    lambda mod, t: t.uniform_(2.0, 1.0),
    lambda mod, t: t.exponential_(-1.5),
    lambda mod, t: t.geometric_(1.5),
    lambda mod, t: t.log_normal_(std=-0.5),
    lambda mod, t: t.cauchy_(sigma=-0.5),
    lambda mod, t: t.long().normal_(),
    lambda mod, t: t.long().exponential_(),
    lambda mod, t: t.bool().geometric_(0.5),
    lambda mod, t: t.long().cauchy_(),
])
def test_random_sampler_errors_match_pytorch(call):
    same_error(lambda mod: call(mod, data(mod, 3)))


@pytest.mark.parametrize("name,args", [
    ("normal_", (0.0, 2.0)), ("uniform_", (-1.0, 1.0)), ("exponential_", (2.0,)),
    ("geometric_", (0.3,)), ("log_normal_", (0.0, 0.5)), ("cauchy_", (0.0, 1.0)),
])
def test_random_samplers_record_a_zero_derivative(name, args):
    def prog(mod):
        x = data(mod, 4, requires_grad=True)
        y = x * 1
        getattr(y, name)(*args)
        name_ = y.grad_fn.name()
        y.sum().backward()
        return name_, x.grad, bool(((y > -1e30) & (y < 1e30)).all())
    same(prog)


@pytest.mark.parametrize("prog", [
    lambda mod: mod.nn.functional.celu(data(mod, 2, 3, requires_grad=True), alpha=0.7),
    lambda mod: mod.nn.functional.celu(data(mod, 2, 3, requires_grad=True) * 1, 1.3,
                                       inplace=True),
    lambda mod: mod.nn.functional.channel_shuffle(data(mod, 1, 4, 2, 1, requires_grad=True), 2),
    lambda mod: mod.channel_shuffle(data(mod, 2, 6, 1, requires_grad=True), 3),
    lambda mod: mod.nn.functional.leaky_relu(data(mod, 2, 3, requires_grad=True) * 1, 0.2,
                                             inplace=True),
    lambda mod: mod.nn.functional.elu(data(mod, 2, 3, requires_grad=True) * 1, 0.5,
                                      inplace=True),
    lambda mod: mod.nn.functional.selu(data(mod, 2, 3, requires_grad=True) * 1, inplace=True),
])
def test_moved_nn_forwards_match_pytorch(prog):
    # celu, celu_, elu_ (elu's values), leaky_relu_ and channel_shuffle, templated since
    # ops/nn.pyx's split
    def run(mod):
        y = prog(mod)
        y.sum().backward()
        return y, graph_desc(y.grad_fn)
    same(run)


# leaky_relu, elu, hardtanh, threshold(_) and rrelu_with_noise(_) (issue 32 item 1): their
# values functions now lay the result out themselves, so the table writes the forwards

def _strided(mod, layout, dtype="float64", requires_grad=True):
    """A (3, 4) input: contiguous, transposed, a column slice, or 0-d."""
    if layout == "0d":
        x = data(mod, 1, dtype=dtype).reshape(())
    elif layout == "t":
        x = data(mod, 4, 3, dtype=dtype).t()
    elif layout == "slice":
        x = data(mod, 3, 8, dtype=dtype)[:, ::2]
    else:
        x = data(mod, 3, 4, dtype=dtype)
    return x.requires_grad_() if requires_grad else x


_LAID_OUT = [
    lambda mod, x: mod.nn.functional.leaky_relu(x, 0.2),
    lambda mod, x: mod.nn.functional.elu(x, 0.7),
    lambda mod, x: mod.nn.functional.selu(x),
    lambda mod, x: mod.nn.functional.celu(x, 1.3),
    lambda mod, x: mod.nn.functional.hardtanh(x, -0.3, 0.4),
    lambda mod, x: mod.nn.functional.relu6(x * 4),
    lambda mod, x: mod.threshold(x, 0.1, -2.0),
    lambda mod, x: mod.nn.functional.threshold(x, 0.1, 5.0),
    lambda mod, x: mod.nn.functional.rrelu(x, 0.1, 0.3),
    lambda mod, x: mod.nn.functional.rrelu(x, 0.1, 0.3, training=True),
]


@pytest.mark.parametrize("layout", ["c", "t", "slice", "0d"])
@pytest.mark.parametrize("fn", _LAID_OUT)
def test_moved_activations_match_pytorch(fn, layout):
    def run(mod):
        mod.manual_seed(0)
        x = _strided(mod, layout)
        y = fn(mod, x)
        (y * y).sum().backward()
        return y, y.stride(), graph_desc(y.grad_fn), x.grad
    same(run)


@pytest.mark.parametrize("layout", ["c", "t"])
@pytest.mark.parametrize("fn", [
    lambda mod, y: mod.nn.functional.hardtanh(y, -0.3, 0.4, inplace=True),
    lambda mod, y: mod.threshold_(y, 0.1, -2.0),
    lambda mod, y: mod.nn.functional.threshold(y, 0.1, 5.0, inplace=True),
    lambda mod, y: mod.nn.functional.relu6(y, inplace=True),
    lambda mod, y: mod.nn.functional.leaky_relu(y, 0.2, inplace=True),
    lambda mod, y: mod.nn.functional.rrelu(y, 0.1, 0.3, inplace=True),
])
def test_moved_inplace_activations_match_pytorch(fn, layout):
    def run(mod):
        mod.manual_seed(0)
        x = _strided(mod, layout)
        y = x * 1
        r = fn(mod, y)
        (r * r).sum().backward()
        return r is y, y, y.stride(), graph_desc(y.grad_fn), x.grad
    same(run)


@pytest.mark.parametrize("dtype", ["float32", "int64", "int32", "bool"])
@pytest.mark.parametrize("fn", [
    lambda mod, x: mod.nn.functional.leaky_relu(x, 0.2),
    lambda mod, x: mod.nn.functional.elu(x),
    lambda mod, x: mod.nn.functional.hardtanh(x, -1, 1),
    lambda mod, x: mod.nn.functional.hardtanh(x, -1.5, 0.5),
    lambda mod, x: mod.threshold(x, 0, 7),
    lambda mod, x: mod.threshold_(x.clone(), 0, 7),
    lambda mod, x: mod.nn.functional.rrelu(x),
])
def test_moved_activations_dtypes_and_errors_match_pytorch(fn, dtype):
    # the same values and dtype, or the same error, as PyTorch's kernels
    same(lambda mod: fn(mod, mod.tensor([-2, -1, 0, 1, 3]).to(getattr(mod, dtype))),
         may_raise=True)


def test_moved_activations_under_no_grad_write_into_non_contiguous_tensors():
    def run(mod):
        x = data(mod, 4, 3).t()
        with mod.no_grad():
            a = mod.threshold_(x, 0.0, 9.0)
        b = mod.nn.functional.hardtanh(data(mod, 4, 3).t(), inplace=True)
        return a is x, x, x.stride(), b, b.stride()
    same(run)


# (rrelu_with_noise_ is hand-written around its template's body: PyTorch refuses its
# forward AD after the write, Note [Forward AD refusals before the kernel])
@pytest.mark.parametrize("name", ["leaky_relu", "elu", "hardtanh", "threshold", "threshold_",
                                  "rrelu_with_noise"])
def test_activation_forwards_come_from_the_table(name):
    assert OPS[name].forward != "manual"


# ------------------------------------------------------------------ forwards composed of one call
# (issue 32 item 1) delegate, with_shape_of, each, backward_link, copy_of_view: rows whose
# forward is one call of another op or family helper

_COMPOSED = sorted(n for n, op in OPS.items()
                   if re.match(r"(delegate|with_shape_of|each|backward_link|copy_of_view|recorded_by)\(",
                               op.forward))


def test_composed_forwards_call_what_their_family_defines():
    # the function a row names is a table op of its family (op_<x>, OPS.<x>) or a cdef
    # helper written in the family module
    missing = []
    for name in _COMPOSED:
        op = OPS[name]
        m = re.match(r"\w+\(([\w.]*)", op.forward)
        fn = m.group(1)
        if not fn:
            continue                      # backward_link()
        if fn.startswith("OPS."):
            ok = fn[4:] in OPS
        elif fn.startswith("op_") and fn[3:] in OPS:
            ok = OPS[fn[3:]].family == op.family or any(o.inplace == fn[3:] and o.family == op.family
                                                        for o in OPS.values())
        else:
            ok = re.search(rf"^cdef (?:inline )?[\w.]+ {fn}\(", _family_source(op.family), re.M)
        if not ok:
            missing.append((name, fn))
    assert len(_COMPOSED) >= 40 and not missing


def test_composed_templates_write_the_call():
    gen = CODEGEN["gen_forward"]
    assert gen(OPS["swapaxes"]).splitlines()[1] == "    return op_transpose(self, axis0, axis1)"
    assert "return _chunk(self, chunks, dim, PIECES_UNSAFE)" in gen(OPS["unsafe_chunk"])
    assert "return dropout_impl(input, p, train, True, True)" in gen(OPS["feature_dropout_"])
    assert "return op_resize_(self, shape_of(the_template._data))" in gen(OPS["resize_as_"])
    assert "return tuple([_atleast(<Tensor>t, 2) for t in tensors])" in gen(OPS["atleast_2d"])
    code = gen(OPS["_batch_norm_backward_link"])
    assert "record_NativeBatchNormBackwardBackward0(result, grad_input, input, weight, training)" in code
    assert code.rstrip().endswith("return result if result._grad_fn is not None else grad_input")
    code = gen(OPS["view_copy"])
    assert "with NoGradGuard():\n        result = _copy_of(op_view(self, size))" in code
    assert "record_ViewBackward0_copy(result, self, size)" in code


@pytest.mark.parametrize("row,forward", [
    ("mul", "delegate(op_mul)"),              # a generated node nobody would record
    ("split", "delegate()"),
    ("view_as", "with_shape_of(op_view, 1)"),
    ("linalg_matmul", "with_shape_of(op_view)"),  # the first argument is not self
    ("linalg_diagonal", "with_shape_of(op_view)"),
    ("swapaxes", "each(_atleast, 1)"),
    ("swapaxes", "backward_link()"),          # no node
    ("_layer_norm_backward_link", "backward_link(grad)"),
    ("split", "copy_of_view(op_view)"),       # a manual node
])
def test_composed_templates_refuse_rows_of_another_shape(row, forward):
    op = OPS[row]
    bad = type(op)(**{**op.__dict__, "forward": forward})
    with pytest.raises(CODEGEN["TableError"]):
        CODEGEN["gen_forward"](bad)


def _run_graph(y, *leaves):
    ys = y if isinstance(y, tuple) else (y,)
    loss = sum((t.float() if not t.dtype.is_floating_point else t).sum() for t in ys
               if t.requires_grad)
    loss.backward()
    return (y, tuple(None if t.grad_fn is None else graph_desc(t.grad_fn) for t in ys),
            tuple(x.grad for x in leaves), tuple(t._is_view() for t in ys))


@pytest.mark.parametrize("call", [
    lambda mod, x: mod.swapaxes(x, 0, -1),
    lambda mod, x: x.swapaxes(1, 0),
    lambda mod, x: mod.moveaxis(x, 0, 1),
    lambda mod, x: mod.moveaxis(x, (0, 1), (1, 0)),
    lambda mod, x: mod.broadcast_to(x, (2, 3, 4)),
    lambda mod, x: x.broadcast_to(1, 3, 4),
    lambda mod, x: mod.split(x, 2, 1),
    lambda mod, x: mod.split(x, [1, 3], -1),
    lambda mod, x: x.split_with_sizes([2, 1], 0),
    lambda mod, x: mod.chunk(x, 3, 1),
    lambda mod, x: mod.unsafe_split(x, 2, 1),
    lambda mod, x: mod.unsafe_split_with_sizes(x, [3, 1], 1),
    lambda mod, x: mod.unsafe_chunk(x, 2, 0),
    lambda mod, x: mod.split_copy(x, 3, 1),
    lambda mod, x: mod.split_with_sizes_copy(x, [1, 1, 2], 1),
    lambda mod, x: mod.vsplit(x, 3),
    lambda mod, x: mod.vsplit(x, [1]),
    lambda mod, x: mod.dsplit(x.reshape(3, 2, 2), 2),
    lambda mod, x: x.view_as(x.new_zeros(4, 3)),
    lambda mod, x: x.reshape_as(x.new_zeros(2, 6)),
    lambda mod, x: x[:1].expand_as(x),
    lambda mod, x: mod.atleast_1d(x[0, 0]),
    lambda mod, x: mod.atleast_2d(x[0], x),
    lambda mod, x: mod.atleast_3d([x[0, 0], x[0], x]),
    lambda mod, x: mod.view_copy(x, (4, 3)),
    lambda mod, x: mod.t_copy(x),
    lambda mod, x: mod.expand_copy(x[:, :1], (3, 5)),
    lambda mod, x: mod.outer(x[0], x[1]),
    lambda mod, x: mod.ger(x[0], x[:, 1]),
    lambda mod, x: mod.linalg.matmul(x, x.t()),
    lambda mod, x: mod.matrix_exp(x[:, :3] * 0.5),
    lambda mod, x: mod.matrix_power(x[:, :3], 3),
    lambda mod, x: mod.inverse(x[:, :3] + 3 * mod.eye(3, dtype=x.dtype)),
    lambda mod, x: mod.linalg.diagonal(x, offset=1, dim1=1, dim2=0),
    lambda mod, x: mod.orgqr(x.reshape(4, 3), x[0, :2]),
    lambda mod, x: mod.dropout(x, 0.0, True),
    lambda mod, x: mod.dropout(x, 0.5, False),
    lambda mod, x: mod.feature_dropout(x, 1.0, True),
    lambda mod, x: mod.nn.functional.conv1d(x.reshape(1, 3, 4), x[:, :2].reshape(2, 3, 1), x[0, :2],
                                            padding="same"),
    lambda mod, x: mod.conv2d(x.reshape(1, 1, 3, 4), x[:2, :2].reshape(1, 1, 2, 2), x[0, :1], 1, 1, 2),
])
def test_composed_ops_match_pytorch(call):
    def prog(mod):
        x = data(mod, 3, 4, requires_grad=True)
        return _run_graph(call(mod, x), x)
    same(prog)


@pytest.mark.parametrize("call", [
    lambda mod, y: y.swapdims_(0, 1),
    lambda mod, y: y.swapaxes_(1, 0),
    lambda mod, y: mod.dropout_(y, 0.0, True),
    lambda mod, y: mod.feature_dropout_(y, 1.0, True),
])
def test_composed_inplace_ops_match_pytorch(call):
    def prog(mod):
        x = data(mod, 3, 4, requires_grad=True)
        y = x * 1
        v = y._version
        r = call(mod, y)
        desc = graph_desc(y.grad_fn)
        (r * r).sum().backward()
        return r is y, tuple(y.shape), y.stride(), y._version > v, desc, x.grad
    same(prog)


def test_resize_as_matches_pytorch():
    def prog(mod):
        x = data(mod, 3, 4)
        v = x._version
        r = x.resize_as_(mod.zeros(2, 5))
        return r is x, x, x.stride(), x._version > v
    same(prog)
    same_error(lambda mod: data(mod, 3, requires_grad=True).resize_as_(mod.zeros(2)))


def test_composed_ops_errors_match_pytorch():
    same_error(lambda mod: mod.swapaxes(data(mod, 2, 3), 0, 2))
    same_error(lambda mod: mod.moveaxis(data(mod, 2, 3), (0, 0), (1, 0)))
    same_error(lambda mod: mod.broadcast_to(data(mod, 2, 3), (3, 3)))
    same_error(lambda mod: mod.split(data(mod, 2, 3), 0, 1))
    same_error(lambda mod: mod.chunk(data(mod, 2, 3), 0))
    same_error(lambda mod: mod.vsplit(data(mod, 3), 1))
    same_error(lambda mod: mod.dsplit(data(mod, 3, 4, 5), 2))
    same_error(lambda mod: data(mod, 2, 3).view_as(data(mod, 4)))
    same_error(lambda mod: data(mod, 2, 3).expand_as(data(mod, 3, 2)))
    # PyTorch checks the sizes from the last dim: the error names the last mismatch
    same_error(lambda mod: mod.broadcast_to(data(mod, 2, 3), (-1, 4, 3)))
    same_error(lambda mod: data(mod, 2, 3).expand(4, 5))
    same_error(lambda mod: mod.hsplit(data(mod, 3, 5), 2))
    same_error(lambda mod: mod.view_copy(data(mod, 2, 3), (4,)))
    same_error(lambda mod: mod.t_copy(data(mod, 2, 3, 4)))
    same_error(lambda mod: mod.outer(data(mod, 2, 3), data(mod, 3)))
    same_error(lambda mod: mod.inverse(data(mod, 2, 3)))
    same_error(lambda mod: mod.matrix_power(data(mod, 2, 3), 2))
    same_error(lambda mod: mod.dropout(data(mod, 3), 1.5, True))
    same_error(lambda mod: mod.conv1d(data(mod, 1, 3, 4), data(mod, 2, 2, 1)))
    same_error(lambda mod: data(mod, 3, requires_grad=True).swapdims_(0, 0))


def test_convolution_without_bias_has_pytorch_edges():
    # a missing bias is a (None, 0) edge of ConvolutionBackward0, for every convolution
    def prog(mod):
        x = data(mod, 1, 1, 3, 4, requires_grad=True)
        x1 = data(mod, 1, 1, 4, requires_grad=True)
        x3 = data(mod, 1, 1, 3, 3, 3, requires_grad=True)
        w = data(mod, 1, 1, 2, 2, seed=1)
        return [graph_desc(mod.conv2d(x, w).grad_fn),
                graph_desc(mod.conv2d(x, w.requires_grad_()).grad_fn),
                graph_desc(mod.conv1d(x1, data(mod, 1, 1, 2, seed=2)).grad_fn),
                graph_desc(mod.conv3d(x3, data(mod, 1, 1, 2, 2, 2, seed=3)).grad_fn),
                graph_desc(mod.conv_transpose2d(x, w).grad_fn),
                graph_desc(mod.conv_transpose1d(x1, data(mod, 1, 1, 2, seed=2)).grad_fn),
                graph_desc(mod.conv2d(x[0], w).grad_fn)]
    same(prog)


def test_convolution_without_bias_backward_matches_pytorch():
    # the None edge takes no gradient: first and second order gradients unchanged
    def prog(mod):
        x = data(mod, 2, 2, 5, 5, requires_grad=True)
        w = data(mod, 3, 2, 3, 3, seed=1, requires_grad=True)
        y = mod.conv2d(x, w, padding=1)
        gx, gw = mod.autograd.grad((y * y).sum(), (x, w), create_graph=True)
        return [gx, gw, mod.autograd.grad(gx.sum() + gw.sum(), (x, w))]
    same(prog)


def test_composed_ops_out_arguments_match_pytorch():
    def prog(mod):
        a, b = data(mod, 3), data(mod, 4, seed=1)
        o1 = mod.empty(0, dtype=mod.float64)
        r1 = mod.outer(a, b, out=o1)
        o2 = mod.empty(2, 2, dtype=mod.float64)
        r2 = mod.view_copy(data(mod, 2, 3), (3, 2), out=o2)
        o3 = mod.empty(3, 3, dtype=mod.float64)
        r3 = mod.inverse(data(mod, 3, 3) + 3 * mod.eye(3, dtype=mod.float64), out=o3)
        return r1 is o1, o1, r2 is o2, o2, r3 is o3, o3
    same(prog)
    same_error(lambda mod: mod.matrix_power(data(mod, 3, 3), 2, out=mod.empty(3, 3)))


def test_composed_ops_complex_and_forward_ad_match_pytorch():
    def prog(mod):
        fwad = mod.autograd.forward_ad
        a = mod.tensor([[1 + 2j, 3 - 1j], [0.5j, 2.0]], dtype=mod.complex128)
        t = mod.tensor([[0.5, 1j], [1.0, -1j]], dtype=mod.complex128)
        out = []
        with fwad.dual_level():
            d = fwad.make_dual(a, t)
            for y in (mod.swapaxes(d, 0, 1), mod.outer(d[0], d[1]), mod.matrix_exp(d * 0.1),
                      mod.inverse(d), d.expand_as(mod.zeros(3, 2, 2)), mod.t_copy(d),
                      mod.linalg.diagonal(d), mod.split(d, 1)[1]):
                p, tan = fwad.unpack_dual(y)
                out += [p, tan]
        return out
    same(prog)


def _link_nodes(fn, depth=3):
    """The double-backward nodes (*BackwardBackward0) near the top of a gradient's graph
    (the edges below them follow how each library composes the first-order gradient:
    Note [Backward links])."""
    if fn is None or depth == 0:
        return set()
    found = {type(fn).__name__} if type(fn).__name__.endswith("BackwardBackward0") else set()
    for f, _ in fn.next_functions:
        found |= _link_nodes(f, depth - 1)
    return found


@pytest.mark.parametrize("fn", [
    lambda mod, x, w: mod.nn.functional.layer_norm(x, (4,), w),
    lambda mod, x, w: mod.nn.functional.batch_norm(x, None, None, w, training=True),
    lambda mod, x, w: mod.nn.functional.conv1d(x.unsqueeze(0), w.reshape(1, 1, 4).expand(3, 3, 4)),
    lambda mod, x, w: mod.nn.functional.grid_sample(x.reshape(1, 1, 3, 4),
                                                    w.reshape(1, 1, 2, 2) * 0.5,
                                                    align_corners=False),
    lambda mod, x, w: mod.nn.functional.grid_sample(x.reshape(1, 1, 1, 3, 4),
                                                    mod.cat([w, w[:2]]).reshape(1, 1, 1, 2, 3) * 0.5,
                                                    align_corners=True),
])
def test_backward_links_record_pytorch_double_backward_nodes(fn):
    # Note [Backward links]: the first-order gradients under create_graph come through
    # PyTorch's *BackwardBackward0 nodes, the same second-order values
    def prog(mod):
        x = data(mod, 3, 4, requires_grad=True)
        w = data(mod, 4, seed=3, requires_grad=True)
        y = fn(mod, x, w)
        gx, gw = mod.autograd.grad((y * y).sum(), (x, w), create_graph=True)
        names = (sorted(_link_nodes(gx.grad_fn)), sorted(_link_nodes(gw.grad_fn)))
        assert names[0]
        (gx.square().sum() + gw.sum()).backward()
        return names, gx, gw, x.grad, w.grad
    same(prog)


# ------------------------------------------------------------------ small templates of issue 32
# (issue 32 item 1) forwards that shared one shape with another, now written by the table:
# extremum_all (max(), min()), grid_sampler, fft_r2c / fft_c2r, triangle (tril, triu),
# shrink_backward, rsub, masked_fill, complex_parts (complex, polar), clamp_bound
# (clamp_min, clamp_max); alias_copy through copy_of_view

_MOVED_32 = ["max", "min", "grid_sampler_2d", "grid_sampler_3d", "_fft_r2c", "_fft_c2r", "tril",
             "triu", "hardshrink_backward", "softshrink_backward", "alias_copy", "rsub",
             "masked_fill", "complex", "polar", "clamp_min", "clamp_max"]


@pytest.mark.parametrize("name", _MOVED_32)
def test_shared_shape_forwards_come_from_the_table(name):
    assert OPS[name].forward != "manual"


def _grad_run(prog):
    """prog's result, its graph, and the gradients of its (real) sum w.r.t. the leaves."""
    def run(mod):
        y, leaves = prog(mod)
        out = y.real if y.is_complex() else y
        grads = mod.autograd.grad(out.sum(), leaves, allow_unused=True) if out.requires_grad \
            else None
        return y, graph_desc(y.grad_fn), grads
    return run


@pytest.mark.parametrize("prog", [
    lambda mod: (lambda x: (x.max(), [x]))(data(mod, 2, 3, requires_grad=True)),
    lambda mod: (lambda x: (mod.min(x), [x]))(mod.tensor([1., -2., -2.], requires_grad=True)),
    lambda mod: (mod.tensor([3, 1, 7]).max(), []),
    lambda mod: (lambda x, g: (mod.nn.functional.grid_sample(x, g, align_corners=False), [x, g]))(
        data(mod, 1, 2, 3, 4, requires_grad=True), data(mod, 1, 2, 2, 2, seed=1,
                                                        requires_grad=True)),
    lambda mod: (lambda x, g: (mod.nn.functional.grid_sample(x, g, mode="nearest",
                                                             align_corners=True), [x]))(
        data(mod, 1, 1, 2, 3, 2, requires_grad=True), data(mod, 1, 2, 1, 1, 3, seed=1)),
    lambda mod: (lambda x: (mod.fft.rfft2(x), [x]))(data(mod, 3, 4, requires_grad=True)),
    lambda mod: (lambda x: (mod.fft.irfft(x, n=6), [x]))(data(mod, 2, 4, requires_grad=True)),
    lambda mod: (lambda x: (mod.tril(x, -1), [x]))(data(mod, 2, 3, 4, requires_grad=True)),
    lambda mod: (lambda x: (x.triu(1), [x]))(data(mod, 3, 4, requires_grad=True)),
    lambda mod: (lambda x: (mod.alias_copy(x.t()), [x]))(data(mod, 3, 2, requires_grad=True)),
    lambda mod: (lambda x, y: (mod.rsub(x, y, alpha=2), [x, y]))(
        data(mod, 3, requires_grad=True), data(mod, 2, 1, seed=1, requires_grad=True)),
    lambda mod: (lambda x: (mod.rsub(x, 3), [x]))(data(mod, 3, requires_grad=True)),
    lambda mod: (lambda x, v: (x.masked_fill(x > 0, v), [x, v]))(
        data(mod, 2, 3, requires_grad=True), mod.tensor(0.5, dtype=mod.float64,
                                                        requires_grad=True)),
    lambda mod: (lambda x: (x.masked_fill(mod.tensor([True, False, True]), 2), [x]))(
        data(mod, 2, 3, requires_grad=True)),
    lambda mod: (lambda a, b: (mod.complex(a, b), [a, b]))(
        data(mod, 3, requires_grad=True), data(mod, 2, 1, seed=1, requires_grad=True)),
    lambda mod: (lambda a, b: (mod.polar(a, b), [a, b]))(
        data(mod, 3, lo=0.5, requires_grad=True), data(mod, 3, seed=1, requires_grad=True)),
    lambda mod: (lambda x, m: (mod.clamp_min(x, m), [x, m]))(
        data(mod, 2, 3, requires_grad=True), data(mod, 3, seed=1, requires_grad=True)),
    lambda mod: (lambda x: (x.clamp_max(0.25), [x]))(data(mod, 2, 3, requires_grad=True)),
    lambda mod: (mod.clamp_min(mod.tensor([1, 5, 3]), 2.5), []),
])
def test_shared_shape_forwards_match_pytorch(prog):
    same(_grad_run(prog))


@pytest.mark.parametrize("fn", ["hardshrink", "softshrink"])
def test_shrink_backward_from_the_table_double_backward(fn):
    def prog(mod):
        x = mod.tensor([-1.0, -0.2, 0.3, 2.0], dtype=mod.float64, requires_grad=True)
        v = mod.tensor([1.0, 2.0, 3.0, 4.0], dtype=mod.float64, requires_grad=True)
        (g,) = mod.autograd.grad(getattr(mod.nn.functional, fn)(x, 0.5), x, v,
                                 create_graph=True)
        (gv,) = mod.autograd.grad((g * g).sum(), v)
        return g, graph_desc(g.grad_fn), gv
    same(prog)


def test_shared_shape_forwards_errors_match_pytorch():
    same_error(lambda mod: mod.zeros(0).max())
    same_error(lambda mod: mod.min(mod.zeros(2, 0)))
    same_error(lambda mod: mod.tril(mod.arange(3.)))
    same_error(lambda mod: mod.arange(3.).triu_())
    same_error(lambda mod: mod.grid_sampler_2d(mod.zeros(1, 1, 2, 2), mod.zeros(1, 2, 2, 2,
                                                                               dtype=mod.float64),
                                               0, 0, False))
    same_error(lambda mod: mod.grid_sampler_3d(mod.zeros(1, 1, 2, 2, 2), mod.zeros(1, 2, 2, 2, 3),
                                               2, 0, False))
    same_error(lambda mod: mod.fft.rfft(mod.zeros(4, dtype=mod.complex64)))
    same_error(lambda mod: mod.fft.rfft(mod.zeros(0, 4)))
    same_error(lambda mod: mod.tensor([1., 2.]).masked_fill(mod.tensor([1, 0]), 1.0))
    same_error(lambda mod: mod.tensor([1., 2.]).masked_fill(mod.tensor([True, False]), 1 + 2j))
    same_error(lambda mod: mod.complex(mod.tensor([1, 2]), mod.tensor([1, 2])))
    same_error(lambda mod: mod.rsub(mod.tensor([True]), mod.tensor([True])))


@pytest.mark.parametrize("weights", [
    lambda mod: {"fweights": mod.tensor([1, 2, 1])},
    lambda mod: {"aweights": mod.tensor([1.0, 2.0, 0.5])},
    lambda mod: {"fweights": mod.tensor([1, 2, 1]), "aweights": mod.tensor([1.0, 2.0, 0.5])},
])
def test_cov_weights_match_pytorch(weights):
    same(lambda mod: mod.cov(mod.tensor([[1., 2., 4.], [3., 1., 0.]]), **weights(mod)))


@pytest.mark.parametrize("weights", [
    lambda mod: {"fweights": mod.tensor([1.0, 2.0, 1.0])},
    lambda mod: {"fweights": mod.tensor([True, True, False])},
    lambda mod: {"aweights": mod.tensor([1, 2, 1])},
    lambda mod: {"fweights": mod.tensor([1, -2, 1])},
    lambda mod: {"aweights": mod.tensor([1.0, -2.0, 1.0])},
    lambda mod: {"fweights": mod.tensor([[1, 2, 1]])},
    lambda mod: {"aweights": mod.tensor([[1.0, 2.0, 1.0]])},
    lambda mod: {"fweights": mod.tensor([1, 2])},
    lambda mod: {"aweights": mod.tensor([1.0, 2.0])},
])
def test_cov_weight_errors_match_pytorch(weights):
    # (one checker of both weights since the fold: each message names its own)
    same_error(lambda mod: mod.cov(mod.tensor([[1., 2., 4.], [3., 1., 0.]]), **weights(mod)))


# ------------------------------------------------------------------ issue 32, next round
# recorded_by (a helper shared by ops that differ only in the node they record: view,
# _reshape_alias, asinh_/acosh_/atanh_, the reflection/replication pads and their
# backwards), float_activation (hardsigmoid, hardswish, mish, logsigmoid), first_of (msort,
# max_pool2d, linalg.solve: the first result of sort, max_pool2d_with_indices,
# linalg.solve_ex), square as delegate(op_pow, 2), det as delegate(op_linalg_det)

_MOVED_32B = ["view", "_reshape_alias", "asinh_", "acosh_", "atanh_", "reflection_pad",
              "replication_pad", "reflection_pad_backward", "replication_pad_backward",
              "square", "hardsigmoid", "hardswish", "mish", "logsigmoid", "msort", "max_pool2d",
              "linalg_solve", "det"]


@pytest.mark.parametrize("name", _MOVED_32B)
def test_more_forwards_come_from_the_table(name):
    op = OPS[name]
    assert op.forward != "manual"
    assert not re.search(rf"^cdef \w+ {op.cname}\(", _family_source(op.family), re.M)


def test_recorded_by_passes_the_nodes_record_functions_in_table_order():
    gen = CODEGEN["gen_forward"]
    assert gen(OPS["reflection_pad_backward"]).splitlines()[1] == (
        "    return index_pad_backward(grad_output, self, padding, PAD_REFLECT, "
        "record_ReflectionPad1DBackwardBackward0, record_ReflectionPad2DBackwardBackward0, "
        "record_ReflectionPad3DBackwardBackward0)")
    assert gen(OPS["atanh_"]).splitlines()[1] == \
        "    return _inplace_recorded_as(self, op_atanh, record_AtanhBackward1)"
    assert gen(OPS["view"]).splitlines()[1] == \
        "    return _view_recorded_as(self, size, record_ViewBackward0)"


def test_first_of_writes_the_call():
    gen = CODEGEN["gen_forward"]
    assert gen(OPS["msort"]).splitlines()[1] == "    return op_sort(self, 0, False, None)[0]"
    assert gen(OPS["linalg_solve"]).splitlines()[1] == \
        "    return op_linalg_solve_ex(A, B, left, True)[0]"


@pytest.mark.parametrize("row,forward", [
    ("square", "recorded_by(op_pow)"),          # no node to pass
    ("split", "recorded_by(_split)"),           # a manual node has no record function
    ("view", "recorded_by()"),
    ("sort", "first_of(op_sort)"),              # returns two tensors; generated nodes
    ("msort", "first_of()"),
])
def test_recorded_by_and_first_of_refuse_rows_of_another_shape(row, forward):
    op = OPS[row]
    bad = type(op)(**{**op.__dict__, "forward": forward})
    with pytest.raises(CODEGEN["TableError"]):
        CODEGEN["gen_forward"](bad)


@pytest.mark.parametrize("prog", [
    lambda mod: (lambda x: (x.view(3, 2), [x]))(data(mod, 2, 3, requires_grad=True)),
    lambda mod: (lambda x: (x.t().view(2, 1, 3), [x]))(data(mod, 3, 2, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.pad(x, (1, 2), mode="reflect"), [x]))(
        data(mod, 2, 3, 4, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.pad(x, (1, 0, 2, 1), mode="reflect"), [x]))(
        data(mod, 1, 2, 3, 4, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.pad(x, (1, 1, 0, 1, 1, 0), mode="reflect"), [x]))(
        data(mod, 1, 1, 2, 3, 4, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.pad(x, (2, 1), mode="replicate"), [x]))(
        data(mod, 2, 3, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.pad(x, (0, 3, 1, 1), mode="replicate"), [x]))(
        data(mod, 2, 2, 3, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.pad(x, (1, 0, 0, 2, 1, 1), mode="replicate"),
                            [x]))(data(mod, 1, 2, 2, 3, requires_grad=True)),
    lambda mod: (lambda x: (mod.square(x), [x]))(data(mod, 2, 3, requires_grad=True)),
    lambda mod: (lambda x: (x.square().square_(), [x]))(data(mod, 3, requires_grad=True)),
    lambda mod: (mod.square(mod.tensor([-3, 2], dtype=mod.int16)), []),
    lambda mod: (lambda x: (mod.nn.functional.hardsigmoid(x * 4), [x]))(
        data(mod, 2, 5, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.hardswish(x.t() * 4), [x]))(
        data(mod, 5, 2, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.mish(x * 3), [x]))(data(mod, 2, 5, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.logsigmoid(x * 30), [x]))(
        data(mod, 6, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.hardswish(x * 4, inplace=True), [x]))(
        data(mod, 6, requires_grad=True) * 1),
    lambda mod: (lambda x: (mod.nn.functional.mish(x.clone(), inplace=True), [x]))(
        data(mod, 6, requires_grad=True)),
    lambda mod: (lambda x: (x.msort(), [x]))(data(mod, 4, 3, requires_grad=True)),
    lambda mod: (mod.msort(mod.tensor([[3, 1], [2, 5], [-1, 0]], dtype=mod.uint8)), []),
    lambda mod: (lambda x: (mod.max_pool2d(x, 2, 1), [x]))(data(mod, 1, 2, 4, 5, requires_grad=True)),
    lambda mod: (lambda x: (mod.nn.functional.max_pool2d(x, (2, 3), padding=1, ceil_mode=True),
                            [x]))(data(mod, 2, 5, 6, requires_grad=True)),
    lambda mod: (lambda a, b: (mod.linalg.solve(a, b), [a, b]))(
        (data(mod, 3, 3) + 3 * mod.eye(3, dtype=mod.float64)).requires_grad_(),
        data(mod, 3, 2, seed=1, requires_grad=True)),
    lambda mod: (lambda a, b: (mod.linalg.solve(a, b, left=False), [a, b]))(
        (data(mod, 2, 3, 3) + 3 * mod.eye(3, dtype=mod.float64)).requires_grad_(),
        data(mod, 2, 4, 3, seed=1, requires_grad=True)),
    lambda mod: (lambda a: (mod.det(a), [a]))(data(mod, 2, 3, 3, requires_grad=True)),
    lambda mod: (lambda a: (a.det(), [a]))(
        mod.complex(data(mod, 3, 3), data(mod, 3, 3, seed=2)).requires_grad_()),
])
def test_more_moved_forwards_match_pytorch(prog):
    same(_grad_run(prog))


@pytest.mark.parametrize("name", ["asinh_", "acosh_", "atanh_", "arcsinh_", "arctanh_"])
def test_inhyperbolic_inplace_forwards_match_pytorch(name):
    # the values, the node PyTorch records (AsinhBackward1 & co, whose derivative it does
    # not implement: the backward error), the write into self and its version
    def prog(mod):
        x = data(mod, 2, 3, lo=1.1, hi=1.9, requires_grad=True)
        y = x.mul(0.5) if "cosh" not in name else x.mul(1)
        r = getattr(y, name)()
        out = (r is y, y, y._version, graph_desc(y.grad_fn))
        return out + (catch(lambda: y.sum().backward()),)
    same(prog)
    same(lambda mod: getattr(mod.tensor([0.5, 0.25], dtype=mod.bfloat16), name)())
    same(lambda mod: getattr(mod.tensor([1.5 + 0.5j, 0.25j]), name)())


@pytest.mark.parametrize("mode,shape", [("reflect", (1, 2, 5)), ("replicate", (1, 2, 3, 4)),
                                        ("reflect", (1, 1, 3, 3, 4))])
def test_moved_pads_double_backward_match_pytorch(mode, shape):
    # the pads' backward ops (reflection_pad_backward & co) and their own nodes
    def prog(mod):
        x = data(mod, *shape, requires_grad=True)
        pad = (1, 2, 2, 1, 1, 0)[:2 * (len(shape) - 2)]
        y = mod.nn.functional.pad(x, pad, mode=mode)
        v = data(mod, *y.shape, seed=1, requires_grad=True)
        (g,) = mod.autograd.grad(y, x, v, create_graph=True)
        (gv,) = mod.autograd.grad((g * g).sum(), v)
        return g, graph_desc(g.grad_fn), gv
    same(prog)


# (complex inputs are refused by the wrappers before the kernel, naming the op where
# PyTorch's message names the kernel: not these forwards' business)
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16", "float16", "int64", "bool",
                                   "uint8"])
@pytest.mark.parametrize("fn", ["hardsigmoid", "hardswish", "mish", "logsigmoid"])
def test_float_activations_dtypes_and_errors_match_pytorch(fn, dtype):
    same(lambda mod: getattr(mod.nn.functional, fn)(
        mod.tensor([-4.0, -1.5, 0.0, 0.25, 2.0, 5.0]).to(getattr(mod, dtype))), may_raise=True)


@pytest.mark.parametrize("dtype", ["uint8", "bool", "bfloat16", "int32", "complex64"])
def test_square_and_msort_dtypes_match_pytorch(dtype):
    same(lambda mod: mod.square(mod.tensor([[3, 0], [1, 2]]).to(getattr(mod, dtype))),
         may_raise=True)
    same(lambda mod: mod.msort(mod.tensor([[3, 0], [1, 2]]).to(getattr(mod, dtype))),
         may_raise=True)


def test_more_moved_forwards_errors_match_pytorch():
    same_error(lambda mod: mod.arange(6.).t().view(3, 2).t().view(6))
    same_error(lambda mod: mod.arange(6.).view(4))
    same_error(lambda mod: mod.tensor([1, 2]).asinh_())
    same_error(lambda mod: mod.tensor([1., 2.], requires_grad=True).acosh_())
    same_error(lambda mod: mod.tensor([0.1, 0.2], requires_grad=True).mul(1).atanh_().sum()
               .backward())
    same_error(lambda mod: mod.nn.functional.pad(mod.zeros(1, 2, 3), (3, 0), mode="reflect"))
    same_error(lambda mod: mod.nn.functional.pad(mod.zeros(1, 0, 3), (1, 0), mode="replicate"))
    same_error(lambda mod: mod.nn.functional.hardswish(mod.tensor([1, 2])))
    same_error(lambda mod: mod.nn.functional.logsigmoid(mod.tensor([True])))
    same_error(lambda mod: mod.msort(mod.tensor([1 + 1j, 2j])))
    same_error(lambda mod: mod.max_pool2d(mod.zeros(1, 2, 2), 3))
    same_error(lambda mod: mod.linalg.solve(mod.zeros(2, 2), mod.ones(2)))
    same_error(lambda mod: mod.linalg.solve(mod.eye(2), mod.ones(3)))
    same_error(lambda mod: mod.det(mod.zeros(2, 3)))
    same_error(lambda mod: mod.det(mod.eye(2, dtype=mod.int64)))


def test_more_moved_forwards_forward_ad_match_pytorch():
    def prog(mod):
        fwAD = mod.autograd.forward_ad
        out = []
        with fwAD.dual_level():
            x = fwAD.make_dual(data(mod, 2, 3), data(mod, 2, 3, seed=1))
            for y in (x.view(3, 2), mod.square(x), mod.nn.functional.hardswish(x * 4),
                      mod.nn.functional.mish(x), mod.nn.functional.logsigmoid(x),
                      mod.nn.functional.hardsigmoid(x * 4),
                      mod.nn.functional.pad(x.unsqueeze(0), (1, 1), mode="reflect"),
                      mod.nn.functional.pad(x.unsqueeze(0), (2, 0), mode="replicate"),
                      x.msort(), mod.det(x[:, :2]), mod.linalg.solve(x[:, :2] + 2 * mod.eye(2, dtype=mod.float64), x),
                      mod.max_pool2d(x.unsqueeze(0), 2, 1)):
                out.append(fwAD.unpack_dual(y))
        return out
    same(prog)


def test_view_of_a_complex_tensor_and_its_version_counter_match_pytorch():
    def prog(mod):
        x = mod.tensor([1 + 2j, 3 - 1j, 0.5j, 2.0], requires_grad=True)
        y = x.mul(1).view(2, 2)
        z = y.view(4)
        z.mul_(2)
        loss = (z * z.conj()).real.sum()
        (g,) = mod.autograd.grad(loss, x)
        return y, y._version, z._version, z.grad_fn.name(), g
    same(prog)
