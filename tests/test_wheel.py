"""Wheels a package index takes (issue 30 item 3): the wheel built from this checkout
is repaired by auditwheel into a manylinux wheel, which `auditwheel show` accepts, and
carries the license and the compiled modules (no Cython sources, no generated C), and the
type information (py.typed and the generated stubs: issue 30 item 4).

The wheels for other platforms come from cibuildwheel on a CI service (the
`[tool.cibuildwheel]` table in pyproject.toml); this test checks the Linux one here."""
import os
import platform
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(ROOT, "setup.py")) or platform.system() != "Linux"
    or shutil.which("auditwheel") is None and not os.path.exists(
        os.path.join(os.path.dirname(sys.executable), "auditwheel")),
    reason="needs the source checkout, Linux and auditwheel (the [test] extra)")


def _auditwheel():
    here = os.path.join(os.path.dirname(sys.executable), "auditwheel")
    return here if os.path.exists(here) else shutil.which("auditwheel")


@pytest.fixture(scope="module")
def repaired(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    # AGC_FAST_BUILD (-O0): what auditwheel checks (the libraries and symbol versions the
    # modules need, the tags, the contents) does not depend on the optimisation level,
    # and the build takes a fraction of the time
    env = dict(os.environ, AGC_FAST_BUILD="1")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                        "--no-build-isolation", "-w", str(out / "raw"), ROOT],
                       cwd=str(out), capture_output=True, text=True, timeout=1800, env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (raw,) = (out / "raw").glob("*.whl")
    r = subprocess.run([_auditwheel(), "repair", "-w", str(out / "fixed"), str(raw)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    (fixed,) = (out / "fixed").glob("*.whl")
    return fixed


def test_repaired_wheel_is_manylinux(repaired):
    assert re.search(r"manylinux_\d+_\d+_" + platform.machine(), repaired.name), repaired.name
    r = subprocess.run([_auditwheel(), "show", str(repaired)], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "manylinux_" in r.stdout and "is consistent with the following platform tag" in (
        " ".join(r.stdout.split()))


def test_wheel_carries_license_and_compiled_modules_only(repaired):
    names = zipfile.ZipFile(repaired).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names[:20]
    assert any(n.startswith("autograd_core/_core/tensor.") and n.endswith(".so") for n in names)
    assert not [n for n in names if n.endswith((".pyx", ".pxd", ".pxi", ".c"))]


def test_wheel_carries_type_information(repaired):
    """PEP 561: the marker and every stub of the checkout (the compiled modules' and the
    namespaces'), so that a type checker reads the installed package."""
    names = set(zipfile.ZipFile(repaired).namelist())
    assert "autograd_core/py.typed" in names
    stubs = {os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/")
             for d, _, files in os.walk(os.path.join(ROOT, "autograd_core"))
             for f in files if f.endswith(".pyi")}
    assert {"autograd_core/__init__.pyi", "autograd_core/_core/tensor.pyi",
            "autograd_core/nn/functional.pyi"} <= stubs
    assert stubs <= names, sorted(stubs - names)
