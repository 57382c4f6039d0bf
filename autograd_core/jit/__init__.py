"""``torch.jit`` on compiled mode's capture (Note [Compiled mode] in
autograd_core/_dynamo/__init__.py), and ``torch.jit.script`` as a wrapper.

Where it differs from TorchScript (there is no TorchScript compiler here):
- ``trace`` records one eager run with compiled mode's recorder and returns a function (or
  a module) that replays the recorded ops on new inputs, with no guards: as a TorchScript
  trace, Python control flow and Python values are frozen as they were during the trace
  (with PyTorch's TracerWarning where Python reads a tensor's value), and Python side
  effects (printing, appends) happen only while tracing. A tensor made outside the op table
  (``torch.tensor``, a factory) is a constant of the trace, copied afresh for each call;
  a random factory's values are frozen too (TorchScript would draw again; random *ops* such
  as dropout and ``rand_like`` draw again here as there). A traced module holds the
  original's parameters (the same objects: optimizer updates are seen); its submodules are
  the original ones, not traced copies. No ``.graph``, ``.code``, ``save``.
- ``script`` compiles nothing: it returns a wrapper that runs the Python code (of a
  function, or of a module's forward and methods) with ``is_scripting()`` true. ``ignore``,
  ``unused``, ``export`` mark functions as PyTorch does; an ``unused`` method raises when a
  scripted module calls it, as TorchScript's does. ``script_if_tracing`` calls its function
  (which a trace then records, freezing its control flow, where PyTorch would script it).
"""
import typing

from autograd_core.jit._trace import (  # noqa: F401
    ScriptFunction, ScriptModule, TopLevelTracedModule, TracedModule, TracerWarning,
    is_tracing, trace, trace_module)
from autograd_core.jit._script import (  # noqa: F401
    FunctionModifiers, RecursiveScriptModule, export, ignore, is_scripting, script,
    script_if_tracing, unused)

Final = typing.Final

__all__ = ["Final", "ScriptFunction", "ScriptModule", "TracerWarning", "annotate", "export",
           "ignore", "is_scripting", "is_tracing", "script", "script_if_tracing", "trace",
           "trace_module", "unused", "Error"]


class Error(RuntimeError):
    """``torch.jit.Error``: what a scripted program raises (an ``unused`` method called)."""


def annotate(the_type, the_value):
    """The value (a type hint for TorchScript's compiler; nothing to check here).

    >>> import autograd_core as torch
    >>> torch.jit.annotate(list, [])
    []
    """
    return the_value
