"""One small differential test per distinct difference from PyTorch found by the
differential fuzzer (tests/fuzz) and by following PyTorch's autograd tests
(tests/pytorch_autograd): each is the minimal program, run under torch and
autograd_core and compared by tests/_diff.py.  Those autograd_core does not pass yet are
strict xfails (issue 8), so each fix shows as an XPASS that must be unmarked."""

import pytest

import autograd_core
from _diff import issue8, same, same_error


def _t(torch, v, rg=True):
    return torch.tensor(v, dtype=torch.float64, requires_grad=rg)


def _square_function(torch):
    """x * x as a custom Function that saves its input."""
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g
    return Square


# ------------------------------------------------------------- engine, autograd.grad

def test_grad_input_on_the_path_to_another_input():
    def prog(torch):
        x = _t(torch, [1.0, 2.0])
        a = x * 1
        b = a * 3
        return torch.autograd.grad((a + b).sum(), (b, a))   # torch: (1, 4)
    same(prog)


def test_backward_inputs_non_leaf():
    def prog(torch):
        t0 = _t(torch, [[-0.5, -0.75, -1.5]])
        t1 = torch.abs(t0)
        t0.sum().backward(inputs=[t0, t1], retain_graph=True)
        return t0.grad, t1.retains_grad, t1.grad
    same(prog, quiet=True)


def test_leaf_hook_seen_by_autograd_grad():
    def prog(torch):
        x = _t(torch, [1.0, 2.0, 3.0])
        x.register_hook(lambda g: g * 2)
        return torch.autograd.grad((x * 1).sum(), x)
    same(prog)


def test_grad_retained_root_with_unreachable_input():
    def prog(torch):
        t0 = _t(torch, [0.5, 2.0])
        t2 = t0 * 3
        t2.retain_grad()
        other = _t(torch, [1.0])
        r = torch.autograd.grad(t2, [other], torch.ones_like(t2), allow_unused=True)
        return r, t2.grad
    same(prog)


def test_leaf_detach__after_use():
    def prog(torch):
        t2 = _t(torch, [0.1, 1.25, -0.5])
        t4 = torch.where(t2 > 0, t2, t2)
        t2.detach_()
        t4.sum().backward()
        return t2.grad, t2.requires_grad
    same(prog)


def test_second_backward_through_freed_index_put():
    def prog(torch):
        b = _t(torch, [0.5, 1.5, 2.5])
        c = torch.zeros(3, dtype=torch.float64)
        c[[1, 2]] = b[[1, 1]]
        c.backward(torch.ones(3, dtype=torch.float64))
        c.backward(torch.ones(3, dtype=torch.float64))
    same(prog, must_raise=True)


