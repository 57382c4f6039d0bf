"""Version checks and in-place corners: each program runs under torch and
autograd_core and is compared by tests/_diff.py (values, gradients, flags, grad_fn
names, exception type and message, warnings)."""

import os
import sys
import warnings

import pytest

from _diff import same, same_error, warns


def _t(torch, v, rg=True):
    return torch.tensor(v, dtype=torch.float64, requires_grad=rg)


# ------------------------------------- saved views read their history first (item 4, 6d)

def test_create_graph_saved_view_of_written_base_names_its_rebuilt_history():
    # mm's create_graph formulas save loss.t() (a view of loss); writing loss through
    # loss.T rebuilds that view's history, which the version error names (AsStrided)
    def prog(torch):
        x = _t(torch, [[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]])
        loss = x @ x.T
        g, = torch.autograd.grad((loss @ loss.T @ loss).sum(), x, create_graph=True)
        loss.T[0] = 7.0
        return torch.autograd.grad(g.sum(), x)
    same_error(prog)


def test_create_graph_saved_view_after_base_mul_():
    def prog(torch):
        x = _t(torch, [[1.0, 2.0, 0.5]])
        loss = (x * x + 1).sqrt()
        g, = torch.autograd.grad((loss @ loss.T @ loss).sum(), x, create_graph=True)
        loss.mul_(2)
        return torch.autograd.grad(g.sum(), x)
    same_error(prog)


def test_create_graph_write_through_view_of_saved_base():
    # the saved tensor is loss itself: the error names the CopySlices of the write
    def prog(torch):
        x = _t(torch, [[1.0, 2.0], [0.5, -1.0]])
        loss = x * 2
        g, = torch.autograd.grad((loss * loss * loss).sum(), x, create_graph=True)
        loss.view(-1)[0] = 7.0
        return torch.autograd.grad(g.sum(), x)
    same_error(prog)


def test_create_graph_write_through_view_of_returned_grad():
    # the gradient returned for x is the very tensor exp's backward saved
    def prog(torch):
        x = _t(torch, [[1.0, 2.0], [0.5, -1.0]])
        q = _t(torch, [[0.1, 0.2], [0.3, 0.4]])
        y = x + q.exp()
        gx, gq = torch.autograd.grad((y * y).sum(), [x, q], create_graph=True)
        gx.T[0, 0] = 7.0
        return torch.autograd.grad(gq.sum(), x)
    same_error(prog)


