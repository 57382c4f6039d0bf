"""The 8x8 handwritten digits shipped with the package (digits.npz, 45 kB)."""
from importlib import resources

import numpy as np

DIGITS_ATTRIBUTION = (
    "8x8 handwritten digits: E. Alpaydin and C. Kaynak, \"Optical Recognition of "
    "Handwritten Digits\" (1998), UCI Machine Learning Repository, "
    "https://doi.org/10.24432/C50P49, licensed CC BY 4.0 "
    "(https://creativecommons.org/licenses/by/4.0/); the 1,797-sample copy distributed "
    "by scikit-learn, converted to .npz without changing values")


def load_digits():
    """The 1,797 digits as ``(images, labels)``: uint8 pixel counts 0..16 of shape
    (1797, 8, 8), and int64 labels 0..9. Read from the package data, never the network."""
    with resources.files(__package__).joinpath("digits.npz").open("rb") as f:
        with np.load(f, allow_pickle=False) as data:
            return data["images"], data["labels"].astype(np.int64)
