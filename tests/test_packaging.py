"""The source distribution holds what a build needs and nothing generated: the Cython
sources, the derivative table and its generator, the C sources (issue 7)."""
import os
import subprocess
import sys
import tarfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def sdist_names(tmp_path_factory):
    if not os.path.exists(os.path.join(ROOT, "setup.py")):
        pytest.skip("needs the source tree")
    out = tmp_path_factory.mktemp("sdist")
    # run outside the source tree: its build/ directory would shadow the build package
    r = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir",
                        str(out), ROOT], cwd=str(out), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    (archive,) = out.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        return {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}


def _tracked_sources():
    names = set()
    for sub in ("autograd_core", "csrc"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, sub)):
            for f in files:
                path = os.path.relpath(os.path.join(dirpath, f), ROOT)
                # (.pyi, py.typed: the type information, issue 30 item 4)
                if f.endswith((".pyx", ".pxd", ".pxi", ".yaml", ".h", ".pyi")) or (
                        sub == "csrc" and f.endswith(".c")) or f == "py.typed":
                    if not os.path.basename(path).startswith(("_gen_", "_op_table")):
                        names.add(path)
    return names


def test_sdist_holds_every_source(sdist_names):
    missing = _tracked_sources() - sdist_names
    assert not missing, f"missing from the sdist: {sorted(missing)}"
    for needed in ("setup.py", "pyproject.toml", "autograd_core/ops/_codegen.py",
                   "autograd_core/ops/derivatives.yaml", "README.md",
                   "autograd_core/ops/_stubgen.py", "autograd_core/py.typed",
                   "autograd_core/__init__.pyi", "autograd_core/_core/tensor.pyi"):
        assert needed in sdist_names


def test_sdist_holds_nothing_generated(sdist_names):
    generated = [n for n in sdist_names
                 if (n.startswith("autograd_core/") and n.endswith((".c", ".so", ".html")))
                 or os.path.basename(n).startswith(("_gen_", "_op_table"))]
    assert not generated, f"generated files in the sdist: {generated}"


def test_every_package_is_listed_in_pyproject():
    """A subpackage missing from [tool.setuptools] packages is missing from the wheel."""
    import tomllib
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    found = set()
    for dirpath, _, files in os.walk(os.path.join(root, "autograd_core")):
        if "__init__.py" in files and "__pycache__" not in dirpath:
            found.add(os.path.relpath(dirpath, root).replace(os.sep, "."))
    assert found - listed == set()


def test_tests_import_helpers_as_plain_pytest_can():
    # The README's test command is plain `pytest` from the installed package's checkout:
    # tests/ is on sys.path (rootdir-relative test modules) but the repository root is
    # not, so a test importing `tests._diff` passes under `python -m pytest` and fails
    # to collect in CI; the helpers are imported as top-level modules (`_diff`).
    here = os.path.dirname(os.path.abspath(__file__))
    offenders = []
    for root, _, files in os.walk(here):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    for n, line in enumerate(f, 1):
                        s = line.strip()
                        if s.startswith(("from tests.", "import tests")):
                            offenders.append(f"{os.path.relpath(path, here)}:{n}")
    assert not offenders, offenders


def _sdist_metadata(tmp_path_factory):
    out = tmp_path_factory.mktemp("meta")
    r = subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir",
                        str(out), ROOT], cwd=str(out), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    (archive,) = out.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        (member,) = [m for m in tar.getmembers() if m.name.count("/") == 1
                     and m.name.endswith("/PKG-INFO")]
        import email
        return email.message_from_bytes(tar.extractfile(member).read())


def test_metadata_states_license_version_and_python(sdist_names, tmp_path_factory):
    """Issue 30 item 1: the license travels with the code, the version has one source,
    and requires-python claims only what is built and tested (the tests use tomllib)."""
    assert "LICENSE" in sdist_names and "CHANGELOG.md" in sdist_names
    meta = _sdist_metadata(tmp_path_factory)
    assert meta["License-Expression"] == "BSD-3-Clause"
    assert "LICENSE" in meta.get_all("License-File")
    with open(os.path.join(ROOT, "autograd_core", "_version.py")) as f:
        namespace = {}
        exec(f.read(), namespace)
    assert meta["Version"] == namespace["__version__"]
    assert meta["Requires-Python"] == ">=3.11"
    classifiers = meta.get_all("Classifier")
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # the expression says it
    assert meta["Author"] or meta["Author-email"]
    import autograd_core
    assert str(autograd_core.__version__) == namespace["__version__"]