@pytest.mark.parametrize("views", ["unbind", "split", "chunk", "split_with_sizes"])
@pytest.mark.parametrize("grad_mode", [True, False])
def test_saved_multi_output_view_written_through_base(views, grad_mode):
    # the view is saved; its base written (with or without grad mode): the error comes
    # at backward, when the saved view's history is read (PyTorch's unpack)
    def prog(torch):
        a = _t(torch, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        x = a * 1
        v = {"unbind": lambda: x.unbind(0), "split": lambda: x.split(1),
             "chunk": lambda: x.chunk(2),
             "split_with_sizes": lambda: x.split_with_sizes([1, 1])}[views]()[0]
        y = (v * v).sum()
        with torch.set_grad_enabled(grad_mode):
            x.mul_(2)
        y.backward()
        return a.grad
    same_error(prog)


def test_saved_multi_output_view_under_create_graph():
    def prog(torch):
        x = _t(torch, [1.0, -2.0, 3.0])
        w = _t(torch, [0.5, 2.0, -1.0])
        t1 = torch.where(w > 0, w, x.sum())
        t2 = t1.chunk(3)[0]
        g = torch.autograd.grad(t2.norm(), [x, w], create_graph=True)
        t1.copy_(t1.detach() * 2)
        return torch.autograd.grad(sum((q * q).sum() for q in g), [x, w])
    same_error(prog)


def test_saved_multi_output_view_direct_write_still_raises_at_write():
    def prog(torch):
        x = _t(torch, [[1.0, 2.0], [3.0, 4.0]]) * 1
        v = x.unbind(0)[0]
        v.mul_(2)
    same_error(prog)


def test_saved_view_written_without_grad_mode_reads_new_history():
    # a plain view: no error at unpack but the version one, naming AsStrided
    def prog(torch):
        a = _t(torch, [1.0, 2.0, 3.0])
        x = a * 1
        v = x[1:]
        y = (v * v).sum()
        with torch.no_grad():
            x.mul_(2)
        y.backward()
    same_error(prog)


# ------------------------------------------- nodes save what PyTorch's save (item 4)

def test_masked_select_saves_self():
    def prog(torch):
        x = _t(torch, [[1.0, 2.0, 3.0], [0.5, 1.5, 2.0]])
        t0 = x * 2
        t1 = t0.masked_select(x > 1)
        g, = torch.autograd.grad(t1.norm(), x, create_graph=True)
        t0.copy_(t0.detach() * 2)
        return torch.autograd.grad(g.sum(), x)
    same_error(prog)


@pytest.mark.parametrize("op", ["masked_select", "gather"])
def test_index_selecting_ops_save_self(op):
    def prog(torch):
        x = _t(torch, [[1.0, 2.0, 3.0], [0.5, 1.5, 2.0]])
        t0 = x * 2
        t1 = {"masked_select": lambda: t0.masked_select(x > 1),
              "gather": lambda: t0.gather(1, torch.tensor([[0, 2], [1, 1]]))}[op]()
        t0.mul_(2)
        t1.sum().backward()
    same_error(prog)


@pytest.mark.parametrize("op", ["index_add", "index_copy", "put"])
def test_index_writing_ops_save_source(op):
    def prog(torch):
        x = _t(torch, [1.0, 2.0, 3.0])
        s = _t(torch, [4.0, 5.0]) * 1
        i = torch.tensor([0, 2])
        y = {"index_add": lambda: x.index_add(0, i, s),
             "index_copy": lambda: x.index_copy(0, i, s),
             "put": lambda: x.put(i, s)}[op]()
        s.mul_(2)
        y.sum().backward()
    same_error(prog)


@pytest.mark.parametrize("op", ["select_scatter", "slice_scatter", "diagonal_scatter",
                                "lu_unpack"])
def test_ops_saving_only_metadata_allow_later_writes(op):
    # PyTorch's nodes keep src's (LU's) size only: writing it later is no error
    def prog(torch):
        x = _t(torch, [[1.0, 2.0], [3.0, 4.0]])
        s = _t(torch, [5.0, 6.0]) * 1
        if op == "lu_unpack":
            LU, piv = torch.linalg.lu_factor(x.detach())
            LU.requires_grad_(True)
            lu = LU * 1
            P, L, U = torch.lu_unpack(lu, piv)
            lu.mul_(2)
            (L.sum() + U.sum()).backward()
            return LU.grad
        y = {"select_scatter": lambda: x.select_scatter(s, 0, 0),
             "slice_scatter": lambda: x.slice_scatter(s[None], 0, 0, 1),
             "diagonal_scatter": lambda: x.diagonal_scatter(s)}[op]()
        s.mul_(2)
        (y * y).sum().backward()
        return x.grad
    same(prog)


# ----------------------------------------------------- mark_dirty (item 4, item 6c)

def _inc(torch, save=False):
    class Inc(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            if save:
                ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, g):
            if save:
                ctx.saved_tensors
            return g * 2
    return Inc


@pytest.mark.parametrize("through_view", [False, True])
def test_mark_dirty_second_backward_raises(through_view):
    def prog(torch):
        a = _t(torch, [1.0, 2.0, 3.0])
        b = a.clone()
        y = _inc(torch, save=True).apply(b[:2] if through_view else b)
        y.sum().backward()
        y.sum().backward()
    same_error(prog)


def test_mark_dirty_second_autograd_grad_after_create_graph_raises():
    def prog(torch):
        a = _t(torch, [1.0, 2.0, 3.0])
        y = _inc(torch, save=True).apply(a.clone())
        torch.autograd.grad(y.sum(), a, create_graph=True)
        torch.autograd.grad(y.sum(), a)
        torch.autograd.grad(y.sum(), a)
    same_error(prog)


def _grads(t):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return t.grad, t.retains_grad, type(t.grad_fn).__name__


@pytest.mark.parametrize("through_view", [False, True])
def test_mark_dirty_drops_retained_grad(through_view):
    def prog(torch):
        a = _t(torch, [1.0, 2.0])
        b = a * 1
        v = b[:1] if through_view else b
        v.retain_grad()
        (v * 3).sum().backward(retain_graph=True)
        before = _grads(v)
        y = _inc(torch).apply(v)
        after_fn = _grads(v)
        y.sum().backward()
        return before, after_fn, _grads(v), a.grad
    same(prog)


def test_mark_dirty_clears_tensor_hooks():
    def prog(torch):
        log = []
        a = _t(torch, [1.0, 2.0])
        b = a * 1
        b.register_hook(lambda g: log.append(g.tolist()))
        y = _inc(torch).apply(b)
        y.sum().backward()
        return log, a.grad
    same(prog)


# ------------------------------------------------ fills into expanded tensors (item 6a)

def _expanded(torch):
    x = _t(torch, [1.0, 2.0, 3.0])
    g, = torch.autograd.grad(x.sum(), x, create_graph=True)   # stride 0
    return g


@pytest.mark.parametrize("case", [
    "masked_fill_", "masked_fill_tensor", "masked_fill_0d_mask", "masked_fill_2d",
    "index_fill_", "setitem_mask_scalar", "setitem_mask_values", "setitem_index",
    "index_put_mask", "index_put_index",
])
def test_fill_into_expanded_tensor_warns_and_writes(case):
    def prog(torch):
        g = _expanded(torch)
        m = torch.tensor([True, False, True])

        def f():
            if case == "masked_fill_":
                g.masked_fill_(m, 5.0)
            elif case == "masked_fill_tensor":
                g.masked_fill_(m, torch.tensor(4.0, dtype=torch.float64))
            elif case == "masked_fill_0d_mask":
                g.masked_fill_(torch.tensor(False), 4.0)
            elif case == "masked_fill_2d":
                g.expand(2, 3).masked_fill_(torch.tensor([False, True, False]), 4.0)
            elif case == "index_fill_":
                g.index_fill_(0, torch.tensor([1]), 2.0)
            elif case == "setitem_mask_scalar":
                g[m] = 2.0
            elif case == "setitem_mask_values":
                g[m] = torch.tensor([2.0, 3.0], dtype=torch.float64)
            elif case == "setitem_index":
                g[[0, 1]] = 2.0
            elif case == "index_put_mask":
                g.index_put_((m,), torch.tensor(2.0, dtype=torch.float64))
            else:
                g.index_put_((torch.tensor([0, 1]),), torch.tensor([2.0, 3.0],
                                                                   dtype=torch.float64))
            return g, g._version, g.requires_grad
        return warns(f)
    same(prog)


@pytest.mark.parametrize("case", ["masked_fill_", "setitem", "index_fill_"])
def test_expanded_write_warning_points_at_the_caller(case):
    # the warning is attributed to the line that wrote, as PyTorch's
    def prog(torch):
        g = _expanded(torch)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            if case == "masked_fill_":
                line = _line() + 1
                g.masked_fill_(torch.tensor([True, False, True]), 5.0)
            elif case == "setitem":
                line = _line() + 1
                g[torch.tensor([True, False, True])] = 5.0
            else:
                line = _line() + 1
                g.index_fill_(0, torch.tensor([1]), 2.0)
        return [(os.path.basename(x.filename), x.lineno == line) for x in w]
    same(prog)


def _line():
    return sys._getframe(1).f_lineno


@pytest.mark.parametrize("case", ["add_", "masked_scatter_", "index_copy_", "put_",
                                  "scatter_", "slice_fill"])
def test_other_writes_into_expanded_tensor_raise(case):
    def prog(torch):
        g = _expanded(torch)
        if case == "add_":
            g.add_(1)
        elif case == "masked_scatter_":
            g.masked_scatter_(torch.tensor([True, False, True]),
                              torch.tensor([7.0, 8.0], dtype=torch.float64))
        elif case == "index_copy_":
            g.index_copy_(0, torch.tensor([0]), torch.tensor([2.0], dtype=torch.float64))
        elif case == "put_":
            g.put_(torch.tensor([0]), torch.tensor(2.0, dtype=torch.float64))
        elif case == "scatter_":
            g.scatter_(0, torch.tensor([0]), 2.0)
        else:
            g[1:] = 2.0
    same_error(prog)


def test_masked_fill_expanded_nan():
    # a NaN element not filled leaves the memory it shares with a filled one alone
    def prog(torch):
        e = torch.tensor([float("nan")], dtype=torch.float64).expand(3)

        def f():
            e.masked_fill_(torch.tensor([False, True, False]), 1.0)
            return e
        return warns(f)
    same(prog)


def test_masked_fill_expanded_with_history():
    # the filled tensor is an expanded view of a tensor with history
    def prog(torch):
        x = _t(torch, [2.0])
        b = x * 3
        e = b.expand(3)

        def f():
            with torch.no_grad():
                e.masked_fill_(torch.tensor([False, True, False]), 1.0)
            return e, b, e._version
        return warns(f)
    same(prog)


@pytest.mark.parametrize("case", ["mask", "coords", "rows"])
def test_index_put_accumulate_into_expanded_tensor(case):
    # each value adds to the memory its position shares with others, in turn
    def prog(torch):
        def f():
            if case == "mask":
                g = torch.ones(1, dtype=torch.float64).expand(3)
                g.index_put_((torch.tensor([True, False, True]),),
                             torch.tensor(2.0, dtype=torch.float64), accumulate=True)
            elif case == "coords":
                g = torch.ones(1, dtype=torch.float64).expand(2, 3)
                g.index_put_((torch.tensor([0, 1, 1]), torch.tensor([0, 2, 1])),
                             torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64),
                             accumulate=True)
            else:
                g = torch.ones(3, 1, dtype=torch.float64).expand(3, 2)
                g.index_put_((torch.tensor([0, 0]),),
                             torch.tensor([1.0, 2.0], dtype=torch.float64), accumulate=True)
            return g, g._version
        return warns(f)
    same(prog)


