"""Forward-AD tangents PyTorch keeps as immutable ZeroTensors (Note [ZeroTensor tangents]
in _core/_fw.pxi): sgn's tangent of a real input is one when the result holds one
element, and so is what mul, div, add/sub of two and views make of it; writing into
such a tangent raises, and so does an in-place op on its primal (after writing the
primal's values). Each program runs under torch and autograd_core (tests/_diff.py)."""
import pytest

from _diff import catch, same


def fw(mod):
    import importlib
    return importlib.import_module(mod.__name__ + ".autograd.forward_ad")


def _tangent(fwAD, y):
    t = fwAD.unpack_dual(y).tangent
    return None if t is None else (t, t._is_zerotensor(), tuple(t.stride()))


_SHAPES = {"0d": [], "one": [1.5], "one_by_one": [[-0.5]], "three": [1.5, -2.0, 0.0],
           "two_by_three": [[1.0, -1.0, 2.0], [0.5, -3.0, 1.0]], "empty": []}


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("shape", sorted(_SHAPES))
def test_sgn_tangent(shape, dtype):
    def prog(torch):
        fwAD = fw(torch)
        v = _SHAPES[shape]
        x = (torch.tensor(1.5) if shape == "0d" else
             torch.zeros(0) if shape == "empty" else torch.tensor(v))
        x = x.to(getattr(torch, dtype))
        with fwAD.dual_level():
            d = fwAD.make_dual(x, torch.ones_like(x) * (1 - 0.5j if dtype == "complex128" else 1))
            return _tangent(fwAD, torch.sgn(d))
    same(prog)


_CHAINS = {
    "exp": lambda y, d: y.exp(), "sin": lambda y, d: y.sin(), "mul": lambda y, d: y * 2,
    "div": lambda y, d: y / 2, "add_one": lambda y, d: y + 1, "twice": lambda y, d: y + y,
    "plus_x": lambda y, d: y + d, "times_x": lambda y, d: y * d, "minus_x": lambda y, d: y - d,
    "neg": lambda y, d: -y, "clone": lambda y, d: y.clone(), "sum": lambda y, d: y.sum(),
    "view": lambda y, d: y.view(1, 1), "reshape": lambda y, d: y.reshape(1),
    "expand": lambda y, d: y.expand(2, 1), "t": lambda y, d: y.t(),
    "to_float32": lambda y, d: y.float(), "to_complex": lambda y, d: y.to(d.dtype.to_complex()),
    "where": lambda y, d: y.where(d > 0, y),
}


@pytest.mark.parametrize("chain", sorted(_CHAINS))
def test_zerotensor_tangent_through_ops(chain):
    def prog(torch):
        fwAD = fw(torch)
        with fwAD.dual_level():
            d = fwAD.make_dual(torch.tensor(1.5, dtype=torch.float64),
                               torch.tensor(1.0, dtype=torch.float64))
            return _tangent(fwAD, _CHAINS[chain](torch.sgn(d), d))
    same(prog)


_WRITES = {
    # in-place ops on the primal: the values are written, then the tangent's write raises
    "mul_": lambda torch, y, d: y.mul_(2), "mul_dual": lambda torch, y, d: y.mul_(d),
    "add_": lambda torch, y, d: y.add_(1), "add_dual": lambda torch, y, d: y.add_(d),
    "exp_": lambda torch, y, d: y.exp_(), "neg_": lambda torch, y, d: y.neg_(),
    "sgn_": lambda torch, y, d: y.sgn_(), "clamp_": lambda torch, y, d: y.clamp_(0, 0.5),
    "copy_dual": lambda torch, y, d: y.copy_(d),
    # fills: their forward formulas write into the tangent in place (the ZeroTensor
    # write's message, not copy_'s)
    "zero_": lambda torch, y, d: y.zero_(), "fill_": lambda torch, y, d: y.fill_(3),
    "fill_tensor": lambda torch, y, d: y.fill_(torch.tensor(2.0, dtype=torch.float64)),
    "masked_fill_": lambda torch, y, d: y.masked_fill_(torch.tensor(True), 2.0),
    "masked_fill_tensor": lambda torch, y, d: y.masked_fill_(
        torch.tensor(True), torch.tensor(2.0, dtype=torch.float64)),
    "index_fill_": lambda torch, y, d: y.unsqueeze(0).index_fill_(0, torch.tensor([0]), 2.0),
    # writes into the tangent itself
    "tangent_mul_": lambda torch, y, d: fw(torch).unpack_dual(y).tangent.mul_(2),
    "tangent_add_": lambda torch, y, d: fw(torch).unpack_dual(y).tangent.add_(1),
    "tangent_zero_": lambda torch, y, d: fw(torch).unpack_dual(y).tangent.zero_(),
    "tangent_copy_": lambda torch, y, d: fw(torch).unpack_dual(y).tangent.copy_(
        torch.ones((), dtype=torch.float64)),
    # a write into a detached primal is no write into the tangent
    "detached_mul_": lambda torch, y, d: y.detach().mul_(2),
}


