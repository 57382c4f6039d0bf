"""Writes the API reference pages (docs/api/*.rst) from the package's public namespaces.

The pages are generated at every build, from the same definition of "public name" that
tests/test_docs.py checks the built inventory against: a namespace's ``__all__`` when it
has one, otherwise every attribute not starting with an underscore that is not a
submodule. A public name added to a namespace therefore gets its entry with no edit here;
a namespace added to the package gets one line in NAMESPACES.
"""

import importlib
import importlib.machinery
import inspect
import os
import re
import sys
import types

# (module, page title, one line on what it holds); the top-level namespace first.
NAMESPACES = [
    ("autograd_core", "autograd_core (torch)",
     "Tensor creation, math, reductions, dtypes, grad modes and the rest of the top level."),
    ("autograd_core.nn", "autograd_core.nn", "Modules, Parameter and containers."),
    ("autograd_core.nn.functional", "autograd_core.nn.functional",
     "The functional forms of the layers, activations and losses."),
    ("autograd_core.nn.init", "autograd_core.nn.init", "Parameter initialisation."),
    ("autograd_core.optim", "autograd_core.optim", "Optimizers."),
    ("autograd_core.optim.lr_scheduler", "autograd_core.optim.lr_scheduler",
     "Learning-rate schedules."),
    ("autograd_core.autograd", "autograd_core.autograd",
     "backward, grad, Function, gradcheck and the graph API."),
    ("autograd_core.autograd.forward_ad", "autograd_core.autograd.forward_ad",
     "Forward-mode automatic differentiation with dual tensors."),
    ("autograd_core.autograd.functional", "autograd_core.autograd.functional",
     "jacobian, hessian, vjp, jvp, hvp, vhp."),
    ("autograd_core.func", "autograd_core.func", "Composable transforms: grad, vmap, jacrev, ..."),
    ("autograd_core.linalg", "autograd_core.linalg", "Linear algebra."),
    ("autograd_core.fft", "autograd_core.fft", "Discrete Fourier transforms."),
    ("autograd_core.special", "autograd_core.special", "Special functions."),
    ("autograd_core.signal.windows", "autograd_core.signal.windows", "Window functions."),
    ("autograd_core.distributions", "autograd_core.distributions",
     "Probability distributions with rsample and log_prob."),
    ("autograd_core.utils.data", "autograd_core.utils.data",
     "Dataset, DataLoader and samplers."),
    ("autograd_core.utils.checkpoint", "autograd_core.utils.checkpoint",
     "Activation checkpointing."),
    ("autograd_core.profiler", "autograd_core.profiler", "The profiler."),
    ("autograd_core.distributed", "autograd_core.distributed",
     "Process groups and collectives over MPI."),
    ("autograd_core.sparse", "autograd_core.sparse", "Sparse COO/CSR tensors."),
    ("autograd_core.amp", "autograd_core.amp", "Autocast and GradScaler."),
    ("autograd_core.serialization", "autograd_core.serialization",
     "save and load (the safe weights_only unpickler)."),
    ("autograd_core.testing", "autograd_core.testing", "assert_close and make_tensor."),
    ("autograd_core.random", "autograd_core.random", "The random number generator's state."),
]

TENSOR = "autograd_core.Tensor"


def public_names(module):
    """The public names of a namespace (see the module docstring), sorted."""
    if hasattr(module, "__all__"):
        names = list(module.__all__)
    else:
        names = [n for n in dir(module) if not n.startswith("_")]
    return sorted(n for n in set(names)
                  if not isinstance(getattr(module, n, None), types.ModuleType))


def tensor_names(cls):
    """The public attributes of Tensor: its methods and properties."""
    return sorted(n for n in dir(cls) if not n.startswith("_"))


def page_name(modname):
    return modname.replace("autograd_core", "torch", 1) if modname != "autograd_core" else "torch"


def _directive(obj):
    if inspect.isclass(obj):
        return "autoclass"
    if callable(obj) and not isinstance(obj, type):
        # functions, Cython functions, builtins; callable instances (the dtype objects
        # are not callable) are documented as data
        if inspect.isroutine(obj) or type(obj).__name__ in ("cython_function_or_method",
                                                              "fused_cython_function"):
            return "autofunction"
    return "autodata"


