"""torch.backends.mkl: whether numpy's BLAS is MKL."""


def is_available():
    """Whether numpy links MKL (its BLAS is what the matmuls here use)."""
    import numpy as np
    try:
        info = np.show_config(mode="dicts")
        blas = info.get("Build Dependencies", {}).get("blas", {}).get("name", "")
    except Exception:  # an old numpy without mode=
        return False
    return "mkl" in str(blas).lower()
