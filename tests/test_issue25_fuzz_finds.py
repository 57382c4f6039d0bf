"""Issue 25: what the widened fuzzer found on the merged tree (seeds 12,000,000 on), each
run under torch and autograd_core and compared (values, gradients, grad_fn names,
strides, exceptions)."""

import pytest

from _diff import data, same

NINF = float("-inf")


def test_safe_softmax_rows_masked_throughout():
    def prog(m):
        x = m.tensor([[NINF, NINF, NINF], [1., 2., NINF], [0., 0., 0.]], requires_grad=True)
        y = m._safe_softmax(x, 1)
        y.backward(m.tensor([[1., 2, 3], [1, 2, 3], [1, 2, 3]]))
        return y, y.grad_fn.name(), x.grad

    same(prog)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_safe_softmax_dims_dtype_and_empty(dim):
    def prog(m):
        x = m.tensor([[NINF, NINF], [1., 2.]])
        return (m._safe_softmax(x, dim), m._safe_softmax(x, dim, dtype=m.float64),
                m._safe_softmax(m.tensor(NINF), 0), m._safe_softmax(m.zeros(0, 3), dim))

    same(prog)


@pytest.mark.parametrize("shape", [(1, 2, 3), (1, 1, 2, 3)])
def test_sdpa_row_masked_throughout_is_zero(shape):
    # the math path (3-d) and the flash path (4-d) both answer zeros for such a row
    def prog(m):
        q = m.tensor([[0.5, -1.0, 0.25], [1.5, 0.3, -0.2]], dtype=m.float64).reshape(shape)
        q.requires_grad_(True)
        mask = m.tensor([[True, True], [False, False]])
        out = m.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=mask)
        out.sum().backward()
        return out, q.grad

    same(prog)


def test_inplace_on_element_of_view_of_column_major_result():
    # a 0-d view of a transposed inverse (column-major, so not C-strided): its region in
    # the base came back as a numpy scalar (fuzzer seed 12003585)
    def prog(m):
        t3 = m.tensor([[-1.7, 0.1, 0.5], [-1.25, 0.6, 0.5], [0.25, 0.6, 0.9]],
                      dtype=m.float64, requires_grad=True)
        t4 = m.linalg.inv(t3 @ t3.mT + 3 * m.eye(3, dtype=m.float64))
        t5 = t4.transpose(0, 1).view(-1)
        t11 = t5[4]
        t11.sin_()
        return t11, t4.grad_fn.name(), t11.grad_fn.name(), t5._version

    def backward(m):
        t11, *_ = prog(m)
        (t11 * 2).backward()        # inv saved its result, written since: both refuse

    same(prog)
    same(backward, must_raise=True)


def _graph(fn, seen=None):
    """node names of a graph, depth first (each node once)."""
    seen = set() if seen is None else seen
    if fn is None or id(fn) in seen:
        return []
    seen.add(id(fn))
    out = [fn.name()]
    for nxt, _ in fn.next_functions:
        out.append(_graph(nxt, seen))
    return out


@pytest.mark.parametrize("kw", [{}, {"mask": "bool"}, {"mask": "float"}, {"is_causal": True},
                                {"scale": -0.3}, {"dropout_p": 0.3}])
def test_sdpa_math_path_records_pytorchs_graph(kw):
    # 3-d inputs take the math composite in PyTorch: q and k scaled by sqrt(scale) each
    # (MulBackward1), the mask added, _safe_softmax, dropout's MulBackward0
    def prog(m):
        m.manual_seed(0)
        q, k, v = (data(m, 1, 3, 4, seed=s, requires_grad=True) for s in range(3))
        args = dict(kw)
        if args.get("mask") == "bool":
            args["attn_mask"] = m.tensor([[True, False, True]] * 3)
        elif args.get("mask") == "float":
            args["attn_mask"] = data(m, 3, 3, seed=7)
        args.pop("mask", None)
        out = m.nn.functional.scaled_dot_product_attention(q, k, v, **args)
        gq, gk, gv = m.autograd.grad(out.sum(), (q, k, v))
        return out, _graph(out.grad_fn), gq, gk, gv

    same(prog)


