"""The C builds on other compilers (issue 30 item 2).

GCC 14 turns -Wincompatible-pointer-types, -Wimplicit-function-declaration and
-Wint-conversion into errors by default, and clang does too: the generated C of every
compiled module and the plain-C core must compile clean with those errors on, under gcc
and under clang when it is installed. The plain-C core must also compile for Windows
(its thread pool has a Win32 branch beside the POSIX one): checked with the mingw-w64
cross compiler when it is installed (Debian: `apt-get install clang mingw-w64`)."""
import glob
import os
import shutil
import subprocess
import sysconfig

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRICT = ["-Werror=incompatible-pointer-types", "-Werror=implicit-function-declaration",
          "-Werror=int-conversion"]
COMPILERS = [cc for cc in ("gcc", "clang") if shutil.which(cc)]
CSRC = sorted(glob.glob(os.path.join(ROOT, "csrc", "*.c")))


def _generated_c():
    """The C that Cython generated beside each module's .pyx (an in-place or pip build
    of this checkout writes it there)."""
    found = []
    for pyx in glob.glob(os.path.join(ROOT, "autograd_core", "**", "*.pyx"), recursive=True):
        c = pyx[:-4] + ".c"
        if os.path.exists(c) and os.path.getmtime(c) >= os.path.getmtime(pyx):
            found.append(c)
    return sorted(found)


def _run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr


@pytest.mark.parametrize("cc", COMPILERS)
def test_generated_modules_compile_with_strict_pointer_and_declaration_errors(cc):
    sources = _generated_c()
    if not os.path.exists(os.path.join(ROOT, "setup.py")) or not sources:
        pytest.skip("needs a built source checkout (the generated C beside the .pyx files)")
    include = [f"-I{sysconfig.get_paths()['include']}", f"-I{np.get_include()}",
               f"-I{os.path.join(ROOT, 'csrc')}"]
    for c in sources:
        rc, out = _run([cc, "-fsyntax-only", *STRICT, *include,
                        "-DNPY_NO_DEPRECATED_API=NPY_1_7_API_VERSION", c])
        assert rc == 0, f"{cc} {os.path.relpath(c, ROOT)}:\n{out[-3000:]}"


@pytest.mark.parametrize("cc", COMPILERS + ["x86_64-w64-mingw32-gcc"])
def test_c_core_compiles_as_iso_c11(cc, tmp_path):
    if not shutil.which(cc):
        pytest.skip(f"{cc} is not installed")
    if not CSRC:
        pytest.skip("needs the source checkout")
    for c in CSRC:
        rc, out = _run([cc, "-std=c11", "-Wall", "-Werror", *STRICT,
                        f"-I{os.path.join(ROOT, 'csrc')}", "-c", c,
                        "-o", str(tmp_path / "out.o")])
        assert rc == 0, f"{cc} {os.path.relpath(c, ROOT)}:\n{out[-3000:]}"


def _posix_side(directive):
    """True for a branch that only POSIX compiles, False for the Win32 side, None for a
    condition about something else."""
    if "_WIN32" not in directive:
        return None
    return directive.startswith("#ifndef") or "!defined(_WIN32)" in directive


def test_c_core_has_no_posix_only_include_outside_a_posix_branch():
    """The mingw check above compiles the Win32 branch; this one keeps POSIX headers
    behind `#ifndef _WIN32` (or the `#else` of `#ifdef _WIN32`) even where mingw would
    supply them: MSVC does not."""
    posix_only = ("<pthread.h>", "<unistd.h>", "<sys/", "<dlfcn.h>")
    for c in CSRC + sorted(glob.glob(os.path.join(ROOT, "csrc", "*.h"))):
        stack = []
        with open(c) as f:
            for line in f:
                s = line.strip().replace("# ", "#")
                if s.startswith("#if"):
                    stack.append(_posix_side(s))
                elif s.startswith(("#else", "#elif")) and stack and stack[-1] is not None:
                    stack[-1] = not stack[-1]
                elif s.startswith("#endif") and stack:
                    stack.pop()
                elif s.startswith("#include") and any(h in s for h in posix_only):
                    assert True in stack, f"{os.path.relpath(c, ROOT)}: {s} outside a POSIX branch"