@pytest.mark.parametrize("leaf", [False, True])
def test_index_put_accumulate_shape_mismatch(leaf):
    def prog(torch):
        g = torch.ones(3, dtype=torch.float64, requires_grad=leaf)
        g.index_put_((torch.tensor([0, 1]),), torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64),
                     accumulate=True)
    same_error(prog)


@pytest.mark.parametrize("case", ["mask", "coords", "rows", "values_only"])
def test_index_put_accumulate_into_expanded_tensor_recorded(case):
    # recorded, each value still adds to the memory its position shares, in turn (5, not
    # 3); the backward through the expanded view refuses, as PyTorch's CopySlices
    def prog(torch):
        def f():
            a = _t(torch, [1.0] if case != "rows" else [[1.0], [1.0], [1.0]])
            base = a * 1 if case != "values_only" else torch.ones(1, dtype=torch.float64)
            if case == "coords":
                g = base.expand(2, 3)
                v = _t(torch, [1.0, 2.0, 3.0])
                g.index_put_((torch.tensor([0, 1, 1]), torch.tensor([0, 2, 1])), v,
                             accumulate=True)
            elif case == "rows":
                g = base.expand(3, 2)
                v = _t(torch, [1.0, 2.0])
                g.index_put_((torch.tensor([0, 0]),), v, accumulate=True)
            else:
                g = base.expand(3)
                v = _t(torch, 2.0)
                g.index_put_((torch.tensor([True, False, True]),), v, accumulate=True)
            return (g, base, g._version, type(g.grad_fn).__name__, type(base.grad_fn).__name__,
                    v)
        (g, base, version, gf, bf, v), caught = warns(f)
        w = torch.arange(1.0, 1.0 + g.numel(), dtype=torch.float64).view(g.shape)
        try:
            (g * w).sum().backward()
            err = None
        except RuntimeError as e:
            err = str(e)
        return g, base, version, gf, bf, caught, v.grad, err
    same(prog)