def test_deep_reentrant_backward():
    def prog(torch):
        class Deep(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                with torch.enable_grad():
                    ctx.x = x.detach().requires_grad_() - 1
                return ctx.x.detach()

            @staticmethod
            def backward(ctx, g):
                if ctx.x < 0:
                    return g
                with torch.enable_grad():
                    Deep.apply(ctx.x).sum().backward()
                return g

        v = torch.tensor(2000.0, requires_grad=True)
        Deep.apply(v).sum().backward()
        return v.grad
    same(prog)


def test_grad_fn_call_arity():
    def prog(torch):
        y = torch.ones(1, requires_grad=True) ** 2
        y.grad_fn()
    same(prog, must_raise=True)


# ---------------------------------------------------------------------- derivatives

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


def test_sgn_grad_is_a_zerotensor_then_second_backward_raises():
    # sgn's gradient for real inputs is PyTorch's immutable ZeroTensor: stolen into .grad,
    # so a second backward accumulating into it raises
    def prog(torch):
        t0 = torch.tensor(1.0, dtype=torch.float32, requires_grad=True)
        t2 = _t(torch, 1.5)
        t3 = torch.sgn(t2)
        t3.sum().backward(retain_graph=True)
        assert t2.grad._is_zerotensor()
        (t0.sum() + (t2 * t2).sum() + t3.sum()).backward()
    same(prog, must_raise=True)


_SGN_CHAINS = {
    "leaf": lambda torch, x: torch.sgn(x), "mul": lambda torch, x: torch.sgn(x * 2),
    "exp": lambda torch, x: torch.sgn(x.exp()), "neg": lambda torch, x: torch.sgn(-x),
    "sum": lambda torch, x: torch.sgn(x.sum()), "mean": lambda torch, x: torch.sgn(x.mean()),
    "sum_dim": lambda torch, x: torch.sgn(x.reshape(2, 1).sum(1)),
    "select": lambda torch, x: torch.sgn(x[0]), "view": lambda torch, x: torch.sgn(x.view(2)),
    "t": lambda torch, x: torch.sgn(x.reshape(2, 1).t()),
    "expand": lambda torch, x: torch.sgn(x.expand(3, 2)),
    "twice": lambda torch, x: torch.sgn(x) + torch.sgn(x), "plus_x": lambda torch, x: torch.sgn(x) + x,
    "sub_alpha": lambda torch, x: torch.sgn(torch.sub(x, x, alpha=0.5)),
    "add_alpha": lambda torch, x: torch.sgn(torch.add(x, x, alpha=2.0)),
    "tanh": lambda torch, x: torch.sgn(x.tanh()), "where": lambda torch, x: torch.sgn(
        torch.where(x > 0, x, x * 2)),
}


@pytest.mark.parametrize("chain", sorted(_SGN_CHAINS))
def test_sgn_zerotensor_through_formulas(chain):
    # whether .grad is a ZeroTensor after sgn of a function of x: PyTorch's ZeroTensor
    # kernels (mul, div, add/sub of two) keep it, other ops and a stride-0 result
    # (refused by AccumulateGrad's layout contract) do not
    def prog(torch):
        x = _t(torch, [1.5, -0.5])
        y = _SGN_CHAINS[chain](torch, x)
        y.sum().backward()
        r = [x.grad, x.grad._is_zerotensor()]
        try:
            (x * 3).sum().backward()
        except RuntimeError as e:
            r.append(str(e))
        return r + [x.grad]
    same(prog)


def test_zerotensor_grad_is_immutable():
    def prog(torch):
        x = _t(torch, [1.5, -0.5])
        torch.sgn(x).sum().backward()
        g = x.grad
        r = [g.clone()._is_zerotensor(), g.detach()._is_zerotensor(), g[0]._is_zerotensor(),
             (g + 1)._is_zerotensor(), g.stride(), repr(g).replace("autograd_core", "torch")]
        for f in (lambda: g.add_(1), lambda: g.zero_(), lambda: g.view(2).mul_(2),
                  lambda: g.numpy()):
            try:
                f()
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_std_backward_of_a_zerotensor_raises():
    # PyTorch's std_backward masks grad / (2 std) in place: with sgn's ZeroTensor it raises
    def prog(torch):
        x = _t(torch, [1.5, -0.5])
        torch.sgn(x.std()).backward()
    same(prog, must_raise=True)


# ------------------------------------------------------------------ views, in-place

def test_0d_select_is_a_view():
    def prog(torch):
        t0 = _t(torch, [1.0, -0.9, 0.1])
        t1 = torch.neg(t0)
        t2 = torch.select(t1, 0, -1)
        t2.mul_(t2)
        v = t1[1]
        t1.add_(1)
        return t1, t2, v
    same(prog)


def test_ellipsis_index_of_0d_is_a_view():
    def prog(torch):
        t0 = torch.tensor(-0.5, dtype=torch.float64)
        t2 = t0[...]
        t0.neg_()
        return t2
    same(prog)


def test_stale_view_after_base_inplace():
    def prog(torch):
        x = _t(torch, [1.0, 2.0, 3.0])
        b = x * 1
        v = b[0:2]
        b.mul_(2)
        v.sum().backward()
        return x.grad
    same(prog)


def test_setitem_on_view_of_view():
    def prog(torch):
        a = torch.ones(3, 1, dtype=torch.double, requires_grad=True)
        c = (a * 2).view_as(a)
        c[0][0] = 3
        c.sum().backward()
        return a.grad
    same(prog)


def test_view_of_base_setitem_with_grad_value():
    def prog(torch):
        t0 = torch.ones(3, 4, dtype=torch.float64)
        t1 = torch.narrow(t0, -1, 0, 1)
        t0[:, -2] = torch.tensor(0.1, dtype=torch.float64, requires_grad=True)
        return t1.requires_grad, t0.requires_grad
    same(prog)


def test_regenerated_view_node_name():
    def prog(torch):
        t0 = _t(torch, [[-1.25, 0.1, -0.5, -1.25], [-0.3, -0.9, 0.6, 2.0]])
        t3 = t0[t0 > 0]
        t6 = t3[...]
        t3[-1] = -1.0
        return t6, type(t6.grad_fn).__name__
    same(prog)


def test_inplace_with_overlapping_argument():
    def prog(torch):
        t1 = _t(torch, [[1.25, 0.6, 1.7], [0.6, 0.75, -2.0]]) * 1
        t3 = t1.view(-1)[3:]
        t1.mul_(t3)
    same(prog, must_raise=True)


def test_inplace_on_split_output():
    def prog(torch):
        b = _t(torch, [1.0, 2.0, 3.0, 4.0]) * 1
        s1, s2 = b.split(2)
        s1.mul_(2)
    same(prog, must_raise=True)


def test_no_grad_view_then_base_inplace():
    def prog(torch):
        t1 = _t(torch, [0.5, 1.5]) * 1
        with torch.no_grad():
            t2 = t1.reshape(-1)
        t1[0] = 1.5
        t2.grad_fn  # noqa: B018
    same(prog, must_raise=True)


def test_inplace_on_autograd_grad_result():
    def prog(torch):
        t0 = _t(torch, [[0.3, 0.9], [0.5, -0.1]])
        (g,) = torch.autograd.grad(t0.sum(), [t0])
        g.fill_(0.75)
        return g
    same(prog)


def test_setitem_on_expanded():
    def prog(torch):
        t = torch.ones(5, 1)
        v = t.expand(5, 5)
        v[2, 2] = 0
        return t
    same(prog)


def test_setitem_none_index_on_0d():
    def prog(torch):
        t = _t(torch, 0.3) * 1
        t[None] = -1.7
        return t
    same(prog)


def test_setitem_bool_mask_on_0d():
    def prog(torch):
        t0 = torch.tensor(-1.7, dtype=torch.float64)
        t0[t0 > 0] = 1.7
        return t0
    same(prog)


def test_copy_number_into_leaf():
    def prog(torch):
        torch.tensor([2.0], requires_grad=True).copy_(-2.0)
    same(prog, must_raise=True)


def test_retain_grad_then_inplace():
    def prog(torch):
        a = torch.tensor([1.0], requires_grad=True).clone()
        a.retain_grad()
        a.mul_(2)
        a.sum().backward()
        return a.grad
    same(prog)


_OVERLAPPING_SETITEMS = {
    # advanced (index_put_): any overlap of the value with the target raises ...
    "mask_0d_detached": lambda torch, t: t[0].__setitem__(t[0] > 0, t[0].detach()),
    "list_partial": lambda torch, t: t[0].__setitem__([0, 1], t[0][1:3]),
    "list_full": lambda torch, t: t[0].__setitem__([2, 1, 0], t[0]),
    "list_select": lambda torch, t: t[0].__setitem__([0], t[0][0]),
    "list_copy": lambda torch, t: t[0].__setitem__([0, 1], t[0][[1, 2]]),
    # ... but a lone bool mask with a one-element value is masked_fill_
    "mask_one_element": lambda torch, t: t[0].__setitem__(t[0] > 1, t[0][0]),
    # basic (copy_): a partial overlap raises, a full one or a strided one copies
    "slice_partial": lambda torch, t: t[0].__setitem__(slice(1, 3), t[0][0:2]),
    "transposed": lambda torch, t: t[1].__setitem__(slice(None), t[1].t()),
    "expanded": lambda torch, t: t[0].__setitem__(slice(0, 3), t[0].expand(3)),
    "strided_in_order": lambda torch, t: t[1].__setitem__((slice(None), 1), t[1][0]),
    "strided_rows": lambda torch, t: t[2].__setitem__((slice(1, None), 1), t[2][0, :2]),
    "strided_target": lambda torch, t: t[2].__setitem__((0, slice(None)), t[2][:, 1]),
}


@pytest.mark.parametrize("case", sorted(_OVERLAPPING_SETITEMS))
def test_setitem_value_sharing_memory_with_target(case):
    def prog(torch):
        t = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]),
             torch.arange(9.0).reshape(3, 3)]
        try:
            _OVERLAPPING_SETITEMS[case](torch, t)
        except RuntimeError as e:
            return str(e), t
        return t
    same(prog)


