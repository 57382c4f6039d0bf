"""torch.backends.openmp: autograd_core does not use OpenMP."""


def is_available():
    """False: no OpenMP parallelism here (numpy's kernels run on the calling thread)."""
    return False
