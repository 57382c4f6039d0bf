"""Arguments given by keyword or by position (issue 27; Note [Keyword or positional] in
autograd_core/ops/_prelude.pxi), differentially against PyTorch: an argument's message
names its position only when the call gave it by position, keyword-only arguments never;
an argument given both ways, and required arguments left out, are PyTorch's TypeErrors;
and the generated wrappers still show their plain signatures to introspection."""
import inspect

import pytest

from _diff import same

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402


def x(m):
    return m.tensor([0.25, 0.5, 0.75])


# each form once positionally and once by keyword, with a value the argument refuses
FORMS = {
    "logit_eps": (lambda m: m.logit(x(m), 1j), lambda m: m.logit(x(m), eps=1j)),
    "nan_to_num_nan": (lambda m: m.nan_to_num(x(m), 1j), lambda m: m.nan_to_num(x(m), nan=1j)),
    "nan_to_num_posinf": (lambda m: m.nan_to_num(x(m), 0.0, "a"),
                          lambda m: m.nan_to_num(x(m), posinf="a")),
    "pdist_p": (lambda m: m.pdist(x(m)[:, None], 1j), lambda m: m.pdist(x(m)[:, None], p=1j)),
    "logit_input": (lambda m: m.logit(1j), lambda m: m.logit(input=1j)),
    "add_other": (lambda m: m.add(x(m), "a"), lambda m: m.add(x(m), other="a")),
    "add_input": (lambda m: m.add("a", x(m)), lambda m: m.add(input="a", other=x(m))),
    "method_add_other": (lambda m: x(m).add("a"), lambda m: x(m).add(other="a")),
    "method_logit_eps": (lambda m: x(m).logit("a"), lambda m: x(m).logit(eps="a")),
    "sum_keepdim": (lambda m: m.sum(x(m), 0, "a"), lambda m: m.sum(x(m), 0, keepdim="a")),
    "cumsum_dim": (lambda m: m.cumsum(x(m), 0.5), lambda m: m.cumsum(x(m), dim=0.5)),
    "method_cumsum_dim": (lambda m: x(m).cumsum(0.5), lambda m: x(m).cumsum(dim=0.5)),
    "index_select_dim": (lambda m: m.index_select(x(m), "a", m.tensor([0])),
                         lambda m: m.index_select(x(m), dim="a", index=m.tensor([0]))),
    "transpose_dim1": (lambda m: m.transpose(x(m), 0, "a"),
                       lambda m: m.transpose(x(m), 0, dim1="a")),
    "flip_dims": (lambda m: m.flip(x(m), "a"), lambda m: m.flip(x(m), dims="a")),
    "softmax_dim": (lambda m: m.softmax(x(m), "a"), lambda m: m.softmax(x(m), dim="a")),
    "mul_other": (lambda m: m.mul(x(m), None), lambda m: m.mul(x(m), other=None)),
    "diagonal_offset": (lambda m: m.diagonal(x(m)[None], 0.5),
                        lambda m: m.diagonal(x(m)[None], offset=0.5)),
}


@pytest.mark.parametrize("how", ["positional", "keyword"])
@pytest.mark.parametrize("form", list(FORMS))
def test_argument_position_in_messages(form, how):
    prog = FORMS[form][0 if how == "positional" else 1]
    same(prog, may_raise=True, quiet=True)


@pytest.mark.parametrize("prog", [
    lambda m: m.add(x(m), 1, alpha="a"),            # keyword-only: never a position
    lambda m: m.logit(x(m), 0.1, eps=0.2),           # given both ways
    lambda m: m.add(x(m), x(m), other=x(m)),
    lambda m: x(m).logit(0.1, eps=0.2),
    lambda m: m.cumsum(x(m)),                        # required ones left out
    lambda m: m.cumsum(dim=0),
    lambda m: x(m).cumsum(),
    lambda m: m.cummin(x(m)), lambda m: x(m).cummax(), lambda m: m.logcumsumexp(x(m)),
    lambda m: x(m).cumprod(), lambda m: m.index_select(x(m)),
    lambda m: m.cumsum(x(m), axis=0),                # numpy's spelling still taken
    lambda m: m.sum(x(m), axis=0, keepdims=True),
    lambda m: m.logit(input=x(m), eps=0.1),          # every argument by keyword
    lambda m: m.clamp(input=x(m), min=0.3, max=0.6),
    lambda m: x(m).add(other=x(m), alpha=2),
    lambda m: m.sum(x(m), 0, True, dtype=m.float64),
    lambda m: m.sum(x(m), None, out=m.empty(())),
])
def test_binding(prog):
    same(prog, may_raise=True, quiet=True)


def test_introspection_shows_the_arguments():
    sig = inspect.signature(autograd_core.logit)
    assert list(sig.parameters) == ["input", "eps", "out"]
    assert sig.parameters["eps"].default is None
    assert sig.parameters["out"].kind is inspect.Parameter.KEYWORD_ONLY
    assert str(sig) == "(input, eps=None, *, out=None)"
    assert list(inspect.signature(autograd_core.Tensor.add).parameters) == \
        ["input", "other", "alpha"]
    bound = inspect.signature(autograd_core.sum).bind(1, 0, keepdim=True)
    assert bound.arguments == {"input": 1, "dim": 0, "keepdim": True}