def test_setitem_strided_overlap_with_grad():
    # the copy of a strided overlapping value runs in memory order under autograd too
    def prog(torch):
        x = torch.arange(9.0, dtype=torch.float64).reshape(3, 3).requires_grad_()
        t0 = x * 1
        t0[:, 1] = t0[0]
        t0[1:3, 0:2] = t0[0:2, 1:3]
        t0.sum().backward()
        return t0, x.grad
    same(prog)


def test_setitem_value_is_a_transposed_alias_of_size_one_dims():
    def prog(torch):
        t5 = torch.tensor([[0.9]], dtype=torch.float64)
        t5[...] = torch.swapaxes(t5, -1, 1)
        return t5
    same(prog)


def test_setitem_value_alias_with_another_size_one_stride():
    # a size-1 dim's stride differs (a step-2 slice of it): PyTorch's overlap check sees
    # the same memory in another layout, a partial overlap
    def prog(torch):
        t0 = torch.tensor([[[0.75, 0.1, 1.0]]], dtype=torch.float64)
        t2 = t0[0:, 0::2]
        t2[0:, :, :] = t0
    same(prog, must_raise=True)


_SETITEM_GRAPHS = {
    "index_put_broadcast": lambda t, v: t.__setitem__((slice(0, None), [0, 1]), v),
    "index_put_on_view": lambda t, v: t.__setitem__((slice(0, 1), [0, 1]), v),
    "index_put_0d": lambda t, v: t.__setitem__([0, 1], v[0]),
    "index_put_leading_ones": lambda t, v: t.__setitem__([0, 1], v[None, None, 0:1]),
    "mask": lambda t, v: t.__setitem__(t > 0, v[0]),
    "fill_0d": lambda t, v: t.__setitem__(0, v[0]),
    "expand_1": lambda t, v: t.__setitem__(0, v[0:1]),
    "basic": lambda t, v: t.__setitem__((0, slice(0, 2)), v),
}


@pytest.mark.parametrize("case", sorted(_SETITEM_GRAPHS))
def test_setitem_graph_edges(case):
    # index_put_ broadcasts its values itself and fill_ takes a 0-d value: no
    # ExpandBackward0 between the node and the value's history (a basic write expands)
    def prog(torch):
        x = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
        v = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
        t = x * 1
        _SETITEM_GRAPHS[case](t, v)
        names = [type(n).__name__ for n, _ in t.grad_fn.next_functions]
        t.sum().backward()
        return type(t.grad_fn).__name__, names, x.grad, v.grad
    same(prog)


def test_index_put_node_released_before_accumulating():
    # IndexPutBackward0 saves the indices: a second backward raises at it, before the
    # value's leaf accumulates anything
    def prog(torch):
        t0 = torch.tensor([[-1.0, -1.5]], dtype=torch.float64, requires_grad=True)
        t1 = torch.maximum(t0, t0)
        t3 = torch.tensor([1.0, -1.7], dtype=torch.float64, requires_grad=True)
        t1[0:, [0, 1]] = t3
        t1.sum().backward()
        try:
            (t1.sum() + t3.sum()).backward()
        except RuntimeError as e:
            return str(e), t3.grad, t0.grad
    same(prog)


@pytest.mark.parametrize("case", ["select", "slice", "adv", "whole", "copy_", "mul_view"])
def test_second_backward_through_a_written_region(case):
    # CopySlices drops the node it wraps when freed: a second backward raises there even
    # when nothing else on the path saved anything (the fill_ of the whole tensor has no
    # CopySlices)
    def prog(torch):
        v = _t(torch, [1.0, 2.0])
        t = torch.zeros(3, dtype=torch.float64)
        {"select": lambda: t.__setitem__(0, v[0]), "slice": lambda: t.__setitem__(slice(0, 2), v),
         "adv": lambda: t.__setitem__([0, 1], v), "whole": lambda: t.__setitem__(Ellipsis, v[0]),
         "copy_": lambda: t[0:2].copy_(v), "mul_view": lambda: t[0:2].mul_(v)}[case]()
        t.sum().backward()
        try:
            t.sum().backward()
        except RuntimeError as e:
            return str(e), v.grad
        return v.grad
    same(prog)


def test_unused_saved_output_modified_in_place_raises():
    # PyTorch unpacks every saved variable of a node: pow(Tensor, Tensor)'s saved
    # result, read only by the exponent's formula, raises though the exponent needs none
    def prog(torch):
        t0 = torch.tensor([0.9], dtype=torch.float64)
        t1 = _t(torch, [[1.0, 0.5, 0.75], [0.25, 0.5, -0.3]])
        t3 = torch.pow(t1.abs() + 0.5, t0)
        t3.abs_()
        t3.sum().backward()
    same(prog, must_raise=True)


def test_unused_saved_input_modified_in_place_raises():
    def prog(torch):
        a = _t(torch, [1.0, 2.0])
        b = _t(torch, [3.0, 4.0])
        a2, b2 = a * 1, b * 1
        y = a2 * b2
        a2.add_(1)
        return torch.autograd.grad(y.sum(), b)
    same(prog, must_raise=True)


