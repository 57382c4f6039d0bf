"""The lazy conjugate and negative bits (Note [Conjugate and negative views] in
autograd_core/_core/_conj.pxi), differentially against PyTorch: conj() and _neg_view()
are views that share memory with their input both ways, carry is_conj()/is_neg() as
PyTorch's do (views inherit them, clones do not), refuse numpy()/view_as_real as
PyTorch's, and autograd through them (in-place writes included) gives PyTorch's values,
gradients and node names."""
import gc
import io

import numpy as np
import pytest

from _diff import graph_desc, same, same_error

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402
from autograd_core._core import tensor as _core  # noqa: E402


def cx(mod, requires_grad=False):
    x = mod.tensor([1 + 2j, 3 - 4j, 5 + 0.5j, -1 - 1j], dtype=mod.complex128)
    return x.requires_grad_() if requires_grad else x


def bits(t):
    return (t.is_conj(), t.is_neg())


# ------------------------------------------------------------------ the bits

@pytest.mark.parametrize("case", [
    "conj", "conj_conj", "conj_conj_conj", "resolve_conj", "resolve_neg_of_conj",
    "real_conj", "imag_of_conj", "real_of_conj", "imag_resolve_neg", "neg_view",
    "neg_view_real", "neg_conj", "conj_neg", "neg_neg", "conj_imag_conj", "slice_of_conj",
    "select_of_conj", "view_of_conj", "reshape_of_conj", "flatten_of_conj",
    "unsqueeze_of_conj", "t_of_conj", "clone_of_conj", "detach_of_conj",
    "contiguous_of_conj", "mul_of_conj", "neg_of_conj", "torch_conj_of_conj",
    "conj_physical_of_conj", "conj_physical", "conj_of_slice", "expand_of_conj",
    "resolve_conj_plain", "resolve_neg_plain", "imag_of_conj_of_slice",
])
def test_bits(case):
    def prog(mod):
        x = cx(mod).reshape(2, 2)
        r = mod.tensor([1.5, -2.0])
        y = x.conj()
        got = {
            "conj": lambda: y,
            "conj_conj": lambda: y.conj(),
            "conj_conj_conj": lambda: y.conj().conj(),
            "resolve_conj": lambda: y.resolve_conj(),
            "resolve_neg_of_conj": lambda: y.resolve_neg(),
            "real_conj": lambda: r.conj(),
            "imag_of_conj": lambda: y.imag,
            "real_of_conj": lambda: y.real,
            "imag_resolve_neg": lambda: y.imag.resolve_neg(),
            "neg_view": lambda: mod._neg_view(x),
            "neg_view_real": lambda: mod._neg_view(r),
            "neg_conj": lambda: mod._neg_view(y),
            "conj_neg": lambda: mod._neg_view(x).conj(),
            "neg_neg": lambda: mod._neg_view(mod._neg_view(x)),
            "conj_imag_conj": lambda: y.imag.conj(),
            "slice_of_conj": lambda: y[1:],
            "select_of_conj": lambda: y[1],
            "view_of_conj": lambda: y.view(4),
            "reshape_of_conj": lambda: y.reshape(4),
            "flatten_of_conj": lambda: y.flatten(),
            "unsqueeze_of_conj": lambda: y.unsqueeze(0),
            "t_of_conj": lambda: y.t(),
            "clone_of_conj": lambda: y.clone(),
            "detach_of_conj": lambda: y.detach(),
            "contiguous_of_conj": lambda: y.contiguous(),
            "mul_of_conj": lambda: y * 2,
            "neg_of_conj": lambda: -y,
            "torch_conj_of_conj": lambda: mod.conj(y),
            "conj_physical_of_conj": lambda: mod.conj_physical(y),
            "conj_physical": lambda: mod.conj_physical(x),
            "conj_of_slice": lambda: x[:, 1].conj(),
            "expand_of_conj": lambda: y[:1].expand(3, 2),
            "resolve_conj_plain": lambda: x.resolve_conj() is x,
            "resolve_neg_plain": lambda: r.resolve_neg() is r,
            "imag_of_conj_of_slice": lambda: x[1:].t().conj().imag,
        }[case]()
        if isinstance(got, bool):
            return got
        return got, bits(got), str(got)
    same(prog)


