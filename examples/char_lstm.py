"""A character-level LSTM language model learns a few nursery rhymes by heart, then
writes text from a prompt.

    python examples/char_lstm.py            # autograd_core
    python examples/char_lstm.py --torch    # the same script under PyTorch
    python examples/char_lstm.py --quick    # a few steps

Plain PyTorch: nn.Embedding, a 1-layer nn.LSTM (batch_first), nn.Linear, Adam,
gradient clipping with nn.utils.clip_grad_norm_, and greedy decoding that carries the
LSTM's (h, c) state from character to character.
"""
import time

import numpy as np

from _common import init_weights, library_line, parse_args

args = parse_args(__doc__, steps=400, quick_steps=10)
if args.torch:
    import torch
else:
    import autograd_core as torch
nn = torch.nn
print(library_line(torch))

TEXT = """\
twinkle, twinkle, little star, how I wonder what you are!
up above the world so high, like a diamond in the sky.
twinkle, twinkle, little star, how I wonder what you are!
hey diddle diddle, the cat and the fiddle, the cow jumped over the moon;
the little dog laughed to see such sport, and the dish ran away with the spoon.
jack and jill went up the hill to fetch a pail of water;
jack fell down and broke his crown, and jill came tumbling after.
"""
chars = sorted(set(TEXT))
index = {c: i for i, c in enumerate(chars)}
data = np.array([index[c] for c in TEXT], dtype=np.int64)


class CharLSTM(nn.Module):
    def __init__(self, vocab, embed=16, hidden=96):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        out, state = self.lstm(self.embed(x), state)
        return self.head(out), state


model = init_weights(torch, CharLSTM(len(chars)))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()

seq_len, batch = 48, 16
rng = np.random.default_rng(0)          # the windows, identical under both libraries
t0 = time.perf_counter()
for step in range(1, args.steps + 1):
    starts = rng.integers(0, len(data) - seq_len - 1, batch)
    windows = np.stack([data[s:s + seq_len + 1] for s in starts])
    x, y = torch.from_numpy(windows[:, :-1]), torch.from_numpy(windows[:, 1:])
    logits, _ = model(x)
    loss = loss_fn(logits.reshape(-1, len(chars)), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    optimizer.step()
    if step % 50 == 0 or step == args.steps:
        print(f"step {step:5d}  loss {loss.item():.4f}")
print(f"{args.steps} steps in {time.perf_counter() - t0:.1f} s")


def generate(prompt, length):
    """Greedy decoding: feed the prompt, then each most likely next character."""
    model.eval()
    with torch.no_grad():
        logits, state = model(torch.tensor([[index[c] for c in prompt]]))
        out = prompt
        for _ in range(length):
            nxt = logits[0, -1].argmax().item()
            out += chars[nxt]
            logits, state = model(torch.tensor([[nxt]]), state)
    model.train()
    return out


print("sample: " + repr(generate("twinkle, ", 60 if not args.quick else 20)))
print(f"final loss: {loss.item()!r}")