def test_leaf_moved_into_the_graph_interior():
    def prog(torch):
        t0 = _t(torch, [1.5, -1.25])
        t1 = _t(torch, [-2.0, 1.0])
        t3 = t0.exp()
        t0.detach_()
        t0 += t1
        (t0.sum() + t3.sum()).backward()
    same(prog, must_raise=True)


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


def test_engine_sum_to_0d_is_not_a_view():
    # the gradient of a 0-d input reached by broadcasting is sum()'s, not a view made under
    # no_grad, so writing into it with grad mode on is allowed
    def prog(torch):
        t0 = _t(torch, [[-1.25, 0.1, -1.0], [0.6, 1.25, 0.1]])
        t6 = _t(torch, 0.15)
        t7 = torch.addcmul(t0, t0, t6, value=0.5)
        g8, g9 = torch.autograd.grad(t7.sum(), [t0, t6])
        g9.copy_(t0.mean())
        return g9
    same(prog)


def test_grad_of_a_view_whose_history_cannot_be_rebuilt():
    def prog(torch):
        t0 = _t(torch, [[[2.0, -0.9], [0.1, 0.25]]])
        t4 = torch.chunk(t0, 2, -3)[0]
        t0.detach().add_(1.0)
        return t4.grad
    same(prog, quiet=True)


# ------------------------------------------------------------------ custom Function

def test_function_backward_writes_through_select():
    def prog(torch):
        class ComplexView(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a.select(0, 1)

            @staticmethod
            def backward(ctx, g):
                res = torch.zeros(2)
                res.select(0, 1).copy_(g)
                return res

        a = torch.ones(2, requires_grad=True)
        ComplexView.apply(a.clone()).sum().backward()
        return a.grad
    same(prog)


def test_once_differentiable_create_graph():
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            @torch.autograd.function.once_differentiable
            def backward(ctx, g):
                return g * 2

        x = _t(torch, [1.0, 2.0])
        go = torch.ones((), dtype=torch.float64, requires_grad=True)
        F.apply(x).sum().backward(go, create_graph=True)
        return x.grad
    same(prog, quiet=True)


def test_function_returns_input_under_no_grad():
    def prog(torch):
        class Id(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, g):
                return g

        x = _t(torch, [1.0])
        with torch.no_grad():
            y = Id.apply(x)
        return y.requires_grad, y is x
    same(prog)


def test_setup_context_default_args():
    def prog(torch):
        class Pow(torch.autograd.Function):
            @staticmethod
            def forward(x, y=3):
                return x ** y

            @staticmethod
            def setup_context(ctx, inputs, output):
                x, y = inputs
                ctx.save_for_backward(x)
                ctx.y = y

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return g * ctx.y * x ** (ctx.y - 1), None

        x = torch.tensor(2.0, requires_grad=True)
        return torch.autograd.grad(Pow.apply(x), x)
    same(prog)


def test_function_ctx_cycle_freed():
    def prog(torch):
        import gc
        import weakref

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, meta):
                ctx.meta = meta
                return x.clone()

            @staticmethod
            def backward(ctx, g):
                return g, None

        meta = {}
        out = F.apply(torch.tensor(1.0, requires_grad=True), meta)
        meta["out"] = out
        ref = weakref.ref(out)
        del out, meta
        gc.collect()
        return ref() is None
    same(prog)


def test_mark_dirty_non_input():
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, inp):
                out = inp.clone().view_as(inp)
                ctx.mark_dirty(out)
                return out

            @staticmethod
            def backward(ctx, g):
                return g

        F.apply(torch.tensor([1.0], requires_grad=True).clone())
    same(prog, must_raise=True)


# ------------------------------------------------------------------------ tensors

def test_numpy_under_no_grad():
    def prog(torch):
        x = _t(torch, [1.0, 2.0])
        with torch.no_grad():
            return x.numpy().tolist()
    same(prog)


def test_grad_self_assignment():
    def prog(torch):
        x = torch.ones(2)
        x.grad = x
    same(prog, must_raise=True)


def test_view_of_inference_tensor():
    def prog(torch):
        with torch.inference_mode():
            c = torch.ones(2, 3)
            return c.view(-1).is_inference()
    same(prog)


def test_ops_on_inference_tensors_outside_inference_mode():
    """Note [Inference tensors outside inference mode]: an op whose tensor arguments are
    all inference tensors records nothing; one normal tensor among them (a Python number
    for a tensor argument is one) records, and saving an inference tensor then raises;
    views and detach() of an inference tensor are inference tensors, not views."""
    def prog(torch):
        with torch.inference_mode():
            c = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
            d = torch.tensor([0.5, -1.0, 2.0])
        x = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
        n = torch.tensor([2.0, 3.0, 4.0])
        cases = {
            "c*c": lambda: c * c, "c.exp": lambda: c.exp(), "c.sum": lambda: c.sum(),
            "cat": lambda: torch.cat([c, d]),
            "mm": lambda: c.view(1, 3).mm(c.view(3, 1)), "maximum": lambda: torch.maximum(c, d),
            "c+x": lambda: c + x, "d*x": lambda: d * x, "c*n": lambda: c * n,
            "c*2": lambda: c * 2, "cat_mixed": lambda: torch.cat([c, n]),
            "where": lambda: torch.where(d > 0, c, c), "c.view*x": lambda: c.view(-1) * x,
            "c[0]": lambda: c[0], "c.detach": lambda: c.detach(),
            "unbind": lambda: c.unbind()[0], "expand": lambda: c.unsqueeze(0).expand(2, 3),
        }
        r = {}
        for name, f in cases.items():
            try:
                out = f()
                r[name] = (out, out.is_inference(), out.requires_grad, out.is_leaf,
                           out._is_view(), type(out.grad_fn).__name__)
            except RuntimeError as e:
                r[name] = str(e)
        try:
            c.view(-1)._version
        except RuntimeError as e:
            r["version"] = str(e)
        y = c * n
        y.sum().backward()
        r["grad"] = c.grad
        return r
    same(prog)