def test_identities():
    def prog(mod):
        x, r = cx(mod), mod.tensor([1.0, 2.0])
        y = x.conj()
        return (r.conj() is r, y.conj()._base is x, y._base is x, y.resolve_conj() is y,
                x.resolve_conj() is x, y.detach().is_conj(), mod.is_conj(y),
                mod.is_neg(y.imag), y.data_ptr() == x.data_ptr(),
                y[1:].storage_offset(), mod.conj_physical(r) is r)
    same(prog)


# ------------------------------------------------------------------ sharing memory

def test_base_writes_seen_through_conj_views():
    def prog(mod):
        x = cx(mod)
        y = x.conj()
        s = y[1:3]
        im = y.imag
        sib = x.conj()
        x.add_(1 + 1j)
        a = (y.clone(), s.clone(), im.clone(), sib.clone())
        x[0] = 9 - 9j
        x.mul_(2)
        b = (y.clone(), s.clone(), im.clone(), sib.clone())
        x.copy_(mod.tensor([1j, 2j, 3j, 4j]))
        with mod.no_grad():
            x[2:].zero_()
        return a, b, y, s, im, sib
    same(prog)


def test_writes_through_conj_views_seen_in_base():
    def prog(mod):
        x = cx(mod)
        y = x.conj()
        sib = x.conj()
        neg = mod._neg_view(x)
        y[0] = 7 + 7j
        a = (x.clone(), sib.clone(), neg.clone())
        y[1:3].mul_(1j)
        b = (x.clone(), sib.clone(), neg.clone())
        y.imag[3] = 10.0
        c = (x.clone(), sib.clone())
        y.real.fill_(-1)
        d = x.clone()
        y.conj_physical_()
        e = (x.clone(), y.clone())
        neg.add_(1)
        f = (x.clone(), y.clone())
        y.copy_(mod.tensor([1 + 1j, 2 + 2j, 3 + 3j, 4 + 4j]))
        return a, b, c, d, e, f, x, y, sib, neg
    same(prog)


def test_conj_of_neg_view_chain_writes():
    def prog(mod):
        x = cx(mod)
        n = mod._neg_view(x)
        c = n.conj()
        c[0] = 1 + 1j
        a = (x.clone(), n.clone(), c.clone(), bits(c))
        x.add_(2)
        return a, x, n, c, bits(c.conj())
    same(prog)


def test_real_neg_view_sharing():
    def prog(mod):
        r = mod.tensor([1.0, -2.0, 3.0])
        n = mod._neg_view(r)
        n[1] = 5.0
        r.mul_(10)
        return r, n, bits(n), bits(n[1:])
    same(prog)


def test_out_and_setitem_into_conj_view():
    def prog(mod):
        x = cx(mod)
        y = x.conj()
        mod.mul(mod.tensor([1j, 1, 1, 1]), 2, out=y)
        return x, y
    same(prog)


def test_twins_are_freed():
    x = cx(autograd_core)
    before = _core._live_mirrors()
    y = x.conj()
    s = y[1:]
    del y
    gc.collect()
    assert _core._live_mirrors() == before + 1      # s keeps the twin's buffer alive
    x.add_(1)
    assert s.tolist() == [complex(4, 4), complex(6, -0.5), complex(0, 1)]
    del s
    gc.collect()
    assert _core._live_mirrors() == before


# ------------------------------------------------------------------ real / imag setters

def test_real_imag_setters():
    def prog(mod):
        x = cx(mod)
        y = x.conj()
        x.imag = mod.tensor([9.0, 8.0, 7.0, 6.0])
        a = (x.clone(), y.clone())
        x.real = mod.tensor([1.0, 1.0, 1.0, 1.0])
        b = (x.clone(), y.clone())
        y.imag = mod.tensor([0.5, 0.5, 0.5, 0.5])
        return a, b, x, y
    same(prog)


def test_setter_errors():
    same_error(lambda mod: setattr(mod.ones(2), "imag", mod.ones(2)))


# ------------------------------------------------------------------ errors

@pytest.mark.parametrize("case", ["numpy_conj", "numpy_neg", "numpy_imag_of_conj",
                                  "view_as_real_conj", "view_as_real_slice_of_conj",
                                  "array_conj"])