@pytest.mark.parametrize("through_view", [False, True])
def test_index_put_accumulate_recorded_graph(through_view):
    # PyTorch's one IndexPutBackward0 (a CopySlices through a view) over self and the
    # values: self's gradient passes through, each value gets its position's
    def prog(torch):
        a = _t(torch, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        v = _t(torch, [2.0, 3.0, 4.0])
        b = a * 1
        t = b[1] if through_view else b
        t.index_put_((torch.tensor([0, 0, 2]),) if through_view
                     else (torch.tensor([1, 1, 0]), torch.tensor([0, 0, 2])), v, accumulate=True)
        nf = [(type(n).__name__ if n is not None else None, i)
              for n, i in b.grad_fn.next_functions]
        w = torch.arange(6.0, dtype=torch.float64).view(2, 3)
        ga, gv = torch.autograd.grad((b * b * w).sum(), (a, v), create_graph=True)
        gga, ggv = torch.autograd.grad((ga * ga).sum() + gv.sum(), (a, v))
        return b, type(b.grad_fn).__name__, nf, ga, gv, gga, ggv
    same(prog)


_REDUCTIONS = {
    "norm": lambda t: t.norm(), "norm_dim": lambda t: t.norm(dim=0).sum(),
    "norm_p2": lambda t: t.norm(p=2),
    "fro": lambda t: t.norm(p="fro"), "norm_p3": lambda t: t.norm(p=3),
    "dist": lambda t: (t - t.detach() * 0.5).norm(),
    "sum": lambda t: t.sum(), "mean": lambda t: t.mean(1).sum(), "var": lambda t: t.var(),
    "std": lambda t: t.std(0).sum(), "prod": lambda t: t.prod(), "amax": lambda t: t.amax(0).sum(),
    "logsumexp": lambda t: t.logsumexp(0).sum(), "softmax": lambda t: (t.softmax(0) * t).sum(),
}


@pytest.mark.parametrize("op", sorted(_REDUCTIONS))
@pytest.mark.parametrize("view", ["t", "permute"])
def test_grad_of_reduction_over_transposed_leaf_has_pytorch_strides(op, view):
    # the 2-norm's backward fills self / norm in place, keeping self's layout, so the
    # gradient of w.t().norm() comes back in w's (.view(-1) works on it)
    def prog(torch):
        shape = (3, 4) if view == "t" else (2, 3, 4)
        w = torch.arange(1.0, 13.0 if view == "t" else 25.0,
                         dtype=torch.float64).reshape(shape).requires_grad_()
        v = w.t() if view == "t" else w.permute(2, 0, 1)
        g, = torch.autograd.grad(_REDUCTIONS[op](v), w)
        _REDUCTIONS[op](v).backward()
        return g, g.stride(), w.grad, w.grad.stride(), g.view(-1) if g.is_contiguous() else None
    same(prog)


@pytest.mark.parametrize("where", ["rows", "col"])
@pytest.mark.parametrize("with_weight", [False, True])
def test_mark_dirty_view_copyslices_wraps_the_function(where, with_weight):
    # PyTorch's CopySlices wraps the Function's node: its edges are the base's old
    # history and the Function's other inputs, not the Function's node itself
    def prog(torch):
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, w=None):
                ctx.save_for_backward(w)
                x.mul_(2 if w is None else w)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, g):
                w, = ctx.saved_tensors
                return (g * 2, None) if w is None else (g * w, g.sum(0) if g.dim() > 1 else g)

        a = _t(torch, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        base = a * 1
        v = base[1:] if where == "rows" else base[:, 0]
        w = _t(torch, [3.0, 4.0] if where == "rows" else [3.0, 4.0, 5.0]) if with_weight else None
        y = F.apply(v, w) if with_weight else F.apply(v)
        cs = base.grad_fn
        desc = (type(y.grad_fn).__name__, type(cs).__name__,
                [(type(n).__name__ if n is not None else None, i)
                 for n, i in cs.next_functions])
        k = torch.arange(6.0, dtype=torch.float64).view(3, 2)
        grads = torch.autograd.grad((base * base * k).sum(), (a, w) if with_weight else (a,),
                                    retain_graph=True)
        (y * y).sum().backward()
        try:
            (y * y).sum().backward()
            err = None
        except RuntimeError as e:
            err = str(e)
        return desc, y, grads, a.grad, w.grad if with_weight else None, err
    same(prog)


# ----------------------------------- saved tensors modified in place
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
