"""Build the compiled modules; metadata lives in pyproject.toml.

First the op layer's generated code is (re)written from autograd_core/ops/
derivatives.yaml (autograd_core/ops/_codegen.py), then every module is cythonized
and compiled, in parallel. One extension module per concern:

  autograd_core._core.dtype / tensor / engine / function   the core
  autograd_core.ops.<family>                               one per op family
  autograd_core.func._vmapfast                             vmap's compiled dispatch

AGC_FAST_BUILD=1 compiles with -O0 for quick development builds (never for
benchmarks); AGC_SANITIZE=address,undefined builds with those sanitizers (see
tools/sanitize). Release builds carry no debug information.
"""
import glob
import os
import runpy
import sys

import numpy as np
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, ROOT)

# the generator, loaded by path: the package itself cannot be imported before it is built
_codegen = runpy.run_path(os.path.join(ROOT, "autograd_core", "ops", "_codegen.py"))

FAST = bool(os.environ.get("AGC_FAST_BUILD"))
COMPILE_ARGS = ["-O0" if FAST else "-O3", "-g0"]
LINK_ARGS = ["-g0"] if FAST else ["-g0", "-s"]
# AGC_SANITIZE=address,undefined: a checking build (tools/sanitize runs the tests on it);
# undefined behaviour aborts rather than printing and going on, so a test run cannot miss it
SANITIZE = os.environ.get("AGC_SANITIZE")
if SANITIZE:
    COMPILE_ARGS = ["-O1", "-g", "-fno-omit-frame-pointer", f"-fsanitize={SANITIZE}",
                    f"-fno-sanitize-recover={SANITIZE}"]
    LINK_ARGS = [f"-fsanitize={SANITIZE}"]

CORE = {
    "dtype": [],
    "tensor": ["csrc/agc_mode.c", "csrc/agc_parallel.c"],
    "engine": ["csrc/agc_engine.c"],
    "function": [],
    "random": ["csrc/agc_random.c"],
    "opcall": [],
}
FAMILY_C_SOURCES = {"pointwise": ["csrc/agc_kernels.c", "csrc/agc_special.c"],
                    "nn": ["csrc/agc_nn.c", "csrc/agc_bufcache.c"],
                    "reduce": ["csrc/agc_sum.c"]}


def _extension(module, pyx, c_sources=()):
    return Extension(
        module,
        sources=[pyx, *c_sources],
        # a changed csrc header rebuilds the modules (setuptools tracks only the sources)
        depends=sorted(glob.glob("csrc/*.h")),
        include_dirs=["csrc", np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=LINK_ARGS,
    )


extensions = [_extension(f"autograd_core._core.{name}", f"autograd_core/_core/{name}.pyx", c)
              for name, c in CORE.items()]
extensions += [_extension(f"autograd_core.ops.{fam}", f"autograd_core/ops/{fam}.pyx",
                          FAMILY_C_SOURCES.get(fam, ()))
               for fam in _codegen["FAMILIES"]]
# compiled parts of the function transforms (cimport the core only)
FUNC = {"_vmapfast": []}
extensions += [_extension(f"autograd_core.func.{name}", f"autograd_core/func/{name}.pyx", c)
               for name, c in FUNC.items()]
# compiled mode's replay loop and guard checks (Note [Compiled mode], _dynamo/__init__.py)
extensions += [_extension("autograd_core._dynamo._replay", "autograd_core/_dynamo/_replay.pyx",
                          ["csrc/agc_fuse.c"])]


class BuildExt(build_ext):
    """Generate, cythonize, then compile the modules in parallel (one job per core).

    Generation and cythonization happen here, not when setup.py is loaded, so that
    making an sdist neither needs nor runs them."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self):
        from Cython.Build import cythonize

        _codegen["generate"](ROOT)
        cythonized = cythonize(
            self.extensions,
            language_level=3,
            nthreads=os.cpu_count() or 1,
            compiler_directives={
                "boundscheck": True,
                "wraparound": True,
                "initializedcheck": False,
                "auto_pickle": False,
                "binding": True,
            },
        )
        # keep setuptools' Extension objects; only their sources become the C files
        for ext, c_ext in zip(self.extensions, cythonized):
            ext.sources = c_ext.sources
        super().run()

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            # MSVC takes none of gcc/clang's flags, and gives C11 atomics
            # (csrc/agc_parallel.c) only when asked (Visual Studio 2022 17.5 and newer)
            for ext in self.extensions:
                ext.extra_compile_args = ["/O2", "/std:c11", "/experimental:c11atomics"]
                ext.extra_link_args = []
        super().build_extensions()


setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
