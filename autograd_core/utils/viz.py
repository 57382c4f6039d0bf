"""Pictures of the autograd graph: ``make_dot``, with the behaviour of torchviz's (the
tool PyTorch users reach for), for autograd_core's graphs and PyTorch's alike.

The graph is walked from the outputs through ``grad_fn.next_functions``: a gray box per
backward node (its class name; with ``show_attrs`` its saved non-tensor attributes), a
light blue box per leaf reached through an ``AccumulateGrad`` (named from ``params``),
orange boxes for saved tensors (always for a custom Function's ``saved_tensors``; for
the built-in nodes' ``_saved_*`` tensors with ``show_saved``), green for the outputs
and dark green for the base of an output that is a view.

The result is a ``graphviz.Digraph`` when the ``graphviz`` package is installed (render
it with ``.render()`` or show it in a notebook), and otherwise the same graph as DOT
text, which the ``dot`` program turns into a picture (``dot -Tsvg graph.dot``).

>>> import autograd_core as torch
>>> from autograd_core.utils.viz import make_dot
>>> w = torch.ones(2, requires_grad=True)
>>> dot = make_dot((w * 3).sum(), params={"w": w})
>>> "MulBackward0" in str(dot.source if hasattr(dot, "source") else dot)
True
"""
__all__ = ["make_dot"]

SAVED_PREFIX = "_saved_"

_NODE_ATTR = {"style": "filled", "shape": "box", "align": "left", "fontsize": "10",
              "ranksep": "0.1", "height": "0.2", "fontname": "monospace"}


def _is_tensor(x):
    # duck-typed, so that the same walk draws PyTorch's graphs (tests compare the two)
    return hasattr(x, "grad_fn") and hasattr(x, "size") and hasattr(x, "requires_grad")


def _saved_attrs(fn):
    for attr in dir(fn):
        if attr.startswith(SAVED_PREFIX):
            try:
                value = getattr(fn, attr)
            except RuntimeError:       # released after backward: nothing left to show
                continue
            yield attr[len(SAVED_PREFIX):], value


def _node_label(fn, show_attrs, max_attr_chars):
    name = type(fn).__name__
    if not show_attrs:
        return name
    attrs = {}
    for attr, value in _saved_attrs(fn):
        if _is_tensor(value):
            attrs[attr] = "[saved tensor]"
        elif isinstance(value, tuple) and any(_is_tensor(t) for t in value):
            attrs[attr] = "[saved tensors]"
        else:
            attrs[attr] = str(value)
    if not attrs:
        return name
    max_attr_chars = max(max_attr_chars, 3)
    key_width = max(len(k) for k in attrs)
    value_width = min(max(len(v) for v in attrs.values()), max_attr_chars)

    def cut(v):
        return v[:value_width - 3] + "..." if len(v) > value_width else v

    rows = [f"{k:<{key_width}}: {cut(v):>{value_width}}" for k, v in attrs.items()]
    rule = "-" * max(key_width + value_width + 2, len(name))
    return "\n".join([name, rule, *rows])


