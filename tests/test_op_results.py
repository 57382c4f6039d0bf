"""Individual ops against PyTorch: values at special points (0**0, atan2(0, 0),
mixed dtypes, sums that cancel), the grad_fn names and output counts of their nodes, and
the strides of their results (transposed, expanded, empty, advanced-indexed inputs).
Each program runs under torch and autograd_core (tests/_diff.py compares the results)."""
import pytest
import autograd_core
from _diff import same



def _t(torch, v, rg=True):
    return torch.tensor(v, dtype=torch.float64, requires_grad=rg)


def test_pow_zero_base_zero_tensor_exponent():
    def prog(torch):
        x = torch.zeros(3, requires_grad=True)
        x.pow(torch.zeros(3)).sum().backward()
        return x.grad
    same(prog)


def test_atan2_zero_zero():
    def prog(torch):
        x = torch.tensor([0.0], requires_grad=True)
        y = torch.tensor([0.0], requires_grad=True)
        torch.atan2(x, y).backward()
        return x.grad, y.grad
    same(prog)


def test_third_order_through_narrow():
    def prog(torch):
        x = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
        v = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
        (gx,) = torch.autograd.grad(x.narrow(0, 0, 2).exp().sum(), x, create_graph=True)
        (h,) = torch.autograd.grad(gx, x, v, create_graph=True)
        return torch.autograd.grad(h.sum(), v, allow_unused=True)
    same(prog)


def test_sub_alpha_node_name():
    def prog(torch):
        t1 = _t(torch, [1.7, 0.3])
        y = torch.sub(t1, torch.tensor([0.5], dtype=torch.float64), alpha=0.5)
        return y, type(y.grad_fn).__name__
    same(prog)


def test_einsum_mixed_dtype():
    def prog(torch):
        a = _t(torch, [[-0.1], [0.5]])
        b = torch.tensor([[-1.25]], dtype=torch.float32)
        return torch.einsum("ij,jk->ik", a, b)
    same(prog)


def test_mT_of_0d():
    def prog(torch):
        return _t(torch, 1.25).mT
    same(prog, quiet=True)


def test_expand_new_dims_strides():
    def prog(torch):
        return torch.ones(5).expand(1, 1, 5).stride()
    same(prog)


def test_flatten_after_advanced_index_node_name():
    def prog(torch):
        t0 = _t(torch, [[-0.75, 1.25], [1.5, -0.5]])
        y = t0[0:, [0, 1]].flatten()
        return y, type(y.grad_fn).__name__
    same(prog)


@pytest.mark.parametrize("op", ["max", "min", "sort", "topk", "kthvalue", "mode", "median",
                                "nanmedian", "cummax", "cummin", "frexp", "lu", "inv_ex"])
def test_values_and_indices_node_has_one_output(op):
    # the indices are not differentiable: the node has one output slot, so its Node hooks
    # get 1-tuples (and linalg.lu's P, also not differentiable, leaves L and U as 0 and 1)
    def prog(torch):
        x = _t(torch, [[1.0, 3.0, 2.0], [0.5, -1.0, 4.0], [2.0, 1.0, 3.0]])
        r = {"max": lambda: torch.max(x, 1), "min": lambda: x.min(0),
             "sort": lambda: torch.sort(x, 1), "topk": lambda: torch.topk(x, 2),
             "kthvalue": lambda: torch.kthvalue(x, 2), "mode": lambda: torch.mode(x, 1),
             "median": lambda: torch.median(x, 1), "nanmedian": lambda: x.nanmedian(1),
             "cummax": lambda: torch.cummax(x, 1), "cummin": lambda: torch.cummin(x, 0),
             "frexp": lambda: torch.frexp(x), "lu": lambda: torch.linalg.lu(x),
             "inv_ex": lambda: torch.linalg.inv_ex(x)}[op]()
        outs = [t for t in r if t.grad_fn is not None]
        log = []
        node = outs[0].grad_fn
        node.register_prehook(lambda g: log.append(len(g)))
        node.register_hook(lambda gi, go: log.append((len(gi), len(go))))
        sum(t.sum() for t in outs).backward()
        return log, [t.output_nr for t in outs], [t.requires_grad for t in r], x.grad
    same(prog)


@pytest.mark.parametrize("op", ["sum", "mean", "amax", "prod", "var", "std", "logsumexp",
                                "cumsum", "softmax", "log_softmax", "max"])
def test_result_layout_of_transposed_input(op):
    # reductions and scans allocate a contiguous result whatever the input's layout: what
    # later view()s and reshape()s (view or copy) see
    def prog(torch):
        x = torch.arange(24.0, dtype=torch.float64).reshape(4, 3, 2).requires_grad_()
        t = x.mT
        y = {"sum": lambda: t.sum(0), "mean": lambda: torch.mean(t, dim=-3),
             "amax": lambda: t.amax(0), "prod": lambda: t.prod(0), "var": lambda: t.var(0),
             "std": lambda: t.std(0), "logsumexp": lambda: t.logsumexp(0),
             "cumsum": lambda: t.cumsum(0), "softmax": lambda: t.softmax(0),
             "log_softmax": lambda: t.log_softmax(0), "max": lambda: t.max(0).values}[op]()
        z = (y ** 3)[1:]
        with torch.no_grad():
            r = z.reshape(-1)
        return y.stride(), y.is_contiguous(), r.requires_grad, r._base is not None
    same(prog)


