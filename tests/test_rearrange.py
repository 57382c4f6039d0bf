"""torch.func.rearrange (einops' rearrange as functorch has it), compared with
torch.func.rearrange: values, shapes, whether the result is a view, gradients, and the
errors and their messages for bad patterns and lengths."""
import pytest

from _diff import data, same, same_error

torch = pytest.importorskip("torch")


def R(m):
    return m.func.rearrange


CASES = [
    ("b h w c -> b h w c", {}),
    ("b h w c -> (b h) w c", {}),
    ("b h w c -> h (b w) c", {}),
    ("b h w c -> b c h w", {}),
    ("b h w c -> b (c h w)", {}),
    ("b (h1 h) (w1 w) c -> (b h1 w1) h w c", {"h1": 2, "w1": 2}),
    ("b (h h1) (w w1) c -> b h w (c h1 w1)", {"h1": 2, "w1": 2}),
    ("b h w c -> w h c b", {}),
    ("... c -> c ...", {}),
    ("b ... -> (...) b", {}),
    ("b ... c -> b (... c)", {}),
    ("... -> ...", {}),
    ("b h w c -> b 1 h w c ()", {}),
    ("b h w c -> (b h w c)", {}),
    ("b h (w c) k -> k b h w c", {"c": 2}),
]


@pytest.mark.parametrize("pattern,lengths", CASES, ids=[c[0] for c in CASES])
def test_patterns_match_pytorch(pattern, lengths):
    def prog(m):
        x = data(m, 2, 4, 6, 3, seed=1)
        r = R(m)(x, pattern, **lengths)
        return r, r.shape, r.is_contiguous(), r._base is not None
    same(prog)


def test_gradients_flow_back():
    def prog(m):
        x = data(m, 2, 3, 4, seed=2, requires_grad=True)
        y = R(m)(x, "a b (c d) -> d (b a) c", d=2)
        w = data(m, *y.shape, seed=3)
        (y * w).sum().backward()
        return y, x.grad
    same(prog)


def test_list_of_tensors_is_stacked():
    same(lambda m: R(m)([m.ones(2), m.zeros(2), m.arange(2.)], "s n -> n s"))


def test_unit_axis_on_the_left_is_summed_as_pytorch():
    same(lambda m: R(m)(m.arange(24.).reshape(2, 3, 4), "1 b c -> b c"))
    same(lambda m: R(m)(m.arange(12.).reshape(1, 3, 4), "() b c -> c b"))


def test_zero_dim_identity():
    def prog(m):
        x = m.tensor(3.)
        return R(m)(x, " -> ") is x, R(m)(x, " -> 1").shape, R(m)(x, "... -> ...")
    same(prog)


ERRORS = [
    ("a b c -> a b", {}),
    ("a b -> a b", {}),
    ("a b c d ... -> a b c d ...", {}),
    ("a b c -> a b c 2", {}),
    ("a b c -> a b c", {"a": 2.0}),
    ("a b c -> a b c", {"q": 2}),
    ("a b c > a b c", {}),
    ("a b c -> a b (c", {}),
    ("a b a -> a b", {}),
    ("a b c. -> a b c", {}),
    ("a b _c -> a b _c", {}),
    ("a (b ...) -> a b", {}),
    ("a b c -> ... a b c", {}),
    ("a b c -> a b c", {"\u2026": 2}),
    ("a b c$ -> a b c", {}),
    ("a b ((c)) -> a b c", {}),
    ("a b c) -> a b c", {}),
    ("a b (c d) -> a b c d", {"c": 3}),
    ("a b (c d) -> a b c d", {}),
    ("a b (c d) -> a b c d", {"c": 2, "d": 3}),
    ("a b c -> a b c", {"c": 5}),
    ("a (b c) d -> a b c d", {"b": 2}),
    ("a b c 0 -> a b c", {}),
]


@pytest.mark.parametrize("pattern,lengths", ERRORS, ids=[c[0] + str(c[1]) for c in ERRORS])
def test_errors_match_pytorch(pattern, lengths):
    same_error(lambda m: R(m)(m.arange(24.).reshape(2, 3, 4), pattern, **lengths))


def test_error_type_is_a_dimension_bind_error():
    want, got = same_error(lambda m: R(m)(m.zeros(2, 4), "a (b c) -> a b c", b=3))
    assert type(got.exc).__name__ == type(want.exc).__name__ == "DimensionBindError"
