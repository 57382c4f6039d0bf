"""Nested Python containers of leaves (``torch.utils._pytree``): tuples, lists, dicts,
OrderedDicts and namedtuples are nodes; everything else is a leaf. The function
transforms (autograd_core.func) flatten their inputs and outputs with it.

>>> from autograd_core.utils._pytree import tree_flatten, tree_unflatten
>>> leaves, spec = tree_flatten({"a": 1, "b": (2, [3])})
>>> leaves
[1, 2, 3]
>>> tree_unflatten([x * 10 for x in leaves], spec)
{'a': 10, 'b': (20, [30])}
"""
from collections import OrderedDict

__all__ = ["TreeSpec", "LeafSpec", "tree_flatten", "tree_unflatten", "tree_map", "tree_map_",
           "tree_leaves", "tree_structure"]


class TreeSpec:
    """The structure of a pytree: node type, context (dict keys, namedtuple type) and
    children specs."""

    def __init__(self, type, context, children_specs):
        self.type = type
        self.context = context
        self.children_specs = children_specs
        self.num_leaves = sum(c.num_leaves for c in children_specs)

    @property
    def num_children(self):
        return len(self.children_specs)

    def is_leaf(self):
        return False

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.type is other.type
                and self.context == other.context
                and self.children_specs == other.children_specs)

    def __repr__(self, indent=0):
        # PyTorch's layout: the first child inline, each next one on its own line,
        # indented two more per level
        indent += 2
        children = [c.__repr__(indent) for c in self.children_specs]
        inner = children[0] + "," if len(children) > 1 else "".join(children)
        inner += ",".join("\n" + " " * indent + c for c in children[1:])
        return f"TreeSpec({self.type.__name__}, {self.context!r}, [{inner}])"


class LeafSpec(TreeSpec):
    def __init__(self):
        self.type = None
        self.context = None
        self.children_specs = []
        self.num_leaves = 1

    def is_leaf(self):
        return True

    def __eq__(self, other):
        return isinstance(other, LeafSpec)

    def __repr__(self, indent=0):
        return "*"


_LEAF = LeafSpec()


def _node_spec(t, context, children_specs, num_leaves):
    # (a TreeSpec without __init__'s sum over the children: flattening counts as it goes)
    spec = TreeSpec.__new__(TreeSpec)
    spec.type, spec.context, spec.children_specs = t, context, children_specs
    spec.num_leaves = num_leaves
    return spec


def _flatten(x, leaves):
    # (the function transforms flatten their arguments and results on every call: leaves
    # are told apart by type without a call per child)
    t = type(x)
    if t is tuple or t is list:
        children, context = x, None
    elif t is dict or t is OrderedDict:
        context = list(x)
        children = [x[k] for k in context]
    elif isinstance(x, tuple) and hasattr(t, "_fields"):
        children, context = x, t
    else:
        leaves.append(x)
        return _LEAF
    specs = []
    n = 0
    for c in children:
        ct = type(c)
        if ct is not list and ct is not dict and ct is not OrderedDict and \
                not isinstance(c, tuple):
            leaves.append(c)
            specs.append(_LEAF)
            n += 1
        else:
            sub = _flatten(c, leaves)
            specs.append(sub)
            n += sub.num_leaves
    return _node_spec(t, context, specs, n)


def tree_flatten(tree):
    """(leaves, spec) of a pytree.

    >>> from autograd_core.utils._pytree import tree_flatten
    >>> tree_flatten([1, (2, 3)])[0]
    [1, 2, 3]
    """
    leaves = []
    spec = _flatten(tree, leaves)
    return leaves, spec


def tree_unflatten(leaves, treespec):
    """The pytree of treespec's structure holding leaves (in flattening order).

    >>> from autograd_core.utils._pytree import tree_flatten, tree_unflatten
    >>> tree_unflatten([4, 5], tree_flatten((1, 2))[1])
    (4, 5)
    """
    leaves = list(leaves)
    if len(leaves) != treespec.num_leaves:
        raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but "
                         f"the spec refers to a pytree that holds {treespec.num_leaves} items "
                         f"({treespec}).")
    if treespec.is_leaf():
        return leaves[0]
    return _build(treespec, leaves, 0)[0]


def _build(spec, leaves, i):
    """(the node of spec built from leaves[i:], the index after its leaves).
    (a module-level function: a nested recursive closure is a reference cycle that
    kept the leaves, and the arrays they hold, alive until the next garbage collection)"""
    children = []
    for c in spec.children_specs:
        if type(c) is LeafSpec:
            children.append(leaves[i])
            i += 1
        else:
            node, i = _build(c, leaves, i)
            children.append(node)
    t = spec.type
    if t is tuple:
        return tuple(children), i
    if t is list:
        return children, i
    if t is dict or t is OrderedDict:
        return t(zip(spec.context, children)), i
    return spec.context(*children), i          # namedtuple


def tree_leaves(tree):
    """The leaves of a pytree.

    >>> from autograd_core.utils._pytree import tree_leaves
    >>> tree_leaves({"a": [1, 2]})
    [1, 2]
    """
    return tree_flatten(tree)[0]


def tree_structure(tree):
    """The TreeSpec of a pytree."""
    return tree_flatten(tree)[1]


def tree_map(func, tree, *rests):
    """func applied to every leaf (and the matching leaves of rests).

    >>> from autograd_core.utils._pytree import tree_map
    >>> tree_map(lambda x: x + 1, (1, [2]))
    (2, [3])
    """
    leaves, spec = tree_flatten(tree)
    others = [spec_leaves(spec, r) for r in rests]
    return tree_unflatten([func(*xs) for xs in zip(leaves, *others)], spec)


def spec_leaves(spec, tree):
    leaves, other = tree_flatten(tree)
    if other != spec:
        raise ValueError(f"Expected {spec} but got {other}.")
    return leaves


def tree_map_(func, tree, *rests):
    """func called on every leaf for its effect; returns tree."""
    leaves, spec = tree_flatten(tree)
    others = [spec_leaves(spec, r) for r in rests]
    for xs in zip(leaves, *others):
        func(*xs)
    return tree