def test_numpy_under_no_grad():
    def prog(torch):
        x = _t(torch, [1.0, 2.0])
        with torch.no_grad():
            return x.numpy().tolist()
    same(prog)


def test_roll_empty_node_name():
    def prog(torch):
        t1 = torch.roll(torch.zeros(0, 4, 3, dtype=torch.float64, requires_grad=True), 1,
                        dims=-3)
        return t1, type(t1.grad_fn).__name__
    same(prog)


def test_add_alpha_mixed_dtype_precision():
    def prog(torch):
        a = _t(torch, [[-1.7, 0.6]])
        # float32 * 2.5 rounds in float32; PyTorch scales in the result's float64
        b = torch.tensor([[0.8223167061805725]], dtype=torch.float32)
        return torch.add(a, b, alpha=2.5)
    same(prog, rtol=1e-12, atol=0)


def test_float32_sum_rounding_carried_into_float64_is_not_a_difference():
    """Note [Mixed precision] (tests/fuzz/run.py): a float32 sum rounds differently in
    numpy's pairwise order and PyTorch's vectorised one; a float64 result computed from it
    is compared at float32's tolerance (fuzzer seed 15874), a float64-only program is not."""
    from fuzz import gen, run
    P, S = gen.Program, gen.Stmt
    t0 = ("t0 = torch.tensor([[[0.6, 0.25, -0.25], [-1.25, 1.25, 0.3]], [[-2.0, 2.0, -0.3], "
          "[-2.0, 1.5, -0.3]]], dtype=torch.float32, requires_grad=True)")
    prog = P([S("leaf", t0, ("t0",)), S("reduce:sum", "t2 = t0.sum()", ("t2",)),
              S("leaf", "t3 = torch.tensor([-0.3, -1.0, -0.1, -0.9], dtype=torch.float64, "
                        "requires_grad=True)", ("t3",)),
              S("binary:mul", "t7 = torch.mul(t2, t3)", ("t7",)),
              S("backward", "t7.sum().backward()")])
    assert run.first_mismatch(prog) is None
    trace = run.run(prog, autograd_core)
    state = trace[-1][1]
    assert state["t7"].get("low") and state["t3"]["grad"].get("low")
    plain = P([S("leaf", "t3 = torch.tensor([-0.3, -1.0], dtype=torch.float64)", ("t3",)),
               S("unary:exp", "t4 = t3.exp()", ("t4",))])
    assert not run.run(plain, autograd_core)[-1][1]["t4"].get("low")
    # a float64 value off by more than float64's tolerance is still a difference
    planted = P([S("leaf", "t3 = torch.tensor([-0.3, -1.0], dtype=torch.float64)", ("t3",)),
                 S("unary:planted", "t4 = t3 * (1.0 if torch.__name__ == 'torch' else 1.0001)",
                   ("t4",))])
    assert run.first_mismatch(planted) is not None


def test_advanced_index_result_strides():
    """Note [Index result layout]: x[idx]'s strides are PyTorch's TensorIterator's."""
    def prog(torch):
        x = torch.arange(24.0).reshape(2, 3, 4)
        xt = x.transpose(0, 2)
        i = torch.tensor([0, 1])
        m = torch.tensor([True, False, True])
        rs = [x[i], x[:, i], x[:, :, i], x[i, :, i], x[:, i, i], x[i, i], x[x > 5],
              x[:, [[0], [1]]], x[..., i], x[i, 1:], x[1:, i], x[None, i], x[0, :, i],
              xt[:, i], xt[i], xt[i, :, i], xt[:, m], x[:, i, :, None],
              x[:, :, [[0, 1], [1, 2]]], x.permute(1, 2, 0)[i]]
        return [(tuple(r.shape), r.stride(), r) for r in rs]
    same(prog)


@pytest.mark.parametrize("fn", ["clone", "empty_like", "zeros_like", "ones_like",
                                "full_like", "rand_like", "randn_like", "randint_like"])
