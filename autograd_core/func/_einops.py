"""torch.func.rearrange: einops' rearrange (PyTorch builds it on first-class dims; here it
is a reshape into the pattern's elementary axes, a permute and a reshape into the
output's groups, so the result is a view whenever PyTorch's is one).

The pattern grammar and its error messages are einops' (as functorch.einops has them):
axis names are Python identifiers not starting or ending with "_", "(...)" groups
compose axes one level deep, "..." stands for the dimensions no name covers, "1" or
"()" is an axis of length one (on the left it is summed out, as PyTorch does).
"""
import keyword
import warnings

import autograd_core as _ag

_ELLIPSIS = "\u2026"     # one character, so "..." parses as one identifier


class DimensionBindError(Exception):
    """An axis length in a rearrange pattern does not fit the tensor (PyTorch raises
    functorch.dim.DimensionBindError)."""


class _Expression:
    """One side of a pattern: ``composition`` lists, per dimension, the axis names
    grouped into it (an empty list is an axis of length one) or the ellipsis."""

    def __init__(self, expression):
        self.has_ellipsis = False
        self.ellipsis_parenthesized = None
        self.identifiers = set()
        self.non_unitary_anonymous = False
        self.composition = []
        if "." in expression:
            if "..." not in expression:
                raise ValueError("Expression may contain dots only inside ellipsis (...)")
            if expression.count("...") != 1 or expression.count(".") != 3:
                raise ValueError("Expression may contain dots only inside ellipsis (...); "
                                 "only one ellipsis for tensor ")
            expression = expression.replace("...", _ELLIPSIS)
            self.has_ellipsis = True
        group = None
        name = None
        for char in expression + " ":
            if char in "() ":
                if name is not None:
                    self._add(name, group)
                name = None
                if char == "(":
                    if group is not None:
                        raise ValueError("Axis composition is one-level (brackets inside "
                                         "brackets not allowed)")
                    group = []
                elif char == ")":
                    if group is None:
                        raise ValueError("Brackets are not balanced")
                    self.composition.append(group)
                    group = None
            elif char.isalnum() or char in ("_", _ELLIPSIS):
                name = char if name is None else name + char
            else:
                raise ValueError(f"Unknown character '{char}'")
        if group is not None:
            raise ValueError(f"Imbalanced parentheses in expression: '{expression}'")

    def _add(self, x, group):
        if x in self.identifiers:
            raise ValueError(f"Indexing expression contains duplicate dimension '{x}'")
        if x == _ELLIPSIS:
            self.identifiers.add(x)
            (self.composition if group is None else group).append(x)
            self.ellipsis_parenthesized = group is not None
            return
        if x.isdecimal():
            if int(x) == 1:
                if group is None:
                    self.composition.append([])
                return
            if int(x) < 1:
                raise ValueError(f"Anonymous axis should have positive length, not {int(x)}")
            # a numbered axis never equals another: rearrange rejects them below
            self.non_unitary_anonymous = True
            x = object()
        else:
            reason = _axis_name_problem(x)
            if reason:
                raise ValueError(f"Invalid axis identifier: {x}\n{reason}")
        self.identifiers.add(x)
        if group is None:
            self.composition.append([x])
        else:
            group.append(x)


def _axis_name_problem(name):
    if not name.isidentifier():
        return "not a valid python identifier"
    if name[0] == "_" or name[-1] == "_":
        return "axis name should should not start or end with underscore"
    if keyword.iskeyword(name):
        warnings.warn(f"It is discouraged to use axes names that are keywords: {name}",
                      RuntimeWarning, stacklevel=4)
    if name == "axis":
        warnings.warn("It is discouraged to use 'axis' as an axis name and will raise an "
                      "error in future", FutureWarning, stacklevel=4)
    return ""


def _parse(pattern, axes_lengths):
    try:
        left_str, right_str = pattern.split("->")
    except ValueError:
        raise ValueError("Pattern must contain a single '->' separator") from None
    if _ELLIPSIS in axes_lengths:
        raise ValueError(f"'{_ELLIPSIS}' is not an allowed axis identifier")
    left, right = _Expression(left_str), _Expression(right_str)
    if not left.has_ellipsis and right.has_ellipsis:
        raise ValueError(f"Ellipsis found in right side, but not left side of a pattern "
                         f"{pattern}")
    if left.has_ellipsis and left.ellipsis_parenthesized:
        raise ValueError(f"Ellipsis is parenthesis in the left side is not allowed: {pattern}")
    for length in axes_lengths.values():
        if type(length) is not int:
            raise TypeError(f"rearrange axis lengths must be integers, got: {type(length)}")
    if left.non_unitary_anonymous or right.non_unitary_anonymous:
        raise ValueError("rearrange only supports unnamed axes of size 1")
    difference = left.identifiers ^ right.identifiers
    if difference:
        raise ValueError("Identifiers only on one side of rearrange expression (should be "
                         f"on both): {difference}")
    unmatched = axes_lengths.keys() - left.identifiers
    if unmatched:
        raise ValueError(f"Identifiers not found in rearrange expression: {unmatched}")
    return left, right


