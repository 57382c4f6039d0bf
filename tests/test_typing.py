"""Type information (issue 30 item 4): autograd_core ships py.typed and .pyi stubs generated
from the derivative table (autograd_core/ops/_stubgen.py), and annotations on its Python
layer, so that a type checker reads a training program written against it with real types:
mypy --strict passes on a typical script and reports a str passed where a Tensor goes.

The packaging side (the wheel and the sdist carry the stubs) is checked where those are
built: tests/test_wheel.py and tests/test_packaging.py."""
import ast
import os
import re
import runpy
import subprocess
import sys
import types

import pytest

import autograd_core
from _subprocess import CWD, PACKAGE_PARENT, child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.dirname(os.path.abspath(autograd_core.__file__))
TABLE = os.path.join(ROOT, "autograd_core", "ops", "derivatives.yaml")

# the namespace stubs and the runtime modules they describe
NAMESPACES = {
    "__init__.pyi": "autograd_core",
    os.path.join("nn", "functional.pyi"): "autograd_core.nn.functional",
    "linalg.pyi": "autograd_core.linalg",
    "special.pyi": "autograd_core.special",
}


def _stub_names(path, cls=None):
    """The names a stub binds at module level (or in class `cls`)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    body = tree.body
    if cls is not None:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == cls).body
    names = set()
    for n in body:
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
        elif isinstance(n, ast.Assign):
            names.update(t.id for t in n.targets if isinstance(t, ast.Name))
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names.update(a.asname for a in n.names if a.asname)
    return names


@pytest.mark.skipif(not os.path.exists(TABLE), reason="needs the source tree (the table)")
def test_committed_stubs_match_the_table(tmp_path):
    """The stubs are generated: regenerating them from the table and the namespaces'
    sources gives the committed files (after editing the table: python
    autograd_core/ops/_stubgen.py)."""
    stubgen = runpy.run_path(os.path.join(ROOT, "autograd_core", "ops", "_stubgen.py"))
    files = stubgen["generate"](ROOT, out_root=str(tmp_path))
    assert len(files) >= 10
    stale = []
    for rel, text in files.items():
        path = os.path.join(ROOT, "autograd_core", rel)
        committed = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if committed != text:
            stale.append(rel)
    assert not stale, f"stale stubs (run python autograd_core/ops/_stubgen.py): {stale}"


@pytest.mark.parametrize("stub", sorted(NAMESPACES))
def test_namespace_stub_names_every_public_name(stub):
    """A name the namespace has at run time but its stub lacks would be an error for a
    type checker in a correct program."""
    import importlib
    module = importlib.import_module(NAMESPACES[stub])
    # a module is part of the namespace when its source imports it by a public name (not
    # numpy as np, nor a submodule bound only because something imported it)
    with open(module.__file__, encoding="utf-8") as f:
        imported = {a.asname or a.name for n in ast.parse(f.read()).body
                    if isinstance(n, ast.ImportFrom) for a in n.names}
    public = {n for n, v in vars(module).items() if not n.startswith("_")
              and (not isinstance(v, types.ModuleType) or n in imported)}
    missing = public - _stub_names(os.path.join(PKG, stub))
    assert not missing, sorted(missing)


def test_tensor_stub_names_every_public_member():
    members = {n for n in dir(autograd_core.Tensor)
               if not n.startswith("_") or n in ("__getitem__", "__setitem__", "__len__",
                                                 "__iter__", "__add__", "__matmul__")}
    missing = members - _stub_names(os.path.join(PKG, "_core", "tensor.pyi"), cls="Tensor")
    assert not missing, sorted(missing)


# numpy's spellings (axis=, keepdims=) the wrappers also take, as PyTorch's parser does;
# PyTorch's stubs leave them out too
_NUMPY_ALIASES = {"axis", "keepdims"}


def _runtime_params(obj, method):
    import inspect
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    ps = list(sig.parameters.values())[1 if method else 0:]
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in ps):
        return None    # takes anything: every stub shape may be right
    pos = [p.name for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    kw = {p.name for p in ps if p.kind == p.KEYWORD_ONLY} - _NUMPY_ALIASES
    return pos, kw


def _stub_defs(path, cls=None):
    with open(path, encoding="utf-8") as f:
        body = ast.parse(f.read()).body
    if cls is not None:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == cls).body
    defs = {}
    for n in body:
        if isinstance(n, ast.FunctionDef) and not n.name.startswith("__"):
            defs.setdefault(n.name, []).append(n)
    return defs


@pytest.mark.parametrize("stub", sorted(NAMESPACES) + ["Tensor"])
def test_stub_signatures_are_the_runtime_signatures(stub):
    """Each stub def takes the parameters the function or method takes at run time (names,
    order, keyword-only ones); an overloaded one names only runtime parameters, and its
    overloads together name them all. A stub is what a type checker believes: a name it
    gets wrong makes a correct call an error."""
    import importlib
    method = stub == "Tensor"
    if method:
        target, path = autograd_core.Tensor, os.path.join(PKG, "_core", "tensor.pyi")
        defs = _stub_defs(path, "Tensor")
    else:
        target, path = importlib.import_module(NAMESPACES[stub]), os.path.join(PKG, stub)
        defs = _stub_defs(path)
    wrong = []
    checked = 0
    for name, overloads in sorted(defs.items()):
        obj = getattr(target, name, None)
        if obj is None or isinstance(obj, property) or not callable(obj):
            continue
        runtime = _runtime_params(obj, method)
        if runtime is None:
            continue
        checked += 1
        pos, kw = runtime
        shapes = []
        for d in overloads:
            a = d.args
            shapes.append(([x.arg for x in a.posonlyargs + a.args][1 if method else 0:],
                           {x.arg for x in a.kwonlyargs}, a.vararg is not None))
        if len(shapes) == 1:
            ok = shapes[0][0] == pos and shapes[0][1] == kw and not shapes[0][2]
        else:
            names = [set(p) | k for p, k, var in shapes if not var]
            ok = all(n <= set(pos) | kw for n in names) and \
                set().union(*names) == set(pos) | kw
        if not ok:
            wrong.append(f"{name}: stub {shapes}, runtime {pos} *{sorted(kw)}")
    assert checked > (100 if stub in ("__init__.pyi", "Tensor") else 10)
    assert not wrong, "\n".join(wrong)


def test_table_signature_has_pytorch_parameter_names_and_types():
    """Spot checks against PyTorch's own stubs (torch/_C/_VariableFunctions.pyi): names,
    keyword-only markers, optional types, overloads of hand-written wrappers."""
    init = open(os.path.join(PKG, "__init__.pyi"), encoding="utf-8").read()
    tensor = open(os.path.join(PKG, "_core", "tensor.pyi"), encoding="utf-8").read()
    assert ("def add(input: Tensor, other: Tensor | _Number, *, alpha: _Number = ..., "
            "out: Tensor | None = None) -> Tensor: ...") in init
    assert "def relu(input: Tensor) -> Tensor: ..." in init
    assert re.search(r"def sum\(self, .*dim.*keepdim: _bool = \.\.\..*\) -> Tensor", tensor)
    assert "    def view(self, *size: _int) -> Tensor: ..." in tensor
    assert "    def max(self, dim: _int, keepdim: _bool = False) -> _ValuesIndices: ..." in tensor
    assert re.search(r"def sort\(.*\) -> _ValuesIndices", init)


# ---------------------------------------------------------------- mypy on programs

TRAINING = '''\
"""A typical training script, written against autograd_core as against PyTorch."""
import os
import tempfile

import autograd_core as torch
import autograd_core.nn as nn
import autograd_core.nn.functional as F
from autograd_core.optim.lr_scheduler import StepLR
from autograd_core.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, classes: int = 3) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, kernel_size=3, padding=1)
        self.act = nn.ReLU()
        self.drop = nn.Dropout(0.25)
        self.fc = nn.Linear(4 * 6 * 6, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.drop(self.act(self.conv(x)))
        out: torch.Tensor = self.fc(h.flatten(1))
        return out


def accuracy(logits: torch.Tensor, target: torch.Tensor) -> float:
    pred = logits.argmax(dim=1)
    return float((pred == target).float().mean().item())


def main() -> None:
    torch.manual_seed(0)
    x = torch.randn(32, 1, 6, 6)
    y = torch.randint(0, 3, (32,))
    loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    adam = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = StepLR(optimizer, step_size=2, gamma=0.5)
    total = 0.0
    for epoch in range(2):
        model.train()
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            optimizer.step()
            total += loss.item()
        scheduler.step()
    adam.zero_grad()
    model.eval()
    with torch.no_grad():
        acc = accuracy(model(x), y)
    w = torch.zeros(3, 4).to(torch.float32)
    b = torch.ones(4) * 2 + torch.arange(4, dtype=torch.float32) / 3 - 1
    rows: int = w.shape[0]
    cols = w[:, 1:3]
    z = torch.relu(w @ b.unsqueeze(1)).sum()
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (t ** 2).mean().backward()
    assert t.grad is not None
    grad: torch.Tensor = t.grad
    values, indices = t.max(dim=1)
    path = os.path.join(tempfile.mkdtemp(), "model.pt")
    torch.save(model.state_dict(), path)
    model.load_state_dict(torch.load(path))
    print(total, acc, rows, cols.shape, z.item(), grad.sum().item(), values, indices,
          F.linear(x.flatten(1), torch.zeros(2, 36)).shape, x.view(32, -1).size(1),
          torch.cat([x, x], dim=0).shape, F.softmax(z, dim=0).dtype)


if __name__ == "__main__":
    main()
'''

ADVANCED = '''\
"""Less common pieces: a custom Function, a Dataset subclass, random_split, containers,
recurrent layers, clipping, autograd.grad, torch.func."""
from typing import Any

import numpy as np

import autograd_core as torch
import autograd_core.nn as nn
import autograd_core.nn.functional as F
from autograd_core.autograd import Function
from autograd_core.utils.data import DataLoader, Dataset, random_split


class Square(Function):
    @staticmethod
    def forward(ctx: torch.autograd.function.FunctionCtx, x: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx: torch.autograd.function.FunctionCtx, grad: torch.Tensor) -> torch.Tensor:
        (x,) = ctx.saved_tensors
        return 2 * x * grad


class Pairs(Dataset[tuple[torch.Tensor, torch.Tensor]]):
    def __init__(self, n: int) -> None:
        self.x = torch.randn(n, 4)
        self.y = torch.randint(0, 2, (n,))

    def __len__(self) -> int:
        return self.x.shape[0]

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.x[i], self.y[i]


def main() -> None:
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
    emb = nn.Embedding(10, 3)
    lstm = nn.LSTM(3, 5, batch_first=True)
    pool = nn.MaxPool2d(2)
    crit = nn.CrossEntropyLoss()
    nn.init.xavier_uniform_(layers[0].weight)
    train, val = random_split(Pairs(20), [16, 4])
    loader = DataLoader(train, batch_size=4)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
    for xb, yb in loader:
        loss = crit(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    sched.step()
    plateau.step(0.5)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Square.apply(x).sum()
    (g,) = torch.autograd.grad(y, [x], create_graph=True)
    gf = torch.func.grad(lambda t: (t ** 3).sum())(x)
    vm = torch.func.vmap(torch.sin)(torch.ones(3, 2))
    with torch.set_grad_enabled(False), torch.inference_mode():
        out, (h, c) = lstm(emb(torch.tensor([[1, 2, 3]])))
    arr: np.ndarray[Any, Any] = x.detach().numpy()
    back = torch.from_numpy(arr)
    s = torch.stack([x, x]).where(torch.ones(2, 2) > 0, torch.zeros(2, 2))
    n = torch.linalg.norm(s)
    spec: torch.Tensor = torch.fft.rfft(torch.ones(8)) * torch.fft.fftfreq(5)[:5]
    p = pool(torch.ones(1, 1, 4, 4))
    print(norm, g, gf, vm, out.shape, h.shape, c.shape, back, n, p.shape, len(val),
          sched.get_last_lr(), spec.shape)


if __name__ == "__main__":
    main()
'''

WRONG = '''\
import autograd_core as torch
import autograd_core.nn.functional as F

w = torch.zeros(2, 3)
a = torch.relu("x")
b = F.linear("a", w)
'''


# the stubs checked as source files in the same run
INSTALLED = os.path.basename(PACKAGE_PARENT) in ("site-packages", "dist-packages")
STUBS = [rel for rel in NAMESPACES] + [os.path.join("_core", f) for f in
                                      ("tensor.pyi", "dtype.pyi", "random.pyi", "function.pyi")]


@pytest.fixture(scope="module")
def mypy_run(tmp_path_factory):
    """One mypy --strict run (one analysis of the package, ~10 s) over the programs and the
    generated stubs."""
    pytest.importorskip("mypy", reason="mypy is in the [test] extra")
    tmp = tmp_path_factory.mktemp("typing")
    (tmp / "train_typed.py").write_text(TRAINING)
    (tmp / "advanced_typed.py").write_text(ADVANCED)
    (tmp / "wrong_call.py").write_text(WRONG)
    # the package's Python modules are not the user's code: followed silently, as the
    # modules of an installed package are; the stubs, named on the command line, are
    # checked as strictly as the programs
    (tmp / "mypy.ini").write_text("[mypy]\nstrict = True\n\n"
                                  "[mypy-autograd_core.*]\nfollow_imports = silent\n")
    env = child_env()
    stubs = []
    if not INSTALLED:
        env["MYPYPATH"] = PACKAGE_PARENT    # an in-place build: the checkout
        # (an installed package's stubs are read from site-packages through py.typed;
        # named as files there, mypy would take site-packages for a source root and
        # refuse the other modules in it, e.g. "mypy_extensions.py: error: This file
        # shadows library module")
        stubs = [os.path.join(PKG, s) for s in STUBS]
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(tmp / "mypy.ini"),
                        "--cache-dir", str(tmp / "cache"), "--no-error-summary",
                        "--hide-error-context", "--show-error-codes",
                        str(tmp / "train_typed.py"), str(tmp / "advanced_typed.py"),
                        str(tmp / "wrong_call.py"), *stubs],
                       cwd=CWD, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode in (0, 1), r.stdout + r.stderr
    return tmp, r.stdout


@pytest.mark.parametrize("program", ["train_typed.py", "advanced_typed.py"])
def test_typed_programs_run(mypy_run, program):
    """The typed programs are real ones: they run."""
    tmp, _ = mypy_run
    r = subprocess.run([sys.executable, str(tmp / program)], cwd=CWD, env=child_env(),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("program", ["train_typed.py", "advanced_typed.py"])
def test_mypy_strict_accepts_typed_programs(mypy_run, program):
    _, out = mypy_run
    errors = [line for line in out.splitlines() if program in line]
    assert not errors, "\n".join(errors)


def test_mypy_reports_a_str_where_a_tensor_goes(mypy_run):
    _, out = mypy_run
    errors = [line.split("wrong_call.py:", 1)[1] for line in out.splitlines()
              if "wrong_call.py:" in line and ": note:" not in line]
    assert len(errors) == 2, out
    assert errors[0].startswith("5:") and '"relu"' in errors[0] and '"str"' in errors[0] \
        and '"Tensor"' in errors[0] and errors[0].endswith("[arg-type]"), errors[0]
    assert errors[1].startswith("6:") and '"linear"' in errors[1] and '"str"' in errors[1] \
        and '"Tensor"' in errors[1] and errors[1].endswith("[arg-type]"), errors[1]


def test_stubs_pass_mypy_strict(mypy_run):
    """The generated stubs are valid: mypy --strict reads them without an error."""
    if INSTALLED:
        pytest.skip("the stubs are checked as files on the in-place build (an installed "
                    "package's are read through py.typed, where mypy reports only the "
                    "programs' errors)")
    _, out = mypy_run
    errors = [line for line in out.splitlines() if ".pyi:" in line]
    assert not errors, "\n".join(errors)


def test_wrong_program_fails_at_run_time_too():
    """What the checker reports is what the argument parser refuses, as PyTorch's does."""
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError) as ours:
        autograd_core.relu("x")
    with pytest.raises(TypeError) as theirs:
        torch.relu("x")
    assert str(ours.value) == str(theirs.value)
