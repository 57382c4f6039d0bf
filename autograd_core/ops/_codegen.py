"""Generate the op layer's repetitive code from the derivative table (derivatives.yaml).

Run at build time by setup.py (never imported by the package at run time). For the
table's format see the comment at the top of derivatives.yaml. From it this writes:

- autograd_core/_core/_op_table.pxi       the OpTable struct (Note [Op table]): one C
                                          function pointer per op, and its check
- autograd_core/ops/_gen_<family>.pxi     per family: the node classes (saved state,
                                          derivative formulas translated to op calls),
                                          the record_<Node>() wiring functions, the
                                          templated forwards, the Python wrappers
                                          (namespace functions and Tensor methods), and
                                          the registration of the family's ops in OPS

A file is rewritten only when its content changes, so unchanged modules are not
rebuilt.
"""
from __future__ import annotations

import ast
import dataclasses
import os
import re
import sys

import yaml

FAMILIES = ("pointwise", "view", "reduce", "index", "linalg", "nn", "spectral")

# Schema types -> the C type an op's implementation takes.
_C_TYPES = {"Tensor": "Tensor", "Tensor?": "Tensor", "Tensor[]": "list", "bool": "bint",
            "ScalarType": "dtype"}
_TENSOR_TYPES = ("Tensor", "Tensor?")
_OPERAND_TYPES = ("TensorOrScalar",)
_KNOWN_TYPES = {
    "Tensor", "Tensor?", "Tensor[]", "TensorOrScalar", "Scalar", "Scalar?", "int", "int?",
    "int[]", "int[]?", "int[*]", "int[*]?", "bool", "bool?", "float", "float?", "str", "str?",
    "ScalarType", "ScalarType?", "Generator?", "Any", "MemoryFormat?",
}
_ENTRY_KEYS = {"func", "forward", "variants", "python", "python_method", "aliases", "inplace",
               "inplace_expanded", "complex_autograd",
               "node", "nodes", "broadcast", "doc", "out", "out_exact", "out_dtype",
               "out_grad", "out_needs", "output_differentiability", "result", "fw_fallback",
               "always_position", "parser_name"}
# Note [out= rules] (ops/_prelude.pxi): the out_dtype / out_grad keys' values
_OUT_DTYPE_RULES = {"compute": None, "join": "OUT_JOIN"}
_OUT_GRAD_RULES = {"copy": "OUT_GRAD_COPY", "not_implemented": "OUT_GRAD_NOT_IMPLEMENTED"}
_VARIANTS = {"function", "method", "functional", "linalg", "special", "internal"}


class TableError(Exception):
    pass


# ---------------------------------------------------------------- schema

@dataclasses.dataclass
class Param:
    type: str
    name: str
    default: str | None
    kwarg_only: bool

    @property
    def ctype(self):
        return _C_TYPES.get(self.type, "object")

    @property
    def is_tensor(self):
        return self.type in _TENSOR_TYPES

    @property
    def has_edge(self):
        """Whether the param is a forward input with a graph edge."""
        return self.type in _TENSOR_TYPES or self.type in _OPERAND_TYPES


@dataclasses.dataclass
class Schema:
    name: str
    params: list
    returns: list            # [(type, name or None)]

    @property
    def ret_ctype(self):
        if len(self.returns) == 1 and self.returns[0][0] == "Tensor":
            return "Tensor"
        if len(self.returns) == 0:
            return "object"
        return "tuple"

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        return None

    def c_signature(self, fname, with_names=True):
        args = ", ".join(f"{p.ctype} {p.name}" if with_names else p.ctype for p in self.params)
        return f"{self.ret_ctype} {fname}({args})"


_SCHEMA = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\((.*)\)\s*->\s*(.+?)\s*$")


def parse_schema(text):
    m = _SCHEMA.match(text)
    if not m:
        raise TableError(f"bad func: {text!r}")
    name, params_s, ret_s = m.groups()
    params = []
    kwarg_only = False
    for part in _split_top(params_s):
        part = part.strip()
        if not part:
            continue
        if part == "*":
            kwarg_only = True
            continue
        default = None
        if "=" in part:
            part, default = part.split("=", 1)
            default = default.strip()
        typ, pname = part.strip().rsplit(" ", 1)
        typ = typ.strip()
        if typ not in _KNOWN_TYPES:
            raise TableError(f"{name}: unknown type {typ!r}")
        params.append(Param(typ, pname.strip(), default, kwarg_only))
    ret_s = ret_s.strip()
    if ret_s == "()":
        returns = []
    elif ret_s.startswith("("):
        returns = []
        for r in _split_top(ret_s[1:-1]):
            bits = r.strip().split(" ")
            returns.append((bits[0], bits[1] if len(bits) > 1 else None))
    else:
        bits = ret_s.split(" ")
        returns = [(bits[0], bits[1] if len(bits) > 1 else None)]
    return Schema(name, params, returns)