def test_backward_from_no_grad_view():
    def prog(torch):
        t0 = _t(torch, [[-0.1, -2.0]])
        with torch.no_grad():
            t3 = t0[:, 0::2]
        t3.backward(torch.ones_like(t3) * 0.5)
        return t0.grad
    same(prog, must_raise=True)


def test_roll_empty_node_name():
    def prog(torch):
        t1 = torch.roll(torch.zeros(0, 4, 3, dtype=torch.float64, requires_grad=True), 1,
                        dims=-3)
        return t1, type(t1.grad_fn).__name__
    same(prog)


def test_detach__on_a_view():
    def prog(torch):
        t4 = torch.sin(torch.ones(3, 3, dtype=torch.float64)).t()
        t4.detach_()
    same(prog, must_raise=True)


def test_add_alpha_mixed_dtype_precision():
    def prog(torch):
        a = _t(torch, [[-1.7, 0.6]])
        # float32 * 2.5 rounds in float32; PyTorch scales in the result's float64
        b = torch.tensor([[0.8223167061805725]], dtype=torch.float32)
        return torch.add(a, b, alpha=2.5)
    same(prog, rtol=1e-12, atol=0)


def test_backward_inputs_ancestor_of_another_input():
    def prog(torch):
        t0 = _t(torch, [1.7, -1.0])
        t2 = torch.erf(t0)
        t2.sum().backward(inputs=[t0, t2], retain_graph=True)
        return t0.grad
    same(prog, quiet=True)


def test_hook_on_view_before_inplace_write_through_it():
    """A tensor hook registered on a view before an in-place write through the view does
    not run: the write's gradient reaches the base past the view's old node (fuzzer seed
    601347)."""
    def prog(torch):
        Square = _square_function(torch)
        x = _t(torch, -0.5)
        y = Square.apply(x)
        v = y.view_as(y)
        calls = []
        v.register_hook(lambda g: calls.append(g.item()) or g * 2)
        v -= x
        v.sum().backward()
        return x.grad, calls
    same(prog)


def test_saved_index_tensor_hooks_and_sizes():
    """Note [Saved index keys]: an index node's saved indices are SavedTensors, whose
    hooks run in backward; its _saved_self_sym_sizes outlives backward."""
    def prog(torch):
        a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        out = a[:, torch.tensor([2, 0])]
        seen = []
        raw = out.grad_fn._raw_saved_indices
        raw[1].register_hooks(lambda t: seen.append(("pack", t.tolist())) or t,
                              lambda t: seen.append("unpack") or t)
        r = [out.grad_fn._saved_indices, [type(s).__name__ for s in raw]]
        (out * torch.tensor([1.0, 5.0])).sum().backward()
        r += [a.grad, seen, out.grad_fn._saved_self_sym_sizes]
        try:
            out.grad_fn._saved_indices
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


# ------------------------------------------------------- fuzzer classes of issue 8 (s18)

def test_node_on_a_no_grad_view_of_a_leaf_checks_its_saved_result():
    """A view of a leaf made under no_grad requires grad but has no edge: prod's node on
    it leads nowhere, yet the engine runs it and it unpacks (so checks) its saved result,
    as PyTorch's nodes do before any formula (fuzzer seed 19864)."""
    def prog(torch):
        t0 = torch.tensor(-0.9, dtype=torch.float64, requires_grad=True)
        with torch.no_grad():
            t2 = t0.t()
        t5 = torch.prod(t2)
        t5.add_(t0)
        (t0.sum() + (t2 * t2).sum() + t5.sum()).backward()
    same(prog, must_raise=True)


def test_no_grad_view_of_a_leaf_flags_and_edges():
    def prog(torch):
        x = _t(torch, [1.5, 2.0])
        with torch.no_grad():
            v = x[:]
        y = (v * v).sum()
        r = [v.requires_grad, v.is_leaf, v.grad_fn, y.grad_fn.next_functions[0][0] is not None]
        y.backward()
        return r + [x.grad, v.grad]
    same(prog, quiet=True)


@pytest.mark.parametrize("case", ["mul_broadcast_column", "add_broadcast_column",
                                  "mul_expanded_row", "pow_expanded_row", "copy_expanded",
                                  "transposed_target", "partial_dense", "partial_0d",
                                  "full_overlap"])
def test_inplace_operand_overlapping_the_target(case):
    """An operand sharing memory with the written tensor (Note [Overlapping operands]):
    a partial overlap PyTorch can see raises; one it cannot (an operand or target not
    dense) is computed element by element in memory order, each element reading what
    was written before it; the history is the usual one (fuzzer: t0 *= t0[:, None, 0])."""
    def prog(torch):
        leaf = torch.arange(1.0, 7.0, dtype=torch.float64, requires_grad=True)
        t = leaf.reshape(2, 3) * 1
        if case == "mul_broadcast_column":
            t *= t[:, None, 0]
        elif case == "add_broadcast_column":
            t += t[:, None, 0]
        elif case == "mul_expanded_row":
            t = leaf[:4].reshape(2, 2) * 1
            t.mul_(t[0].expand(2, 2))
        elif case == "pow_expanded_row":
            t = leaf[:4].reshape(2, 2) / 4
            t.pow_(t[0].expand(2, 2))
        elif case == "copy_expanded":
            t = leaf[:4].reshape(2, 2) * 1
            t.copy_(t[:, 1:].expand(2, 2))
        elif case == "transposed_target":
            t = leaf[:4].reshape(2, 2) * 1
            t.t().add_(t[0].expand(2, 2))
        elif case == "partial_dense":
            t.add_(t[0])
        elif case == "partial_0d":
            t.view(-1).add_(t[0, 0])
        else:
            t.mul_(t)
        r = [t.detach().clone(), type(t.grad_fn).__name__]
        if case.startswith("add") or case.startswith("copy") or case == "transposed_target":
            t.sum().backward()
            r.append(leaf.grad)
        return r
    same(prog, may_raise=case.startswith("partial"))


