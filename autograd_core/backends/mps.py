"""torch.backends.mps: no Metal here."""


def is_available():
    """False: no MPS device."""
    return False


def is_built():
    """False: built without MPS."""
    return False


def is_macos_or_newer(major, minor):
    """False: not on an MPS-capable macOS."""
    return False