def _split_top(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def default_literal(d):
    """A schema default as a Cython literal."""
    if d is None:
        return None
    if d == "[]":
        return "()"
    if d.startswith("[") and d.endswith("]"):
        return "(" + d[1:-1] + ",)"
    return d


# ---------------------------------------------------------------- table

@dataclasses.dataclass
class Node:
    name: str
    formulas: dict           # input name -> formula string; None: written by hand
    op: "Op" = None
    fw_formula: str | None = None  # the forward derivative (`result:`), None: none
                                   # (Note [Forward AD] in _core/_fw.pxi)

    @property
    def manual(self):
        return self.formulas is None


@dataclasses.dataclass
class Op:
    family: str
    schema: Schema
    forward: str             # "manual" or a template call
    variants: list
    python: str              # "generated" or "manual"
    python_method: str       # "same" (the function serves as method) or "manual"
    aliases: list
    inplace: str | None
    nodes: list
    broadcast: bool
    doc: str | None
    out: str | None = None   # takes PyTorch's out= (Note [out= arguments]): the name
                             # PyTorch's autograd error quotes
    out_exact: bool = False  # out must have the result's dtype (no cast)
    out_dtype: str | None = None   # Note [out= rules]: compute, join
    out_grad: str | None = None    # Note [out= rules]: copy, not_implemented
    out_needs: str | None = None   # the argument PyTorch's out= overload has no default for
    output_differentiability: list | None = None  # per return; None: all
    inplace_expanded: str | None = None  # Note [Fills into expanded tensors]: the example
                                         # PyTorch's warning gives
    complex_autograd: str | None = None  # "inplace_only": Note [Complex autograd of the
                                         # in-place variant only]
    fw_fallback: bool = False  # no derivative in PyTorch: its wrappers refuse a dual
                               # argument first (Note [Forward AD refusals before the
                               # kernel] in _core/_fw.pxi)
    always_position: dict = dataclasses.field(default_factory=dict)
                               # Note [Keyword or positional]: wrapper kind ("function",
                               # "method") -> the arguments whose messages name their
                               # position even when given by keyword
    parser_name: str | None = None  # the function PyTorch's argument-type messages quote
                                    # when not the op's own (torch.norm is Python code
                                    # that hands its arguments to linalg_vector_norm)

    def differentiable_returns(self):
        """The indices of the returns that are the node's outputs, in order: PyTorch's
        node has one output slot per differentiable return only (max(dim)'s indices
        get none, so its hooks see a 1-tuple)."""
        n = len(self.schema.returns) or 1
        flags = self.output_differentiability or [True] * n
        return [i for i in range(n) if flags[i]]

    @property
    def name(self):
        return self.schema.name

    @property
    def cname(self):
        return "op_" + self.name

    def inplace_names(self):
        """The table names of this row that write values into self: its in-place variant
        and, for an X_ row, the row itself. As PyTorch's (torchgen's BaseOperatorName), a
        name ending in one underscore is an in-place op; the in-place templates and the
        in-place variant's name are checked against it (_parse_entry). The view family's
        in-place ops (squeeze_, t_, set_, ...) change self's metadata instead: none."""
        if self.family == "view":
            return []
        return [n for n in [self.name] + ([self.inplace] if self.inplace else [])
                if _is_inplace_name(n)]

    @property
    def forward_cname(self):
        """The function that computes the op and records its node: op_<name>, or with
        complex_autograd: inplace_only <name>_forward, which both op_<name> and the
        in-place variant call (Note [Complex autograd of the in-place variant only])."""
        return self.name + "_forward" if self.complex_autograd else self.cname

    def forward_signature(self):
        """forward_cname's C signature: a complex_autograd row's forward also takes
        `bint inplace` (Note [Complex autograd of the in-place variant only])."""
        sig = self.schema.c_signature(self.forward_cname)
        return sig[:-1] + ", bint inplace)" if self.complex_autograd else sig


def _is_inplace_name(name):
    return name.endswith("_") and not name.endswith("__")


def load_table(path):
    with open(path) as f:
        raw = yaml.safe_load(f)
    ops = []
    for family, entries in raw.items():
        if family not in FAMILIES:
            raise TableError(f"unknown family {family!r}")
        for e in entries or ():
            ops.append(_parse_entry(family, e))
    names = {}
    for op in ops:
        for n in [op.name] + ([op.inplace] if op.inplace else []):
            if n in names:
                raise TableError(f"op {n} is defined twice")
            names[n] = op
    node_names = {}
    for op in ops:
        for node in op.nodes:
            if node.name in node_names:
                raise TableError(f"node {node.name} is defined by {node_names[node.name]} and {op.name}")
            node_names[node.name] = op.name
    return ops


def _parse_entry(family, e):
    unknown = set(e) - _ENTRY_KEYS
    schema = parse_schema(e["func"])
    pnames = {p.name for p in schema.params}
    bad = unknown - pnames
    if bad:
        raise TableError(f"{schema.name}: unknown keys {sorted(bad)}")
    variants = e.get("variants")
    if variants is None:
        first = schema.params[0] if schema.params else None
        variants = ["function", "method"] if first is not None and first.name == "self" \
            and first.is_tensor else ["function"]
    elif isinstance(variants, str):
        variants = [v.strip() for v in variants.split(",")]
    for v in variants:
        if v not in _VARIANTS:
            raise TableError(f"{schema.name}: unknown variant {v!r}")
    nodes = []
    if "node" in e:
        nodes.append(Node(e["node"], {k: str(v) for k, v in e.items() if k in pnames},
                          fw_formula=None if e.get("result") is None else str(e["result"])))
    elif "result" in e and not e.get("nodes"):
        raise TableError(f"{schema.name}: a forward derivative without a node")
    elif unknown & pnames:
        raise TableError(f"{schema.name}: formulas without a node name")
    for name, formulas in (e.get("nodes") or {}).items():
        if formulas == "manual":
            nodes.append(Node(name, None))
            continue
        fw = formulas.get("result", e.get("result"))
        for k in formulas:
            if k not in pnames and k != "result":
                raise TableError(f"{schema.name}: formula for unknown input {k!r} in {name}")
        nodes.append(Node(name, {k: str(v) for k, v in formulas.items() if k != "result"},
                          fw_formula=None if fw is None else str(fw)))
    inplace = e.get("inplace")
    if inplace is True:
        inplace = schema.name + "_"
    aliases = e.get("aliases") or []
    if isinstance(aliases, str):
        aliases = [a.strip() for a in aliases.split(",")]
    op = Op(family, schema, str(e.get("forward", "manual")), variants,
            e.get("python", "generated"), e.get("python_method", "same"), aliases,
            inplace or None, nodes,
            bool(e.get("broadcast", False)), e.get("doc"),
            (schema.name if e.get("out") is True else e.get("out")) or None,
            bool(e.get("out_exact", False)), e.get("out_dtype"), e.get("out_grad"),
            e.get("out_needs"), e.get("output_differentiability"), e.get("inplace_expanded"),
            e.get("complex_autograd"), bool(e.get("fw_fallback", False)),
            _always_position(schema, e.get("always_position")), e.get("parser_name"))
    if op.inplace and not _is_inplace_name(op.inplace):
        raise TableError(f"{schema.name}: the in-place variant's name must end in one "
                         "underscore")
    if (op.forward.split("(")[0] in ("inplace", "inplace_of", "random_sampler")
            and not _is_inplace_name(schema.name)):
        raise TableError(f"{schema.name}: an in-place forward on a row whose name does not "
                         "end in one underscore")
    if op.inplace_expanded is not None and not op.inplace:
        raise TableError(f"{schema.name}: inplace_expanded without inplace")
    if op.complex_autograd is not None and (op.complex_autograd != "inplace_only"
                                            or not op.inplace or not op.nodes):
        raise TableError(f"{schema.name}: complex_autograd: inplace_only needs inplace and "
                         "a node")
    if (op.out_exact or op.out_dtype or op.out_grad) and not op.out:
        raise TableError(f"{schema.name}: out_exact / out_dtype / out_grad without out")
    if op.out_dtype is not None and (op.out_dtype not in _OUT_DTYPE_RULES or op.out_exact):
        raise TableError(f"{schema.name}: out_dtype is one of {sorted(_OUT_DTYPE_RULES)} "
                         "(and excludes out_exact)")
    if op.out_dtype == "compute" and not (
            any(p.name == "dtype" and p.type == "ScalarType?" for p in schema.params)
            and schema.params[0].name == "self"):
        raise TableError(f"{schema.name}: out_dtype: compute needs Tensor self and a "
                         "ScalarType? dtype")
    if op.out_grad is not None and op.out_grad not in _OUT_GRAD_RULES:
        raise TableError(f"{schema.name}: out_grad is one of {sorted(_OUT_GRAD_RULES)}")
    if op.out_needs is not None and (not op.out or not any(
            p.name == op.out_needs and p.default == "None" and not p.kwarg_only
            for p in schema.params)):
        raise TableError(f"{schema.name}: out_needs names a positional argument that "
                         "defaults to None")
    od = op.output_differentiability
    if od is not None and (len(od) != len(schema.returns) or not any(od)
                           or not all(isinstance(v, bool) for v in od)):
        raise TableError(f"{schema.name}: output_differentiability needs one bool per "
                         "return, one of them True")
    if op.out:
        # (a python: manual wrapper calls out_check / out_write itself)
        if not any(v in ("function", "linalg", "special") for v in variants):
            raise TableError(f"{schema.name}: out= needs a torch.*, linalg.* or special.* "
                             "function")
        if not schema.returns or (any(t != "Tensor" for t, _ in schema.returns)
                                  and [t for t, _ in schema.returns] != ["Tensor[]"]):
            raise TableError(f"{schema.name}: out= needs Tensor returns")
        if any(p.name == "out" for p in schema.params):
            raise TableError(f"{schema.name}: out: true and a parameter named out")
    for n in nodes:
        n.op = op
    return op


# ---------------------------------------------------------------- formulas

class Formula:
    """A derivative formula (Python expression syntax) translated into Cython calls
    through the op table: ``grad * result`` -> ``OPS.mul(grad, result)``."""

    def __init__(self, text, node, ops_by_name):
        self.text = text
        self.node = node
        self.ops = ops_by_name
        self.schema = node.op.schema
        try:
            self.tree = ast.parse(text.strip(), mode="eval").body
        except SyntaxError as e:
            raise TableError(f"{node.name}: cannot parse formula {text!r}: {e}") from None
        self.uses = set()          # names of saved things the formula reads
        self.meta_uses = set()     # (tensor name, attr) for .shape / .dtype / .ndim / .strides
        self.code = self.expr(self.tree)

    # -- types: "T" Tensor, "N" number, "O" Tensor or number, "X" other
    def kind_of_name(self, name):
        if name in ("grad",):
            return "T"
        if name in ("grads",):
            return "X"
        p = self.schema.param(name)
        if p is not None:
            if p.is_tensor:
                return "T"
            if p.type in _OPERAND_TYPES:
                return "O"
            if p.type in ("Scalar", "Scalar?", "int", "int?", "float", "float?", "bool"):
                return "N"
            return "X"
        if self.is_output(name):
            return "T"
        return "X"

    def is_output(self, name):
        outs = self.output_names()
        return name in outs

    def output_names(self):
        rets = self.schema.returns
        if len(rets) == 1:
            return {"result": 0, **({rets[0][1]: 0} if rets[0][1] else {})}
        names = {}
        for i, (_, n) in enumerate(rets):
            names[f"result{i}"] = i
            if n:
                names[n] = i
        return names

    def expr(self, n):
        code, _ = self.typed(n)
        return code

    def typed(self, n):
        if isinstance(n, ast.Constant):
            if isinstance(n.value, (int, float)) and not isinstance(n.value, bool):
                return repr(n.value), "N"
            return repr(n.value), "X"
        if isinstance(n, ast.Name):
            if n.id in ("True", "False", "None"):
                return n.id, "X"
            if n.id not in ("grad", "grads"):
                self.uses.add(n.id)
            return n.id, self.kind_of_name(n.id)
        if isinstance(n, ast.Attribute):
            if isinstance(n.value, ast.Name) and n.attr in ("shape", "dtype", "ndim", "strides") \
                    and self.kind_of_name(n.value.id) in ("T", "O") \
                    and n.value.id not in ("grad",) and not self.is_output(n.value.id):
                self.meta_uses.add((n.value.id, n.attr))
                return f"{n.value.id}_{n.attr}", "X"
            base, bkind = self.typed(n.value)
            if n.attr in ("mT", "mH"):
                # the matrix transpose; mH conjugates too (cj: nothing for a real tensor)
                t = f"OPS.transpose({base}, -2, -1)"
                return (t if n.attr == "mT" else f"cj({t})"), "T"
            if n.attr in ("shape",):
                return f"shape_of({base}._data)", "X"
            if n.attr == "dtype":
                return f"dtype_of({base}._data)", "X"
            if n.attr == "ndim":
                return f"cnp.PyArray_NDIM({base}._data)", "N"
            raise TableError(f"{self.node.name}: unsupported attribute .{n.attr} in {self.text!r}")
        if isinstance(n, ast.Subscript):
            base, kind = self.typed(n.value)
            idx, _ = self.typed(n.slice)
            if isinstance(n.value, ast.Name) and n.value.id == "grads":
                # grads[k] names return k; the node's slots are the differentiable returns
                slots = self.node.op.differentiable_returns()
                if not (isinstance(n.slice, ast.Constant) and n.slice.value in slots):
                    raise TableError(f"{self.node.name}: grads[{idx}] is not a "
                                     f"differentiable return in {self.text!r}")
                return f"grads[{slots.index(n.slice.value)}]", "T"
            return f"{base}[{idx}]", "N" if kind == "X" else "X"
        if isinstance(n, ast.Tuple):
            return "(" + "".join(self.expr(e) + ", " for e in n.elts) + ")", "X"
        if isinstance(n, ast.List):
            return "[" + ", ".join(self.expr(e) for e in n.elts) + "]", "X"
        if isinstance(n, ast.UnaryOp):
            v, k = self.typed(n.operand)
            if isinstance(n.op, ast.USub):
                if k == "N":
                    return f"(-{v})", "N"
                if k == "T":
                    return f"OPS.neg({v})", "T"
                return f"any_neg({v})", "O"
            if isinstance(n.op, ast.Not):
                return f"(not {v})", "X"
            if isinstance(n.op, ast.Invert):
                return f"OPS.bitwise_not({v})", "T"
            raise TableError(f"{self.node.name}: unsupported operator in {self.text!r}")
        if isinstance(n, ast.BinOp):
            return self.binop(n)
        if isinstance(n, ast.Compare):
            if len(n.ops) != 1:
                raise TableError(f"{self.node.name}: chained comparison in {self.text!r}")
            a, ka = self.typed(n.left)
            b, kb = self.typed(n.comparators[0])
            op = {ast.Gt: "gt", ast.Lt: "lt", ast.GtE: "ge", ast.LtE: "le", ast.Eq: "eq",
                  ast.NotEq: "ne", ast.Is: None, ast.IsNot: None}[type(n.ops[0])]
            if ka == "T" and op is not None:
                return f"OPS.{op}({a}, {b})", "T"
            sym = {ast.Gt: ">", ast.Lt: "<", ast.GtE: ">=", ast.LtE: "<=", ast.Eq: "==",
                   ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not"}[type(n.ops[0])]
            return f"({a} {sym} {b})", "X"
        if isinstance(n, ast.BoolOp):
            sym = " and " if isinstance(n.op, ast.And) else " or "
            return "(" + sym.join(self.expr(v) for v in n.values) + ")", "X"
        if isinstance(n, ast.IfExp):
            t, kt = self.typed(n.body)
            c = self.expr(n.test)
            f, kf = self.typed(n.orelse)
            return f"({t} if {c} else {f})", kt if kt == kf else "O"
        if isinstance(n, ast.Call):
            return self.call(n)
        raise TableError(f"{self.node.name}: unsupported syntax in {self.text!r}")

    _BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow"}

    def binop(self, n):
        a, ka = self.typed(n.left)
        b, kb = self.typed(n.right)
        kind = self._BINOPS.get(type(n.op))
        if kind is None:
            raise TableError(f"{self.node.name}: unsupported operator in {self.text!r}")
        if ka == "N" and kb == "N":
            sym = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**"}[kind]
            return f"({a} {sym} {b})", "N"
        if ka == "T":
            return {
                "add": f"OPS.add({a}, {b}, 1)", "sub": f"OPS.sub({a}, {b}, 1)",
                "mul": f"OPS.mul({a}, {b})", "div": f"OPS.div({a}, {b}, None)",
                "pow": f"OPS.pow({a}, {b})"}[kind], "T"
        if kb == "T":
            return {
                "add": f"OPS.add({b}, {a}, 1)", "sub": f"OPS.rsub({b}, {a}, 1)",
                "mul": f"OPS.mul({b}, {a})", "div": f"OPS.mul(OPS.reciprocal({b}), {a})",
                "pow": f"OPS.pow({a}, {b})"}[kind], "T"
        # operands whose kind is only known at run time
        return f"any_{kind}({a}, {b})", "O"

    def call(self, n):
        if isinstance(n.func, ast.Attribute):
            recv = n.func.value
            fname = n.func.attr
            args = [recv] + list(n.args)
        elif isinstance(n.func, ast.Name):
            fname = n.func.id
            args = list(n.args)
        else:
            raise TableError(f"{self.node.name}: unsupported call in {self.text!r}")
        if fname == "conj" and len(args) == 1 and not n.keywords:
            # Note [Complex autograd]: conj in a formula is cj (tensor.pxd): x itself for
            # a real tensor or number, so a real formula pays two C checks, no op
            code, kind = self.typed(args[0])
            return f"cj({code})", kind
        op = self.ops.get(fname)
        if op is None:
            # a hand-written helper (a *_backward function in the family module)
            parts = [self.expr(a) for a in args]
            parts += [f"{k.arg}={self.expr(k.value)}" for k in n.keywords]
            return f"{fname}({', '.join(parts)})", "T"
        params = op.schema.params
        if op.inplace == fname:
            fname = op.inplace
        values = {}
        for p, a in zip(params, args):
            values[p.name] = self.expr(a)
        if len(args) > len(params):
            raise TableError(f"{self.node.name}: too many arguments to {fname} in {self.text!r}")
        for k in n.keywords:
            if op.schema.param(k.arg) is None:
                raise TableError(f"{self.node.name}: {fname} has no argument {k.arg!r}")
            values[k.arg] = self.expr(k.value)
        parts = []
        for p in params:
            if p.name in values:
                parts.append(values[p.name])
            elif p.default is not None:
                parts.append(default_literal(p.default))
            else:
                raise TableError(f"{self.node.name}: {fname} needs argument {p.name!r} "
                                 f"in {self.text!r}")
        kind = "T" if op.schema.ret_ctype == "Tensor" else "X"
        return f"OPS.{fname}({', '.join(parts)})", kind


# ---------------------------------------------------------------- node classes

def _field(name):
    return "saved_" + name


def _saved_when_needed(op, diff_params, name, users):
    """Note [What a node saves]: whether tensor argument `name`, read by the formulas
    of the inputs `users`, is saved only when that one input has an edge."""
    return (len(users) == 1 and len(diff_params) > 1 and "backward" not in op.name
            and all(p.type != "Tensor[]" for p in diff_params)
            and op.schema.param(name).type in ("Tensor", "TensorOrScalar"))


def gen_node(node, ops_by_name):
    """The Cython class of a node, and its record_<Node>() wiring function."""
    op = node.op
    schema = op.schema
    edge_params = [p for p in schema.params if p.has_edge]
    diff_params = [p for p in edge_params if node.formulas.get(p.name) != "non_differentiable"]
    for name in node.formulas:
        p = schema.param(name)
        if not p.has_edge:
            raise TableError(f"{node.name}: a formula for {name}, which is not a Tensor input")
    formulas = {}
    for p in diff_params:
        text = node.formulas.get(p.name)
        if text is None:
            text = f'not_implemented("{op.name}")'
        formulas[p.name] = Formula(text, node, ops_by_name)
    outputs = formulas[diff_params[0].name].output_names() if diff_params else {"result": 0}

    # what each input's formula reads: tensors saved when that input needs a gradient
    saved_tensors = {}       # name -> set of diff-param indices whose formulas use it
    saved_values = set()
    saved_meta = set()
    saved_outputs = {}       # output index -> field
    for i, p in enumerate(diff_params):
        f = formulas[p.name]
        for u in sorted(f.uses):
            if u in outputs:
                saved_outputs[outputs[u]] = u
                continue
            q = schema.param(u)
            if q is None:
                raise TableError(f"{node.name}: formula for {p.name} uses unknown name {u!r}")
            if q.has_edge:
                saved_tensors.setdefault(u, set()).add(i)
            else:
                saved_values.add(u)
        saved_meta |= f.meta_uses

    # an index key (Any) holds tensors in PyTorch (SavedVariables): it is released
    # with them, and reading it afterwards raises
    released_values = {u for u in saved_values if schema.param(u).type == "Any"}

    lines = []
    w = lines.append
    slots = op.differentiable_returns()
    n_out = len(slots)
    w("@cython.final")
    w(f"cdef class {node.name}(Node):")
    doc = f"Backward of {op.name}: " + "; ".join(
        f"{k}: {v}" for k, v in node.formulas.items())
    w(f'    """{_escape_doc(doc)}"""')
    for u in sorted(saved_tensors):
        w(f"    cdef object {_field(u)}")
    # Note [Saved outputs inline] (_core/_node.pxi): the node's own outputs in two
    # fields each (the saved version is 0); an output that is not the node's (no
    # history) as a SavedTensor
    inline_nr = {u: slots.index(idx) for idx, u in saved_outputs.items() if idx in slots}

    def unpack_out(obj, u):
        if u in inline_nr:
            f = f"{obj}.{_field(u)}"
            # the derivative's own unpacking (obj node) vs the _saved_<name> property
            return f"unpack_output({obj}, {f}, {f}_vc, {inline_nr[u]}, {obj == 'node'})"
        return f"unpack_saved({obj}.{_field(u)}, {obj})"

    for u in sorted(set(saved_outputs.values())):
        if u in inline_nr:
            w(f"    cdef object {_field(u)}")
            w(f"    cdef VersionCounter {_field(u)}_vc  # None until needed (Note [Counters made by the node])")
        else:
            w(f"    cdef SavedTensor {_field(u)}")
    for u in sorted(saved_values):
        w(f"    cdef object {_field(u)}")
    for t, attr in sorted(saved_meta):
        w(f"    cdef object saved_{t}_{attr}")
    w("")
    if n_out > 1:
        w("    cdef int num_outputs(self) noexcept:")
        w(f"        return {n_out}")
        w("")
    # Note [Single-gradient entry] (_core/engine.pyx): a node with one output has its
    # derivative in apply1, which takes the gradient itself; apply unpacks the tuple
    # into it (the tuple and the argument: the two references apply1's formulas count)
    if n_out > 1:
        w(f"    cdef tuple apply({node.name} node, tuple grads):")
        w("        cdef object grad = grads[0]")
        held = "list(grads)"
    else:
        w(f"    cdef tuple apply({node.name} node, tuple grads):")
        w("        return node.apply1(grads[0])")
        w("")
        w(f"    cdef tuple apply1({node.name} node, object grad):")
        held = "grad"
    # Note [Stealing the gradient]: a formula may write into the gradient it is given
    # when only the engine and this apply hold it; a read after another one (or of
    # another output's gradient) must see it unchanged, so apply holds one more
    # reference whenever grad is read more than once
    reads = {i: len(re.findall(r"\bgrad\b", formulas[p.name].code))
             for i, p in enumerate(diff_params)}
    grad_readers = [i for i, c in reads.items() if c]
    if n_out > 1 or any(c > 1 for c in reads.values()):
        w(f"        cdef object _held = {held}")
    elif len(grad_readers) > 1:
        w("        cdef object _held = None")
        w("        if (" + " + ".join(f"needs_input_grad(node, {i})" for i in grad_readers)
          + ") > 1:")
        w(f"            _held = {held}")
    # PyTorch unpacks every saved variable before any formula runs, in the order of
    # their names (its generated nodes sort them): one modified in place since (or
    # freed) raises even when only inputs not reading it need a gradient now, and of
    # several modified ones the first in that order is the one the error names. A saved
    # tensor a needed formula reads is unpacked once, here, into _s_<field>.
    readers = {}
    for i, p in enumerate(diff_params):
        for u in formulas[p.name].uses:
            if u in outputs:
                readers.setdefault((saved_outputs[outputs[u]], True), set()).add(i)
            elif schema.param(u).has_edge or u in released_values:
                readers.setdefault((u, False), set()).add(i)
    for (u, is_out), idxs in sorted(readers.items()):
        # (read by every formula: still unpacked here for a node none of whose inputs
        # has an edge, e.g. an op on a no_grad view of a leaf: PyTorch runs it and checks)
        cond = " or ".join(f"needs_input_grad(node, {i})" for i in sorted(idxs))
        if is_out:
            use = unpack_out("node", u)
        elif u in released_values:
            use = f"unpack_key(node, node.{_field(u)})"
        else:
            use = f"unpack_operand(node, node.{_field(u)})"
        check = unpack_out("node", u) if is_out else f"unpack_operand(node, node.{_field(u)})"
        w(f"        _s_{_field(u)} = None")
        w(f"        if {cond}:")
        w(f"            _s_{_field(u)} = {use}")
        w(f"        elif node.{_field(u)} is not None:")
        w(f"            {check}")
    # the formulas run in the order of their inputs' names, as PyTorch's generated nodes
    # do: under create_graph the nodes they record get their sequence numbers in that
    # order, which fixes the order the next backward runs them (and so which modified
    # saved tensor it meets first)
    results = [f"_grad_input{i}" for i in range(len(diff_params))]
    for i, p in sorted(enumerate(diff_params), key=lambda ip: ip[1].name):
        f = formulas[p.name]
        var = f"_grad_input{i}"
        w(f"        {var} = None")
        w(f"        if needs_input_grad(node, {i}):")
        for u in sorted(f.uses):
            if u in outputs:
                w(f"            {u} = _s_{_field(saved_outputs[outputs[u]])}")
            elif u in released_values or schema.param(u).has_edge:
                w(f"            {u} = _s_{_field(u)}")
            else:
                w(f"            {u} = node.{_field(u)}")
        for t, attr in sorted(f.meta_uses):
            w(f"            {t}_{attr} = node.saved_{t}_{attr}")
        w(f"            {var} = {f.code}")
    w("        return (" + "".join(r + ", " for r in results) + ")")
    w("")
    if any(idx in slots for idx in saved_outputs):
        # Note [In-place ops]: an in-place op's result is self, so the saved output
        # must follow self's memory and version counter
        w("    cdef void repoint_output(self, int output_nr, Tensor t) noexcept:")
        for idx, u in sorted(saved_outputs.items()):
            if idx not in slots:
                continue
            f = _field(u)
            w(f"        if output_nr == {slots.index(idx)} and self.{f} is not None:")
            w(f"            if type(self.{f}) is SavedTensor:")
            w(f"                repoint_saved(self.{f}, t)")
            w("            else:")
            # t is past version 0 (the in-place op bumped it): no longer the inline form
            w(f"                self.{f} = saved_output_object(self, t._data, version_counter(t), {slots.index(idx)})")
            w(f"                (<SavedTensor>self.{f}).version = t._vc.version")
            w(f"                self.{f}_vc = None")
        w("")
    if inline_nr:
        # Note [Counters made by the node]: the counter of an output saved inline
        w("    cdef VersionCounter output_counter(self, int output_nr, cnp.ndarray data):")
        for u, nr in sorted(inline_nr.items(), key=lambda kv: kv[1]):
            f = _field(u)
            w(f"        if output_nr == {nr}:")
            w(f"            if self.{f} is data:")
            w(f"                if self.{f}_vc is None:")
            w(f"                    self.{f}_vc = VersionCounter.__new__(VersionCounter)")
            w(f"                return self.{f}_vc")
            # made a SavedTensor by _raw_saved_<name> before the output needed its counter
            w(f"            if type(self.{f}) is SavedTensor and (<SavedTensor>self.{f}).obj is data:")
            w(f"                return (<SavedTensor>self.{f}).vc")
        w("        return None")
        w("")
    fields = (sorted(saved_tensors) + sorted(set(saved_outputs.values()))
              + sorted(released_values))
    if fields:
        # Note [Releasing saved state]: a node whose inputs needed none of the tensors
        # it may save (addmm's self alone) saved nothing and stays usable
        w("    cdef void release_saved(self) noexcept:")
        w("        if " + " or ".join(f"self.{_field(u)} is not None" for u in fields) + ":")
        w("            set_released(self)")
        for u in fields:
            w(f"        self.{_field(u)} = None")
            if u in inline_nr:
                w(f"        self.{_field(u)}_vc = None")
        w("")
    for u in sorted(saved_tensors):
        w("    @property")
        w(f"    def _saved_{u}(self):")
        w(f"        return unpack_operand(self, self.{_field(u)})")
        w("")
        w("    @property")
        w(f"    def _raw_saved_{u}(self):")
        w(f"        return raw_saved(self, self.{_field(u)})")
        w("")
    for u in sorted(set(saved_outputs.values())):
        w("    @property")
        w(f"    def _saved_{u}(self):")
        w(f"        return {unpack_out('self', u)}")
        w("")
        w("    @property")
        w(f"    def _raw_saved_{u}(self):")
        if u in inline_nr:
            # the SavedTensor returned stays the node's (Note [Saved outputs inline])
            f = _field(u)
            w(f"        if self.{f} is not None:")
            w(f"            self.{f} = saved_output_object(self, self.{f}, self.{f}_vc, "
              f"{inline_nr[u]})")
            w(f"            self.{f}_vc = None")
        w(f"        return raw_saved(self, self.{_field(u)})")
        w("")
    for u in sorted(saved_values):
        w("    @property")
        w(f"    def _saved_{u}(self):")
        if u in released_values:
            w(f"        return key_tensors(self, self.{_field(u)})")
            w("")
            w("    @property")
            w(f"    def _raw_saved_{u}(self):")
            w(f"        return raw_saved_key(self, self.{_field(u)})")
        else:
            w(f"        return self.{_field(u)}")
        w("")
    for t in sorted(t for t, attr in saved_meta if attr == "shape"):
        # PyTorch's name for a formula's self.sym_sizes()
        w("    @property")
        w(f"    def _saved_{t}_sym_sizes(self):")
        w(f"        return self.saved_{t}_shape")
        w("")

    # the wiring: called by the forward with its outputs and arguments
    outs = ", ".join(f"Tensor {name}" for name in _output_params(schema))
    args = ", ".join(f"{p.ctype} {p.name}" for p in schema.params)
    # int/except -1, not void/except *: a caller then tests the return value instead of
    # calling PyErr_Occurred() after every record (this runs once per recorded op)
    fw_code = gen_forward_derivative(node, diff_params, formulas, ops_by_name)
    lines[0:0] = [fw_code]
    call_args = ", ".join(_output_params(schema) + [p.name for p in schema.params])
    node_out_t = "(" + "".join(_output_params(schema)[i] + ", " for i in slots) + ")"
    diff_t = "(" + "".join(p.name + ", " for p in diff_params) + ")"
    w(f"cdef int record_{node.name}({outs}, {args}) except -1:")
    # Note [Forward AD] (_core/_fw.pxi): the one check an op makes with no dual level;
    # the tangent is computed once the node is recorded (its formula may read the
    # output, which then has its history: reverse-over-forward), into the placeholder
    # the node's saved outputs share (forward-over-reverse)
    w("    if FW_LEVEL_ON[0] and fw_active():")
    w(f"        fw_prepare({node_out_t}, {diff_t})")
    w(f"        _rec_{node.name}({call_args})")
    w(f"        return fw_{node.name}({call_args})")
    w(f"    return _rec_{node.name}({call_args})")
    w("")
    w("")
    w(f"cdef inline int _rec_{node.name}({outs}, {args}) except -1:")
    inputs = "(" + "".join(p.name + ", " for p in diff_params) + ")"
    node_outs = [_output_params(schema)[i] for i in slots]
    first_out = node_outs[0]
    # should_record(inputs, ...) unrolled: nothing is built when nothing records
    needs = " or ".join(f"_input_requires_grad({p.name})" for p in diff_params) or "False"
    w(f"    if not (recording() and ({needs}) and recordable_array({first_out}._data, {op.name!r})):")
    w("        return 0")
    # Note [Complex autograd]: a complex input of a real result asks too, once the flag
    # says complex values have required grad at all (one C int test otherwise)
    cplx = " or ".join((f"any_complex_arg({p.name})" if p.type == "Tensor[]"
                        else f"complex_arg({p.name})") for p in diff_params)
    if cplx:
        w(f"    if COMPLEX_GRAD_ON[0] and ({cplx}):")
        w(f"        check_complex_grad({op.name!r})")
    # Note [Inference tensors outside inference mode]: every tensor argument counts
    if edge_params:
        below = " and ".join(f"inference_input({p.name})" for p in edge_params)
        w(f"    if {below}:")
        w("        return 0")
    # one- and two-input nodes record without building an inputs tuple
    tuple_free = n_out == 1 and (len(diff_params) == 2
                                 or (len(diff_params) == 1 and not op.broadcast))
    if not tuple_free:
        w(f"    cdef tuple inputs = {inputs}")
    w(f"    cdef {node.name} node = {node.name}.__new__({node.name})")
    for u, users in sorted(saved_tensors.items()):
        # Note [What a node saves]: as PyTorch's codegen (guard_for in its
        # gen_variable_type.py), a tensor is saved whenever the node is made, except a
        # plain Tensor argument that exactly one input's formula reads, of an op whose
        # name does not say "backward" and that has no list input: that one is saved
        # only when the input has an edge. The difference shows in `_saved_<name>` and
        # in which second backward raises "backward through the graph a second time"
        # (threshold_backward under jvp saves self though only grad_output's formula
        # reads it); and for a view made under no_grad of a tensor that requires grad
        # (it requires grad but has no edge): saved, its unpacking raises PyTorch's
        # error once its base was written in place with grad mode on.
        if not _saved_when_needed(op, diff_params, u, users):
            w(f"    node.{_field(u)} = save_operand({u})")
            continue
        i, = users
        w(f"    if _input_has_edge({diff_params[i].name}):")
        w(f"        node.{_field(u)} = save_operand({u})")
    for idx, u in sorted(saved_outputs.items()):
        if idx not in slots:
            # not one of the node's outputs (no history): saved as PyTorch saves an
            # input, so its version error names no node
            w(f"    node.{_field(u)} = save({_output_params(schema)[idx]})")
        else:
            out = _output_params(schema)[idx]
            w(f"    node.{_field(u)} = save_output_inline({out}, {slots.index(idx)})")
            w(f"    node.{_field(u)}_vc = {out}._vc")
    for u in sorted(saved_values):
        w(f"    node.{_field(u)} = {'save_key(' + u + ')' if u in released_values else u}")
    for t, attr in sorted(saved_meta):
        expr = {"shape": f"shape_of({t}._data)", "dtype": f"dtype_of({t}._data)",
                "ndim": f"cnp.PyArray_NDIM({t}._data)",
                "strides": f"tuple([st // {t}._data.itemsize for st in (<object>{t}._data).strides])"}[attr]
        w(f"    node.saved_{t}_{attr} = {expr} if isinstance({t}, Tensor) else None")
    names = [p.name for p in diff_params]
    if not tuple_free and n_out > 1:
        outs_t = "(" + "".join(o + ", " for o in node_outs) + ")"
        w(f"    record_outputs(node, {outs_t}, inputs)")
    elif tuple_free and len(names) == 1:
        w(f"    record1(node, {first_out}, {names[0]})")
    elif tuple_free:
        w(f"    record2(node, {first_out}, {names[0]}, {names[1]}, {bool(op.broadcast)})")
    elif op.broadcast:
        w(f"    record_broadcast(node, {first_out}, inputs)")
    else:
        w(f"    record(node, {first_out}, inputs)")
    w("    return 0")
    w("")
    w("")
    return "\n".join(lines)


class FwFormula(Formula):
    """A forward derivative (`result:`) in PyTorch's names: <input>_t the input's
    tangent, <input>_p (or the input's own name) its primal, result the output."""

    def kind_of_name(self, name):
        if name == "_u":
            return "T"
        if name.endswith("_t") and self.schema.param(name[:-2]) is not None:
            kind = super().kind_of_name(name[:-2])
            # a number's tangent is a tensor too (fw_zeros: its 0-d ZeroTensor), so a
            # product keeps the operand order the formula is written in, as PyTorch's
            # does (the tangent's graph lists its edges in that order)
            return "T" if kind == "O" else kind
        if name.endswith("_p") and self.schema.param(name[:-2]) is not None:
            return super().kind_of_name(name[:-2])
        return super().kind_of_name(name)

    def typed(self, n):
        if isinstance(n, ast.Name):
            if n.id.endswith("_p") and self.schema.param(n.id[:-2]) is not None:
                self.uses.add(n.id[:-2])
                return n.id[:-2], self.kind_of_name(n.id)
            if self.is_output(n.id):
                self.uses.add(n.id)
                return _output_params(self.schema)[self.output_names()[n.id]], "T"
        if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                and n.attr in ("shape", "dtype", "ndim", "strides")):
            base, kind = self.typed(n.value)
            if kind == "T":
                return {"shape": f"shape_of({base}._data)", "dtype": f"dtype_of({base}._data)",
                        "ndim": f"cnp.PyArray_NDIM({base}._data)",
                        "strides": f"tuple([st // {base}._data.itemsize for st in "
                                   f"(<object>{base}._data).strides])"}[n.attr], \
                    "N" if n.attr == "ndim" else "X"
        return super().typed(n)


class _Rename(ast.NodeTransformer):
    def __init__(self, names):
        self.names = names

    def visit_Name(self, n):
        if n.id in self.names:
            return ast.copy_location(ast.Name(self.names[n.id], n.ctx), n)
        return n


def _fw_text(text, names):
    return ast.unparse(_Rename(names).visit(ast.parse(text.strip(), mode="eval")))


def gen_forward_derivative(node, diff_params, formulas, ops_by_name):
    """fw_<Node>(): the output's tangent from the inputs' (Note [Forward AD] in
    _core/_fw.pxi). `result:` is a formula, auto_element_wise (each input's backward
    formula with its tangent for grad, summed) or auto_linear (the op on the tangents)."""
    op = node.op
    schema = op.schema
    outs = _output_params(schema)
    slots = op.differentiable_returns()
    sig = ", ".join([f"Tensor {o}" for o in outs] + [f"{p.ctype} {p.name}" for p in schema.params])
    lines = [f"cdef int fw_{node.name}({sig}) except -1:"]
    w = lines.append
    for p in diff_params:
        if p.type in _TENSOR_TYPES and p.type != "Tensor?":
            w(f"    cdef object {p.name}_t = fw_grad_of({p.name})")
        else:
            w(f"    cdef object {p.name}_t = (fw_grad_of(<Tensor>{p.name}) "
              f"if isinstance({p.name}, Tensor) else None)")
    if not diff_params:
        w("    return 0")
        return "\n".join(lines) + "\n\n\n"
    w("    if " + " and ".join(f"{p.name}_t is None" for p in diff_params) + ":")
    w("        return 0")
    first = outs[slots[0]]
    w(f"    if not is_grad_array({first}._data):")
    w("        return 0")
    # Note [Complex forward AD] (_core/_fw.pxi): complex tangents only through the ops
    # that take them
    cplx = " or ".join([f"cnp.PyArray_ISCOMPLEX({first}._data)"] + [
        (f"any_complex_arg({p.name})" if p.type == "Tensor[]" else f"complex_arg({p.name})")
        for p in diff_params])
    w(f"    if {cplx}:")
    w(f"        check_complex_fw({op.name!r})")
    fw = node.fw_formula
    if fw == "backward_transpose":
        # (the transpose of a conjugate-linear backward is not this jvp: refused)
        w(f"        raise fw_not_implemented({op.name!r})")
    if fw is None or (len(slots) > 1 and fw in ("auto_element_wise", "auto_linear")):
        w(f"    raise fw_not_implemented({op.name!r})")
        return "\n".join(lines) + "\n\n\n"
    w("    cdef object _t = None")
    w("    with FwSuspend():")
    if fw == "auto_element_wise":
        for p in diff_params:
            text = node.formulas.get(p.name)
            w(f"        if {p.name}_t is not None:")
            if text is None or "not_implemented" in text:
                w(f"            raise fw_not_implemented({op.name!r})")
                continue
            # PyTorch's auto_element_wise for complex values: the backward formula
            # applied to the conjugate tangent, conjugated (cj: nothing when real)
            f = FwFormula("conj(" + _fw_text(text, {"grad": f"conj({p.name}_t)"}) + ")",
                          node, ops_by_name)
            w(f"            _t = fw_sum(_t, {f.code})")
    elif fw == "backward_transpose":
        w("        _prev_grad = grad_enabled()")
        # the tangent has a history when a primal or a tangent requires grad
        # (reverse-over-forward), as a closed-form formula's would
        cg = " or ".join([f"_input_requires_grad({p.name})" for p in diff_params]
                         + [f"_input_requires_grad({p.name}_t)" for p in diff_params])
        w(f"        _cg = recording() and ({cg})")
        for p in diff_params:
            text = node.formulas.get(p.name)
            w(f"        if {p.name}_t is not None:")
            if text is None or "not_implemented" in text or "grads[" in text:
                w(f"            raise fw_not_implemented({op.name!r})")
                continue
            f = FwFormula(_fw_text(text, {"grad": "_u"}), node, ops_by_name)
            w(f"            _u = fw_seed({first})")
            w("            set_grad_enabled(True)")
            w("            try:")
            w(f"                _g = {f.code}")
            w("            except NotImplementedError:")
            w(f"                raise fw_not_implemented({op.name!r}) from None")
            w("            finally:")
            w("                set_grad_enabled(_prev_grad)")
            w(f"            _t = fw_sum(_t, fw_transpose(_g, _u, {p.name}_t, {op.name!r}, _cg))")
        # a dual input whose Jacobian is zero (the 0-norm, a count) gives a zero tangent,
        # as PyTorch's formulas do, not none
        w("        if _t is None:")
        w(f"            _t = fw_zeros({first})")
    else:
        if fw == "auto_linear":
            dn = {p.name for p in diff_params}
            text = f"{op.name}(" + ", ".join(
                f"{p.name}={p.name}_t" if p.name in dn else f"{p.name}={p.name}"
                for p in schema.params) + ")"
        else:
            text = fw
        f = FwFormula(text, node, ops_by_name)
        for p in diff_params:
            if p.name + "_t" in f.uses:
                w(f"        if {p.name}_t is None:")
                w(f"            {p.name}_t = fw_zeros({p.name})")
        if len(slots) > 1:
            # a tuple of formulas, or one call of a family helper returning that tuple
            # (the decompositions' jvps share their intermediate terms: linalg_svd_jvp)
            helper = (isinstance(f.tree, ast.Call) and isinstance(f.tree.func, ast.Name)
                      and f.tree.func.id not in ops_by_name)
            if not helper and (not isinstance(f.tree, ast.Tuple)
                               or len(f.tree.elts) != len(slots)):
                raise TableError(f"{node.name}: a forward derivative of {len(slots)} "
                                 "outputs is a tuple of that many, or a helper's call")
        w(f"        _t = {f.code}")
    if len(slots) > 1:
        w(f"    if len(<tuple>_t) != {len(slots)}:")
        w(f"        raise AssertionError('fw_{node.name}: {len(slots)} tangents expected')")
        for k, i in enumerate(slots):
            w(f"    fw_finish({outs[i]}, _t[{k}])")
    else:
        w(f"    fw_finish({first}, _t)")
    w("    return 0")
    return "\n".join(lines) + "\n\n\n"


def _output_params(schema):
    if len(schema.returns) <= 1:
        return ["result"]
    return [f"result{i}" for i in range(len(schema.returns))]


def _escape_doc(s):
    return s.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


# ---------------------------------------------------------------- forwards (templates)

_TEMPLATE = re.compile(r"^(\w+)\((.*)\)$")
_NUMPY_ATTR = re.compile(r"\bnp\.(\w+)\b")


def gen_numpy_functions(ops):
    """cdef module variables for the numpy functions templated forwards name."""
    names = sorted({m.group(1) for op in ops if op.forward != "manual"
                    for m in _NUMPY_ATTR.finditer(op.forward)})
    return "".join(f"cdef object _np_{n} = np.{n}\n" for n in names)


# Templates whose values function also returns what the node records in place of the
# op's `dim` argument (the wrapped dim, or the tuple of reduced dims): values..., dim
_RECORDS_NORMALIZED_DIM = {"cumulative", "cumulative_extremum", "reduction_with_dims",
                           "select_along", "median_along"}


def _record_lines(op, outs, args, indent="    "):
    """Recording the op's node (none: no lines). Several nodes: the one whose
    non_differentiable operands (TensorOrScalar arguments) are the numbers of this call
    (copysign(t, 2.0): CopysignBackward1; xlogy(2.0, t): XlogyBackward1)."""
    if not op.nodes:
        return []
    rec = lambda node: f"record_{node.name}({', '.join(outs)}, {args})"
    if len(op.nodes) == 1:
        return [indent + rec(op.nodes[0])]
    operands = [p.name for p in op.schema.params if p.type == "TensorOrScalar"]
    numbers = {}
    for node in op.nodes:
        if node.manual:
            raise TableError(f"{op.name}: a templated forward records no manual node")
        numbers[node.name] = [x for x in operands if node.formulas.get(x) == "non_differentiable"]
    if len({tuple(v) for v in numbers.values()}) != len(op.nodes):
        raise TableError(f"{op.name}: a templated forward picks its node by which operands are "
                         f"numbers: each node needs its own non_differentiable operands")
    # self a number first (then self is a tensor), both tensors, other a number
    order = sorted(op.nodes, key=lambda n: (0 if "self" in numbers[n.name] else
                                            1 if not numbers[n.name] else 2))
    lines, known = [], set()
    for k, node in enumerate(order):
        nums = numbers[node.name]
        conds = [f"not isinstance({x}, Tensor)" for x in nums] or \
                [f"isinstance({y}, Tensor)" for y in operands if y not in known]
        head = "else:" if k == len(order) - 1 else \
            f"{'if' if k == 0 else 'elif'} {' and '.join(conds)}:"
        lines += [indent + head, indent + "    " + rec(node)]
        if len(nums) == 1 and len(conds) == 1:
            known.add(nums[0])
    return lines


def gen_forward(op):
    """A templated forward: the template (a cdef function of the family module named
    <template>_values) computes the values; this wires the node around it (an op
    without a node, such as a comparison, records nothing). inplace(<template>(...)):
    the same into self (an X_ row); inplace_of(<op>): the in-place variant of a table
    op; random_sampler(...): Tensor.normal_ & co."""
    m = _TEMPLATE.match(op.forward.strip())
    if not m:
        raise TableError(f"{op.name}: bad forward {op.forward!r}")
    template, targs = m.groups()
    schema = op.schema
    lines = [f"cdef {op.forward_signature()}:"]
    if template == "inplace_of":
        return gen_inplace_of(op, targs.strip(), lines)
    if template in _COMPOSED_FORWARDS:
        return _COMPOSED_FORWARDS[template](op, [a.strip() for a in _split_top(targs)
                                                 if a.strip()], lines)
    if len(op.nodes) > 1 and template == "random_sampler":
        raise TableError(f"{op.name}: random_sampler records one node")
    node = op.nodes[0] if op.nodes else None
    if template == "random_sampler":
        return gen_random_sampler(op, node, [a.strip() for a in targs.split(",")], lines)
    into = template == "inplace"
    if into:
        m = _TEMPLATE.match(targs.strip())
        if not m or schema.params[0].name != "self" or schema.params[0].type != "Tensor":
            raise TableError(f"{op.name}: inplace(<template>(...)) needs Tensor self")
        template, targs = m.groups()
    argnames = ", ".join(p.name for p in schema.params)
    tensor_args = [p.name for p in schema.params if p.has_edge]
    if into:
        others = "".join(x + ", " for x in tensor_args[1:])
        lines.append(f"    cdef Tensor _self_source = inplace_source(self, ({others}))")
        tensor_args[0] = "_self_source"
        argnames = ", ".join(["_self_source"] + [p.name for p in schema.params[1:]])
    # a numpy function named in the template call (np.tanh) is looked up once, at
    # import, into a C-level module variable (_numpy_function)
    extra = [_NUMPY_ATTR.sub(lambda m: "_np_" + m.group(1), a.strip())
             for a in targs.split(",") if a.strip()]
    call = f"{template}_values({', '.join(tensor_args + extra)})"
    outs = _output_params(schema)
    if into:
        if len(outs) != 1:
            raise TableError(f"{op.name}: inplace(...) has one result")
        # (in self's dtype: a comparison's bools written into a float self)
        call = f"cast_array({call}, dtype_of(self._data))"
    if template in _RECORDS_NORMALIZED_DIM:
        if "dim" not in [p.name for p in schema.params]:
            raise TableError(f"{op.name}: template {template} needs a dim argument")
        argnames = ", ".join("_dim" if p.name == "dim" else p.name for p in schema.params)
        values = [f"_v{i}" for i in range(len(outs))]
        lines.append(f"    {', '.join(values)}, _dim = {call}")
    elif len(outs) == 1:
        values = [call]
    else:
        values = [f"_v{i}" for i in range(len(outs))]
        lines.append(f"    {', '.join(values)} = {call}")
    lines.append("    cdef Tensor " + ", ".join(f"{o} = make({v})" for o, v in zip(outs, values)))
    lines += _record_lines(op, outs, argnames)
    if into:
        lines.append("    return inplace_commit(self, result)")
    else:
        lines.append(f"    return {outs[0]}" if len(outs) == 1 else f"    return ({', '.join(outs)})")
    return "\n".join(lines) + "\n\n\n"


def gen_inplace_of(op, target, lines):
    """inplace_of(<op>): self's in-place source through <op>, committed (Note [In-place
    ops])."""
    schema = op.schema
    if op.nodes:
        raise TableError(f"{op.name}: inplace_of records its op's node, it has none itself")
    if schema.params[0].name != "self" or schema.params[0].type != "Tensor":
        raise TableError(f"{op.name}: inplace_of needs a first argument Tensor self")
    others = [p.name for p in schema.params[1:] if p.has_edge]
    others_t = "(" + "".join(o + ", " for o in others) + ")"
    args = ", ".join(["_self_source"] + [p.name for p in schema.params[1:]])
    lines.append(f"    cdef Tensor _self_source = inplace_source(self, {others_t})")
    lines.append(f"    return inplace_commit(self, op_{target}({args}))")
    return "\n".join(lines) + "\n\n\n"


# Note [Complex autograd of the in-place variant only]
# PyTorch's functional scatter_reduce, index_reduce and nan_to_num refuse to record a
# complex output (their generated throw_error_for_complex_autograd: Note [Complex outputs
# PyTorch does not differentiate] in ops/_prelude.pxi) while their in-place variants
# record the node on complex tensors, with the formulas as written. A row marked
# `complex_autograd: inplace_only` has its forward (hand-written or templated) named
# <name>_forward, which takes a last `bint inplace` (True from the in-place driver, False
# from op_<name>) for the rules that differ between the two forms, such as index_reduce's
# forward-AD refusal (PyTorch's functional op refuses before its kernel's checks, the
# in-place one after its write, under its own name); op_<name> is generated here around
# it, refusing after the call as PyTorch's check does (it reads the result's
# requires_grad, so the kernel's own errors come first).

def gen_complex_refusal(op):
    """op_<name> of a complex_autograd: inplace_only row: <name>_forward, refusing a
    complex result that has a history."""
    schema = op.schema
    outs = _output_params(schema)
    if len(outs) != 1:
        raise TableError(f"{op.name}: complex_autograd: inplace_only has one result")
    args = ", ".join(p.name for p in schema.params)
    return "\n".join([
        f"cdef {schema.c_signature(op.cname)}:",
        f"    cdef Tensor result = {op.forward_cname}({args}, False)",
        "    if requires_grad_of(result) and cnp.PyArray_ISCOMPLEX(result._data):",
        f"        raise complex_output_autograd_error(\"{op.name}\")",
        "    return result",
    ]) + "\n\n\n"


def gen_random_sampler(op, node, targs, lines):
    """random_sampler(<check>, <values>, <args>...): self.<op>_(args, generator=) fills
    self with draws (Note [Random streams] in _core/random.pyx): <check>(self, args)
    raises PyTorch's errors for bad parameters and dtypes, before the in-place source is
    taken; <values>(generator, self's array, args) draws; the node (a zero derivative)
    is recorded on the source."""
    schema = op.schema
    if node is None or len(targs) < 2 or [p.name for p in schema.params][::len(schema.params) - 1] \
            != ["self", "generator"]:
        raise TableError(f"{op.name}: random_sampler(check, values, args...) needs a node and "
                         "arguments (Tensor self, ..., Generator? generator)")
    check, values, args = targs[0], targs[1], ", ".join(targs[2:])
    names = ", ".join(p.name for p in schema.params[1:])
    lines.append(f"    {check}(self, {args})")
    lines.append("    cdef Tensor old = inplace_source(self, ())")
    lines.append(f"    cdef Tensor result = make({values}(generator, self._data, {args}))")
    lines.append(f"    record_{node.name}(result, old, {names})")
    lines.append("    return inplace_commit(self, result)")
    return "\n".join(lines) + "\n\n\n"


# ---------------------------------------------------------------- forwards composed of one call
# Forwards that are one call of another op or helper of the family module, which does
# the work and records the node (PyTorch's composite ops: swapaxes is transpose, conv2d
# is convolution); the row names the call, the generator writes the function. Each
# template checks the row has the shape it assumes, so a row that needs more is refused.

def _manual_nodes_only(op, template):
    """The called function records the op's nodes: a row of these templates names only
    manual ones (a generated node would never be recorded)."""
    if any(not n.manual for n in op.nodes):
        raise TableError(f"{op.name}: {template}(...) records no node itself: the function "
                         "it calls does (nodes: {Name: manual})")


def gen_delegate(op, targs, lines):
    """delegate(<fn>[, <constant>...]): op_<name>(args) is <fn>(args..., constants...),
    the op's arguments in schema order (swapaxes: delegate(op_transpose); split:
    delegate(_split, PIECES_VIEWS))."""
    _manual_nodes_only(op, "delegate")
    if not targs:
        raise TableError(f"{op.name}: delegate(<function>, <constants>...) needs a function")
    args = [p.name for p in op.schema.params] + targs[1:]
    lines.append(f"    return {targs[0]}({', '.join(args)})")
    return "\n".join(lines) + "\n\n\n"


def gen_with_shape_of(op, targs, lines):
    """with_shape_of(<fn>): op_<name>(self, other) is <fn>(self, other's shape) (view_as,
    reshape_as, expand_as: self.view(other.shape))."""
    _manual_nodes_only(op, "with_shape_of")
    params = op.schema.params
    if len(targs) != 1 or len(params) != 2 or params[0].name != "self" or \
            any(p.type != "Tensor" for p in params):
        raise TableError(f"{op.name}: with_shape_of(<function>) needs (Tensor self, Tensor other)")
    lines.append(f"    return {targs[0]}(self, shape_of({params[1].name}._data))")
    return "\n".join(lines) + "\n\n\n"


def gen_each(op, targs, lines):
    """each(<fn>[, <constant>...]): op_<name>(tensors) is the tuple of <fn>(t,
    constants...) over the list (atleast_2d: each(_atleast, 2))."""
    _manual_nodes_only(op, "each")
    params = op.schema.params
    if not targs or len(params) != 1 or params[0].type != "Tensor[]" or \
            op.schema.ret_ctype != "tuple":
        raise TableError(f"{op.name}: each(<function>, ...) needs (Tensor[] x) -> Tensor[]")
    extra = "".join(", " + a for a in targs[1:])
    lines.append(f"    return tuple([{targs[0]}(<Tensor>t{extra}) for t in {params[0].name}])")
    return "\n".join(lines) + "\n\n\n"


def _one_generated_node(op, template):
    if len(op.nodes) != 1 or op.nodes[0].manual or op.schema.ret_ctype != "Tensor":
        raise TableError(f"{op.name}: {template}(...) records one generated node and "
                         "returns a Tensor")
    return op.nodes[0]


def gen_backward_link(op, targs, lines):
    """backward_link(): Note [Backward links] (ops/nn.pyx). The first argument (a
    gradient) passes through unchanged under the op's node, which records the other
    arguments; with nothing to record the gradient itself is returned."""
    node = _one_generated_node(op, "backward_link")
    first = op.schema.params[0]
    if targs or first.type != "Tensor":
        raise TableError(f"{op.name}: backward_link() takes no arguments and passes its "
                         "first (Tensor) argument through")
    names = ", ".join(p.name for p in op.schema.params)
    lines.append("    # Note [Backward links] (ops/nn.pyx)")
    lines.append(f"    cdef Tensor result = make({first.name}._data)")
    lines.append(f"    record_{node.name}(result, {names})")
    lines.append(f"    return result if result._grad_fn is not None else {first.name}")
    return "\n".join(lines) + "\n\n\n"


def gen_copy_of_view(op, targs, lines):
    """copy_of_view(<view op>): the *_copy variant of a view op (view_copy,
    expand_copy): the view taken without recording, copied (_copy_of), and the op's
    node recorded with the arguments as given (a view whose node records normalized
    dims is written by hand)."""
    node = _one_generated_node(op, "copy_of_view")
    if len(targs) != 1 or op.schema.params[0].name != "self":
        raise TableError(f"{op.name}: copy_of_view(<view op>) needs Tensor self")
    names = ", ".join(p.name for p in op.schema.params)
    lines.append("    cdef Tensor result")
    lines.append("    with NoGradGuard():")
    lines.append(f"        result = _copy_of({targs[0]}({names}))")
    lines.append(f"    record_{node.name}(result, {names})")
    lines.append("    return result")
    return "\n".join(lines) + "\n\n\n"


def gen_recorded_by(op, targs, lines):
    """recorded_by(<fn>[, <constant>...]): op_<name>(args) is <fn>(args..., constants...,
    record_<Node> of each of the op's nodes in table order): a family helper that does
    the work of several ops and records the node its caller names (view and
    _reshape_alias: _view_recorded_as; asinh_: _inplace_recorded_as(op_asinh); the
    padding modes: index_pad(PAD_REFLECT), one node per 1-d/2-d/3-d)."""
    if not targs or not op.nodes or any(n.manual for n in op.nodes):
        raise TableError(f"{op.name}: recorded_by(<function>, <constants>...) passes the "
                         "record functions of its generated nodes: it needs a function and "
                         "generated nodes")
    args = [p.name for p in op.schema.params] + targs[1:] + [f"record_{n.name}" for n in op.nodes]
    lines.append(f"    return {targs[0]}({', '.join(args)})")
    return "\n".join(lines) + "\n\n\n"


def gen_first_of(op, targs, lines):
    """first_of(<fn>[, <constant>...]): op_<name>(args) is the first result of
    <fn>(args..., constants...), an op of several results that records the node (msort:
    first_of(op_sort, 0, False, None); max_pool2d: its _with_indices op's values)."""
    _manual_nodes_only(op, "first_of")
    if not targs or op.schema.ret_ctype != "Tensor":
        raise TableError(f"{op.name}: first_of(<function>, <constants>...) needs a function "
                         "and returns a Tensor")
    args = [p.name for p in op.schema.params] + targs[1:]
    lines.append(f"    return {targs[0]}({', '.join(args)})[0]")
    return "\n".join(lines) + "\n\n\n"


_COMPOSED_FORWARDS = {"delegate": gen_delegate, "with_shape_of": gen_with_shape_of, "each": gen_each,
                      "backward_link": gen_backward_link, "copy_of_view": gen_copy_of_view,
                      "recorded_by": gen_recorded_by, "first_of": gen_first_of}


# ---------------------------------------------------------------- Python wrappers

def _parse_arg(p, fname, pos, pyname):
    t = p.type
    if t in ("Tensor",):
        return f"arg_tensor({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "Tensor?":
        return f"None if {pyname} is None else arg_tensor({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "TensorOrScalar":
        return f"arg_tensor_or_scalar({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "Tensor[]":
        return f"arg_tensor_list({pyname}, \"{fname}\")"
    if t == "Scalar":
        return f"arg_scalar({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "Scalar?":
        return f"None if {pyname} is None else arg_scalar({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "int":
        return f"arg_int({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "int?":
        return f"None if {pyname} is None else arg_int({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "int[]":
        return f"arg_int_list({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "int[]?":
        return f"None if {pyname} is None else arg_int_list({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "int[*]":
        return f"arg_int_sequence({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "int[*]?":
        return (f"None if {pyname} is None else "
                f"arg_int_sequence({pyname}, \"{fname}\", \"{pyname}\", {pos})")
    if t == "bool":
        return f"arg_bool({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "float":
        return f"arg_float({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "float?":
        return f"None if {pyname} is None else arg_float({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "str":
        return f"arg_str({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "str?":
        return f"None if {pyname} is None else arg_str({pyname}, \"{fname}\", \"{pyname}\", {pos})"
    if t == "ScalarType":
        return f"arg_dtype({pyname}, \"{fname}\")"
    if t == "ScalarType?":
        return f"None if {pyname} is None else arg_dtype({pyname}, \"{fname}\")"
    return pyname


def _always_position(schema, value):
    """A row's always_position: a list of argument names (every wrapper of the row) or a
    mapping from a wrapper kind (function, method) to such a list."""
    if value is None:
        return {}
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")]
    if isinstance(value, list):
        value = {"function": value, "method": value}
    names = {p.name for p in schema.params}
    out = {}
    for kind, args in value.items():
        if kind not in ("function", "method"):
            raise TableError(f"{schema.name}: always_position for an unknown wrapper kind "
                             f"{kind!r}")
        if isinstance(args, str):
            args = [a.strip() for a in args.split(",")]
        for a in args:
            if a not in names or a == "self":
                raise TableError(f"{schema.name}: always_position names {a!r}, not an "
                                 "argument after self")
        out[kind] = frozenset(args)
    return out


def gen_wrapper(op, pyfunc, cfunc, public_name, first_name="input", method=False,
                out=False, alias=None):
    """A def wrapper: checks the arguments, calls the C implementation. A method's
    messages number the arguments after self from 1, a function's from input (as
    PyTorch's do). out: the function takes out= (Note [out= arguments])."""
    # an alias (torch.absolute) is its own def: its argument messages and its def's
    # name are the alias's, the complex guard and the kernels' words the op's
    named = alias or public_name
    schema = op.schema
    sig = []
    star = False
    body = []
    call = []
    # PyTorch's numpy spellings (python_arg_parser's numpy_compatibility_arg_names):
    # axis= for dim=, keepdims= for keepdim=
    # (a required dim followed by other required arguments keeps its place: no alias)
    params = schema.params
    aliases = [(p.name, _NUMPY_ALIASES[p.name], p.default is None)
               for i, p in enumerate(params) if p.name in _NUMPY_ALIASES
               and not (p.default is None and any(q.default is None and not q.kwarg_only
                                                  for q in params[i + 1:]))]
    aliased = {a[0] for a in aliases}
    # Note [Keyword or positional] (ops/_prelude.pxi): each argument a call may give
    # by position or by keyword has two parameters, a positional-only one (_a<i>) and a
    # keyword-only one under its name, both defaulting to ARG_MISSING; the binding
    # lines take whichever was given, and the argument's messages give its position
    # only when it came by position, as PyTorch's parser does. (A method's self is
    # always positional.) The signature introspection shows is the one-parameter-each
    # form (wrapper_signature). A row's always_position lists the arguments PyTorch's
    # Python-level wrapper passes on by position whatever the user wrote (torch.cdist's p,
    # Tensor.unflatten's dim and sizes): their messages always give the position.
    always = op.always_position.get("method" if method else "function", ())
    split = [(i, p, first_name if i == 0 and p.name == "self" else p.name)
             for i, p in enumerate(params)
             if not p.kwarg_only and not (method and i == 0)]
    split_at = {i: f"_a{i}" for i, _, _ in split}
    # (the argument out= needs is optional: Note [out= arguments]; an aliased one is
    # checked after its alias)
    required_all = [pyname for i, p, pyname in split
                    if p.default is None and not (out and p.name == op.out_needs)]
    required = [n for n in required_all if n not in aliased]
    binding = []
    for i, p, pyname in split:
        binding.append(f"    {pyname} = bind_arg(_a{i}, {pyname}, \"{named}\", "
                       f"\"{pyname}\")")
    if required:
        binding.append(f"    if {' or '.join(f'{n} is ARG_MISSING' for n in required)}:")
        binding.append(f"        raise missing_arguments(\"{named}\", "
                       f"({''.join(f'({n!r}, {n}), ' for n in required_all)}))")
    for i, p, pyname in split:
        if out and p.name == op.out_needs:
            default = "NOT_GIVEN"
        elif p.default is None:
            if p.name not in aliased:
                continue
            default = "None"     # (the alias may give it: checked after it)
        else:
            default = _py_default(p.default)
        binding.append(f"    if {pyname} is ARG_MISSING:")
        binding.append(f"        {pyname} = {default}")
    body += binding
    for name, alias, required_ in aliases:
        body.append(f"    if {alias} is not None:")
        body.append(f"        {name} = {alias}")
        if required_:
            body.append(f"    if {name} is None:")
            body.append(f"        raise missing_arguments(\"{named}\", ((\"{name}\", "
                        "ARG_MISSING), ))")
    shown = []     # the signature as introspection shows it

    def numbered(i):
        # a method numbers the arguments after self from 1, unless the row's
        # parser_name is the function PyTorch hands them to (numbered as its own)
        return i if method and not (op.parser_name and i > 0) else i + 1
    for i, p in enumerate(schema.params):
        pyname = first_name if i == 0 and p.name == "self" else p.name
        if p.kwarg_only and not star:
            sig.append("*")
            shown.append("*")
            star = True
        if out and p.name == op.out_needs:
            # PyTorch's out= overload has no default for this argument: given as None
            # it is taken, left out it is the argument parser's TypeError
            shown.append(f"{pyname}=NOT_GIVEN")
        elif p.name in aliased and p.default is None:
            shown.append(f"{pyname}=None")
        else:
            shown.append(pyname if p.default is None else f"{pyname}={_py_default(p.default)}")
        if i in split_at:
            sig.append(f"{pyname}=ARG_MISSING")
            pos = numbered(i)
            if p.name not in always:
                pos = f"({pos} if {split_at[i]} is not ARG_MISSING else 0)"
        else:
            sig.append(shown[-1])
            # (a keyword-only argument is named without a position)
            pos = 0 if p.kwarg_only else numbered(i)
        fname = op.parser_name if op.parser_name and i > 0 else named
        body.append(f"    cdef {p.ctype} {p.name}_ = {_parse_arg(p, fname, pos, pyname)}")
        call.append(f"{p.name}_")
    if split:
        # the positional-only parameters first (a method's self before them), then
        # every named parameter keyword-only
        head = [] if not method else [sig.pop(0)]
        sig = head + [f"{split_at[i]}=ARG_MISSING" for i, _, _ in split] + ["/", "*"] \
            + [x for x in sig if x != "*"]
        star = True
    if out and op.out_needs:
        given = [f"    cdef bint {op.out_needs}_given = {op.out_needs} is not NOT_GIVEN",
                 f"    if not {op.out_needs}_given:",
                 f"        {op.out_needs} = None"]
        at = len(binding) + len(aliases) * 2 + sum(2 for a in aliases if a[2])
        body[at:at] = given
    if op.fw_fallback:
        # PyTorch's autograd fallback refuses a dual argument (out too) before the op's
        # own checks, the complex guard's included (Note [Forward AD refusals before the
        # kernel] in _core/_fw.pxi)
        tensors = "".join(f"{p.name}_, " for p in schema.params
                          if p.type in _TENSOR_TYPES + _OPERAND_TYPES)
        body.append(f"    fw_refuse_fallback(\"{public_name}\", ({tensors}{'out, ' if out else ''}))")
    body += _complex_guard(schema, public_name)
    if (aliases or out) and not star:
        sig.append("*")
    if (aliases or out) and "*" not in shown:
        shown.append("*")
    if out:
        sig.append("out=None")
        shown.append("out=None")
    for name, alias, required_ in aliases:
        sig.append(f"{alias}=None")
        shown.append(f"{alias}=None")
    lines = []
    meth_o = method and len(schema.params) == 1
    if meth_o:
        # a method without arguments (t.exp()): METH_O, the fastest call Python has
        # (its self cannot be passed by keyword, which no one does)
        lines.append("@cython.always_allow_keywords(False)")
    # Note [Wrapper names] (ops/_prelude.pxi): the def carries the public name
    lines.append(f"def {named}({', '.join(sig)}):")
    doc_lines = []
    if op.doc:
        doc = _escape_doc(op.doc.rstrip()).split("\n")
        lines.append('    """' + doc[0])
        # (the docstring's later lines are its text: the class body's indentation
        # must not reach them)
        doc_lines = [("    " + d) if d.strip() else "" for d in doc[1:]] + ['    """']
    # Note [__torch_function__ in the wrappers] (ops/_prelude.pxi): a tensor argument
    # whose type is not exactly Tensor may carry __torch_function__; plain tensors pay
    # one pointer comparison per tensor argument
    body[_first_parse_line(body):_first_parse_line(body)] = _torch_function_hook(
        schema, pyfunc, first_name, out)
    code = lines + body
    lines = []
    call_expr = f"{cfunc}({', '.join(call)})"
    if out and schema.returns[0][0] == "Tensor[]":
        # Note [out= arguments] (_prelude.pxi), for a list of outputs: out_write_list
        lines += [
            "    if out is not None:",
            f"        out_check_list(\"{schema.name}\", out, {len(schema.params)})",
            f"        return out_write_list(\"{out}\", out, lambda: {call_expr})",
        ]
    elif out:
        # Note [out= arguments] (_prelude.pxi): the checks before the computation
        fields = tuple(n for _, n in schema.returns) \
            if len(schema.returns) > 1 and all(n for _, n in schema.returns) else None
        rule = ["OUT_EXACT"] if op.out_exact else []
        if op.out_dtype and _OUT_DTYPE_RULES[op.out_dtype]:
            rule.append(_OUT_DTYPE_RULES[op.out_dtype])
        if op.out_grad:
            rule.append(_OUT_GRAD_RULES[op.out_grad])
        # the operands of out's NotImplemented node: the tensor arguments
        operands = "".join(f"{p.name}_, " for p in schema.params
                           if p.type in _TENSOR_TYPES) if op.out_grad == "not_implemented" \
            else ""
        lines_out = [
            "    if out is not None:",
            f"        out_check(\"{out}\", out, {len(schema.returns)})",
        ]
        if op.out_needs:
            lines_out.append(f"        if not {op.out_needs}_given:")
            lines_out.append(f"            no_out(\"{schema.name}\", out)")
        # Note [Forward AD] (_core/_fw.pxi): out= has none; PyTorch reads the inputs.
        # The call's one check (out_forward_ad_check, _prelude.pxi): out_write makes none
        tensors = "".join(f"{p.name}_, " for p in schema.params
                          if p.type in _TENSOR_TYPES + _OPERAND_TYPES or p.type == "Tensor[]")
        lines_out.append("        if fw_active():")
        lines_out.append(f"            out_forward_ad_check(\"{out}\", ({tensors}out, ))")
        if op.out_dtype == "compute":
            lines_out.append(f"        dtype_ = out_compute_dtype(\"{out}\", out, dtype_, self_)")
        lines_out.append(
            f"        return out_write(\"{out}\", out, {call_expr}, {fields!r}"
            + (f", {' | '.join(rule)}" if rule else "")
            + (f", ({operands})" if operands else "") + ")")
        lines += lines_out
    if len(schema.returns) > 1 and all(n for _, n in schema.returns):
        # Note [Named results] (_prelude.pxi)
        fields = tuple(n for _, n in schema.returns)
        call_expr = f"named_result(\"{schema.name}\", {fields!r}, {call_expr})"
    lines.append(f"    return {call_expr}")
    code += lines
    head = code[:len(code) - len(body) - len(lines)]
    text = "\n".join("    " + x for x in head) + "\n"
    if doc_lines:
        text += "\n".join(doc_lines) + "\n"
    text += "\n".join(("    " + x) if x else x for x in code[len(head):]) + "\n\n"
    namespace = "_METHOD_WRAPPERS" if method else "_FUNCTION_WRAPPERS"
    after = [f"{pyfunc} = {namespace}.__dict__[\"{named}\"]",
             f"{pyfunc}.__qualname__ = \"{named}\""]
    if meth_o:
        after.append(f"name_meth_o({pyfunc}, \"{named}\")")
    if split:
        after.append(f"{pyfunc}.__signature__ = wrapper_signature({', '.join(shown)!r})")
    return WrapperCode(text, "\n".join(after) + "\n", namespace)


class WrapperCode(str):
    """A generated wrapper: its def (indented for the class body of its namespace, the
    string itself) and the module-level lines binding it (after)."""
    def __new__(cls, text, after, namespace):
        self = super().__new__(cls, text)
        self.after = after
        self.namespace = namespace
        return self


_NUMPY_ALIASES = {"dim": "axis", "keepdim": "keepdims"}


def _complex_guard(schema, public_name):
    """Note [Complex guard] (_core/_messages.pxi): the lines that refuse a complex
    argument unless the op supports complex (one C check per tensor argument)."""
    conds = []
    for p in schema.params:
        if p.type in ("Tensor", "Tensor?"):
            conds.append(f"complex_arg({p.name}_)")
        elif p.type == "TensorOrScalar":
            conds.append(f"complex_scalar_arg({p.name}_)")
        elif p.type == "Tensor[]":
            conds.append(f"any_complex_arg({p.name}_)")
    if not conds:
        return []
    args = "".join(f"{p.name}_, " for p in schema.params
                   if p.type in ("Tensor", "Tensor?", "TensorOrScalar", "Tensor[]"))
    return [f"    if {' or '.join(conds)}:",
            f"        check_complex_args(\"{public_name}\", ({args}))"]


def _first_parse_line(body):
    return next(i for i, b in enumerate(body) if b.startswith("    cdef "))


def _torch_function_hook(schema, pyfunc, first_name, out):
    """The lines that hand a call with an overriding argument to handle_torch_function:
    positional parameters positionally, keyword-only ones (and out=) by keyword."""
    conds, pos, kw = [], [], []
    for i, p in enumerate(schema.params):
        pyname = first_name if i == 0 and p.name == "self" else p.name
        if p.type in ("Tensor", "Tensor?", "TensorOrScalar"):
            conds.append(f"(type({pyname}) is not Tensor and has_torch_function({pyname}))")
        elif p.type == "Tensor[]":
            conds.append(f"has_torch_function_list({pyname})")
        (kw.append(f"\"{pyname}\": {pyname}") if p.kwarg_only else pos.append(pyname))
    if not conds:
        return []
    if out:
        kw.append("\"out\": out")
    args = "(" + "".join(a + ", " for a in pos) + ")"
    return [f"    if {' or '.join(conds)}:",
            f"        return handle_torch_function({pyfunc}, {args}, {{{', '.join(kw)}}})"]


def gen_manual_wrapper_names(op):
    """A hand-written wrapper (python: manual) gets its public name and the table's doc,
    as a generated one does."""
    fn = f"_py_{op.name}"
    lines = [f"{fn}.__name__ = {fn}.__qualname__ = \"{op.name}\""]
    if op.doc:
        lines.append(f'{fn}.__doc__ = """' + _escape_doc(op.doc.rstrip()) + '\n"""')
    return "\n".join(lines) + "\n\n\n"


def gen_method_out_guard(op):
    """The method of a hand-written function that takes out=: the function, refusing out=
    with the TypeError of a method that has no such keyword."""
    lines = [f"def _pym_{op.name}(self, *args, **kwargs):",
             "    if \"out\" in kwargs:",
             f"        raise TypeError(\"{op.name}() got an unexpected keyword argument 'out'\")",
             f"    return _py_{op.name}(self, *args, **kwargs)",
             "",
             "",
             f"_pym_{op.name}.__name__ = _pym_{op.name}.__qualname__ = \"{op.name}\""]
    if op.doc:
        lines.append(f'_pym_{op.name}.__doc__ = """' + _escape_doc(op.doc.rstrip()) + '\n"""')
    return "\n".join(lines) + "\n\n\n"


def _py_default(d):
    if d == "[]":
        return "()"
    if d.startswith("["):
        return "(" + d[1:-1] + ",)"
    return d


def _fw_may_refuse(op):
    """Whether a node of op refuses forward AD for some dual input (gen_forward_derivative
    raises fw_not_implemented(op) there): no `result:`, an automatic one over several
    outputs, or an input whose backward formula it would need is not implemented."""
    for node in op.nodes:
        if node.manual:
            continue
        fw = node.fw_formula
        if fw is None or fw == "backward_transpose" or (
                len(op.differentiable_returns()) > 1
                and fw in ("auto_element_wise", "auto_linear")):
            return True
        if fw == "auto_element_wise" and any(
                text is None or "not_implemented" in text
                for name, text in node.formulas.items() if text != "non_differentiable"):
            return True
    return False


# Note [Forward AD refusals of in-place variants]
# An in-place variant computes through its out-of-place op, whose node refuses forward AD
# under the out-of-place op's name (fw_not_implemented(op), at record time). PyTorch's
# in-place kernel runs first, writes self (its values and version change, its tangent
# not), then refuses under the in-place op's name. The generated in-place variant of an
# op whose node may refuse catches that refusal (by its exact message: any other error
# goes through), recomputes with forward AD suspended, commits, and raises the in-place
# refusal. (Refusals before the kernel, Note [Forward AD refusals before the kernel],
# name the op themselves and pass through.)

def gen_inplace_impl(op):
    """The C implementation of an in-place variant: the out-of-place op through the
    in-place driver (Note [In-place ops]); Note [Forward AD refusals of in-place
    variants]."""
    schema = op.schema
    others = [p.name for p in schema.params[1:] if p.has_edge]
    others_t = "(" + "".join(o + ", " for o in others) + ")"
    lines = [f"cdef {schema.c_signature('op_' + op.inplace)}:"]
    # (the forward without op_<name>'s complex refusal: Note [Complex autograd of the
    # in-place variant only])
    fwd = op.forward_cname
    args = ", ".join(p.name for p in schema.params[1:])
    call_args = "_self_source" + (", " + args if args else "")
    flag = ", True" if op.complex_autograd else ""
    call_args += flag
    lines.append(f"    cdef Tensor _self_source = inplace_source(self, {others_t})")
    body = []
    if others:
        # Note [Overlapping operands]: an operand sharing memory with self in a way
        # only an element loop decides is read element by element as written
        args_t = "(" + "".join(p.name + ", " for p in schema.params[1:]) + ")"
        body.append(f"if inplace_in_order(self, {others_t}):")
        body.append(f"    return inplace_commit_in_order(self, {fwd}({call_args}), "
                    f"_in_order_{op.inplace}, {args_t})")
    if op.inplace_expanded is not None:
        body.append(f"return inplace_commit_expanded(self, _self_source, {fwd}({call_args}), "
                    f"\"{op.inplace}\", \"{op.inplace_expanded}\")")
    else:
        body.append(f"return inplace_commit(self, {fwd}({call_args}))")
    if _fw_may_refuse(op) and not op.complex_autograd:
        # Note [Forward AD refusals of in-place variants] (a complex_autograd forward
        # refuses under the in-place name itself)
        lines.append("    try:")
        lines += ["        " + b for b in body]
        lines.append("    except NotImplementedError as _e:")
        lines.append(f"        if str(_e) != str(fw_not_implemented({op.name!r})):")
        lines.append("            raise")
        lines.append("    with FwSuspend():")
        if others:
            lines += ["        " + b.replace("return ", "") for b in body[:2]]
            lines.append("        else:")
            lines.append("            " + body[2].replace("return ", ""))
        else:
            lines.append("        " + body[0].replace("return ", ""))
        lines.append(f"    raise fw_not_implemented({op.inplace!r})")
    else:
        lines += ["    " + b for b in body]
    if others:
        names = ", ".join(p.name for p in schema.params)
        lines += ["", "", f"def _in_order_{op.inplace}({names}):",
                  f"    return {fwd}({names}{flag})"]
    return "\n".join(lines) + "\n\n\n"


# ---------------------------------------------------------------- op hook

# Note [Op hook] (_core/_profiler.pxi): each op has a hooked twin with its C signature
# that opens the hook around the call (the profiler's event named as PyTorch's ATen op,
# and the Python op hooks, which may supply the result instead of running the op); the
# core swaps OPS for the table of twins while a hook is on. Table ops whose name is not
# ATen's are named after the ATen op they stand for; internal glue with no ATen
# counterpart is not hooked (its twin is the op itself).
_PROFILE_NAMES = {
    "_div_mode": "div", "add_scalar": "add", "div_scalar": "div", "mul_scalar": "mul",
    "_clamp_tensor": "clamp", "_lerp_tensor": "lerp", "max_dim": "max", "min_dim": "min",
    "median_dim": "median", "nanmedian_dim": "nanmedian", "sum_to": "sum",
    "_norm_dim": "norm", "_norm_all": "norm",
}
_PROFILE_SKIP = {"not_implemented_node", "_getitem", "_setitem"}


def gen_hooked(op, register):
    """The hooked twins of an op (and of its in-place variant): their registration
    goes into register, their code is returned."""
    out = []
    for name, impl in [(op.name, op.cname)] + ([(op.inplace, f"op_{op.inplace}")]
                                                if op.inplace else []):
        if name in _PROFILE_SKIP or name.endswith("_link"):
            register.append(f"OPS_HOOKED.{name} = {impl}")
            continue
        aten = _PROFILE_NAMES.get(name, name)
        if name == op.inplace and op.name in _PROFILE_NAMES:
            aten = _PROFILE_NAMES[op.name] + "_"
        names = ", ".join(p.name for p in op.schema.params)
        out += [
            f"cdef {op.schema.c_signature(f'_hooked_{name}')}:",
            f"    cdef object _event = op_hook_enter(\"aten::{aten}\", ({names}{',' if len(op.schema.params) == 1 else ''}))",
            "    _result = op_hook_supplied(_event)",
            "    if _result is None:",
            "        try:",
            f"            _result = {impl}({names})",
            "        except BaseException:",
            "            op_hook_exit(_event, None)",
            "            raise",
            "    op_hook_exit(_event, _result)",
            "    return _result",
            "",
            "",
        ]
        register.append(f"OPS_HOOKED.{name} = _hooked_{name}")
    return "\n".join(out)


def gen_op_call(ops):
    """The op caller (Note [Batched backward], autograd/_batched_backward.py): every op
    of the table callable from Python by its table name with its arguments in table
    order, through OPS (so a Python op hook's callbacks can run the op they see), and
    each op's table schema."""
    lines = [
        "# GENERATED by autograd_core/ops/_codegen.py from ops/derivatives.yaml: do not edit.",
        "# Note [Op table] (tensor.pyx); the caller of Note [Batched backward].",
        "",
    ]
    entries = []
    for op in ops:
        names = [(op.name, _PROFILE_NAMES.get(op.name, op.name))]
        if op.inplace:
            names.append((op.inplace, (_PROFILE_NAMES[op.name] + "_") if op.name in _PROFILE_NAMES
                          else op.inplace))
        for name, aten in names:
            if name in _PROFILE_SKIP or name.endswith("_link"):
                continue
            entries.append((name, aten, op))
    lines += ["cdef dict _INDEX = {"]
    for i, (name, _, _) in enumerate(entries):
        lines.append(f"    \"{name}\": {i},")
    lines += ["}", "", "",
              "def op_call(str name, tuple a):",
              '    """Run the table op name on the arguments a (table order) through OPS."""',
              "    cdef int i = _INDEX[name]"]
    for i, (name, _, op) in enumerate(entries):
        args = ", ".join(f"a[{k}]" for k in range(len(op.schema.params)))
        lines.append(f"    {'if' if i == 0 else 'elif'} i == {i}:")
        lines.append(f"        return OPS.{name}({args})")
    lines += ["", "",
              "# table name -> (ATen name the op hook sees, variants, the op's out-of-place name,",
              "#                ((param name, schema type, keyword-only), ...))",
              "OP_SCHEMAS = {"]
    for name, aten, op in entries:
        params = tuple((p.name, p.type, p.kwarg_only) for p in op.schema.params)
        lines.append(f"    {name!r}: ({aten!r}, {tuple(op.variants)!r}, {op.name!r}, {params!r}),")
    lines += ["}", "",
              "# the table names of the ops that write values into their first argument",
              "# (Op.inplace_names)",
              "INPLACE_OPS = frozenset({"]
    names = {name for name, _, _ in entries}
    for op in ops:
        lines += [f"    {n!r}," for n in op.inplace_names() if n in names]
    lines += ["})", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- files

def gen_op_table(ops):
    lines = [
        "# GENERATED by autograd_core/ops/_codegen.py from ops/derivatives.yaml: do not edit.",
        "# Note [Op table] (tensor.pyx): one C function pointer per op.",
        "",
        "cdef struct OpTable:",
    ]
    for op in ops:
        for name in [op.name] + ([op.inplace] if op.inplace else []):
            args = ", ".join(p.ctype for p in op.schema.params)
            lines.append(f"    {op.schema.ret_ctype} (*{name} \"agc_op_{name}\")({args})")
    lines += ["", "", "cdef OpTable OPS", ""]
    return "\n".join(lines)


def gen_op_table_check(ops):
    lines = [
        "# GENERATED by autograd_core/ops/_codegen.py: do not edit.",
        "",
        "def op_table_addresses():",
        '    """{op name: address of its implementation, 0 when unregistered}."""',
        "    return {",
    ]
    for op in ops:
        for name in [op.name] + ([op.inplace] if op.inplace else []):
            lines.append(f"        \"{name}\": <size_t>OPS.{name},")
    lines += ["    }", ""]
    return "\n".join(lines)


def gen_family(family, ops, ops_by_name):
    mine = [op for op in ops if op.family == family]
    out = [
        f"# GENERATED by autograd_core/ops/_codegen.py from ops/derivatives.yaml "
        f"(family {family}): do not edit.",
        "",
    ]
    nodes = []
    for op in mine:
        for node in op.nodes:
            if not node.manual:
                nodes.append(gen_node(node, ops_by_name))
    forwards = [gen_forward(op) for op in mine if op.forward != "manual"]
    forwards += [gen_complex_refusal(op) for op in mine if op.complex_autograd]
    inplace = [gen_inplace_impl(op) for op in mine if op.inplace]
    wrappers = []
    register = []
    torch_names, method_names, functional_names, linalg_names = [], [], [], []
    special_names = []
    hooked = []
    for op in mine:
        register.append(f"OPS.{op.name} = {op.cname}")
        if op.inplace:
            register.append(f"OPS.{op.inplace} = op_{op.inplace}")
        hooked.append(gen_hooked(op, register))
        if "internal" in op.variants:
            continue
        publics = [op.name] + op.aliases
        as_function = any(v != "method" for v in op.variants)
        # a method numbers its arguments differently in messages: its own wrapper
        # (and an argument-free method its own METH_O wrapper: the fast t.exp())
        split = as_function and "method" in op.variants and op.python == "generated"
        # a generated op's aliases get wrappers of their own (Note [Wrapper names]):
        # PyTorch's messages quote the alias (absolute(), arccos_())
        for alias in publics if op.python == "generated" else ():
            named = None if alias == op.name else alias
            wrappers.append(gen_wrapper(op, f"_py_{alias}", f"OPS.{op.name}", op.name,
                                        method=not as_function,
                                        out=op.out if as_function else None, alias=named))
            if split and op.python_method == "same":
                wrappers.append(gen_wrapper(op, f"_pym_{alias}", f"OPS.{op.name}", op.name,
                                            method=True, alias=named))
            if op.inplace:
                named_ = None if named is None else alias + "_"
                wrappers.append(gen_wrapper(op, f"_py_{alias}_" if named else
                                            f"_py_{op.inplace}", f"OPS.{op.inplace}",
                                            op.inplace, first_name="input",
                                            method=not as_function, alias=named_))
                if split:
                    wrappers.append(gen_wrapper(op, f"_pym_{alias}_" if named else
                                                f"_pym_{op.inplace}", f"OPS.{op.inplace}",
                                                op.inplace, first_name="input", method=True,
                                                alias=named_))
        # a hand-written function that takes out= serves as the method through a guard:
        # PyTorch's methods take no out= (Note [out= arguments])
        guard = op.python == "manual" and op.out and op.python_method == "same" and \
            "method" in op.variants
        if guard:
            wrappers.append(gen_method_out_guard(op))
        for v in op.variants:
            target = {"function": torch_names, "method": method_names,
                      "functional": functional_names, "linalg": linalg_names,
                      "special": special_names}[v]
            prefix = "_pym_" if v == "method" and (
                op.python_method == "manual" or split or guard) else "_py_"
            # (a hand-written op's aliases share its wrapper)
            own = op.python == "generated"
            for name in publics:
                target.append((_public_name(name, v), prefix + (name if own else op.name)))
            if op.inplace and v in ("function", "method", "functional"):
                # an alias names the in-place variant too (absolute_ = abs_)
                prefix = "_pym_" if v == "method" and split else "_py_"
                target.append((op.inplace, prefix + op.inplace))
                for name in [a + "_" for a in op.aliases]:
                    target.append((name, prefix + (name if own else op.inplace)))
        if op.python == "manual" and any(
                v != "method" or op.python_method != "manual" for v in op.variants):
            wrappers.append(gen_manual_wrapper_names(op))
    out.append("# ---------------------------------------------------------------- nodes\n")
    out += nodes
    out.append("# ---------------------------------------------------------------- forwards\n")
    out.append(gen_numpy_functions(mine))
    out += forwards + inplace
    out.append("# ---------------------------------------------------------------- hooked entries (Note [Op hook])\n")
    out += hooked
    out.append("# ---------------------------------------------------------------- Python wrappers\n")
    # Note [Wrapper names] (ops/_prelude.pxi): the generated defs live in two class
    # bodies under their public names, bound at module level under _py_/_pym_ names
    generated = [w for w in wrappers if isinstance(w, WrapperCode)]
    for namespace in ("_FUNCTION_WRAPPERS", "_METHOD_WRAPPERS"):
        out.append(f"class {namespace}:")
        mine_ = [w for w in generated if w.namespace == namespace]
        out += mine_ if mine_ else ["    pass\n"]
        out.append("")
    out += [w.after for w in generated]
    out.append("del _FUNCTION_WRAPPERS, _METHOD_WRAPPERS\n\n")
    out += [w for w in wrappers if not isinstance(w, WrapperCode)]
    out.append("# ---------------------------------------------------------------- registration\n")
    out += register
    out.append("")
    for var, names in (("TORCH_FUNCTIONS", torch_names), ("TENSOR_METHODS", method_names),
                       ("NN_FUNCTIONAL", functional_names), ("LINALG", linalg_names),
                       ("SPECIAL", special_names)):
        out.append(f"{var} = {{")
        for name, fn in names:
            out.append(f"    \"{name}\": {fn},")
        out.append("}")
    out.append("")
    out.append("# every node of this family's table entries (generated or written by hand)")
    out.append("TABLE_NODES = (" + "".join(f"\"{n.name}\", " for op in mine for n in op.nodes) + ")")
    out.append("")
    out.append("install_methods(TENSOR_METHODS)")
    out.append("name_node_types(globals())")
    out.append("")
    return "\n".join(out)


def _public_name(name, variant):
    """An op's name in one namespace. As PyTorch's python_module: linalg functions, an op
    named linalg_<x> is linalg.<x> (its wrapper keeps the full name, which PyTorch's
    messages quote: "linalg_vector_norm(): argument 'ord' ..."); special_<x> is
    special.<x> the same way."""
    if variant in ("linalg", "special") and name.startswith(variant + "_"):
        return name[len(variant) + 1:]
    return name


def _write(path, text):
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return False
    with open(path, "w") as f:
        f.write(text)
    return True


def generate(root):
    """Write the generated files under the repository root; return the paths written."""
    pkg = os.path.join(root, "autograd_core")
    ops = load_table(os.path.join(pkg, "ops", "derivatives.yaml"))
    ops_by_name = {}
    for op in ops:
        ops_by_name[op.name] = op
        if op.inplace:
            ops_by_name[op.inplace] = op
    written = []
    files = {
        os.path.join(pkg, "_core", "_op_table.pxi"): gen_op_table(ops),
        os.path.join(pkg, "_core", "_op_table_check.pxi"): gen_op_table_check(ops),
        os.path.join(pkg, "_core", "_op_table_call.pxi"): gen_op_call(ops),
    }
    for fam in FAMILIES:
        files[os.path.join(pkg, "ops", f"_gen_{fam}.pxi")] = gen_family(fam, ops, ops_by_name)
    for path, text in files.items():
        if _write(path, text):
            written.append(path)
    return written


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for p in generate(root):
        print("wrote", p)