def test_inplace_operand_overlap_without_grad():
    def prog(torch):
        t = torch.arange(1.0, 7.0).reshape(2, 3)
        t *= t[:, None, 0]
        u = torch.arange(1, 5).reshape(2, 2)
        u.add_(u[0].expand(2, 2))
        return t, u
    same(prog)


def test_create_graph_grad_of_empty_then_mask_setitem():
    """An empty view's gradient is a constant (as_strided_backward's zeros): a value
    written into it through a mask gets a gradient without history (fuzzer seed 7275)."""
    def prog(torch):
        t0 = torch.zeros(2, 0, dtype=torch.float64, requires_grad=True)
        g1, = torch.autograd.grad(t0.sum(), [t0], retain_graph=True, create_graph=True,
                                  allow_unused=True)
        t2 = g1[...]
        t4 = torch.tensor(-0.9, dtype=torch.float64, requires_grad=True)
        g1[g1 > 0] = t4
        (t2 * t2).sum().backward(create_graph=True)
        return t4.grad, t4.grad.requires_grad, t4.grad.grad_fn
    same(prog, quiet=True)


def test_empty_as_strided_gradient_has_no_history():
    def prog(torch):
        x = _t(torch, [1.0, 2.0, 3.0])
        y = x.as_strided((0, 2), (1, 1))
        (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
        return g, g.requires_grad
    same(prog)


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


# ------------------------------------------------------------------------- set_

@pytest.mark.parametrize("form", ["tensor", "empty", "strided", "strided_default_stride",
                                  "offset_from_view", "view_target"])
def test_set_(form):
    def prog(torch):
        y = torch.arange(6.0)
        b = torch.ones(2)
        if form == "tensor":
            r = b.set_(y[2:])
        elif form == "empty":
            r = b.set_()
        elif form == "strided":
            r = b.set_(y, 1, (2, 2), (2, 1))
        elif form == "strided_default_stride":
            r = b.set_(y, 0, (2, 3))
        elif form == "offset_from_view":
            r = b.set_(y[2:], 1, (2,))
        else:
            x = torch.ones(4)
            b = x[1:3]
            r = b.set_(y)
        assert r is b
        out = [b.clone(), b.shape, b.stride(), b._version, y._version]
        y[3] = 9.0   # the memory is shared
        return out + [b.clone()]
    same(prog)


def test_set_autograd():
    def prog(torch):
        r = []
        x = torch.ones(2, requires_grad=True)
        try:
            x.set_(torch.zeros(2))
        except RuntimeError as e:
            r.append(str(e))
        with torch.no_grad():
            x.set_(torch.arange(3.0))
        r += [x, x.requires_grad, x.is_leaf, x._version]
        a = torch.ones(2, requires_grad=True).clone()
        a.set_(torch.arange(3.0))
        r += [type(a.grad_fn).__name__, a.grad_fn.name(), a.requires_grad, a.is_leaf]
        try:
            a.sum().backward()
        except RuntimeError as e:
            r.append(str(e))
        b = torch.ones(2)
        b.set_(torch.zeros(3, requires_grad=True))
        r += [type(b.grad_fn).__name__, b.requires_grad]
        return r
    same(prog)


def test_set_errors():
    def prog(torch, which):
        b = torch.ones(2)
        if which == "dtype":
            b.set_(torch.ones(2, dtype=torch.float64))
        elif which == "type":
            b.set_(3)
        elif which == "offset":
            b.set_(torch.arange(6.0), -1, (2,))
    for which in ("dtype", "offset"):
        same(prog, which, must_raise=True)
    same_error(prog, "type", message="prefix")  # (PyTorch also lists Storage overloads)


# ------------------------------------------------------------------ ZeroTensor, layouts

@pytest.mark.parametrize("write", ["copy_", "copy_view", "set_int", "set_int_pair",
                                   "set_slice_scalar", "set_slice_0d", "set_ellipsis_full",
                                   "set_mask", "set_index", "add_", "fill_"])
def test_write_into_zerotensor_gradient_wording(write):
    """copy_ (and a basic setitem that is copy_ rather than fill_) words the ZeroTensor
    error differently from the other in-place ops, as PyTorch."""
    def prog(torch):
        x = torch.tensor([[1.5, -2.0], [1.0, 2.0]], requires_grad=True)
        torch.sgn(x).sum().backward()
        g = x.grad
        if write == "copy_":
            g.copy_(torch.ones(2, 2))
        elif write == "copy_view":
            g[0].copy_(torch.ones(2))
        elif write == "set_int":
            g[0] = 1.0
        elif write == "set_int_pair":
            g[0, 0] = 1.0
        elif write == "set_slice_scalar":
            g[:] = 1.0
        elif write == "set_slice_0d":
            g[0] = torch.ones(1)
        elif write == "set_ellipsis_full":
            g[...] = torch.ones(2, 2)
        elif write == "set_mask":
            g[g == 0] = torch.tensor(1.0)
        elif write == "set_index":
            g[[0]] = torch.ones(2)
        elif write == "add_":
            g.add_(1)
        else:
            g.fill_(1)
    same(prog, must_raise=True)


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


def test_no_grad_view_node_checks_saved_result_after_no_grad_write():
    """log_softmax on a no_grad view of a leaf: its saved result written in place under
    no_grad; the node leads nowhere but runs and checks it (fuzzer seed 105441)."""
    def prog(torch):
        t0 = torch.tensor([[1.25, -2.0], [1.25, -0.9], [-0.75, 0.75], [-2.0, 1.5]],
                          dtype=torch.float64, requires_grad=True)
        with torch.no_grad():
            t2 = t0[1::2, :]
        t3 = torch.log_softmax(t2, dim=-2)
        with torch.no_grad():
            t3.sigmoid_()
        t5 = t3.unsqueeze(1)
        (t2.sum() + (t3 * t3).sum() + t5.sum()).backward()
    same(prog, must_raise=True)


def test_setitem_value_is_the_target_with_a_new_leading_dim():
    """x[None, 0:] = x[0:]: the value expanded to the target's shape is the very same
    elements in the same layout once expanded with PyTorch's strides for the new size-1
    dim (numpy's broadcast_to gives it stride 0): a full overlap, allowed (fuzzer seed
    102428)."""
    def prog(torch):
        t0 = torch.tensor([[-1.7, 1.25, 2.0, -1.5]], dtype=torch.float64)
        t3 = t0[0:]
        t0[None, 0:] = t3
        return t0, t0._version
    same(prog)


def test_retain_grad_on_no_grad_view_after_its_base_was_written():
    """retain_grad on a view made in no_grad mode is a no-op (it is a leaf by its own
    history), also once its base was written in place, when reading its grad_fn would
    raise (fuzzer seed 107772)."""
    def prog(torch):
        t1 = torch.tensor([-1.7, 2.0], dtype=torch.float64, requires_grad=True)
        t2 = torch.cumsum(t1, dim=0)
        with torch.no_grad():
            t6 = t2.reshape(-1)
        t6.retain_grad()
        r = [t6.retains_grad]
        t2.mul_(2.0)
        t6.retain_grad()
        t2.sum().backward()
        return r + [t6.retains_grad, t6.grad, t1.grad]
    same(prog, quiet=True)


def test_inplace_broadcast_operand_inside_a_strided_target():
    """t8 *= t6 where t6 is one element of the strided t8 (fuzzer seed 105846): the
    elements after it read its new value."""
    def prog(torch):
        t0 = torch.tensor([[[0.1, 0.9]], [[-0.9, -0.75]], [[1.7, -0.5]], [[0.5, -0.75]]],
                          dtype=torch.float32)
        t6 = t0[2::2, 0, 1]
        t8 = t0[..., 0, 1:]
        t8.mul_(t6)
        return t0
    same(prog)


def test_fill_from_a_zero_d_tensor_sharing_the_target():
    """x[:] = v and x.fill_(v) with a 0-d v whose memory is x's (a view of v, or one of x's
    elements): PyTorch's setitem fills from a 0-d value (fill_ takes its item first), so
    no overlap is refused and every element gets the old value (fuzzer seed 10441)."""
    def prog(torch):
        t0 = torch.tensor([0.75, 0.25, 0.1, 2.0], dtype=torch.float32, requires_grad=True)
        t6 = t0.mean()
        t10 = t6.view(-1)
        t10[:] = t6
        x = torch.arange(3.0, requires_grad=True) * 1
        x.fill_(x.view(3)[2])
        y = torch.arange(4.0)
        y[1:].fill_(y[1])
        (t10.sum() + x.sum()).backward()
        return t10, t6, x, y, t0.grad, type(x.grad_fn).__name__
    same(prog)


def test_backward_through_a_write_into_an_expanded_view_refuses():
    """fill_ into an expanded view of a non-leaf is allowed, but the base's gradient
    through that write (CopySlices) goes through the view's overlapping strides, which
    PyTorch refuses at backward (fuzzer seed 303924); without the base needing a
    gradient there is nothing to refuse."""
    def prog(torch):
        t0 = torch.tensor([[-1.0, -1.5], [0.75, 2.0]], dtype=torch.float64, requires_grad=True)
        t1 = torch.square(t0)
        t3 = t1.expand(2, *t1.shape)
        t3.fill_(0.75)
        torch.autograd.backward([t1.sum(), torch.norm(t3).sum()])
    same(prog, must_raise=True)

    def prog2(torch):
        t1 = torch.zeros(2, 2)
        v = torch.tensor(0.5, requires_grad=True)
        t3 = t1.expand(2, 2, 2)
        t3.fill_(v)
        t1.sum().backward()
        return t1, v.grad
    same(prog2, may_raise=True)


def test_sum_to_of_leading_dims_is_a_view():
    """A gradient summed over leading broadcast dims is a view of the keepdim sum (PyTorch's
    sum_to), also when no graph is recorded: detach_ refuses it (fuzzer seed 312612)."""
    def grad(torch):
        t0 = torch.tensor([[[-0.5, -0.5, 0.6]], [[-1.25, 0.1, 1.0]]], dtype=torch.float64)
        t1 = torch.tensor([1.5, -0.9, -0.9], dtype=torch.float64, requires_grad=True)
        t2 = torch.mul(t0, t1)
        return torch.autograd.grad(t2.sum(), [t1], create_graph=True)[0]
    same(lambda torch: [grad(torch), grad(torch)._is_view(), grad(torch).requires_grad])
    same_error(lambda torch: grad(torch).detach_())


def test_mask_write_into_an_expanded_view_refuses_at_backward():
    """t4[t4 > 0] = value with t4 an expand of a non-leaf: the base's gradient goes through
    the view's overlapping strides, which PyTorch's CopySlices refuses (fuzzer seed 409000)."""
    def prog(torch):
        t1 = torch.tensor([[0.3, -2.0], [2.0, 1.25]], dtype=torch.float64, requires_grad=True)
        t4 = torch.sin(t1).clone().expand(2, 2, 2)
        t9 = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
        t4[t4 > 0] = t9
        (t1.sum() + (t4 * t4).sum() + t9.sum()).backward()
    same(prog, must_raise=True)


def test_setitem_of_the_very_elements_into_an_expanded_tensor():
    """t3[:] = g with t3 a view of g, both the stride-0 result of autograd.grad: PyTorch's
    copy_ of the very same elements writes nothing, so the overlap is not refused
    (fuzzer seed 411915)."""
    def prog(torch):
        t0 = torch.tensor([2.0, -2.0, -0.6, 1.25], dtype=torch.float64, requires_grad=True)
        g1, = torch.autograd.grad(t0.sum(), [t0], create_graph=True)
        t3 = torch.movedim(g1, -1, -1)
        t3[:] = g1
        return t3, g1, t3._version
    same(prog)


def test_write_into_a_non_overlapping_part_of_an_expanded_view():
    """t3[1:] = v and t9[0] = v with t3/t9 expands of a 0-d non-leaf: the part written has
    one element, so the base's gradient through the write is fine in PyTorch (fuzzer seeds
    506962, 507193)."""
    def prog(torch):
        t0 = torch.tensor([[1.25, 0.6], [-1.25, -1.7]], dtype=torch.float64, requires_grad=True)
        t2 = t0.sum()
        t3 = t2.expand(2, *t2.shape)
        t3[1:] = -0.1
        s = torch.tensor(-0.25, dtype=torch.float64, requires_grad=True)
        t8 = s * 3.0
        t9 = t8.expand(2, *t8.shape)
        t9[0] = s * s
        (t0.sum() + t2.sum() + t8.sum()).backward()
        return t2, t8, t0.grad, s.grad
    same(prog)


def test_setitem_of_elements_that_are_the_target_once_expanded():
    """g5[..., 0::2] = g5[0, :, 1:] on the stride-0 gradient of a sum: the value expanded to
    the target is the very same elements, so PyTorch's copy_ writes nothing and refuses no
    overlap (fuzzer seed 507421)."""
    def prog(torch):
        t0 = torch.tensor([[[0.5, -0.9]], [[-0.5, -0.3]]], dtype=torch.float64, requires_grad=True)
        t3 = torch.lerp(t0, t0, 0.3)
        g4, g5 = torch.autograd.grad(t3.sum(), [t0, t3])
        t6 = g5[0, :, 1:]
        g5[..., 0::2] = t6
        return g5, g5._version
    same(prog)


def test_hooks_of_a_leaf_made_non_leaf_run_at_its_old_accumulate_grad():
    """t0 (a leaf, used by t1) is detach_()ed, then t0 *= t3 gives it a history; a hook
    registered on it then runs at its grad_fn and again at the AccumulateGrad that t1's
    graph leads to (PyTorch's reads its variable's hooks when it runs), before that node
    raises; hooks registered before the in-place op are forgotten (fuzzer seed 416870)."""
    def prog(torch, early, remove):
        log = []
        t0 = torch.tensor([[-0.25, -1.0, -1.25, 1.0]], dtype=torch.float64, requires_grad=True)
        if early:
            t0.register_hook(lambda g: log.append(('early', g.shape, g.tolist())))
        t1 = t0[:, [2, 3]]
        t0.detach_()
        t2 = t1.transpose(-1, 1)
        t3 = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
        t0 *= t3
        t4 = torch.log(t2.abs() + 0.5)
        h = t0.register_hook(lambda g: log.append(('t0', g.shape, g.tolist())))
        if remove:
            h.remove()
        try:
            (t0.sum() + (t2 * t2).sum() + t4.sum()).backward()
        except RuntimeError as e:
            log.append(str(e))
        return log, t3.grad, t0._backward_hooks is None, len(t0._backward_hooks or ())
    for early in (False, True):
        for remove in (False, True):
            same(prog, early, remove)


def test_post_accumulate_hook_runs_without_a_gradient_and_after_detach_():
    """A leaf's post-accumulate-grad hooks run whenever its AccumulateGrad does: after the
    leaf was detach_()ed (no .grad then; fuzzer seed 601304) and when a Function gives it
    no gradient, as PyTorch's."""
    def prog(torch):
        log = []
        t1 = torch.tensor([[1.7, 0.5], [1.5, -0.6]], dtype=torch.float64, requires_grad=True)
        t1.register_post_accumulate_grad_hook(
            lambda p: log.append(('t1 acc', p.grad, p.requires_grad)))
        t2 = torch.clamp(t1, -0.6, 0.7)
        t1.detach_()
        t7 = torch.zeros(0, 2, 1, dtype=torch.float64, requires_grad=True)
        (t2.sum() + (t7 * t7).sum()).backward()

        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a * 2 + b

            @staticmethod
            def backward(ctx, g):
                return g, None
        a = torch.ones(2, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
        b.register_post_accumulate_grad_hook(lambda p: log.append(('b acc', p.grad)))
        b.register_hook(lambda g: log.append(('b', g)))
        F.apply(a, b).sum().backward()
        return log, t1.grad, t7.grad, a.grad, b.grad
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


def test_operand_of_no_grad_view_partner_not_saved():
    # fuzzer seed 816085: addcmul(t3, t3, t2) with t3 a view made under no_grad of a
    # leaf (it requires grad but has no edge) saves no t2, so an in-place change of t2
    # before backward does not raise
    def prog(torch):
        t0 = _t(torch, [0.9, -1.25, -0.3, 0.5])
        t1 = _t(torch, [1.7, 0.3, 1.25, 0.1])
        t2 = t0 * 1
        with torch.no_grad():
            t3 = t1[2]
        t6 = torch.addcmul(t3, t3, t2, value=0.5)
        t7 = t3 * t2
        t2.div_(2)
        (t6.sum() + t7.sum()).backward()
        return t3.requires_grad, t0.grad, t1.grad
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


def test_function_saved_input_detached_in_place():
    # fuzzer seed 900103: ctx.saved_tensors unpacks with the node as saved_for, so an
    # input detach_()ed after the call comes back as it is (a built-in op's raises)
    def prog(torch):
        Square = _square_function(torch)
        t0 = _t(torch, [[0.75], [0.5], [-0.5]])
        t8 = t0 * 1
        y = Square.apply(t8)
        t8.detach_()
        y.sum().backward()
        return t0.grad
    same(prog)


def test_builtin_saved_input_detached_in_place_raises():
    def prog(torch):
        t0 = _t(torch, [0.75, 0.5])
        t8 = t0 * 1
        y = t8.sin()
        t8.detach_()
        y.sum().backward()
    same_error(prog)


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
