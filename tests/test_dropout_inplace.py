"""The in-place forms of the random activations and dropouts (F.rrelu, alpha_dropout,
feature_alpha_dropout, dropout1d/2d/3d with inplace=True, torch.rrelu_ & co.), compared
with PyTorch under the same seed: values, gradients, the graph (grad_fn names down to
the leaves), the warnings and the errors."""
import pytest

from _diff import data, graph_desc, same, same_error, warns


def _run_inplace(op, shape, dtype="float64"):
    """A program: op(mod, y) in place on y = x * 1 (x a leaf) under manual_seed(0); returns
    the result, whether it is y itself, its graph, y's shape and x's gradient."""
    def prog(mod):
        mod.manual_seed(0)
        x = data(mod, *shape, requires_grad=True, dtype=dtype)
        y = x * 1
        out = op(mod, y)
        desc = graph_desc(out.grad_fn)
        (out * data(mod, *out.shape, seed=1, dtype=dtype)).sum().backward()
        return out, out is y, desc, tuple(y.shape), x.grad
    return prog


F = lambda mod: mod.nn.functional  # noqa: E731


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("op,shape", [
    # rrelu_with_noise_: RreluWithNoiseBackward1 (reads the result)
    (lambda mod, y: F(mod).rrelu(y, 0.1, 0.4, training=True, inplace=True), (3, 5)),
    (lambda mod, y: F(mod).rrelu(y, training=False, inplace=True), (3, 5)),
    (lambda mod, y: F(mod).rrelu_(y, training=True), (2, 3, 2)),
    (lambda mod, y: mod.rrelu_(y, 0.2, 0.3, True), (7,)),
    (lambda mod, y: mod.rrelu_(y), (4,)),
    # alpha dropouts: input.mul_(noise).add_(b) (MulBackward0, AddBackward0)
    (lambda mod, y: F(mod).alpha_dropout(y, 0.3, training=True, inplace=True), (4, 5)),
    (lambda mod, y: F(mod).alpha_dropout(y, 1.0, training=True, inplace=True), (4, 5)),
    (lambda mod, y: F(mod).alpha_dropout(y, 0.0, training=True, inplace=True), (4, 5)),
    (lambda mod, y: F(mod).alpha_dropout(y, 0.3, training=False, inplace=True), (4, 5)),
    (lambda mod, y: F(mod).feature_alpha_dropout(y, 0.4, training=True, inplace=True),
     (3, 4, 2)),
    (lambda mod, y: F(mod).feature_alpha_dropout(y, 1.0, training=True, inplace=True), (3, 4)),
    (lambda mod, y: mod.alpha_dropout_(y, 0.3, True), (6,)),
    (lambda mod, y: mod.feature_alpha_dropout_(y, 0.5, True), (2, 6, 3)),
    # out of place, the same nodes (AddBackward0 of MulBackward0)
    (lambda mod, y: F(mod).alpha_dropout(y, 0.3, training=True), (4, 5)),
    (lambda mod, y: F(mod).feature_alpha_dropout(y, 0.4, training=True), (3, 4, 2)),
    # unbatched channel dropouts in place: unsqueeze_(0), feature_dropout_, squeeze_(0)
    (lambda mod, y: F(mod).dropout1d(y, 0.3, inplace=True), (3, 4)),
    (lambda mod, y: F(mod).dropout1d(y, 1.0, inplace=True), (3, 4)),
    (lambda mod, y: F(mod).dropout1d(y, 0.3, training=False, inplace=True), (3, 4)),
    (lambda mod, y: F(mod).dropout1d(y, 0.3, inplace=True), (2, 3, 4)),
    (lambda mod, y: F(mod).dropout1d(y, 0.3), (3, 4)),
    (lambda mod, y: F(mod).dropout3d(y, 0.3, inplace=True), (3, 2, 2, 2)),
    (lambda mod, y: F(mod).dropout3d(y, 0.3), (3, 2, 2, 2)),
    (lambda mod, y: F(mod).dropout3d(y, 0.3, inplace=True), (2, 3, 2, 2, 2)),
    (lambda mod, y: F(mod).dropout2d(y, 0.3, inplace=True), (2, 3, 2, 2)),
    # dropout2d takes a 3-D input as batched (N, C, L), as PyTorch's (with a warning)
    (lambda mod, y: F(mod).dropout2d(y, 0.3, inplace=True), (3, 4, 2)),
    (lambda mod, y: F(mod).dropout2d(y, 0.3), (3, 4, 2)),
])
def test_inplace_random_ops_match_pytorch(op, shape, dtype):
    same(_run_inplace(op, shape, dtype), quiet=True)


def test_rrelu_inplace_fills_the_same_slopes_as_pytorch():
    # in training the draws go to noise (rrelu_with_noise_'s other written argument)
    def prog(mod):
        mod.manual_seed(3)
        x = data(mod, 4, 3)
        noise = mod.empty(4, 3, dtype=mod.float64)
        out = F(mod).rrelu_with_noise_(x, noise, 0.2, 0.6, True) if mod.__name__ != "torch" \
            else mod._C._nn.rrelu_with_noise_(x, noise, 0.2, 0.6, True)
        return out is x, x, noise
    same(prog)


@pytest.mark.parametrize("fn,nd", [("dropout2d", 2), ("dropout2d", 3), ("dropout2d", 5),
                                   ("dropout3d", 3), ("dropout3d", 6), ("dropout3d", 4)])
def test_channel_dropout_warnings_and_values_match_pytorch(fn, nd):
    def prog(mod):
        mod.manual_seed(1)
        x = data(mod, *([2, 3, 2, 1, 2, 1][:nd]))
        return warns(lambda: getattr(F(mod), fn)(x, 0.5))
    same(prog)


@pytest.mark.parametrize("call", [
    lambda mod: F(mod).dropout2d(data(mod, 4), 0.5),
    lambda mod: F(mod).dropout2d(data(mod, 4), 0.5, inplace=True),
    lambda mod: mod.feature_dropout(data(mod, 4), 0.3, True),
    lambda mod: mod.feature_alpha_dropout(data(mod, 4), 0.3, True),
    lambda mod: F(mod).feature_alpha_dropout(data(mod, 4), 0.3, True, inplace=True),
    lambda mod: F(mod).dropout1d(data(mod, 2, 2, 2, 2), 0.5, inplace=True),
    lambda mod: F(mod).alpha_dropout(data(mod, 4), 1.5, True, inplace=True),
])
def test_dropout_errors_match_pytorch(call):
    same_error(call)


def test_feature_dropout_of_a_vector_at_p_1_or_out_of_training_is_no_error():
    # PyTorch's make_feature_noise checks the rank after the p == 1 and train shortcuts
    def prog(mod):
        x = data(mod, 4)
        return (mod.feature_dropout(x, 1.0, True), mod.feature_dropout(x, 0.5, False),
                mod.feature_alpha_dropout(x, 1.0, True))
    same(prog)
