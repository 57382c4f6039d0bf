"""autograd_core.utils.viz.make_dot (issue 30 item 6): the picture of a graph has the
nodes, colours, labels and edges torchviz draws — checked by drawing the same program's
graph under PyTorch and under autograd_core with the same function and comparing the two
pictures up to node identities."""
import builtins
import collections
import shutil
import subprocess

import pytest
import torch as real_torch

import autograd_core as torch
from autograd_core.utils import viz


def _shape(drawing):
    """The picture up to node identities: the multiset of nodes (label, colour) and of
    edges (tail's node, head's node, attributes)."""
    nodes = collections.Counter(drawing.nodes.values())
    edges = collections.Counter(
        (drawing.nodes[t], drawing.nodes[h], tuple(sorted(a.items())))
        for t, h, a in drawing.edges)
    return nodes, edges


def _both(program, **kw):
    shapes = []
    for lib in (real_torch, torch):
        lib.manual_seed(0)
        out, params = program(lib)
        shapes.append(_shape(viz._draw(out, params, kw.get("show_attrs", False),
                                       kw.get("show_saved", False), 50)))
    return shapes


def _mlp(lib):
    model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.Tanh(), lib.nn.Linear(3, 2))
    y = model(lib.randn(5, 4)).pow(2).mean()
    return y, dict(model.named_parameters())


def _views(lib):
    a = lib.randn(3, 4, requires_grad=True)
    b = (a * lib.randn(4)).t()[1:3]
    return (b, b.sum()), {"a": a}


def _scalar_and_open_slice(lib):
    a = lib.randn(3, 4, requires_grad=True)
    return (a * 2)[1:].mean(), {"a": a}


def _square_function(lib):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    return Square


def _custom(lib):
    x = lib.randn(3, requires_grad=True)
    return _square_function(lib).apply(x).sum(), {"x": x}


@pytest.mark.parametrize("program,show_saved", [
    (_mlp, False), (_mlp, True), (_views, False), (_views, True), (_custom, False),
    (_custom, True), (_scalar_and_open_slice, False)])
def test_same_picture_as_for_pytorch(program, show_saved):
    theirs, ours = _both(program, show_saved=show_saved)
    assert ours == theirs


@pytest.mark.parametrize("program", [_views, _custom])
def test_same_attributes_as_for_pytorch(program):
    theirs, ours = _both(program, show_attrs=True, show_saved=True)
    assert ours == theirs


@pytest.mark.xfail(strict=True, reason=(
    "known differences in the nodes' _saved_* attributes that show_attrs lists: PyTorch "
    "shows a Python number saved in a tensor's place as a 0-d tensor (a * 2's "
    "_saved_other), an open slice's bounds as given (end 2**63-1, negative bounds as "
    "unsigned), and metadata this library's nodes do not save (addmm's "
    "_saved_mat1_sym_strides, mean's _saved_self_sym_numel)"))
@pytest.mark.parametrize("program", [_mlp, _scalar_and_open_slice])
def test_same_attributes_as_for_pytorch_known_differences(program):
    theirs, ours = _both(program, show_attrs=True, show_saved=True)
    assert ours == theirs


def test_the_mlp_picture_names_the_parameters_and_colours_the_leaves():
    y, params = _mlp(torch)
    d = viz._draw(y, params, False, False, 50)
    labels = {label: color for label, color in d.nodes.values()}
    assert labels["0.weight\n (3, 4)"] == "lightblue"
    assert labels["2.bias\n (2)"] == "lightblue"
    assert labels["\n ()"] == "darkolivegreen1"
    assert ("AddmmBackward0", None) in d.nodes.values()


def test_returns_a_digraph_with_graphviz_and_dot_text_without(monkeypatch):
    graphviz = pytest.importorskip("graphviz")
    y, params = _mlp(torch)
    dot = viz.make_dot(y, params=params, show_attrs=True)
    assert isinstance(dot, graphviz.Digraph)
    assert "AddmmBackward0" in dot.source and "lightblue" in dot.source

    real_import = builtins.__import__

    def no_graphviz(name, *args, **kwargs):
        if name == "graphviz":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_graphviz)
    text = viz.make_dot(y, params=params)
    assert isinstance(text, str) and text.startswith("digraph {")
    assert '"0.weight\\n (3, 4)"' in text and "fillcolor=lightblue" in text


def test_params_must_be_tensors():
    y, _ = _mlp(torch)
    with pytest.raises(TypeError):
        viz.make_dot(y, params={"w": 3})


@pytest.mark.skipif(shutil.which("dot") is None, reason="the dot program is not installed")
def test_dot_renders_the_text_to_svg(tmp_path, monkeypatch):
    y, params = _mlp(torch)
    text = viz._dot_source(viz._draw(y, params, True, True, 50), "12,12")
    r = subprocess.run(["dot", "-Tsvg"], input=text, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert "<svg" in r.stdout and "AddmmBackward0" in r.stdout


def test_a_deep_graph_draws_without_recursion():
    x = torch.ones(1, requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0
    d = viz._draw(y, None, False, False, 50)
    assert len(d.nodes) == 3000 + 3  # MulBackward0s, AccumulateGrad, the leaf, the output