class _Drawing:
    """The nodes and edges of one picture, in the order they were added."""

    def __init__(self):
        self.nodes = {}                # id -> (label, fillcolor or None)
        self.edges = []                # (tail id, head id, attributes)

    def node(self, key, label, fillcolor=None):
        self.nodes[key] = (label, fillcolor)

    def edge(self, tail, head, **attrs):
        self.edges.append((tail, head, attrs))


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _dot_source(drawing, size):
    lines = ["digraph {", f"\tgraph [size={_quote(size)}]",
             "\tnode [" + " ".join(f"{k}={_quote(v)}" for k, v in _NODE_ATTR.items()) + "]"]
    for key, (label, color) in drawing.nodes.items():
        extra = f" fillcolor={color}" if color else ""
        lines.append(f"\t{key} [label={_quote(label)}{extra}]")
    for tail, head, attrs in drawing.edges:
        extra = "".join(f" {k}={v}" for k, v in attrs.items())
        lines.append(f"\t{tail} -> {head}" + (f" [{extra.strip()}]" if extra else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def make_dot(var, params=None, show_attrs=False, show_saved=False, max_attr_chars=50):
    """Draw the autograd graph that produced ``var`` (a tensor or a tuple of tensors).

    Args:
        var: the output tensor(s).
        params: a dict of name -> tensor naming the leaves (e.g.
            ``dict(model.named_parameters())``).
        show_attrs: list each backward node's saved non-tensor attributes.
        show_saved: draw the tensors the built-in backward nodes saved (a custom
            Function's saved tensors are always drawn).
        max_attr_chars: the width an attribute's value is cut to.

    Returns:
        a ``graphviz.Digraph`` if the graphviz package is installed, else DOT text.

    >>> import autograd_core as torch
    >>> from autograd_core.utils.viz import make_dot
    >>> model = torch.nn.Linear(3, 1)
    >>> y = model(torch.ones(2, 3)).sum()
    >>> text = make_dot(y, params=dict(model.named_parameters()))
    >>> "AddmmBackward0" in str(getattr(text, "source", text))
    True
    """
    drawing = _draw(var, params, show_attrs, show_saved, max_attr_chars)
    # torchviz's sizing: about 0.15 inch per line of the picture, at least 12
    size = max(12, (len(drawing.nodes) + len(drawing.edges)) * 0.15)
    size = f"{size},{size}"
    try:
        from graphviz import Digraph
    except ImportError:
        return _dot_source(drawing, size)
    dot = Digraph(node_attr=dict(_NODE_ATTR), graph_attr={"size": size})
    for k, (label, color) in drawing.nodes.items():
        dot.node(k, label, **({"fillcolor": color} if color else {}))
    for tail, head, attrs in drawing.edges:
        dot.edge(tail, head, **attrs)
    return dot


def _draw(var, params, show_attrs, show_saved, max_attr_chars):
    if params is not None:
        if not all(_is_tensor(p) for p in params.values()):
            raise TypeError("make_dot: the values of params must be tensors")
        names = {id(v): k for k, v in params.items()}
    else:
        names = {}
    drawing = _Drawing()
    seen = set()
    keep = []                          # objects drawn by id stay alive while drawing

    def key(obj):
        keep.append(obj)
        return str(id(obj))

    def size_text(t):
        return "(" + ", ".join("%d" % v for v in t.size()) + ")"

    def tensor_label(t, name=None):
        if not name:
            name = names.get(id(t), "")
        return f"{name}\n {size_text(t)}"

    def add_saved(fn, attr, t):
        seen.add(id(t))
        drawing.edge(key(fn), key(t), dir="none")
        drawing.node(key(t), tensor_label(t, attr), "orange")

    def add_node(fn):
        # iterative, so that a graph deeper than the recursion limit still draws
        stack = [fn]
        while stack:
            fn = stack.pop()
            if id(fn) in seen:
                continue
            seen.add(id(fn))
            if show_saved:
                for attr, value in _saved_attrs(fn):
                    if _is_tensor(value):
                        add_saved(fn, attr, value)
                    elif isinstance(value, tuple):
                        for i, t in enumerate(value):
                            if _is_tensor(t):
                                add_saved(fn, f"{attr}[{i}]", t)
            variable = getattr(fn, "variable", None)
            if variable is not None and _is_tensor(variable):
                seen.add(id(variable))
                drawing.node(key(variable), tensor_label(variable), "lightblue")
                drawing.edge(key(variable), key(fn))
            drawing.node(key(fn), _node_label(fn, show_attrs, max_attr_chars))
            nexts = [u for u, _ in getattr(fn, "next_functions", ()) if u is not None]
            for u in nexts:
                drawing.edge(key(u), key(fn))
            # a custom Function's saved tensors (PyTorch's torchviz draws them always)
            try:
                saved = getattr(fn, "saved_tensors", ())
            except RuntimeError:
                saved = ()
            for t in saved or ():
                seen.add(id(t))
                drawing.edge(key(t), key(fn), dir="none")
                drawing.node(key(t), tensor_label(t), "orange")
            stack.extend(reversed(nexts))

    def add_output(t, color="darkolivegreen1"):
        while t is not None and id(t) not in seen:
            seen.add(id(t))
            drawing.node(key(t), tensor_label(t), color)
            if t.grad_fn is not None:
                add_node(t.grad_fn)
                drawing.edge(key(t.grad_fn), key(t))
            if not t._is_view():
                return
            drawing.edge(key(t._base), key(t), style="dotted")
            t, color = t._base, "darkolivegreen3"

    for v in (var if isinstance(var, tuple) else (var,)):
        add_output(v)
    drawing.keep = keep
    return drawing