def test_errors(case):
    def prog(mod):
        x = cx(mod)
        {"numpy_conj": lambda: x.conj().numpy(),
         "numpy_neg": lambda: mod._neg_view(x).numpy(),
         "numpy_imag_of_conj": lambda: x.conj().imag.numpy(),
         "view_as_real_conj": lambda: mod.view_as_real(x.conj()),
         "view_as_real_slice_of_conj": lambda: mod.view_as_real(x.conj()[1:]),
         "array_conj": lambda: np.asarray(x.conj()),
         }[case]()
    same_error(prog)


def test_numpy_force_resolves():
    def prog(mod):
        x = cx(mod)
        return x.conj().numpy(force=True), mod._neg_view(x).numpy(force=True)
    same(prog)


def test_copies():
    def prog(mod):
        x = cx(mod).reshape(2, 2)
        o = mod.empty(2, 2, 2, dtype=mod.float64)
        mod.view_as_real_copy(x.conj(), out=o)
        return (mod.view_as_real_copy(x), mod.view_as_real_copy(x.conj()), o,
                mod.view_as_complex_copy(mod.tensor([[1.0, 2.0], [3.0, -4.0]])),
                bits(mod.view_as_real_copy(x.conj())))
    same(prog)


@pytest.mark.parametrize("case", ["real_copy_of_real", "complex_copy_grad",
                                  "complex_copy_shape"])
def test_copy_errors(case):
    def prog(mod):
        {"real_copy_of_real": lambda: mod.view_as_real_copy(mod.ones(2)),
         "complex_copy_grad": lambda: mod.view_as_complex_copy(
             mod.ones(2, 2, requires_grad=True)),
         "complex_copy_shape": lambda: mod.view_as_complex_copy(mod.ones(3)),
         }[case]()
    same_error(prog)


def test_conj_physical_inplace():
    def prog(mod):
        z = cx(mod)
        r = mod.ones(2)
        return z.conj_physical_(), r.conj_physical_() is r, mod.conj_physical_(cx(mod))
    same(prog)


# ------------------------------------------------------------------ autograd

def test_grad_fn_names():
    def prog(mod):
        x = cx(mod, True)
        b = x * 1
        y = b.conj()
        return (graph_desc(y.grad_fn), graph_desc(y.resolve_conj().grad_fn),
                graph_desc(mod.conj_physical(b).grad_fn), graph_desc(mod._neg_view(b).grad_fn),
                type(y.imag.grad_fn).__name__, type(y.real.grad_fn).__name__,
                graph_desc(mod.view_as_real_copy(b).grad_fn))
    same(prog)


@pytest.mark.parametrize("case", ["mul_", "slice_add_", "setitem", pytest.param(
    "imag_setitem"), "base_mul_", "neg_view_add_", "conj_physical_",
                                  "copy_", "twice"])
def test_inplace_through_conj_view_autograd(case):
    w = [1 + 0j, 2 - 1j, 0.5j, 3 + 0j]

    def prog(mod):
        x = cx(mod, True)
        b = x * 1
        y = b.conj()
        v = mod.tensor([2 + 1j, -1j], dtype=mod.complex128, requires_grad=True)
        if case == "mul_":
            y.mul_(2 + 1j)
        elif case == "slice_add_":
            y[1:3].add_(v)
        elif case == "setitem":
            y[1:3] = v
        elif case == "imag_setitem":
            y.imag[0] = v.real[0] * 3
        elif case == "base_mul_":
            b.mul_(1j)
        elif case == "neg_view_add_":
            n = mod._neg_view(b)
            n.add_(v.sum())
            y = n
        elif case == "conj_physical_":
            y.conj_physical_()
        elif case == "copy_":
            y[::2].copy_(v)
        elif case == "twice":
            y.mul_(2)
            y[0] = v[0]
            b.add_(1j)
        names = (type(b.grad_fn).__name__, type(y.grad_fn).__name__)
        loss = ((b * mod.tensor(w)).real.sum() + (y * mod.tensor(w[::-1])).imag.sum())
        gx, gv = mod.autograd.grad(loss, (x, v), allow_unused=True)
        return b, y, names, gx, gv, bits(y)
    same(prog)



