"""Views and in-place writes where they meet (Note [View + in-place] in
autograd_core/_core/_inplace.pxi), each program run under PyTorch and autograd_core and
compared by tests/_diff.py: values, gradients, requires_grad / is_leaf / grad_fn names
and exception types and messages.  Views of views, writes on the base and on siblings,
0-d and empty tensors, views made under no_grad / inference_mode / by multi-output ops,
and the in-place view ops and view copies."""
import pytest

from _diff import data, same


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
