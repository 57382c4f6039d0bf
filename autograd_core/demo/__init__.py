"""autograd_core's demonstration, and the small data set it ships.

Run it with ``autograd-core-demo`` (installed with the package) or
``python -m autograd_core.demo``: it trains an MLP and a small CNN on 8x8 handwritten
digits with ordinary PyTorch code run by autograd_core, reports their test accuracy,
runs the benchmark table against the numpy floor and the installed peers, and writes
PNG plots. ``--help`` lists the options.

``load_digits()`` returns the digits as numpy arrays; the data's source and licence
(CC BY 4.0) are in ``DIGITS_ATTRIBUTION`` and in DIGITS_DATA.txt beside this file.
"""
from autograd_core.demo._data import DIGITS_ATTRIBUTION, load_digits

__all__ = ["DIGITS_ATTRIBUTION", "load_digits", "main"]


def main(argv=None):
    """Run the demonstration (the command line's entry point); returns the exit status."""
    from autograd_core.demo._run import main as run_main
    return run_main(argv)