_SUBVIEWS = {
    # a view of a conj (neg) view, written in place: PyTorch replays the views in the
    # order they were taken (the conj of the base, then the sub-view as as_strided)
    "slice_of_conj": lambda b: b.conj()[1:],
    "select_of_conj": lambda b: b.conj()[1],
    "view_of_conj": lambda b: b.conj().view(2, 2),
    "unsqueeze_of_conj": lambda b: b.conj().unsqueeze(0),
    "strided_of_conj": lambda b: b.conj()[::2],
    "conj_whole": lambda b: b.conj(),
    "conj_of_slice": lambda b: b[1:].conj(),
    "conj_of_view": lambda b: b.view(2, 2).conj(),
    "slice_of_conj_of_slice": lambda b: b[1:].conj()[1:],
    "neg_view_slice": lambda b: b._neg_view()[1:],
}


def _chain_to_write(fn):
    """The node names from fn down its first edges to the write's node (CopySlices)."""
    names = []
    while fn is not None:
        names.append(type(fn).__name__)
        if names[-1] in ("CopySlices", "AddBackward0") or not fn.next_functions:
            break
        fn = fn.next_functions[0][0]
    return names


@pytest.mark.parametrize("case", sorted(_SUBVIEWS))
@pytest.mark.parametrize("write", ["mul_", "setitem", "base_add_"])
def test_subview_of_conj_view_history_after_write(case, write):
    def prog(mod):
        x = cx(mod, True)
        b = x * 1
        y = _SUBVIEWS[case](b)
        v = mod.tensor(2 - 1j, dtype=mod.complex128, requires_grad=True)
        if write == "mul_":
            y.mul_(v)
        elif write == "setitem" and y.dim():
            y[0] = v * 3
        elif write == "setitem":
            y.copy_(v * 3)
        else:
            b.add_(v)
        desc = _chain_to_write(y.grad_fn)
        loss = (y * (1 + 2j)).real.sum() + (b * 2j).imag.sum()
        gx, gv = mod.autograd.grad(loss, (x, v))
        return y, bits(y), desc, gx, gv
    same(prog)


# Views taken after a conj (neg), replayed by PyTorch one op at a time after a write:
# each conj as ConjBackward0, each other view op as its own AsStridedBackward0 (Note
# [View replay steps])
_VIEW_CHAINS = {
    "view_t": lambda b: b.conj().view(2, 2).t(),
    "conj_of_conj_slice": lambda b: b.conj()[1:].conj(),
    "slice_slice": lambda b: b.conj()[1:][1:],
    "view_unsqueeze_select": lambda b: b.conj().view(2, 2).unsqueeze(0)[0],
    "view_conj_slice_t": lambda b: b.view(2, 2).conj()[1:].t(),
    "slice_conj_slice_slice": lambda b: b[1:].conj()[1:][::2],
    "conj_slice_conj_slice": lambda b: b.conj()[1:].conj()[1:],
    "conj_slice_conj_view": lambda b: b.conj()[1:].conj().view(3),
    "conj_conj": lambda b: b.conj().conj(),
    "conj_view_conj": lambda b: b.conj().view(2, 2).conj(),
    "neg_view_slice_conj": lambda b: b._neg_view()[1:].conj(),
    "conj_neg_view_t": lambda b: b.conj()._neg_view().view(2, 2).t(),
}


@pytest.mark.parametrize("case", sorted(_VIEW_CHAINS))
@pytest.mark.parametrize("write", ["view_mul_", "base_mul_", "sibling_mul_"])
def test_several_views_after_the_conj(case, write):
    # the write into the view, into its base, or into another conj view of the base:
    # the view's history read afresh is PyTorch's, node by node, with its values and
    # gradients
    def prog(mod):
        x = cx(mod, True)
        b = x * 1
        y = _VIEW_CHAINS[case](b)
        if write == "view_mul_":
            y.mul_(2 + 1j)
        elif write == "base_mul_":
            b.mul_(1j)
        else:
            b.conj()[:2].mul_(3)
        chain = _chain_to_write(y.grad_fn)
        gx, = mod.autograd.grad((y * (1 - 1j)).real.sum(), x)
        return y, bits(y), chain, gx
    same(prog)


def test_view_replay_twice_and_before_any_write():
    # before a write a view's history is its own ops' (no replay); a second write
    # replays again from the newest base history
    def prog(mod):
        x = cx(mod, True)
        b = x * 1
        y = b.conj().view(2, 2).t()
        before = _chain_to_write(y.grad_fn)
        y.mul_(2)
        b.add_(1j)
        after = _chain_to_write(y.grad_fn)
        gx, = mod.autograd.grad((y * (1 + 1j)).real.sum() + b.imag.sum(), x)
        return y, before, after, gx
    same(prog)


