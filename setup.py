"""Build the Cython/C extension; metadata lives in pyproject.toml."""
import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "autograd_core._C",
        sources=["autograd_core/_C.pyx", "csrc/agc_engine.c", "csrc/agc_kernels.c"],
        include_dirs=["csrc", np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        # AGC_FAST_BUILD=1: -O0 for quick development builds (never for benchmarks)
        extra_compile_args=["-O0" if os.environ.get("AGC_FAST_BUILD") else "-O3"],
    )
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": True,
            "wraparound": True,
            "initializedcheck": False,
            "cdivision": True,
            "embedsignature": True,
        },
    ),
)