def _tensor_directive(cls, name):
    raw = inspect.getattr_static(cls, name)
    if isinstance(raw, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
        return "autoproperty" if isinstance(raw, property) else "autoattribute"
    if callable(raw) or isinstance(raw, (staticmethod, classmethod)):
        return "automethod"
    return "autoattribute"


def _title(text, ch="="):
    return f"{text}\n{ch * len(text)}\n"


def write_pages(outdir):
    """Write one page per namespace and the Tensor page into outdir; return the page names."""
    os.makedirs(outdir, exist_ok=True)
    pages = []
    documented = {}  # id of a class or routine -> the full name it is documented under
    for modname, title, blurb in NAMESPACES:
        module = importlib.import_module(modname)
        lines = [_title(title), blurb, "", f".. module:: {modname}", ""]
        if modname == "autograd_core":
            lines += ["The Tensor class and its methods are on :doc:`tensor`.", ""]
        for name in public_names(module):
            if modname == "autograd_core" and name == "Tensor":
                continue
            obj = getattr(module, name)
            directive = _directive(obj)
            full = f"{modname}.{name}"
            first = documented.get(id(obj)) if directive != "autodata" else None
            if first is not None:
                # The same object under a second name (torch.no_grad is
                # torch.autograd.no_grad): one description, the other names point to it.
                # (Two autodoc descriptions of one class would both claim its canonical
                # name, which Sphinx reports as a duplicate.)
                kind = "class" if directive == "autoclass" else "function"
                lines += [f".. py:{kind}:: {name}", f"   :module: {modname}", "",
                          f"   The same {kind} as :py:obj:`{first}`.", ""]
                continue
            if directive != "autodata":
                documented[id(obj)] = full
            lines += [f".. {directive}:: {full}", ""]
        pages.append(page_name(modname))
        _write(os.path.join(outdir, pages[-1] + ".rst"), lines)
    # Tensor: the class and every public method and property
    import autograd_core
    cls = autograd_core.Tensor
    lines = [_title("Tensor"), "", ".. currentmodule:: autograd_core", "",
             ".. autoclass:: autograd_core.Tensor", ""]
    for name in tensor_names(cls):
        lines += [f"   .. {_tensor_directive(cls, name)}:: {name}", ""]
    _write(os.path.join(outdir, "tensor.rst"), lines)
    pages.insert(1, "tensor")
    index = [_title("API reference"),
             "One page per namespace; every public name of each is listed. The names,",
             "signatures and behaviour are PyTorch's (``import autograd_core as torch``).", "",
             ".. toctree::", "   :maxdepth: 1", ""] + [f"   {p}" for p in pages]
    _write(os.path.join(outdir, "index.rst"), index)
    return pages


def _write(path, lines):
    text = "\n".join(lines) + "\n"
    # rewrite only on change, so an incremental build re-reads only what changed
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w") as f:
        f.write(text)


_COMPILED_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
_BACKTICKS = re.compile(r"(``.*?``)")
_TRAILING_UNDERSCORE = re.compile(r"(?<=\w)_(?=[\s.,;:)]|$)")


def _is_compiled(obj):
    """Whether obj's docstring comes from a compiled module (ops/*.pyx, the generated
    wrappers of ops/derivatives.yaml, _core/*.pyx)."""
    modname = getattr(obj, "__module__", None)
    if modname is None and hasattr(obj, "__objclass__"):
        modname = obj.__objclass__.__module__
    module = sys.modules.get(modname or "")
    return bool(module) and getattr(module, "__file__", "").endswith(_COMPILED_SUFFIXES)


def _plain_prose(app, what, name, obj, options, lines):
    """Docstrings of the compiled modules are read as prose: "|x|" means an absolute value
    and "transpose_" an in-place method, where reST reads a substitution and a link.
    Escape those two marks in their prose lines (not in ``literals`` nor in examples).
    Python docstrings are written as reST and are fixed at their source instead."""
    if not _is_compiled(obj):
        return
    in_example = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">>>"):
            in_example = True
        elif not stripped:
            in_example = False
        if in_example:
            continue
        parts = _BACKTICKS.split(line)
        for j in range(0, len(parts), 2):  # the even parts are outside ``...``
            parts[j] = _TRAILING_UNDERSCORE.sub(r"\\_", parts[j].replace("|", "\\|"))
        lines[i] = "".join(parts)


def _generate(app):
    write_pages(os.path.join(app.srcdir, "api"))


def setup(app):
    app.connect("builder-inited", _generate)
    app.connect("autodoc-process-docstring", _plain_prose)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