def _grad_bit_prog(case):
    def prog(mod):
        def z():
            return cx(mod, True)

        def seed():
            return mod.tensor([1 + 1j, 2j, 3, -1j], dtype=mod.complex128)
        seen = []
        if case == "assign":
            x = z()
            x.grad = seed().conj()
            return x.grad, bits(x.grad)
        if case == "conj_last":
            x = z()
            x.conj().backward(seed())
        elif case == "conj_last_loss":
            x = z()
            (x.conj() * 2).abs().sum().backward()
        elif case == "conj_seed_leaf":
            x = z()
            x.backward(seed().conj())
        elif case == "conj_seed_mul":
            x = z()
            (x * 1).backward(seed().conj())
        elif case == "conj_seed_view":
            x = z()
            x.view(2, 2).backward(seed().conj().view(2, 2))
        elif case == "accumulate_twice":
            x = z()
            x.conj().backward(seed())
            x.conj().backward(seed() * 2)
        elif case == "accumulate_into_assigned_conj":
            x = z()
            x.grad = seed().conj()
            (x * 3).backward(seed())
        elif case == "create_graph":
            x = z()
            x.conj().backward(seed(), create_graph=True)
        elif case == "retain_grad_of_conj_view":
            x = z()
            y = x.conj()
            y.retain_grad()
            (y * 2).abs().sum().backward()
            return x.grad, bits(x.grad), y.grad, bits(y.grad)
        elif case == "retain_grad_conj_seed":
            x = z()
            y = x.conj()
            y.retain_grad()
            y.backward(seed().conj())
            return x.grad, bits(x.grad), y.grad, bits(y.grad)
        elif case == "hook_leaf":
            x = z()
            x.register_hook(lambda g: seen.append(bits(g)))
            x.conj().backward(seed())
        elif case == "hook_nonleaf":
            x = z()
            y = x * 1
            y.register_hook(lambda g: seen.append(bits(g)))
            y.conj().backward(seed())
        elif case == "hook_returns_conj":
            x = z()
            x.register_hook(lambda g: g.conj())
            (x * 1).backward(seed())
        elif case in ("autograd_grad_conj", "autograd_grad_identity", "autograd_grad_mul"):
            x = z()
            if case == "autograd_grad_conj":
                g, = mod.autograd.grad(x.conj(), x, seed())
            elif case == "autograd_grad_identity":
                g, = mod.autograd.grad(x, x, seed().conj())
            else:
                g, = mod.autograd.grad(x * 1, x, seed().conj())
            return g, bits(g)
        return x.grad, bits(x.grad), seen
    return prog


@pytest.mark.parametrize("case", [
    "assign", "conj_last", "conj_last_loss", "conj_seed_leaf", "conj_seed_mul",
    "conj_seed_view", "accumulate_twice", "accumulate_into_assigned_conj", "create_graph",
    "retain_grad_of_conj_view", "retain_grad_conj_seed", "hook_leaf", "hook_nonleaf",
    "hook_returns_conj", "autograd_grad_conj", "autograd_grad_identity",
    "autograd_grad_mul"])
def test_gradients_carry_the_conj_bit_as_pytorchs(case):
    # .grad, autograd.grad's results and the gradients hooks see are conj views exactly
    # where PyTorch's are (AccumulateGrad keeps a conj gradient nothing else holds)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # create_graph's reference-cycle warning
        same(_grad_bit_prog(case))


# ------------------------------------------------------------------ real views written

@pytest.mark.parametrize("case", [
    "imag_setitem", "real_slice_zero", "imag_add_", "real_mul_", "imag_of_slice",
    "view_history_after_write", "real_of_real_view", "strided_base", "twice", "copy_"])