def _group_sizes(group, size, axes_lengths, first):
    """The lengths of the axes composed into one dimension of length size; first is
    the index of the group's first elementary axis (PyTorch's messages name the axes
    d0, d1, ... in that order)."""
    known = [axes_lengths.get(a) for a in group]
    unknown = [i for i, k in enumerate(known) if k is None]
    if len(unknown) > 1:
        raise DimensionBindError("cannot infer the sizes of two dimensions at once "
                                 f"d{first + unknown[0]} and d{first + unknown[1]}")
    product = 1
    for k in known:
        if k is not None:
            product *= k
    if unknown:
        if product == 0 or size % product:
            shown = ", ".join("'?'" if k is None else str(k) for k in known)
            raise DimensionBindError("inferred dimension does not evenly fit into larger "
                                     f"dimension: {size} vs ({shown})")
        known[unknown[0]] = size // product
    elif product != size:
        raise DimensionBindError(f"Dimension sizes to do not match ({size} != {product}) "
                                 f"when matching dimension pack ("
                                 f"{', '.join(f'd{first + i}' for i in range(len(group)))}"
                                 f"{',' if len(group) == 1 else ''})")
    return known


def rearrange(tensor, pattern, **axes_lengths):
    """Reorder, split, merge, squeeze and unsqueeze dimensions as an einops pattern says
    (torch.func.rearrange). ``tensor`` may be a sequence of tensors: they are stacked
    first. Names on the left bind the tensor's dimensions, ``(h w)`` composes axes into
    one dimension (a split on the left: give all its lengths but one as keywords),
    ``...`` stands for the remaining dimensions, ``1`` or ``()`` is a length-one axis.

    >>> import autograd_core as torch
    >>> from autograd_core.func import rearrange
    >>> images = torch.zeros(32, 30, 40, 3)
    >>> tuple(rearrange(images, "b h w c -> b (c h w)").shape)
    (32, 3600)
    >>> tuple(rearrange(images, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2, w1=2).shape)
    (32, 15, 20, 12)
    >>> tuple(rearrange(images, "b h w c -> b c h w").shape)
    (32, 3, 30, 40)
    >>> tuple(rearrange(images, "... c -> c ...").shape)
    (3, 32, 30, 40)
    """
    if not isinstance(tensor, _ag.Tensor):
        tensor = _ag.stack(tensor)
    left, right = _parse(pattern, axes_lengths)
    ndim = tensor.dim()
    n_unit = sum(1 for g in left.composition if g == [])
    if left.has_ellipsis:
        n_ellipsis = ndim - (len(left.composition) - 1)
        pattern_ndim = n_unit + len(left.identifiers) - 1
        if pattern_ndim > ndim:
            raise ValueError(f"Number of dimensions in pattern ({pattern_ndim}) must be less "
                             f"than or equal to the number of dimensions in the tensor ({ndim})")
    else:
        n_ellipsis = 0
        if len(left.composition) != ndim:
            raise ValueError(f"Number of dimensions in pattern ({len(left.composition)}) must "
                             f"be equal to the number of dimensions in the tensor ({ndim})")
    if (ndim == 0 and n_unit == 0 and not left.identifiers - {_ELLIPSIS}) or \
            left.composition == right.composition == [_ELLIPSIS]:
        return tensor       # PyTorch's identity rearrangements: the tensor itself
    # the elementary axes, left to right: names, ellipsis dims (named by position),
    # and one unit axis per "1" (summed out at the end, as PyTorch does)
    axes, sizes, units = [], [], []
    shape = tensor.shape
    d = 0
    for group in left.composition:
        if group == _ELLIPSIS:
            for j in range(n_ellipsis):
                axes.append((_ELLIPSIS, j))
                sizes.append(shape[d])
                d += 1
        elif group == []:
            units.append(len(axes))
            axes.append(("1", d))
            sizes.append(shape[d])
            d += 1
        else:
            sizes += _group_sizes(group, shape[d], axes_lengths, len(axes))
            axes += group
            d += 1
    position = {a: i for i, a in enumerate(axes)}
    order, out_shape = [], []
    for group in right.composition:
        if group == _ELLIPSIS:
            for j in range(n_ellipsis):
                order.append(position[(_ELLIPSIS, j)])
                out_shape.append(sizes[order[-1]])
        else:
            length = 1
            for a in group:
                if a == _ELLIPSIS:
                    for j in range(n_ellipsis):
                        order.append(position[(_ELLIPSIS, j)])
                        length *= sizes[order[-1]]
                else:
                    order.append(position[a])
                    length *= sizes[order[-1]]
            out_shape.append(length)
    result = tensor.reshape(sizes) if list(sizes) != list(shape) else tensor
    if units:
        result = result.sum(dim=units)
        kept = [i for i in range(len(axes)) if i not in units]
        order = [kept.index(i) for i in order]
    if order != list(range(len(order))):
        result = result.permute(order)
    if list(result.shape) != out_shape or result is tensor:
        result = result.reshape(out_shape) if result is not tensor else result.view(out_shape)
    return result
