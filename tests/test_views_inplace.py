"""Views and in-place writes where they meet (Note [View + in-place] in
autograd_core/_core/_inplace.pxi), each program run under PyTorch and autograd_core and
compared by tests/_diff.py: values, gradients, requires_grad / is_leaf / grad_fn names
and exception types and messages.  Views of views, writes on the base and on siblings,
0-d and empty tensors, views made under no_grad / inference_mode / by multi-output ops,
and the in-place view ops and view copies."""
import pytest

from _diff import complex_data, data, real_loss, same


def _names(*ts):
    return [type(t.grad_fn).__name__ for t in ts]


# ------------------------------------------------------------ a view's history after a write

@pytest.mark.parametrize("write", ["mul_", "setitem", "sibling", "sibling_setitem", "no_grad"])
def test_view_history_after_write(write):
    def prog(torch):
        x = data(torch, 4, 3, seed=1, requires_grad=True)
        y = data(torch, 3, seed=2, requires_grad=True)
        b = x * 1
        v = b[1:3]
        vv = v[:, 1]          # a view of a view
        s = b[0]              # a 0-d-free sibling
        if write == "mul_":
            b.mul_(2)
        elif write == "setitem":
            b[2] = y
        elif write == "sibling":
            s.mul_(y)
        elif write == "sibling_setitem":
            v[0, 0] = 5.0
        else:
            with torch.no_grad():
                b.add_(1)
        r = [v, vv, s, b, _names(v, vv, s, b), v.is_leaf, vv.requires_grad]
        (v.sum() * 2 + vv.sum() * 3 + b.sum()).backward()
        return r + [x.grad, y.grad]
    same(prog)


def test_view_of_view_write_through_inner():
    def prog(torch):
        x = data(torch, 3, 4, seed=3, requires_grad=True)
        b = x.sin()
        v = b.t()[1:]
        w = v[0]
        w.mul_(3)              # a view of a view written in place
        u = b.view(-1)
        (u * torch.arange(12.0, dtype=torch.float64)).sum().backward()
        return b, v, w, _names(b, v, w, u), x.grad
    same(prog)


def test_zero_dim_views():
    def prog(torch):
        x = data(torch, 3, seed=4, requires_grad=True)
        b = x.clone()
        e = b[1]               # 0-d view
        f = b.select(0, -1)    # 0-d view
        e.mul_(3)
        b[2] = e
        g = b[...]
        b.add_(1)
        (e + f * 2 + g.sum()).backward()
        return b, e, f, g, _names(b, e, f, g), x.grad
    same(prog)


def test_empty_views():
    def prog(torch):
        x = torch.zeros(0, 3, dtype=torch.float64, requires_grad=True)
        b = x * 2
        v = b[:, 1:]
        b.mul_(2)
        v.sum().backward()
        return v, _names(v, b), x.grad
    same(prog)


def test_base_becomes_requiring_grad():
    def prog(torch):
        b = torch.zeros(3, 4, dtype=torch.float64)
        v = b[:, 1]
        w = b.t()
        y = data(torch, 4, seed=5, requires_grad=True)
        r = [v.requires_grad, v.is_leaf]
        b[0] = y
        r += [v.requires_grad, v.is_leaf, w.requires_grad, _names(v, w, b)]
        (v.sum() + w[1].sum()).backward()
        return r + [y.grad]
    same(prog)


def test_retain_grad_moves_with_the_write():
    def prog(torch):
        x = data(torch, 4, seed=6, requires_grad=True)
        b = x * 1
        v = b[:2]
        b.retain_grad()
        v.retain_grad()
        b.mul_(2)
        v.add_(1)
        (b * b).sum().backward()
        return b.grad, v.grad, x.grad
    same(prog)


def test_node_prehook_on_regenerated_view_node():
    def prog(torch):
        x = data(torch, 4, seed=7, requires_grad=True)
        b = x * 1
        v = b[1:]
        v.mul_(2)
        log = []
        v.grad_fn.register_prehook(lambda g: log.append(type(g[0]).__name__))
        v.sum().backward()
        return log, x.grad
    same(prog)


def test_backward_through_non_contiguous_base():
    def prog(torch):
        x = data(torch, 3, 4, seed=8, requires_grad=True)
        b = (x * 1).t()             # a view: its base is x * 1
        c = x.flip(0).t().clone()   # a non-view whose memory is not in C order
        v = c[1:3, 0]
        v.mul_(4)
        b[0, 1] = 9.0
        (b.sum() + c.sum() * 2).backward()
        return c, _names(b, c, v), x.grad
    same(prog)


# ------------------------------------------------------------ errors PyTorch raises