def test_sdpa_math_path_saves_scaled_query():
    # a write into a query that needs no gradient, after the forward, is no error: the
    # product saved the scaled copy (fuzzer seed 12002439)
    def prog(m):
        t3 = m.tensor([[[-2.0], [0.3]]], dtype=m.float64)
        t4 = m.tensor([[[1.0], [-0.3]]], dtype=m.float64, requires_grad=True)
        t5 = m.tensor([[[1.0], [-0.75]]], dtype=m.float64, requires_grad=True)
        t6 = m.nn.functional.scaled_dot_product_attention(t3.mT, t4.mT, t5.mT)
        t7 = t6.mT.view(-1)
        t3[0::2, 0:] = 1.0
        (t5.sum() + (t6 * t6).sum() + t7.sum()).backward()
        return t6, t4.grad, t5.grad

    same(prog)


@pytest.mark.parametrize("call", ["sdpa", "dropout", "dropout_", "feature_dropout", "F.dropout"])
@pytest.mark.parametrize("p", [1.5, -0.5])
def test_dropout_probability_errors(call, p):
    def prog(m):
        x = m.ones(1, 2, 2)
        if call == "sdpa":
            return m.nn.functional.scaled_dot_product_attention(x, x, x, dropout_p=p).shape
        if call == "F.dropout":
            return m.nn.functional.dropout(x, p)
        return getattr(m, call)(x, p, True)

    same(prog, may_raise=True)


@pytest.mark.parametrize("case", ["q32-kv64", "k32", "v32", "mask-int", "mask-64", "mask-16",
                                  "mask-32-q64", "1-d", "int64", "3-d-q32-kv64"])
def test_sdpa_input_checks(case):
    # PyTorch's validate_sdpa_input, before either path (fuzzer seed 12010193: a float32
    # query with float64 key and value ran here); "int64" reaches the math path, whose
    # q * sqrt(scale) promotes to float before the product with the int value refuses
    def prog(m):
        f32 = m.ones(1, 2, 1, 3)
        f64 = f32.double()
        q, k, v, mask = f32, f32, f32, None
        if case == "q32-kv64":
            k = v = f64
        elif case == "k32":
            q = v = f64
        elif case == "v32":
            q = k = f64
        elif case.startswith("mask-"):
            q = k = v = f64 if case.endswith("q64") else f32
            mask = m.ones(1, 1, dtype={"int": m.int64, "64": m.float64, "16": m.float16,
                                       "32": m.float32}[case.split("-")[1]])
        elif case == "1-d":
            q = k = v = m.ones(3)
        elif case == "int64":
            q = k = v = m.ones(2, 3, dtype=m.int64)
        elif case == "3-d-q32-kv64":
            q, k, v = f32[0], f64[0], f64[0]
        return m.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)

    same(prog, may_raise=True)



@pytest.mark.parametrize("conv", ["conv1d", "conv2d", "conv3d", "conv2d-groups",
                                  "conv_transpose2d", "conv_transpose1d"])
