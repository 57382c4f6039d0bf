"""Small training programs written against the torch API, run with torch and with
autograd_core from the same initial weights: the losses and final weights must agree."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
import autograd_core  # noqa: E402


def _cnn(mod):
    nn = mod.nn
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(4, 6, 3), nn.GELU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Dropout(0.0), nn.Linear(6, 3))


def _rnn_lm(mod):
    nn = mod.nn

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(11, 6, padding_idx=0)
            self.rnn = nn.LSTM(6, 8, num_layers=2, batch_first=True)
            self.norm = nn.LayerNorm(8)
            self.head = nn.Linear(8, 11)

        def forward(self, tokens):
            out, _ = self.rnn(self.emb(tokens))
            return self.head(self.norm(out))

    return LM()


def _train(mod, make, state, data, steps=4, lr=0.1, clip=None):
    model = make(mod).double()
    model.load_state_dict({k: mod.tensor(v) for k, v in state.items()})
    loss_fn = mod.nn.CrossEntropyLoss()
    losses = []
    x, y = (mod.tensor(a) for a in data)
    for _ in range(steps):
        model.zero_grad()
        logits = model(x)
        loss = loss_fn(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        loss.backward()
        if clip is not None:
            mod.nn.utils.clip_grad_norm_(model.parameters(), clip)
        with mod.no_grad():
            for p in model.parameters():
                p -= lr * p.grad
        losses.append(loss.item())
    model.eval()
    with mod.no_grad():
        final = model(x)
    return losses, {k: v.detach().numpy().copy() for k, v in model.state_dict().items()}, \
        final.numpy()


@pytest.mark.parametrize("make, data, clip", [
    (_cnn, lambda g: (g.standard_normal((8, 1, 8, 8)), g.integers(0, 3, 8)), None),
    (_rnn_lm, lambda g: (g.integers(0, 11, (3, 7)), g.integers(0, 11, (3, 7))), 0.5),
], ids=["cnn", "lstm_lm"])
def test_training_program(make, data, clip):
    g = np.random.default_rng(0)
    torch.manual_seed(0)
    state = {k: v.double().numpy() for k, v in make(torch).state_dict().items()}
    arrays = data(g)
    t_losses, t_state, t_out = _train(torch, make, state, arrays, clip=clip)
    a_losses, a_state, a_out = _train(autograd_core, make, state, arrays, clip=clip)
    np.testing.assert_allclose(a_losses, t_losses, rtol=1e-9)
    assert list(a_state) == list(t_state)
    for k in t_state:
        np.testing.assert_allclose(a_state[k], t_state[k], rtol=1e-8, atol=1e-10, err_msg=k)
    np.testing.assert_allclose(a_out, t_out, rtol=1e-8, atol=1e-10)