def _write_prog(fn):
    def prog(torch):
        fwAD = fw(torch)
        with fwAD.dual_level():
            d = fwAD.make_dual(torch.tensor(1.5, dtype=torch.float64),
                               torch.tensor(1.0, dtype=torch.float64))
            y = torch.sgn(d)
            r = catch(fn, torch, y, d)
            p, t = fwAD.unpack_dual(y)
            return r, p, t, t._is_zerotensor(), y._version
    return prog


@pytest.mark.parametrize("name", sorted(_WRITES))
def test_write_into_zerotensor_tangent(name):
    same(_write_prog(_WRITES[name]))


def test_jvp_of_sgn_then_write_into_tangent():
    # fuzz seed 30004097: torch.func.jvp's tangent of sgn at a 0-d point is a ZeroTensor
    def prog(torch):
        t5 = torch.tensor([[-0.6, -0.25], [1.0, 1.25]], dtype=torch.float64)
        t9 = t5.sum().max()
        p, g = torch.func.jvp(lambda u: torch.sgn(u), (t9,), (torch.ones_like(t9),))
        return p, g, g._is_zerotensor(), catch(g.mul_, 0.3)
    same(prog)


def test_gradcheck_forward_ad_of_sgn():
    # forward-mode gradcheck reads the ZeroTensor tangents (numpy(force=True) & co.)
    import autograd_core
    x = autograd_core.tensor([0.7], dtype=autograd_core.float64, requires_grad=True)
    assert autograd_core.autograd.gradcheck(autograd_core.sgn, (x,), check_forward_ad=True,
                                            check_backward_ad=False,
                                            check_undefined_grad=False)


@pytest.mark.parametrize("shape", [(3, 3), (1, 1), (2, 2, 2)])
def test_slogdet_sign_tangent(shape):
    # PyTorch's slogdet_jvp gives the sign of a real matrix a ZeroTensor tangent, kept for
    # one matrix (a 0-d sign), copied into zeros for a batch
    def prog(torch):
        fwAD = fw(torch)
        a = torch.arange(1., 1. + torch.Size(shape).numel(), dtype=torch.float64)
        a = (a.reshape(shape) ** 1.5).cos()
        with fwAD.dual_level():
            d = fwAD.make_dual(a, torch.ones_like(a))
            sign, logabs = torch.linalg.slogdet(d)
            return _tangent(fwAD, sign), _tangent(fwAD, logabs)
    same(prog)


# The in-place samplers' forward derivative is PyTorch's self_t.zero_(): on a primal whose
# tangent is a ZeroTensor the values are written, then zero_'s error on the immutable
# tangent (not a copy's words); on an ordinary tangent it is zeroed in place
_SAMPLERS = {
    "uniform_": lambda y, m: y.uniform_(), "normal_": lambda y, m: y.normal_(0.5, 2.0),
    "random_": lambda y, m: y.random_(), "random_to": lambda y, m: y.random_(10),
    "random_from_to": lambda y, m: y.random_(2, 10), "bernoulli_": lambda y, m: y.bernoulli_(0.3),
    "bernoulli_tensor": lambda y, m: y.bernoulli_(m.full_like(y, 0.5)),
    "exponential_": lambda y, m: y.exponential_(), "geometric_": lambda y, m: y.geometric_(0.4),
    "log_normal_": lambda y, m: y.log_normal_(), "cauchy_": lambda y, m: y.cauchy_(),
    "uniform_generator": lambda y, m: y.uniform_(0, 1, generator=m.Generator().manual_seed(5)),
}


@pytest.mark.parametrize("tangent", ["zerotensor", "ones"])
@pytest.mark.parametrize("shape", ["0d", "one"])
@pytest.mark.parametrize("sampler", sorted(_SAMPLERS))
def test_samplers_on_a_dual_primal(sampler, shape, tangent):
    def prog(torch):
        fwAD = fw(torch)
        torch.manual_seed(0)
        with fwAD.dual_level():
            x = torch.tensor(1.5 if shape == "0d" else [1.5], dtype=torch.float64)
            d = fwAD.make_dual(x, torch.ones_like(x))
            y = torch.sgn(d) if tangent == "zerotensor" else d * 1
            r = catch(_SAMPLERS[sampler], y, torch)
            p, t = fwAD.unpack_dual(y)
            return r if not hasattr(r, "shape") else None, p, t, t._is_zerotensor()
    same(prog)