@pytest.mark.parametrize("op", ["split", "chunk", "unbind", "split_with_sizes"])
def test_multi_output_views(op):
    def prog(torch):
        b = data(torch, 4, 2, seed=9, requires_grad=True) * 1
        parts = {"split": lambda: b.split(2), "chunk": lambda: b.chunk(2),
                 "unbind": lambda: b.unbind(), "split_with_sizes": lambda: b.split([1, 3])}[op]()
        r = []
        for f in (lambda: parts[0].mul_(2), lambda: parts[1][0].add_(1)):
            try:
                f()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))
        b.mul_(2)
        for f in (lambda: parts[-1].grad_fn, lambda: parts[-1].is_leaf,
                  lambda: parts[-1].requires_grad):
            try:
                r.append(f() is None)
            except RuntimeError as e:
                r.append(str(e))
        with torch.no_grad():
            parts[0].mul_(2)  # allowed: nothing records
        q = data(torch, 4, seed=1).split(2)
        q[0].mul_(2)           # allowed: nothing requires grad
        return r, q
    same(prog)


@pytest.mark.parametrize("mode", ["no_grad", "inference_mode"])
def test_views_made_under_a_mode(mode):
    def prog(torch):
        ctx = torch.no_grad if mode == "no_grad" else torch.inference_mode
        b = data(torch, 3, seed=10, requires_grad=True) * 1
        with ctx():
            v = b[1:]
        w = v[0:1]             # a view of such a view, in grad mode
        r = [v.requires_grad, v.is_leaf, w.requires_grad]
        for f in (lambda: v.mul_(2), lambda: w.add_(1)):
            try:
                f()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))
        b.mul_(2)
        for f in (lambda: v.grad_fn, lambda: w.is_leaf, lambda: repr(v)):
            try:
                r.append(f())
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog, quiet=True)


def test_backward_of_view_made_under_no_grad():
    def prog(torch):
        x = data(torch, 3, seed=11, requires_grad=True)
        with torch.no_grad():
            v = x[1:]
        y = (v * 2).sum()
        y.backward()
        return v.requires_grad, v.is_leaf, y.requires_grad, x.grad, v.grad
    same(prog)


