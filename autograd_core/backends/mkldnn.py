"""torch.backends.mkldnn (oneDNN): absent here."""
enabled = True
deterministic = False


def is_available():
    """False: no oneDNN."""
    return False
