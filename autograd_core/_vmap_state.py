"""The active vmap levels, kept below the creation functions so that the random ones
(rand, randn, randint, randperm) can follow vmap's randomness mode without importing
autograd_core.func (Note [BatchedTensor], func/_vmap.py). An empty list when no vmap
runs: the creation functions test its truth, nothing more."""

LEVELS = []          # [level, batch_size, randomness], innermost last
RANDOM_HOOK = [None]  # func._vmap's handler of a random creation call under vmap