def test_custom_function_view_outputs():
    def prog(torch):
        class Two(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a[:1], a[1:] * 2

            @staticmethod
            def backward(ctx, g1, g2):
                return torch.cat([g1, g2 * 2])

        class One(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a[1:]

            @staticmethod
            def backward(ctx, g):
                return torch.cat([torch.zeros(1, dtype=g.dtype), g])

        r = []
        a = data(torch, 3, seed=12, requires_grad=True) * 1
        for f in (lambda: Two.apply(a)[0].mul_(2), lambda: One.apply(a).mul_(2)):
            try:
                f()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_overlapping_writes():
    def prog(torch):
        r = []
        x = data(torch, 6, seed=13)
        for f in (lambda: x[1:].add_(x[:5]), lambda: x.view(2, 3).mul_(x.view(3, 2).t()),
                  lambda: x.mul_(x), lambda: x[:3].copy_(x[3:]),
                  lambda: torch.ones(3, 1).expand(3, 3).mul_(2),
                  lambda: torch.ones(3, 1).expand(3, 3).fill_(2),
                  lambda: torch.ones(3, 1).expand(3, 3).zero_()):
            try:
                r.append(f())
            except RuntimeError as e:
                r.append(str(e))
        t = torch.ones(3, 1, dtype=torch.float64)
        e = t.expand(3, 4)
        e[1, 2] = 7.0          # one element of an expanded tensor: allowed
        try:
            e[0] = 2.0         # a row of repeated memory: refused
        except RuntimeError as err:
            r.append(str(err))
        return r, t
    same(prog)


def test_grad_of_sum_can_be_filled():
    def prog(torch):
        x = data(torch, 2, 2, seed=14, requires_grad=True)
        (g,) = torch.autograd.grad(x.sum(), x)
        r = [g._is_view(), g.stride()]
        g.zero_()
        r.append(g.clone())
        try:
            g.mul_(2)
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_detach__rules():
    def prog(torch):
        r = []
        x = data(torch, 3, seed=15, requires_grad=True)
        b = x * 1
        try:
            b[1:].detach_()
        except RuntimeError as e:
            r.append(str(e))
        y = (x * 2).sum()
        x.detach_()            # after use: the graph no longer reaches x's .grad
        y.backward()
        r.append(x.grad)
        c = data(torch, 3, seed=16, requires_grad=True) * 1
        d = (c * c).sum()
        c.detach_()
        try:
            d.backward()
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


# ------------------------------------------------------------ setitem

def test_setitem_0d_masks_and_values():
    def prog(torch):
        t = torch.tensor(-1.5, dtype=torch.float64)
        t[t > 0] = 3.0
        r = [t.clone()]
        t[t < 0] = torch.tensor(2.5, dtype=torch.float64)
        r.append(t.clone())
        t[...] = torch.tensor([[4.0]], dtype=torch.float64)
        r.append(t.clone())
        x = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
        u = x * 1
        u[u > 0] = x * 3
        u.backward()
        return r, u, x.grad
    same(prog)


def test_setitem_view_of_view_overwritten_gets_no_grad():
    def prog(torch):
        a = data(torch, 3, 2, seed=17, requires_grad=True)
        c = (a * 2).view(6).view(3, 2)
        c[1][0] = 3.0
        c[2, :] = a[0] * 5
        c.sum().backward()
        return c, _names(c), a.grad
    same(prog)


def test_setitem_advanced_on_a_view():
    def prog(torch):
        a = data(torch, 3, 4, seed=18, requires_grad=True)
        b = a * 1
        v = b[:, 1:]
        v[[0, 2]] = 0.0
        w = b * 1
        w[[0, 2]] = 1.0
        (b.sum() + v.sum() + w.sum()).backward()
        return b, _names(b, v, w), a.grad
    same(prog)


# ------------------------------------------------------------ in-place view ops and copies

@pytest.mark.parametrize("op", ["t_", "transpose_", "swapdims_", "swapaxes_", "unsqueeze_",
                                "squeeze_"])
def test_inplace_view_ops(op):
    def prog(torch):
        x = data(torch, 2, 1, 3, seed=19, requires_grad=True)
        b = x * 1
        call = {"t_": lambda t: t.t_(), "transpose_": lambda t: t.transpose_(0, -1),
                "swapdims_": lambda t: t.swapdims_(0, 1), "swapaxes_": lambda t: t.swapaxes_(1, 0),
                "unsqueeze_": lambda t: t.unsqueeze_(-1), "squeeze_": lambda t: t.squeeze_(1)}[op]
        v = b[1]                                   # a view, changed in place
        sib = b[0]
        out = call(v)
        r = [out is v, v.shape, v.stride(), v._base is b, b._version, _names(v, sib, b)]
        c = b.clone()
        call(c if op != "t_" else c.view(2, 3))    # a non-view
        (v * torch.arange(float(v.numel()), dtype=torch.float64).view(v.shape)).sum().backward()
        return r + [x.grad]
    same(prog)


def test_copies_and_unsafe_splits():
    def prog(torch):
        x = data(torch, 4, 3, seed=20, requires_grad=True)
        outs = [torch.view_copy(x, (3, 4)), torch.t_copy(x), torch.transpose_copy(x, 0, 1),
                torch.unsqueeze_copy(x, 1), torch.select_copy(x, 1, -1),
                torch.expand_copy(x[:1], (2, 3)), torch.permute_copy(x, (1, 0)),
                torch.alias_copy(x)] + list(torch.split_copy(x, 3)) + list(
            torch.split_with_sizes_copy(x, [1, 3])) + list(torch.unsafe_split(x * 1, 3)) + list(
            x.unsafe_chunk(2, 1)) + list(torch.unsafe_split_with_sizes(x * 1, [2, 2]))
        r = [(o.shape, o.is_contiguous(), o._is_view(), type(o.grad_fn).__name__) for o in outs]
        u = torch.unsafe_split(x * 1, 2)
        u[0].mul_(2)           # allowed: not tracked as views
        sum(((o * (i + 1)).sum() for i, o in enumerate(outs + list(u)))).backward()
        return r, x.grad
    same(prog)


@pytest.mark.parametrize("args", [(3,), ([1, 3],), ([2, 1],), (5,), ("t",), ("tl",)])
def test_tensor_split(args):
    def prog(torch):
        x = data(torch, 4, 2, seed=21, requires_grad=True)
        a = args[0]
        if a == "t":
            a = torch.tensor(3)
        elif a == "tl":
            a = torch.tensor([1, 3])
        parts = torch.tensor_split(x, a) + x.tensor_split(a, dim=1)
        sum((p.sum() * (i + 1) for i, p in enumerate(parts))).backward()
        return parts, _names(*parts), x.grad
    same(prog)


@pytest.mark.parametrize("call", ["hsplit2", "hsplit_list", "vsplit", "dsplit", "hsplit_1d",
                                  "hsplit_bad", "vsplit_1d", "dsplit_2d", "tensor_split_0d",
                                  "tensor_split_zero", "tensor_split_float"])
def test_hsplit_vsplit_dsplit(call):
    def prog(torch):
        x = data(torch, 2, 4, 2, seed=22)
        return {"hsplit2": lambda: torch.hsplit(x, 2), "hsplit_list": lambda: x.hsplit([1, 3]),
                "vsplit": lambda: torch.vsplit(x, [1]), "dsplit": lambda: x.dsplit(2),
                "hsplit_1d": lambda: torch.hsplit(x[0, :, 0], 2),
                "hsplit_bad": lambda: torch.hsplit(x, 3),
                "vsplit_1d": lambda: torch.vsplit(x[0, 0], 2),
                "dsplit_2d": lambda: torch.dsplit(x[0], 2),
                "tensor_split_0d": lambda: torch.tensor_split(x[0, 0, 0], 2),
                "tensor_split_zero": lambda: torch.tensor_split(x, 0),
                "tensor_split_float": lambda: torch.tensor_split(x, torch.tensor([1.0]))}[call]()
    same(prog, may_raise=True)


def test_mT_of_0d_is_the_tensor():
    def prog(torch):
        x = torch.tensor(1.5, requires_grad=True)
        return x.mT is x, x.mT
    same(prog, quiet=True)


def test_flatten_of_advanced_index_is_a_view():
    def prog(torch):
        x = data(torch, 3, 4, 5, seed=23, requires_grad=True)
        r = []
        for y in (x[:, [1, 0]], x[0:, [0, 1]], x[:, :, [2, 0]], x[[1, 0], :, [1, 0]]):
            r.append((y.stride(), y.is_contiguous(), type(y.flatten().grad_fn).__name__))
        return r
    same(prog)


@pytest.mark.parametrize("args", [((2, 2), (1, 2)), ((3, 2), (1, 1)), ((2,), (3,), 2),
                                  ((0, 3), (1, 1), 10), ((2, 2), (3, 1), 9), ((2,), (-1,)),
                                  ((2, 2), (1,))])
def test_as_strided(args):
    def prog(torch):
        x = data(torch, 3, 4, seed=24, requires_grad=True)
        v = (x * 1)[1:].as_strided(*args)
        r = [v, v._is_view(), type(v.grad_fn).__name__, v.stride()]
        v.sum().backward()
        b = x * 1
        b.as_strided_(*args)
        (b * 2).sum().backward()
        return r + [b, type(b.grad_fn).__name__, x.grad]
    same(prog, may_raise=True)


def test_unfold_views_and_writes():
    def prog(torch):
        x = data(torch, 3, 7, seed=25, requires_grad=True)
        b = x * 1
        u = b.unfold(1, 3, 2)
        r = [u.shape, u.stride(), u._base is b]
        u[0, 1, 2] = 5.0               # a write through an overlapping window view
        (u * u).sum().backward()
        return r + [b, _names(u, b), x.grad, torch.tensor(2.0).unfold(0, 1, 1)]
    same(prog)


def test_resize_and_set():
    def prog(torch):
        x = data(torch, 4, seed=26)
        r = [x.resize_(2, 2).clone(), x._version, x.resize_as_(torch.zeros(3)).clone(),
             x._version]
        y = data(torch, 3, seed=27, requires_grad=True)
        try:
            y.resize_(2)
        except RuntimeError as e:
            r.append(str(e))
        with torch.no_grad():
            y.set_(y[1:])
        r += [y, y.shape, y.is_leaf]
        z = torch.zeros(2)
        z.set_()
        return r + [z.shape, torch.ones(2).conj().shape, torch.real(torch.ones(2))]
    same(prog)


def test_copy_from_a_number_and_index_put_dtypes():
    def prog(torch):
        r = []
        t = torch.tensor([2.0, 3.0], dtype=torch.float32)
        r.append(t.copy_(-0.5).clone())
        r.append(torch.zeros(2, dtype=torch.int64).copy_(7))
        d = torch.zeros(3, 3, dtype=torch.float64)
        for f in (lambda: torch.tensor([2.0], requires_grad=True).copy_(-2.0),
                  lambda: d.__setitem__(([1, 2], slice(None)), torch.ones(3)),
                  lambda: d.__setitem__(([1, 2], slice(None)), 2.5),
                  lambda: d.__setitem__((slice(1, 3),), torch.ones(3))):
            try:
                f()
                r.append("ok")
            except RuntimeError as e:
                r.append(str(e))
        return r, d
    same(prog)


def test_inputs_that_are_views_made_under_no_grad():
    def prog(torch):
        x = data(torch, 3, 2, seed=28, requires_grad=True)
        with torch.no_grad():
            v = x[0]
        g = torch.autograd.grad((x * x).sum(), [x, v], allow_unused=True)
        (x * 3).sum().backward(inputs=[x, v])
        return g, x.grad, v.grad
    same(prog)


def test_setitem_bool_mask_with_0d_value_of_another_dtype():
    def prog(torch):
        t = torch.tensor([[1.0, 0.1, -0.6]], dtype=torch.float64)
        v = torch.tensor(-0.5, dtype=torch.float32, requires_grad=True)
        t[t > 0] = v                      # PyTorch's masked_fill_: cast, recorded
        r = [t, type(t.grad_fn).__name__]
        try:
            t[t > 0] = torch.ones(2, dtype=torch.float32)
        except RuntimeError as e:
            r.append(str(e))
        t.sum().backward()
        return r + [v.grad]
    same(prog)


def test_copy_into_its_own_memory():
    def prog(torch):
        x = data(torch, 3, seed=29, requires_grad=True)
        (g,) = torch.autograd.grad(x.sum(), [x])
        s = g.squeeze()
        s.copy_(g)                        # the very same elements: allowed
        r = [s, s._version]
        try:
            s.copy_(g * 2)                # repeated memory written: refused
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


def test_inputs_must_be_tensors():
    def prog(torch):
        x = data(torch, 2, seed=30, requires_grad=True)
        r = []
        for f in (lambda: torch.autograd.grad(x.sum(), [None, x], allow_unused=True),
                  lambda: x.sum().backward(inputs=[None])):
            try:
                f()
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_numpy_and_grad_rules():
    def prog(torch):
        x = data(torch, 2, seed=31, requires_grad=True)
        with torch.no_grad():
            a = x.numpy().tolist()
            b = x[1:].numpy().tolist()
        r = [a, b]
        for f in (lambda: x.numpy(), lambda: setattr(x, "grad", x)):
            try:
                f()
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


def test_setitem_0d_bool_mask_value_dtype():
    def prog(torch):
        r = []
        for shape in ((), (1,), (1, 1)):
            t = torch.full(shape, 0.6, dtype=torch.float64)
            try:
                t[t > 0] = torch.tensor(-1.7, dtype=torch.float32, requires_grad=True)
                r.append(t)
            except RuntimeError as e:
                r.append(str(e))
        return r
    same(prog)


@pytest.mark.parametrize("op", ["sub_", "mul_", "add_", "div_", "isub", "view"])
def test_inplace_result_cast_to_self_dtype(op):
    def prog(torch):
        x = data(torch, 2, 3, seed=32, dtype="float32", requires_grad=True)
        y = data(torch, 3, seed=33, requires_grad=True)            # float64
        t = x * 1
        target = t[1] if op == "view" else t
        if op == "isub":
            target -= y
        elif op == "view":
            target.mul_(y)
        else:
            getattr(target, op)(y)
        (t * t).sum().backward()
        return t, type(t.grad_fn).__name__, x.grad, y.grad
    same(prog)


def test_inplace_on_view_of_base_detached_in_place():
    def prog(torch):
        x = data(torch, 1, 4, seed=34, requires_grad=True)
        b = torch.minimum(x, x)
        v = b.mT
        b.detach_()
        r = [v.requires_grad, v.is_leaf, b.requires_grad]
        try:
            v.fill_(0.75)
        except RuntimeError as e:
            r.append(str(e))
        return r
    same(prog)


@pytest.mark.parametrize("value", ["1", "0d", "2"])
def test_setitem_bool_mask_one_element_value_of_another_dtype(value):
    def prog(torch):
        t = torch.tensor([[1.0], [-1.7], [1.25]], dtype=torch.float32)
        v = {"1": torch.tensor([-0.9], dtype=torch.float64),
             "0d": torch.tensor(-0.9, dtype=torch.float64),
             "2": torch.tensor([-0.9, 2.0], dtype=torch.float64)}[value]
        t[t > 0] = v
        return t
    same(prog, may_raise=True)


# ------------------------------------------------- a saved output of an in-place op on a view

@pytest.mark.parametrize("op", ["relu_", "exp_", "sigmoid_"])
@pytest.mark.parametrize("later", ["base", "view", "none"])
def test_saved_output_of_inplace_on_view_sees_later_writes(op, later):
    """relu_/exp_/sigmoid_ on a view save their result: a later write to the base or the
    view (same memory) must make backward raise (fuzzer seed 500144)."""
    def prog(torch):
        x = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
        b = -x
        v = b[None]
        getattr(v, op)()
        if later == "base":
            b -= x
        elif later == "view":
            v.add_(1)
        (x + v.sum()).backward()
        return x.grad
    same(prog, may_raise=True)


def test_sgn_saves_self_and_result():
    """sgn's node saves self and result as PyTorch's (its derivative is zero for real
    tensors, but a later in-place change of its input still makes backward raise;
    fuzzer seed 601510)."""
    def prog(torch):
        x = torch.tensor([[1.0, 2.0, -0.1, 0.3], [-0.5, 0.5, 0.6, -0.3]],
                         dtype=torch.float64, requires_grad=True)
        y = x[x > 0]
        s = torch.sgn(y)
        names = sorted(a for a in dir(s.grad_fn) if a.startswith("_saved"))
        y.sub_(s)
        y.sum().backward()
        return names, x.grad
    same(prog, may_raise=True)


#  views, setitem and in-place writes: overlaps, no_grad and inference views
def _t(torch, v, rg=True):
    return torch.tensor(v, dtype=torch.float64, requires_grad=rg)


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


def test_grad_of_a_view_whose_history_cannot_be_rebuilt():
    def prog(torch):
        t0 = _t(torch, [[[2.0, -0.9], [0.1, 0.25]]])
        t4 = torch.chunk(t0, 2, -3)[0]
        t0.detach().add_(1.0)
        return t4.grad
    same(prog, quiet=True)


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


def test_detach__on_a_view():
    def prog(torch):
        t4 = torch.sin(torch.ones(3, 3, dtype=torch.float64)).t()
        t4.detach_()
    same(prog, must_raise=True)


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


# ------------------------------- writes into results and their views
def _no_grad_view_of_a_result(m):
    t0 = m.tensor([0.25, 1.0], dtype=m.float64, requires_grad=True)
    t2 = t0 * 1
    with m.no_grad():
        v = t2[None]
    return t0, t2, v


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


# ------------------------------------------------------------ the graph of a write through a view
# (Note [CopySlices wraps the op]: the base's CopySlices wraps the in-place op's node; its
# next_functions are the base's old history, then the op's other inputs')

def _edges(node, depth=2):
    """node's next_functions as nested [name, output_nr, next] lists, depth levels deep."""
    if node is None:
        return None
    return [[None if n is None else n.name(), nr, _edges(n, depth - 1) if depth > 1 else None]
            for n, nr in node.next_functions]


def _second_order(torch, loss, inputs):
    """The gradients of loss (create_graph) and of the sum of those, for inputs."""
    ga = torch.autograd.grad(loss, inputs, create_graph=True, allow_unused=True)
    total = sum(g.sum() for g in ga if g is not None)
    if not (isinstance(total, torch.Tensor) and total.requires_grad):
        return ga, None
    return ga, torch.autograd.grad(total, inputs, allow_unused=True)


_VIEWS = {
    "select": lambda b: b[1],
    "select_slice": lambda b: b[1][1:],
    "transpose_slice": lambda b: b.t()[1:3, 0],
    "narrow": lambda b: b.narrow(1, 1, 2)[2],
    "view_slice": lambda b: b.view(12)[2:6],
    "as_strided": lambda b: b.as_strided((4,), (3,), 1),
    "unsqueeze_select": lambda b: b.unsqueeze(0)[0, 2],
    "diagonal": lambda b: b.diagonal(),
}

_WRITES = {
    "mul_t": lambda w, o, torch: w.mul_(o),
    "mul_s": lambda w, o, torch: w.mul_(3.0),
    "add_t": lambda w, o, torch: w.add_(o, alpha=2),
    "sub_t": lambda w, o, torch: w.sub_(o),
    "div_t": lambda w, o, torch: w.div_(o.abs() + 1),
    "sin_": lambda w, o, torch: w.sin_(),
    "exp_": lambda w, o, torch: w.exp_(),
    "clamp_": lambda w, o, torch: w.clamp_(-0.5, 0.5),
    "clamp_t": lambda w, o, torch: w.clamp_(min=o),
    "addcmul_": lambda w, o, torch: w.addcmul_(o, o.exp(), value=0.5),
    "lerp_": lambda w, o, torch: w.lerp_(o, 0.3),
    "copy_": lambda w, o, torch: w.copy_(o),
    "pow_t": lambda w, o, torch: w.abs_().add_(0.5).pow_(o.abs()),
    "pow_s": lambda w, o, torch: w.pow_(2),
    "zero_": lambda w, o, torch: w.zero_(),
    "fill_t": lambda w, o, torch: w.fill_(o[0]),
    "masked_fill_": lambda w, o, torch: w.masked_fill_(o > 0, 2.0),
    "index_put_": lambda w, o, torch: w.index_put_((torch.tensor([0, 1]),), o[:2]),
    "put_": lambda w, o, torch: w.put_(torch.tensor([1]), o[:1]),
}


@pytest.mark.parametrize("op", list(_WRITES))
@pytest.mark.parametrize("view", list(_VIEWS))
def test_copy_slices_wraps_the_ops_node(op, view):
    # base with history: next_functions (names, output indices, two levels), the view's
    # history after the write, values, gradients and second-order gradients as PyTorch's
    def prog(torch):
        a = data(torch, 3, 4, seed=3, requires_grad=True)
        c = data(torch, 4, seed=4, requires_grad=True)
        b = a * 2
        w = _VIEWS[view](b)
        _WRITES[op](w, c[:w.shape[0]], torch)
        out = [b.grad_fn.name(), _edges(b.grad_fn), w.grad_fn.name(), _edges(w.grad_fn, 1), b]
        return out, _second_order(torch, (b * b).sum(), [a, c])
    same(prog)


@pytest.mark.parametrize("op", ["mul_t", "add_t", "clamp_t", "addcmul_", "lerp_", "copy_",
                                "fill_t", "index_put_", "put_"])
@pytest.mark.parametrize("view", ["select", "transpose_slice", "view_slice"])
def test_copy_slices_over_a_base_without_history(op, view):
    # a base that requires no grad written with a source that does: CopySlices wraps the
    # op all the same, its first edge None; then a second write through a sibling
    def prog(torch):
        c = data(torch, 4, seed=4, requires_grad=True)
        b = data(torch, 3, 4, seed=3)
        w = _VIEWS[view](b)
        _WRITES[op](w, c[:w.shape[0]], torch)
        out = [b.grad_fn.name(), _edges(b.grad_fn, 3), w.grad_fn.name(), b]
        b[0, :3].mul_(c[1:])
        out += [_edges(b.grad_fn, 3), b.is_leaf, w.requires_grad]
        return out, _second_order(torch, (b * b).sum(), [c])
    same(prog)


@pytest.mark.parametrize("then", ["keep", "drop_view", "reread_view"])
def test_copy_slices_saved_result_modified_names_the_view(then):
    # pow_ through a view saves its result; a later write into the base bumps the shared
    # version: PyTorch's error names the view's history rebuilt by the write (AsStrided)
    # while the view keeps it, else the op's node (Pow1): once the view is dropped, or
    # its history read again after the base changed (a new AsStrided)
    def prog(torch):
        c = data(torch, 2, seed=2, requires_grad=True)
        b = data(torch, 3, 4, seed=3, lo=0.5, hi=1.5)
        w = b[1, :2]
        w.pow_(c)
        b[0, :3].mul_(2)
        if then == "drop_view":
            del w
        elif then == "reread_view":
            w.grad_fn
        torch.autograd.grad((b * b).sum(), [c])
    same(prog, must_raise=True)


@pytest.mark.parametrize("write", ["the_view", "a_sibling"])
def test_copy_slices_saved_result_after_a_second_write(write):
    # exp_ through a view saves its result; a second write through the same view rebuilds
    # its history (the error names Exp), one through a sibling leaves it (AsStrided)
    def prog(torch):
        b0 = data(torch, 2, 3, seed=5, requires_grad=True)
        b = b0 * 1
        w = b[0]
        w.exp_()
        if write == "the_view":
            w.add_(1)
        else:
            b[1].mul_(2)
            b[0, :1].add_(1)
        torch.autograd.grad((b * b).sum(), [b0])
    same(prog, must_raise=True)


def test_copy_slices_view_of_a_leaf_refused():
    # a view of a leaf that requires grad takes no in-place write (PyTorch's error), with
    # a tensor source too
    def prog(torch):
        a = data(torch, 4, seed=1, requires_grad=True)
        a[:2].mul_(data(torch, 2, seed=2, requires_grad=True))
    same(prog, must_raise=True)


@pytest.mark.parametrize("case", ["add_f64", "mul_f64", "copy_f64", "addcmul_f64",
                                  "copy_int", "mul_int"])
def test_copy_slices_wraps_a_cast_result(case):
    # float32 base, an operand of another dtype: the op computes wider and its result is
    # cast to the view's dtype; the node is wrapped all the same (PyTorch's graph), each
    # gradient in its input's dtype, second order too
    def prog(torch):
        a = data(torch, 4, seed=1, dtype="float32", requires_grad=True)
        c = data(torch, 2, seed=2, requires_grad=True)     # float64
        k = torch.tensor([2, -3])
        y = a * 2
        v = y[1:3]
        {"add_f64": lambda: v.add_(c), "mul_f64": lambda: v.mul_(c),
         "copy_f64": lambda: v.copy_(c), "addcmul_f64": lambda: v.addcmul_(c, c),
         "copy_int": lambda: v.copy_(k), "mul_int": lambda: v.mul_(k)}[case]()
        return [_edges(y.grad_fn, 3), y, v.grad_fn.name()], _second_order(
            torch, (y * y).sum(), [a, c])
    same(prog)


def test_copy_slices_put_of_another_dtype_refused():
    def prog(torch):
        y = data(torch, 4, seed=1, requires_grad=True) * 2
        y[:2].put_(torch.tensor([0]), torch.tensor([3]))
    same(prog, must_raise=True)


@pytest.mark.parametrize("case", ["mul_real", "add_real", "copy_real", "sub_real",
                                  "mul_complex"])
def test_copy_slices_complex_base_real_operand(case):
    # a complex base written with a real operand: the real operand gets the real part of
    # its gradient (the wrapped node's formula), as PyTorch's
    def prog(torch):
        a = complex_data(torch, 4, seed=1, requires_grad=True)
        r = data(torch, 2, seed=2, requires_grad=True)
        z = complex_data(torch, 2, seed=3, requires_grad=True)
        y = a * 2
        v = y[1:3]
        {"mul_real": lambda: v.mul_(r), "add_real": lambda: v.add_(r, alpha=3),
         "copy_real": lambda: v.copy_(r), "sub_real": lambda: v.sub_(r),
         "mul_complex": lambda: v.mul_(z)}[case]()
        real_loss(torch, y).backward()
        return _edges(y.grad_fn, 3), a.grad, r.grad, z.grad
    same(prog)


def test_copy_slices_siblings_and_repeated_writes():
    # writes through two siblings and three writes through one view: CopySlices over
    # CopySlices, each wrapping its op; the view's history read after the writes
    def prog(torch):
        a = data(torch, 4, seed=1, requires_grad=True)
        c = data(torch, 2, seed=2, requires_grad=True)
        y = a * 2
        v = y[:2]
        v.mul_(c)
        v.add_(c)
        v.sin_()
        y[2:].cos_()
        y[1:3].addcdiv_(c, c.exp() + 1, value=0.5)
        out = [_edges(y.grad_fn, 6), v.grad_fn.name(), _edges(v.grad_fn, 3)]
        return out, _second_order(torch, (y * y).sum() + v.sum(), [a, c])
    same(prog)


@pytest.mark.parametrize("keep_view", [True, False])
@pytest.mark.parametrize("loss", ["sum", "square"])
def test_copy_slices_double_backward_through_wrapped_pow(keep_view, loss):
    # pow_ saves its result: under create_graph it has the wrapped node as its history
    # while the base's saved self reaches the same node through CopySlices; the second
    # backward (no retain_graph) runs both
    def prog(torch):
        a = data(torch, 4, seed=1, lo=0.5, hi=1.5, requires_grad=True)
        e = data(torch, 2, seed=2, lo=0.5, hi=1.5, requires_grad=True)
        y = a * 2
        v = y[:2]
        v.pow_(e)
        if not keep_view:
            del v
        total = y.sum() if loss == "sum" else (y * y).sum()
        ga = torch.autograd.grad(total, [a, e], create_graph=True)
        gg = torch.autograd.grad(ga[0].sum() + ga[1].sum(), [a, e])
        return ga, gg
    same(prog)


def test_copy_slices_retain_graph_and_second_backward():
    def prog(torch):
        a = data(torch, 4, seed=1, lo=0.5, hi=1.5, requires_grad=True)
        e = data(torch, 2, seed=2, requires_grad=True)
        y = a * 2
        y[1:3].pow_(e)
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        grads = [a.grad.clone(), e.grad.clone()]
        try:
            y.sum().backward()
        except RuntimeError as err:
            grads.append(str(err))
        return grads
    same(prog)


def test_copy_slices_hooks_and_grad_of_some_inputs():
    # hooks on the base (tensor hook, the CopySlices' pre and post hooks: one gradient
    # in, one per edge out) and autograd.grad for some inputs only
    def prog(torch):
        a = data(torch, 4, seed=1, requires_grad=True)
        c = data(torch, 2, seed=2, requires_grad=True)
        y = a * 2
        y[:2].mul_(c)
        seen = []
        y.register_hook(lambda g: seen.append(("tensor", g.clone())))
        y.grad_fn.register_prehook(lambda go: seen.append(("pre", len(go))))
        y.grad_fn.register_hook(lambda gi, go: seen.append(
            ("post", [None if g is None else g.clone() for g in gi], len(go))))
        only_c = torch.autograd.grad((y * y).sum(), [c], retain_graph=True)
        only_a = torch.autograd.grad((y * y).sum(), [a], retain_graph=True)
        (y * y).sum().backward()
        return seen, only_c, only_a, a.grad, c.grad
    same(prog)


def test_copy_slices_wraps_a_custom_function():
    # a custom Function that modifies a view (mark_dirty): its node is wrapped the same
    # way, edges from the Function's own inputs
    def prog(torch):
        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, k):
                x.mul_(k)
                ctx.mark_dirty(x)
                ctx.save_for_backward(k)
                return x

            @staticmethod
            def backward(ctx, g):
                k, = ctx.saved_tensors
                return g * k, g

        a = data(torch, 4, seed=1, requires_grad=True)
        k = data(torch, 2, seed=2, requires_grad=True)
        y = a * 2
        Scale.apply(y[1:3], k)
        out = [y.grad_fn.name(), _edges(y.grad_fn, 2)]
        (y * y).sum().backward()
        return out, a.grad, k.grad
    same(prog)


def test_copy_slices_saved_attributes():
    # CopySlices shows no _saved_ attributes; the view's rebuilt history shows
    # as_strided's
    def prog(torch):
        a = data(torch, 3, 4, seed=1, requires_grad=True)
        y = a * 2
        w = y.t()[1:3, 0]
        w.mul_(data(torch, 2, seed=2, requires_grad=True))
        fn = w.grad_fn
        return ([k for k in dir(y.grad_fn) if k.startswith("_saved")], fn.name(),
                fn._saved_size, fn._saved_stride, fn._saved_storage_offset)
    same(prog)


@pytest.mark.parametrize("case", ["mul_complex", "add_real", "copy_", "sin_", "pow_s",
                                  "conj_of_slice"])
def test_copy_slices_through_a_conj_view(case):
    # a write through a conjugate view: the op's node is wrapped (PyTorch's graph), its
    # gradient in and its input-0 gradient out conjugated; first and second order
    def prog(torch):
        a = complex_data(torch, 4, seed=1, requires_grad=True)
        z = complex_data(torch, 2, seed=2, requires_grad=True)
        r = data(torch, 2, seed=3, requires_grad=True)
        y = a * 2
        v = y[1:3].conj() if case == "conj_of_slice" else y.conj()[1:3]
        {"mul_complex": lambda: v.mul_(z), "add_real": lambda: v.add_(r),
         "copy_": lambda: v.copy_(z), "sin_": lambda: v.sin_(), "pow_s": lambda: v.pow_(2),
         "conj_of_slice": lambda: v.mul_(z)}[case]()
        out = [_edges(y.grad_fn, 3), y, v.is_conj()]
        ga = torch.autograd.grad(real_loss(torch, y * y), [a, z, r], create_graph=True,
                                 allow_unused=True)
        total = sum(real_loss(torch, g, seed=5) for g in ga if g is not None)
        gg = torch.autograd.grad(total, [a, z, r], allow_unused=True)
        return out, ga, gg
    same(prog)
