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


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


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


def _children(x):
    """(children, context) of a node, or None for a leaf."""
    t = type(x)
    if t is tuple or t is list:
        return list(x), None
    if t is dict or t is OrderedDict:
        keys = list(x)
        return [x[k] for k in keys], keys
    if _is_namedtuple(x):
        return list(x), t
    return None


def _rebuild(spec, children):
    t = spec.type
    if t is tuple:
        return tuple(children)
    if t is list:
        return list(children)
    if t is dict or t is OrderedDict:
        return t(zip(spec.context, children))
    return spec.context(*children)          # namedtuple


def _flatten(x, leaves):
    node = _children(x)
    if node is None:
        leaves.append(x)
        return _LEAF
    children, context = node
    return TreeSpec(type(x), context, [_flatten(c, leaves) for c in children])


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
    return _build(treespec, iter(leaves))


def _build(spec, it):
    # (a module-level function: a nested recursive closure is a reference cycle that
    # kept the leaves, and the arrays they hold, alive until the next garbage collection)
    if spec.is_leaf():
        return next(it)
    return _rebuild(spec, [_build(c, it) for c in spec.children_specs])


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