def test_convolution_create_graph_gradients_are_contiguous(conv):
    # the weight's gradient under create_graph was a transposed view here, so view(-1)
    # and a write through it failed where PyTorch's fresh tensor works (fuzzer seed
    # 13013996)
    def prog(m):
        nsp = {"conv1d": 1, "conv3d": 3, "conv_transpose1d": 1}.get(conv, 2)
        groups = 2 if conv.endswith("groups") else 1
        x = data(m, 2, 4, *(5,) * nsp, requires_grad=True)
        w = data(m, 4, 6 // groups, *(2,) * nsp, seed=1, requires_grad=True)
        b = data(m, 6 if "transpose" in conv else 4, seed=2, requires_grad=True)
        if "transpose" in conv:
            f = getattr(m.nn.functional, conv.split("-")[0])
            y = f(x, w, b, stride=2, padding=1)
        else:
            f = getattr(m.nn.functional, conv.split("-")[0])
            w = w.reshape(6, 4 // groups, *(2,) * nsp) if groups == 1 else \
                data(m, 6, 2, *(2,) * nsp, seed=1, requires_grad=True)
            b = data(m, 6, seed=2, requires_grad=True)
            y = f(x, w, b, padding=1, groups=groups)
        gs = m.autograd.grad((y * y).sum(), (x, w, b), create_graph=True)
        out = [(g.stride(), g.is_contiguous(), g.grad_fn.name()) for g in gs]
        gs[1].view(-1)[0:1].mul_(2.0)
        return out, gs

    same(prog)


@pytest.mark.parametrize("case", ["cols", "cols-perm", "rows-perm", "rows-dense", "grad"])
def test_index_put_value_overlapping_its_target(case):
    # the value is a strided view of the target: PyTorch's overlap check cannot tell, so
    # its kernel reads values already written, in the indexing result's order (fuzzer
    # seed 14019348); a dense overlapping value is refused
    def prog(m):
        t = m.arange(9.0, dtype=m.float64).reshape(3, 3)
        if case == "grad":
            leaf = m.arange(9.0, dtype=m.float64).reshape(3, 3).requires_grad_(True)
            t = leaf * 1.0
        if case == "cols":
            t[:, [0, 1]] = t[:, -1]
        elif case == "cols-perm":
            t[:, [0, 2, 1]] = t[:, 1]
        elif case == "rows-perm":
            t[[2, 0, 1], :] = t[:, 1]
        elif case == "rows-dense":
            t[[2, 0, 1]] = t[1, :]
        else:
            t[:, [0, 2, 1]] = t[:, 1]
            t.sum().backward()
            return t, leaf.grad
        return t

    same(prog, may_raise=True)


def _no_grad_view_of_a_result(m):
    t0 = m.tensor([0.25, 1.0], dtype=m.float64, requires_grad=True)
    t2 = t0 * 1
    with m.no_grad():
        v = t2[None]
    return t0, t2, v


@pytest.mark.parametrize("op", ["abs", "exp", "atan2-const", "atan2-leaf", "copysign-leaf",
                                "mul-const", "pow-leaf", "sum"])
def test_node_reading_no_grad_view_whose_base_was_written(op):
    # A view made under no_grad of a tensor that requires grad requires grad but has no
    # edge. What every input's formula reads is saved all the same (PyTorch's codegen);
    # unpacking it after its base was written in place with grad mode on raises
    # PyTorch's error, while what only its own formula reads is not saved (fuzzer seed
    # 15015266)
    def prog(m):
        t0, t2, v = _no_grad_view_of_a_result(m)
        c = m.tensor([[0.5, 2.0]], dtype=m.float64)
        w = m.tensor([[0.5, 2.0]], dtype=m.float64, requires_grad=True)
        out = {"abs": lambda: v.abs() * w, "exp": lambda: v.exp() * w,
               "atan2-const": lambda: m.atan2(v, c), "atan2-leaf": lambda: m.atan2(v, w),
               "copysign-leaf": lambda: m.copysign(v, w), "mul-const": lambda: v * c * w,
               "pow-leaf": lambda: v.pow(w), "sum": lambda: v.sum() * w}[op]()
        t2 *= 2
        out.sum().backward()
        return w.grad, t0.grad

    same(prog, may_raise=True)


def test_no_grad_view_unpacked_before_its_base_is_written():
    # the same program without the write runs in both
    def prog(m):
        t0, t2, v = _no_grad_view_of_a_result(m)
        w = m.tensor([[0.5, 2.0]], dtype=m.float64, requires_grad=True)
        (m.atan2(w, v.abs() + 0.5)).sum().backward()
        return w.grad, t0.grad

    same(prog)


# (not g[1:].tolist(): PyTorch 2.13 crashes reading a ZeroTensor view at an offset)
@pytest.mark.parametrize("read", ["tolist", "tolist-0d", "tolist-empty", "array", "item",
                                  "numpy-force", "list"])
def test_reading_a_zerotensor_gradient(read):
    # sgn's ZeroTensor gradient has no storage in PyTorch: tolist and numpy conversion
    # raise (an empty one converts), item and iteration read zeros
    def prog(m):
        x = m.zeros(0 if read == "tolist-empty" else 3, requires_grad=True)
        x.sgn().sum().backward()
        g = x.grad
        return {"tolist": lambda: g.tolist(), "tolist-0d": lambda: g[0].tolist(),
                "tolist-empty": lambda: g.tolist(),
                "array": lambda: __import__("numpy").asarray(g).tolist(),
                "item": lambda: g[0].item(), "numpy-force": lambda: g.numpy(force=True).tolist(),
                "list": lambda: [float(e) for e in g]}[read]()

    same(prog, may_raise=True)


@pytest.mark.parametrize("shape", [(0, 4), (0,), (2, 0, 3)])
def test_empty_zerotensor_gradient(shape):
    # sgn's gradient of an empty real tensor is a ZeroTensor as well: a second backward
    # into the leaf, and in-place writes into it, raise (fuzzer seeds 13004558, 14012283)
    def prog(m):
        x = m.zeros(*shape, dtype=m.float64, requires_grad=True)
        m.sgn(x).sum().backward()
        r = [x.grad, x.grad._is_zerotensor(), x.grad[None]._is_zerotensor()]
        for write in (lambda: (x * 2).sum().backward(), lambda: x.grad.add_(1),
                      lambda: x.grad.zero_()):
            try:
                write()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))
        return r

    same(prog)


