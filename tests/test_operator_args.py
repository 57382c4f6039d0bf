"""Tensor's Python operators with operands of every builtin kind (issue 27, item 4),
differentially against PyTorch: each binary operator forward (t op x) and reflected
(x op t), and each augmented assignment (t op= x), on float, int, bool, complex and
0-d int tensors, with complex, bool, float, int, str, bytes, None, list, tuple and dict
operands: the same value and dtype, or the same exception type and message (Note
[Operators with builtin operands] in autograd_core/_core/_tensor.pxi).

The messages Python writes itself name the type 'Tensor' as PyTorch's do (Note
[Tensor's type names]); the forms OPERATOR_KNOWN lists are strict xfails."""
import pytest

from _diff import same

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402,F401

BINARY = ["+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>",
          "<", "<=", ">", ">=", "==", "!="]
INPLACE = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", "<<=", ">>="]
OPERANDS = {"1j": "1j", "1+2j": "(1+2j)", "True": "True", "2.5": "2.5", "3": "3",
            "str": '"a"', "bytes": 'b"x"', "None": "None", "list": "[1]", "tuple": "(1,)",
            "dict": "{}"}
TENSORS = {"f32": "m.tensor([1.5, -2.0])", "i64": "m.tensor([3, -2])",
           "bool": "m.tensor([True, False])", "c64": "m.tensor([1+1j, 2.0])",
           "i64_0d": "m.tensor(2)"}

def _run(m, code):
    ns = {"m": m}
    exec(code, ns)
    return ns["r"]


# Forms that still differ, by the reason (strict xfails: a form fixed fails until its
# entry goes)
OPERATOR_KNOWN = {}


def _param(code, id_, why=None):
    why = why or OPERATOR_KNOWN.get(id_)
    return pytest.param(code, id=id_,
                        marks=[pytest.mark.xfail(reason=why, strict=True)] if why else [])


def _programs():
    for tn, tc in TENSORS.items():
        for on, oc in OPERANDS.items():
            for op in BINARY:
                for form, code in (("fwd", f"r = ({tc}) {op} {oc}"),
                                   ("rev", f"r = {oc} {op} ({tc})")):
                    yield _param(code, f"{tn}-{form}{op}-{on}")
            for op in INPLACE:
                yield _param(f"t = {tc}\nt {op} {oc}\nr = t", f"{tn}-{op}-{on}")


@pytest.mark.parametrize("code", list(_programs()))
def test_operator_operands(code):
    same(lambda m: _run(m, code), may_raise=True, quiet=True)


# the forms of the issue, spelled out
@pytest.mark.parametrize("code", [
    'r = "a" + m.tensor([1., 2.])', 'r = m.tensor([1., 2.]) + "a"',
    'r = m.tensor([1., 2.]) * "a"', 'r = "a" * m.tensor([1., 2.])',
    'r = m.tensor(3) * "ab"', 'r = [0] * m.tensor(2)', 'r = (1,) + m.tensor([1.])',
    'r = m.tensor([1., 2.]) @ "a"', 'r = None @ m.tensor([1., 2.])',
    't = m.tensor([1., 2.])\nt @= "a"\nr = t',
    't = m.tensor([1., 2.])\nt += 1j\nr = t',
    't = m.tensor([1., 2.])\nt **= 1j\nr = t', 'r = 1j // m.tensor([1., 2.])',
    'r = None + m.tensor([1., 2.])', 'r = [1] + m.tensor([1., 2.])',
    't = m.tensor([3, 1])\nt &= 2.5\nr = t', 't = m.tensor([3, 1])\nt <<= 1j\nr = t',
    't = m.tensor([True])\nt |= 2.5\nr = t', 't = m.tensor([1.5])\nt ^= 1\nr = t',
    'r = m.tensor([1j]) & m.tensor([1])', 'r = m.tensor([1, 2]) >> m.tensor([1j])',
    'r = m.bitwise_not(m.tensor([1j]))', 'r = m.tensor([1j]).bitwise_or_(1)',
    # a complex operand of a real t //= / %=: the result type's cast first
    't = m.tensor([1.5, -2.0])\nt //= m.tensor(1j)\nr = t', 't = m.tensor([3])\nt %= m.tensor([1j])\nr = t',
    't = m.tensor([3])\nt //= 2.5\nr = t', 't = m.tensor([1+1j])\nt //= 2\nr = t',
    # a Python bool beside a bool tensor is a second bool tensor to sub
    'r = m.tensor([True, False]) - False', 'r = m.sub(m.tensor([True]), True)',
    'r = m.rsub(m.tensor([True]), True)', 'r = m.tensor([True]).sub(True, alpha=2)',
    'r = m.tensor(1) - True', 'r = m.tensor([True]) - 1',
    # pow.Scalar with a bool base and a bool exponent has no kernel
    'r = m.pow(False, m.tensor([True, False]))', 'r = m.pow(True, m.tensor(True))',
    'r = m.pow(1, m.tensor([True, False]))', 'r = m.pow(True, m.tensor([2, 3]))',
])
def test_issue_forms(code):
    same(lambda m: _run(m, code), may_raise=True, quiet=True)


# the order of the checks of t //= c and t %= c on a dual t: floor_divide has no
# derivative (the autograd fallback's refusal comes before the cast check), remainder has
@pytest.mark.parametrize("code", ["t //= 1j", "t %= 1j", "t //= 2", "t %= 2", 't //= "a"'])
def test_inplace_floor_and_mod_of_a_dual(code):
    def prog(m):
        fwAD = m.autograd.forward_ad
        with fwAD.dual_level():
            t = fwAD.make_dual(m.tensor([1.5, -2.0]), m.ones(2))
            ns = {"t": t}
            exec(code, ns)
            return fwAD.unpack_dual(ns["t"])
    same(prog, may_raise=True)