def test_write_through_real_view_of_complex(case):
    # a real view addresses half a complex element: the write's region and the base's
    # gradient are view_as_real(base)'s (Note [Writing into a region])
    def prog(mod):
        x0 = mod.tensor([[1 + 2j, 3 + 4j, 5 - 1j], [2 - 2j, -1j, 4 + 0j]],
                        dtype=mod.complex128, requires_grad=True)
        v = mod.tensor([7.0, -3.0], dtype=mod.float64, requires_grad=True)
        x = x0 * 1
        kept = x.real[1]
        if case == "imag_setitem":
            x.imag[0, 0] = v[0]
        elif case == "real_slice_zero":
            x.real[:, 1:] = mod.zeros(2, 2, dtype=mod.float64)
        elif case == "imag_add_":
            x.imag.add_(v[1])
        elif case == "real_mul_":
            x.real[1].mul_(v[0])
        elif case == "imag_of_slice":
            x[:, ::2].imag[1] = v
        elif case == "view_history_after_write":
            r = x.real
            x[0, 1] = v[0] * 1j
            kept = r[0]
        elif case == "real_of_real_view":
            x.imag[1][1:2].mul_(v[0])
        elif case == "strided_base":
            x = x0.t() * 1
            x.imag[1] = v
        elif case == "twice":
            x.imag[0, 0] = v[0]
            x.real[0].add_(v[1])
        elif case == "copy_":
            x.imag[:, 0].copy_(v)
        w = mod.tensor([[1 + 1j, 2, 3j], [0.5, -1j, 1 - 1j]], dtype=mod.complex128)
        loss = (x * (w if x.shape == w.shape else w.t())).real.sum() + (x.abs() ** 2).sum()
        loss = loss + (kept * 3).sum()
        g0, gv = mod.autograd.grad(loss, (x0, v), allow_unused=True)
        return x, g0, gv, type(x.grad_fn).__name__
    same(prog)


def test_gradients_through_conj_views():
    def prog(mod):
        x = cx(mod, True)
        y = x.conj()
        loss = (y * y.imag).real.sum() + (mod._neg_view(x) * 1j).real.sum()
        loss = loss + y[1:].abs().sum()
        loss.backward()
        return x.grad, x.grad.is_conj()
    same(prog)


def test_leaf_view_inplace_error():
    def prog(mod):
        x = cx(mod, True)
        x.conj().mul_(2)
    same_error(prog)


def test_forward_ad_conj():
    def prog(mod):
        fw = mod.autograd.forward_ad
        with fw.dual_level():
            p = fw.make_dual(cx(mod), mod.tensor([2 + 3j, 1j, 1, -1j], dtype=mod.complex128))
            c = p.conj()
            return fw.unpack_dual(c).tangent, fw.unpack_dual(c.imag).tangent, c.is_conj()
    same(prog)


# ------------------------------------------------------------------ printing, save/load

def test_printing():
    def prog(mod):
        x = cx(mod)
        return repr(x.conj()), repr(x.conj().imag), repr(mod._neg_view(x)), str(x.conj()[1:])
    same(prog)


def test_save_load_conj_tensor():
    def prog(mod):
        x = cx(mod)
        y = x.conj()
        f = io.BytesIO()
        mod.save([x, y], f)
        f.seek(0)
        lx, ly = mod.load(f)
        g = io.BytesIO()
        mod.save(y.imag, g)
        g.seek(0)
        li = mod.load(g)
        return lx, ly, li, bits(ly), bits(li)
    same(prog)


def test_load_pytorch_file_with_conj_tensor():
    x = cx(torch)
    f = io.BytesIO()
    torch.save({"y": x.conj(), "n": torch._neg_view(x)}, f)
    f.seek(0)
    got = autograd_core.load(f)
    assert np.allclose(got["y"].resolve_conj().tolist(), x.conj().resolve_conj().tolist())
    assert np.allclose(got["n"].resolve_neg().tolist(), (-x).tolist())
    assert got["y"].is_conj() and got["n"].is_neg()


def test_pytorch_loads_our_conj_tensor():
    x = cx(autograd_core)
    f = io.BytesIO()
    autograd_core.save({"y": x.conj()}, f)
    f.seek(0)
    got = torch.load(f)
    assert np.allclose(got["y"].resolve_conj().tolist(), x.conj().tolist())
    assert got["y"].is_conj()


def test_fft_ifft_of_real_input():
    def prog(mod):
        r = mod.tensor([1.0, 2.0, -0.5, 3.0])
        out = mod.fft.ifft(r)
        return out, out.is_conj(), mod.fft.ifft(r.to(mod.complex128)).is_conj()
    same(prog)