def test_preserve_format_keeps_dense_strides(fn):
    """preserve_format (the default of clone and the *_like functions): a non-overlapping,
    dense input's strides are kept, anything else is laid out contiguously."""
    def prog(torch):
        x = torch.arange(24.0).reshape(2, 3, 4)
        srcs = [x, x.transpose(0, 2), x.permute(1, 0, 2), x[0].t(), x[:, ::2],
                x[:, :, 1], x[:1].expand(3, 3, 4), x[:1]]
        f = {"clone": lambda s: s.clone(), "empty_like": torch.empty_like,
             "zeros_like": torch.zeros_like, "ones_like": torch.ones_like,
             "full_like": lambda s: torch.full_like(s, 2.0),
             "rand_like": torch.rand_like, "randn_like": torch.randn_like,
             "randint_like": lambda s: torch.randint_like(s, 5)}[fn]
        out = [f(s).stride() for s in srcs]
        out.append(x.transpose(0, 2).clone(memory_format=torch.contiguous_format).stride())
        out.append(torch.zeros_like(x.transpose(0, 2),
                                    memory_format=torch.contiguous_format).stride())
        if fn in ("clone", "zeros_like", "ones_like", "full_like"):
            out.append([f(s) for s in srcs])
        return out
    same(prog)


def test_expand_of_a_0d_tensor_has_zero_strides():
    """A 0-d tensor expands to strides all 0 (PyTorch's inferExpandGeometry), so the
    gradient of a [1]-tensor's sum and a [0::2] of it are the same elements: copy_
    between them writes nothing instead of refusing a partial overlap (fuzzer seed
    610018)."""
    def prog(torch):
        s = torch.tensor(1.5)
        strides = [s.expand(*shape).stride() for shape in ((1,), (2, 1), (1, 3), (1, 1, 1))]
        t4 = torch.tensor([1.7], dtype=torch.float32, requires_grad=True)
        g5, = torch.autograd.grad(t4.sum(), [t4], retain_graph=True)
        t8 = g5[0::2]
        g5.copy_(t8)
        return strides, g5.stride(), t8.stride(), g5, g5._version
    same(prog)


def test_float64_sum_that_cancels_exactly_is_zero():
    """t2.sum() of these twelve float64 values is exactly 0 in PyTorch's summation order
    (numpy's pairwise order left 2.8e-16), so abs() of it has gradient 0, not +-1 (fuzzer
    seed 300907, shrunk: the sum feeds atan2 through abs)."""
    def prog(torch):
        t1 = torch.tensor([[-0.6, 1.0], [-0.75, 2.0]], dtype=torch.float32, requires_grad=True)
        t2 = torch.tensor([[[0.6, 1.25, -0.3, 0.75], [-1.25, -0.25, -1.0, 1.5],
                            [-1.0, -1.5, 1.5, -0.3]]], dtype=torch.float64, requires_grad=True)
        t7 = t2.sum()
        t11 = torch.atan2(t1, t7.abs() + 0.5)
        torch.prod(t11, dim=-2).sum().backward()
        return t7, t11, t1.grad, t2.grad
    got = same(prog, rtol=0, atol=0)
    assert got[0].item() == 0.0
    assert not got[3].any()


def test_pointwise_result_layout_allows_a_later_view():
    """addcmul over an expanded float32 input and a float64 one: PyTorch casts the
    expanded input to float64 first (dense, C order) and lays the result out as
    TensorIterator does, so a view(-1) of it works; numpy put the stride-0 dim innermost
    (Note [Pointwise output layout]; fuzzer seed 507826)."""
    def prog(torch):
        t0 = torch.tensor([0.9], dtype=torch.float64, requires_grad=True)
        t1 = torch.tensor([[1.25, 0.5, 0.3], [0.75, -0.9, -0.3], [-0.5, 1.5, 1.0],
                           [0.6, 0.5, 0.75]], dtype=torch.float32, requires_grad=True)
        with torch.no_grad():
            t4 = t1.expand(2, *t1.shape)
        t5 = torch.addcmul(t4, t4, t0, value=0.5)
        t6 = t5.view(-1)
        t6.sum().backward()
        return t5.stride(), t6, t0.grad
    same(prog)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0, 4), (0,), (0, 2, 3)])
def test_empty_tensor_strides(shape):
    # numpy reports 0 for every stride of an empty array; PyTorch the dense layout's
    def prog(torch):
        z = torch.zeros(*shape)
        return (z.stride(), torch.empty(shape).stride(), (z * 2).stride(),
                z.clone().stride(), z.contiguous().stride(), z.stride(-1),
                z.t().stride() if z.dim() == 2 else None, z[1:].stride(),
                z.unsqueeze(0).expand(2, *shape).stride(), z.transpose(0, -1).stride(),
                z.transpose(0, -1).contiguous().stride())
    same(prog)


def test_unfold_whole_input_is_a_writable_copy():
    # fuzzer seed 8002685: F.unfold whose kernel covers the whole unpadded input gave
    # back the input's own memory as a read-only array, so exp_() on it raised
    def prog(torch):
        t1 = _t(torch, [[[[1.25, -0.25], [1.5, -0.1]]]])
        t2 = torch.nn.functional.unfold(t1, 2)
        t2.exp_()
        x = torch.ones(1, 1, 2, 2)
        u = torch.nn.functional.unfold(x, 2)
        u.add_(1.0)  # a copy: x keeps its values
        t2.sum().backward()
        return t2, x, u, t1.grad
    same(prog)