@pytest.mark.parametrize("d1,d2", [("float32", "float64"), ("float64", "float32"),
                                   ("float16", "float32"), ("float32", "float16"),
                                   ("float16", "float16")])
@pytest.mark.parametrize("rows,p", [(2, 2.0), (30, 2.0), (30, 1.0)])
def test_cdist_dtype_errors_follow_the_path_taken(d1, d2, rows, p):
    # the error comes from the kernel each path reaches: mm's dtype check for p=2 past 25
    # rows, else the cdist kernel's dispatch (no Half) and its read of X2
    def prog(m):
        a = m.ones(rows, 3, dtype=getattr(m, d1))
        b = m.ones(rows, 3, dtype=getattr(m, d2))
        return m.cdist(a, b, p=p)

    same(prog, may_raise=True)


def test_error_nodes_run_as_soon_as_ready():
    # PyTorch's Error nodes (once_differentiable under create_graph, NotImplemented) have
    # the largest sequence number, as AccumulateGrad: the engine runs them when ready,
    # so a later-made branch has not reached its leaf when they raise (fuzzer seed
    # 16010629)
    def prog(m):
        class OnceExp(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x.exp()
                ctx.save_for_backward(y)
                return y

            @staticmethod
            @m.autograd.function.once_differentiable
            def backward(ctx, g):
                y, = ctx.saved_tensors
                return g * y

        x = m.tensor([-2.0, -0.25, 1.7], dtype=m.float64, requires_grad=True)
        g, = m.autograd.grad((OnceExp.apply(x) ** 2).sum(), x, create_graph=True)
        later = m.tensor([0.1, 0.9], dtype=m.float64, requires_grad=True)
        r = [g.grad_fn._sequence_nr()]
        try:
            (g.sum() + (later * 2).exp().sum()).backward()
        except RuntimeError as e:
            r.append(str(e))
        y = m.floor_divide(x, 2)
        r += [y.grad_fn._sequence_nr(), later.grad]
        try:
            (y.sum() + (later * 3).exp().sum()).backward()
        except RuntimeError as e:
            r.append(str(e))
        return r + [later.grad]

    same(prog)
