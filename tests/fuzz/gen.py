"""Random programs: a Program is a preamble (custom Functions, a ``log`` list) and a list
of one-line statements over variables t0, t1, ... (tensors) and g0, g1, ... (results of
autograd.grad).  Programs are generated while running under torch, so each statement
is drawn knowing the shapes, dtypes and flags its operands have at that point; a
statement that torch rejects is usually dropped, sometimes kept (error paths are
compared too)."""
import random
import re
from dataclasses import dataclass, field

import numpy as np

from . import ops

PREAMBLE = '''\
import array
from collections import deque

log = []


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


class MulConst(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


class CloneFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g


class OnceExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y


class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        b = (x > 0).to(x.dtype)
        ctx.mark_non_differentiable(b)
        return x * 2, b

    @staticmethod
    def backward(ctx, ga, gb):
        return ga * 2


class SetupCtxCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x * x * g
'''

_NAME = re.compile(r"\b[tg]\d+\b")
# the unary ops a fused block takes (st_compiled)
_FUSED_UNARY = ("neg", "exp", "tanh", "sigmoid", "relu")


@dataclass
class Stmt:
    kind: str                 # "unary:exp", "view:select", "backward", ... (signatures)
    src: str                  # one line of Python; `torch` is the module under test
    defines: tuple = ()       # names it (re)binds
    cg: bool = False          # its results come from a create_graph backward formula

    @property
    def uses(self):
        return set(_NAME.findall(self.src)) - set(self.defines)


@dataclass
class Program:
    stmts: list = field(default_factory=list)

    def source(self, module="torch", minimal=False):
        """Runnable source; minimal=True keeps only the Functions the statements use."""
        head = "import torch" if module == "torch" else f"import {module} as torch"
        body = "\n".join(s.src for s in self.stmts)
        blocks = PREAMBLE.strip("\n").split("\n\n\n")
        if minimal:
            blocks = [b for b in blocks if not b.startswith("class ") or
                      re.search(r"\b" + b.split()[1].split("(")[0] + r"\.apply", body)]
        preamble = "\n\n\n".join(blocks)
        return f"{head}\n\n{preamble}\n\n\n{body}\n"

    def without(self, i):
        """The program minus statement i and every statement that (transitively) uses a
        name only statement i defines."""
        gone = set(self.stmts[i].defines)
        keep = []
        for j, s in enumerate(self.stmts):
            if j == i:
                continue
            if s.uses & gone:
                gone |= set(s.defines)
                continue
            if j > i:
                gone -= set(s.defines)  # rebinding revives a name
            keep.append(s)
        return Program(keep)


def new_env(mod):
    env = {"torch": mod, "__name__": "fuzz_program"}
    exec(compile(PREAMBLE, "<preamble>", "exec"), env)
    return env


def available(mod):
    """The op-table entries whose names autograd_core (mod) has."""
    probe = mod.ones(2, 2)
    F = getattr(getattr(mod, "nn", None), "functional", None)

    def has(template, name):
        if name.startswith("__") or template.startswith("{a}") and "torch." not in template:
            return hasattr(probe, name)
        if "torch." + name + "(" in template:
            return hasattr(mod, name)
        if "F." + name in template:
            return F is not None and hasattr(F, name)
        return hasattr(probe, name) or hasattr(mod, name)

    def keep(table):
        return [e for e in table if has(e[1], e[0])]
    table = {k: keep(getattr(ops, k)) for k in
             ("UNARY", "BINARY", "REDUCE", "VIEW", "INPLACE", "MATMUL")}
    complex_ops = getattr(getattr(mod, "_complex", None), "COMPLEX_OPS", frozenset())
    table["COMPLEX_UNARY"] = [e for e in ops.COMPLEX_UNARY if e[0] in complex_ops]
    table["COMPLEX_BINARY"] = [e for e in ops.COMPLEX_BINARY if e[0] in complex_ops]
    table["COMPOSITE"] = [e for e in ops.COMPOSITE if _has_path(mod, e[0])]
    table["GRAD_INPLACE"] = [e for e in ops.GRAD_INPLACE if hasattr(probe, e[0])]
    # the Functions are the preamble's own classes: they need autograd.Function only
    table["FUNCTIONS"] = list(ops.FUNCTIONS) if hasattr(mod.autograd, "Function") else []
    return table


def _has_path(mod, path):
    for part in path.split("."):
        mod = getattr(mod, part, None)
        if mod is None:
            return False
    return True


def _lit(rng):
    v = rng.choice([0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 0.1, 0.3, 0.6, 0.9, 1.7])
    return -v if rng.random() < 0.45 else v


def _nested_complex(rng, shape):
    if not shape:
        return repr(complex(_lit(rng), _lit(rng)))
    return "[" + ", ".join(_nested_complex(rng, shape[1:]) for _ in range(shape[0])) + "]"


def _broadcasts(sa, sb):
    try:
        np.broadcast_shapes(sa, sb)
        return True
    except ValueError:
        return False


def complex_grad(_unused=None):
    """The fuzzer's one switch for complex autograd: complex leaves require grad only
    once autograd_core says complex autograd is supported (_complex.COMPLEX_AUTOGRAD)."""
    import autograd_core
    return bool(getattr(autograd_core._complex, "COMPLEX_AUTOGRAD", False))


def _nested(rng, shape):
    if not shape:
        return repr(_lit(rng))
    return "[" + ", ".join(_nested(rng, shape[1:]) for _ in range(shape[0])) + "]"


class Generator:
    """Draws a program statement by statement, running each under torch."""

    def __init__(self, seed, torch_mod, table, max_len=24):
        self.rng = random.Random(seed)
        self.torch = torch_mod
        self.table = table
        self.env = new_env(torch_mod)
        self.prog = Program()
        self.count = 0
        self.max_len = max_len

    # ------------------------------------------------------------- helpers
    def fresh(self, prefix="t"):
        name = f"{prefix}{self.count}"
        self.count += 1
        return name

    def tensors(self, pred=None):
        T = self.torch.Tensor
        out = [n for n, v in self.env.items() if _NAME.fullmatch(n) and isinstance(v, T)]
        return [n for n in out if pred is None or _safe(pred, self.env[n])]

    def pick(self, pred=None):
        names = self.tensors(pred)
        return self.rng.choice(names) if names else None

    def shape(self, name):
        return tuple(self.env[name].shape)

    def dims(self, name, k=1):
        nd = self.env[name].dim()
        if nd == 0:
            return None
        return [self.rng.randrange(-nd, nd) for _ in range(k)]

    def emit(self, kind, src, defines=(), cg=False, keep_error=0.15):
        """Run src under torch; keep it unless torch raises (then keep with a small
        probability: error paths are compared too)."""
        try:
            exec(compile(src, "<stmt>", "exec"), self.env)
        except Exception:  # noqa: BLE001
            if self.rng.random() >= keep_error:
                for n in defines:
                    self.env.pop(n, None)
                return False
        self.prog.stmts.append(Stmt(kind, src, tuple(defines), cg))
        return True

    def random_shape(self):
        nd = self.rng.choices([0, 1, 2, 3], [15, 30, 35, 20])[0]
        return tuple(self.rng.choices([0, 1, 2, 3, 4], [4, 18, 30, 28, 20])[0]
                     for _ in range(nd))

    def leaf(self, shape=None, requires_grad=None):
        shape = self.random_shape() if shape is None else tuple(shape)
        rg = self.rng.random() < 0.8 if requires_grad is None else requires_grad
        dt = "torch.float32" if self.rng.random() < 0.15 else "torch.float64"
        name = self.fresh()
        tail = f", dtype={dt}" + (", requires_grad=True" if rg else "")
        if 0 in shape:
            dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
            src = f"{name} = torch.zeros({dims}{tail})"
        else:
            src = f"{name} = torch.tensor({_nested(self.rng, shape)}{tail})"
        self.emit("leaf", src, (name,), keep_error=0)
        return name

    def partner(self, a, into=False):
        """A second operand for a: a tensor whose shape broadcasts with a's (or, with
        into=True, broadcasts *to* a's shape), a new leaf, or a Python number."""
        sa = self.shape(a)
        r = self.rng.random()
        if r < 0.2:
            return repr(_lit(self.rng))
        ok = []
        for n in self.tensors(lambda t: t.dtype.is_floating_point):
            try:
                b = np.broadcast_shapes(sa, self.shape(n))
            except ValueError:
                continue
            if not into or b == sa:
                ok.append(n)
        if ok and r < 0.75:
            return self.rng.choice(ok)
        k = self.rng.randint(0, len(sa))
        shape = [s if self.rng.random() < 0.7 else 1 for s in sa[len(sa) - k:]]
        return self.leaf(shape)

    def index_expr(self, a):
        """A random basic or advanced index for a."""
        shape = self.shape(a)
        parts = []
        for s in shape:
            r = self.rng.random()
            if s > 0 and r < 0.3:
                parts.append(str(self.rng.randrange(-s, s)))
            elif r < 0.65:
                lo = self.rng.randint(0, max(s - 1, 0))
                step = self.rng.choice([1, 1, 2])
                parts.append(f"{lo}::{step}" if step > 1 else f"{lo}:")
            elif s > 0 and r < 0.75:
                parts.append(repr(sorted(self.rng.sample(range(s), min(s, 2)))))
            else:
                parts.append(":")
        if self.rng.random() < 0.1:
            parts.insert(self.rng.randint(0, len(parts)), "None")
        if self.rng.random() < 0.1 and parts:
            parts[0] = "..."
        if self.rng.random() < 0.15 and _clear_sign(self.env[a]):
            return f"{a} > 0"
        if not parts:
            return self.rng.choice(["...", "None"] + [f"{a} > 0"] * _clear_sign(self.env[a]))
        return ", ".join(parts[:max(1, len(parts) - self.rng.randint(0, 1))])

    # ----------------------------------------------------------- complex tensors
    def complex_leaf(self, shape=None):
        """A complex64/complex128 leaf; requires grad only where complex autograd is on
        (complex_grad: one switch)."""
        shape = self.random_shape() if shape is None else tuple(shape)
        dt = self.rng.choice(["torch.complex64", "torch.complex128", "torch.complex128"])
        rg = complex_grad() and self.rng.random() < 0.5
        tail = f", dtype={dt}" + (", requires_grad=True" if rg else "")
        name = self.fresh()
        if 0 in shape:
            dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
            src = f"{name} = torch.zeros({dims}{tail})"
        elif self.rng.random() < 0.25:
            src = (f"{name} = torch.complex(torch.tensor({_nested(self.rng, shape)}), "
                   f"torch.tensor({_nested(self.rng, shape)})).to({dt})")
        else:
            src = f"{name} = torch.tensor({_nested_complex(self.rng, shape)}{tail})"
        self.emit("complex_leaf", src, (name,), keep_error=0)
        return name

    def _complex_grad_ok(self, name, *operands):
        """An op may take complex operands that require grad only when its derivative
        takes complex values (_complex.COMPLEX_AUTOGRAD_OPS); others refuse by design."""
        import autograd_core
        if not any(self.env[o].requires_grad for o in operands):
            return True
        return name in autograd_core._complex.COMPLEX_AUTOGRAD_OPS

    def st_complex(self):
        """An op of the complex guard's allowlist on complex tensors: values, and
        gradients where complex autograd covers the op (complex_grad)."""
        a = self.pick(lambda t: t.is_complex())
        if a is None or self.rng.random() < 0.25:
            a = self.complex_leaf()
            if a not in self.env:
                return
        if self.rng.random() < 0.35 and self.table["COMPLEX_BINARY"]:
            name, tpl = self.rng.choice(self.table["COMPLEX_BINARY"])
            sa = self.shape(a)
            ok = [n for n in self.tensors(lambda t: t.is_complex()) if n != a
                  and _broadcasts(sa, self.shape(n))]
            b = self.rng.choice(ok) if ok and self.rng.random() < 0.6 else \
                self.complex_leaf([s if self.rng.random() < 0.7 else 1 for s in sa])
            if b not in self.env or not self._complex_grad_ok(name, a, b):
                return
            self.op(f"complex:{name}", tpl.format(a=a, b=b))
            return
        if not self.table["COMPLEX_UNARY"]:
            return
        name, tpl = self.rng.choice(self.table["COMPLEX_UNARY"])
        d = self.dims(a)
        if "{d}" in tpl and d is None or not self._complex_grad_ok(name, a):
            return
        self.op(f"complex:{name}", tpl.format(a=a, d=d[0] if d else 0))

    # ----------------------------------------------------------- statements
    def st_unary(self):
        a = self.pick(lambda t: t.dtype.is_floating_point)
        if a is None or not self.table["UNARY"]:
            return
        name, tpl = self.rng.choice(self.table["UNARY"])
        if not _clear_of_bounds(tpl, self.env[a]):
            return  # Note [Bounds within rounding]
        d = self.dims(a)
        if "{d}" in tpl and d is None:
            return
        src = tpl.format(a=a, d=d[0] if d else 0)
        self.op(f"unary:{name}", src)

    def op(self, kind, expr):
        t = self.fresh()
        if self.rng.random() < 0.06:
            self.emit(kind + "(no_grad)", f"with torch.no_grad(): {t} = {expr}", (t,))
        else:
            self.emit(kind, f"{t} = {expr}", (t,))

    def st_binary(self):
        a = self.pick(lambda t: t.dtype.is_floating_point)
        if a is None or not self.table["BINARY"]:
            return
        name, tpl = self.rng.choice(self.table["BINARY"])
        if name == "where" and not _clear_sign(self.env[a]):
            return  # Note [Signs within rounding]
        b = self.partner(a)
        if not re.fullmatch(r"[tg]\d+", b) and name in _TENSOR_ONLY:
            b = f"torch.full_like({a}, {b})"
        self.op(f"binary:{name}", tpl.format(a=a, b=b))

    def st_reduce(self):
        a = self.pick(lambda t: t.dtype.is_floating_point)
        if a is None or not self.table["REDUCE"]:
            return
        name, tpl = self.rng.choice(self.table["REDUCE"])
        d = self.dims(a)
        if "{d}" in tpl and d is None:
            return
        self.op(f"reduce:{name}", tpl.format(a=a, d=d[0] if d else 0))

    def st_view(self):
        a = self.pick()
        if a is None or not self.table["VIEW"]:
            return
        name, tpl = self.rng.choice(self.table["VIEW"])
        d = self.dims(a, 2)
        if ("{d}" in tpl or "{d2}" in tpl) and d is None:
            return
        if name == "unsqueeze":
            nd = self.env[a].dim()
            d = [self.rng.randrange(-nd - 1, nd + 1), 0]
        self.op(f"view:{name}", tpl.format(a=a, d=d[0] if d else 0, d2=d[1] if d else 0))

    def st_getitem(self):
        a = self.pick()
        if a is not None:
            self.op("getitem", f"{a}[{self.index_expr(a)}]")

    def st_inplace(self):
        a = self.pick(lambda t: t.dtype.is_floating_point and
                      (not t.is_leaf or not t.requires_grad or self.rng.random() < 0.1))
        if a is None or not self.table["INPLACE"]:
            return
        name, tpl = self.rng.choice(self.table["INPLACE"])
        if not _clear_of_bounds(tpl, self.env[a]):
            return  # Note [Bounds within rounding]
        b = self.partner(a, into=True) if "{b}" in tpl else ""
        if "{b}.abs()" in tpl and not re.fullmatch(r"[tg]\d+", b):
            b = f"torch.full_like({a}, {b})"
        src = tpl.format(a=a, b=b)
        if self.rng.random() < 0.08:
            src = f"with torch.no_grad(): {src}"
        self.emit(f"inplace:{name}", src)

    def st_setitem(self):
        a = self.pick(lambda t: t.dtype.is_floating_point)
        if a is None:
            return
        idx = self.index_expr(a)
        try:
            target_shape = tuple(eval(f"{a}[{idx}]", self.env).shape)
        except Exception:  # noqa: BLE001
            return
        r = self.rng.random()
        if r < 0.4:
            value = repr(_lit(self.rng))
        else:
            ok = [n for n in self.tensors(lambda t: t.dtype.is_floating_point)
                  if n != a and _broadcasts_to(self.shape(n), target_shape)]
            value = self.rng.choice(ok) if ok and r < 0.7 else self.leaf(
                target_shape[len(target_shape) - self.rng.randint(0, len(target_shape)):])
        self.emit("setitem", f"{a}[{idx}] = {value}")

    def st_matmul(self):
        if not self.table["MATMUL"]:
            return
        name, tpl, (la, lb) = self.rng.choice(self.table["MATMUL"])
        sizes = {c: self.rng.choice([1, 2, 3]) for c in "bijk"}
        a = self.leaf([sizes[c] for c in la], requires_grad=True)
        b = self.leaf([sizes[c] for c in lb])
        self.op(f"matmul:{name}", tpl.format(a=a, b=b))

    def st_function(self):
        a = self.pick(lambda t: t.dtype.is_floating_point)
        if a is None or not self.table["FUNCTIONS"]:
            return
        name, tpl = self.rng.choice(self.table["FUNCTIONS"])
        self.op(f"function:{name}", tpl.format(a=a))

    def st_misc(self):
        r = self.rng.random()
        a = self.pick(lambda t: t.dtype.is_floating_point)
        if a is None:
            return
        if r < 0.25:
            t = self.fresh()
            self.emit("detach", f"{t} = {a}.detach()", (t,))
        elif r < 0.3:
            self.emit("detach_", f"{a}.detach_()")
        elif r < 0.5:
            self.emit("retain_grad", f"{a}.retain_grad()")
        elif r < 0.65:
            self.emit("hook:scale", f"{a}.register_hook(lambda g: g * 2)")
        elif r < 0.8:
            self.emit("hook:log", f"{a}.register_hook(lambda g: log.append(('{a}', g.shape, "
                                  f"float(g.sum()))))")
        elif r < 0.87:
            self.emit("hook:node", f"{a}.grad_fn.register_prehook(lambda gs: log.append("
                                   f"('{a} pre', len(gs))))")
        elif r < 0.93:
            self.emit("hook:post_acc", f"{a}.register_post_accumulate_grad_hook(lambda p: "
                                       f"log.append(('{a} acc', p.grad.shape)))")
        else:
            self.emit("grad=None", f"{a}.grad = None")

    # ------------------------------------------- constructs added for issue 25
    def st_seq_leaf(self):
        """A tensor made from a sequence other than a list: a (nested) tuple, a deque, a
        range, an array.array, a tuple of 0-d tensors (or of numbers and 0-d tensors)."""
        r = self.rng.random()
        fn = self.rng.choice(["torch.tensor", "torch.tensor", "torch.as_tensor"])
        dt = self.rng.choice(["", "", ", dtype=torch.float64", ", dtype=torch.float32"])
        rg = ", requires_grad=True" if fn == "torch.tensor" and self.rng.random() < 0.6 else ""
        shape = tuple(self.rng.randint(1, 3) for _ in range(self.rng.randint(1, 2)))
        if r < 0.3:
            seq = _nested(self.rng, shape).replace("[", "(").replace("]", ",)")
            kind = "tuple"
        elif r < 0.45:
            seq, kind = f"deque({_nested(self.rng, shape)})", "deque"
        elif r < 0.6:
            lo = self.rng.randint(-2, 1)
            seq, kind = f"range({lo}, {lo + self.rng.randint(0, 4)})", "range"
            dt = dt or ", dtype=torch.float64"  # an int64 tensor cannot require grad
        elif r < 0.75:
            code = self.rng.choice("dfi")
            vals = _nested(self.rng, shape[:1]) if code != "i" else \
                repr([self.rng.randint(-3, 3) for _ in range(shape[0])])
            seq, kind = f"array.array('{code}', {vals})", "array"
            if code == "i" and rg:
                dt = dt or ", dtype=torch.float64"
        else:
            zs = self.tensors(lambda t: t.dim() == 0 and t.dtype.is_floating_point)
            ones = self.tensors(lambda t: t.dim() == 1 and t.shape[0] >= 2 and
                                t.dtype.is_floating_point)
            items = [self.rng.choice(zs) for _ in range(self.rng.randint(1, 3))] if zs else []
            if ones and (not items or self.rng.random() < 0.5):
                a = self.rng.choice(ones)
                items = [f"{a}[0]", f"{a}[1]"]
            if not items:
                return
            if self.rng.random() < 0.3:
                items.insert(self.rng.randint(0, len(items)), repr(_lit(self.rng)))
            seq, kind = "(" + ", ".join(items) + ",)", "0d_tensors"
            if self.rng.random() < 0.5:  # a leaf made of a graph's values: detached ones
                seq = "(" + ", ".join(i if i[0] not in "tg" else f"{i}.detach()"
                                      for i in items) + ",)"
        t = self.fresh()
        self.emit(f"seq_leaf:{kind}", f"{t} = {fn}({seq}{dt}{rg})", (t,))

    def st_composite(self):
        """A composite op (sdpa on transposed q/k/v, einsum, a linalg decomposition, a
        (transposed) convolution ...) whose result is then viewed: view() succeeds or
        raises by the strides PyTorch's kernels give the result."""
        if not self.table["COMPOSITE"]:
            return
        name, tpl, shapes = self.rng.choice(self.table["COMPOSITE"])
        sizes = {c: self.rng.choice([1, 2, 3]) for c in "bijk"}
        sizes.update(l=self.rng.choice([2, 3, 4]), h=self.rng.choice([1, 2]))
        names = [self.leaf([sizes[c] for c in sh], requires_grad=self.rng.random() < 0.9)
                 for sh in shapes]
        r = self.fresh()
        if not self.emit(f"composite:{name.rsplit('.', 1)[-1]}",
                         f"{r} = {tpl.format(**dict(zip('abc', names)))}", (r,)):
            return
        res = self.env.get(r)
        if res is None or not isinstance(res, self.torch.Tensor):
            return
        if self.rng.random() < 0.15:  # the strides themselves, into the compared log
            self.emit("composite:strides", f"log.append(('{r}', {r}.stride(), "
                                           f"{r}.is_contiguous()))")
        vname, vtpl = self.rng.choice(ops.COMPOSITE_VIEWS)
        if res.dim() < 2 and vname != "view":
            vname, vtpl = ops.COMPOSITE_VIEWS[0]
        v = self.fresh()
        rev = ", ".join(map(str, reversed(res.shape))) or "()"
        if self.emit(f"composite_view:{vname}", f"{v} = {vtpl.format(r=r, rev=rev)}", (v,),
                     keep_error=0.6) and v in self.env and self.rng.random() < 0.3:
            # a write through the view shows whether it is one (reshape may copy)
            self.emit("composite_view:write", f"{v}.mul_(2.0)")

    def st_default_dtype(self):
        """set_default_dtype to float64 (or back), then tensors that take the default:
        restored to float32 at the program's end (generate)."""
        cur = self.torch.get_default_dtype()
        to = "float32" if cur == self.torch.float64 else "float64"
        self.emit("default_dtype", f"torch.set_default_dtype(torch.{to})", keep_error=0)
        for _ in range(self.rng.randint(1, 2)):
            self.default_leaf()

    def default_leaf(self):
        shape = tuple(self.rng.randint(1, 3) for _ in range(self.rng.randint(0, 2)))
        dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
        rg = ", requires_grad=True" if self.rng.random() < 0.7 else ""
        ints = self.tensors(lambda t: not t.dtype.is_floating_point and not t.is_complex())
        forms = [f"torch.tensor({_nested(self.rng, shape)}{rg})",
                 f"torch.ones(({dims}){rg}) * {_lit(self.rng)}",
                 f"torch.full(({dims}), {_lit(self.rng)}{rg})",
                 f"torch.arange(0., {self.rng.randint(1, 4)}{rg})",
                 f"torch.linspace(-1, 1, {self.rng.randint(1, 4)}{rg})",
                 f"torch.tensor([1, 2, 3]) * {_lit(self.rng)}",
                 f"torch.tensor({_lit(self.rng)}{rg})"]
        if ints:
            forms.append(f"{self.rng.choice(ints)} / 2")
        t = self.fresh()
        self.emit("default_leaf", f"{t} = {self.rng.choice(forms)}", (t,))

    def st_write_between(self):
        """A create_graph gradient, an in-place write through a view (of the gradient, of
        a tensor of its graph, or of such a tensor's detached alias), then a second
        gradient through the first."""
        a = self.pick(lambda t: t.requires_grad)
        if a is None:
            return
        x = self.rng.choice(self.roots())
        g = self.fresh("g")
        if not self.emit("grad", f"{g}, = torch.autograd.grad(({a} * {a}).sum(), [{x}], "
                                 f"create_graph=True, allow_unused=True)", (g,), cg=True) \
                or self.env.get(g) is None:  # x unused by a: nothing to differentiate again
            return
        targets = [n for n in (g, a, x) if isinstance(self.env.get(n), self.torch.Tensor)]
        targets += self.tensors(lambda t: t.requires_grad and not t.is_leaf)[:3]
        w = self.rng.choice(targets)
        r = self.rng.random()
        if r < 0.3:
            src, kind = f"{w}.view(-1)[0:1].mul_(2.0)", "view_mul_"
        elif r < 0.5:
            src, kind = f"{w}[{self.index_expr(w)}] = {_lit(self.rng)}", "setitem"
        elif r < 0.7 and self.env[w].dim() >= 2:
            src, kind = f"{w}.transpose(0, 1)[0].add_(1.0)", "transpose_add_"
        elif r < 0.85:
            src, kind = f"{w}.detach().view(-1)[0:1].add_(1.0)", "detach_view_add_"
        else:
            src, kind = f"with torch.no_grad(): {w}.view(-1).mul_(0.5)", "no_grad_view_mul_"
        self.emit(f"write_between:{kind}", src)
        if self.rng.random() < 0.7:
            g2 = self.fresh("g")
            self.emit("grad2", f"{g2}, = torch.autograd.grad({g}.sum(), [{x}], "
                               f"retain_graph=True, allow_unused=True)", (g2,))
        else:
            self.emit("grad.backward", f"{g}.sum().backward(retain_graph=True)")

    def st_grad_inplace(self):
        """An in-place op on a returned gradient: autograd.grad's result (that of a sum
        is an expanded, stride-0 tensor in PyTorch), or a leaf's .grad."""
        if not self.table["GRAD_INPLACE"]:
            return
        gs = [n for n in self.tensors() if n.startswith("g")]
        r = self.rng.random()
        if r < 0.5 or not gs:
            a = self.pick(lambda t: t.requires_grad)
            if a is None:
                return
            x = self.rng.choice(self.roots())
            root = self.rng.choice([f"{a}.sum()", f"{a}.expand(2, *{a}.shape).sum()",
                                    f"{a}.mean()", f"({a} * 2).sum()"])
            g = self.fresh("g")
            if not self.emit("grad", f"{g}, = torch.autograd.grad({root}, [{x}], "
                                     f"retain_graph=True, allow_unused=True)", (g,)):
                return
            if not isinstance(self.env.get(g), self.torch.Tensor):
                return
            target = g
        elif r < 0.8:
            target = self.rng.choice(gs)
        else:
            leaves = self.tensors(lambda t: t.is_leaf and t.grad is not None)
            if not leaves:
                return
            target = f"{self.rng.choice(leaves)}.grad"
        name, tpl = self.rng.choice(self.table["GRAD_INPLACE"])
        if name == "masked_fill_" and not _clear_sign(eval(target, self.env)):
            return  # Note [Signs within rounding]
        self.emit(f"grad_inplace:{name}", tpl.format(g=target))

    def roots(self):
        return self.tensors(lambda t: t.requires_grad)

    def st_backward(self):
        a = self.pick(lambda t: t.requires_grad)
        if a is None:
            return
        r = self.rng.random()
        rg = self.rng.random() < 0.7
        kw = "retain_graph=True" if rg else ""
        if r < 0.45:
            src = f"{a}.sum().backward({kw})"
        elif r < 0.6:
            src = f"{a}.backward(torch.ones_like({a}) * 0.5{', ' + kw if kw else ''})"
        elif r < 0.75:
            src = f"({a} * {a}).sum().backward(create_graph=True)"
        elif r < 0.85:
            b = self.pick(lambda t: t.requires_grad)
            src = f"torch.autograd.backward([{a}.sum(), {b}.sum()]{', ' + kw if kw else ''})"
        else:
            ins = sorted(set(self.rng.sample(self.roots(), min(2, len(self.roots())))))
            src = f"{a}.sum().backward(inputs=[{', '.join(ins)}]{', ' + kw if kw else ''})"
        self.emit("backward", src)

    def st_grad(self):
        a = self.pick(lambda t: t.requires_grad)
        if a is None:
            return
        ins = sorted(set(self.rng.sample(self.roots(), min(self.rng.randint(1, 2),
                                                            len(self.roots())))))
        cg = self.rng.random() < 0.5
        outs = [self.fresh("g") for _ in ins]
        go = f", torch.ones_like({a})" if self.rng.random() < 0.2 else ""
        root = a if go else f"{a}.sum()"
        src = (f"{', '.join(outs)}, = torch.autograd.grad({root}, [{', '.join(ins)}]{go}, "
               f"retain_graph=True, create_graph={cg}, allow_unused=True)")
        if not self.emit("grad", src, tuple(outs), cg=cg):
            return
        first = self.env.get(outs[0])
        if cg and first is not None and first.requires_grad and self.rng.random() < 0.6:
            g2 = self.fresh("g")
            self.emit("grad2", f"{g2}, = torch.autograd.grad({outs[0]}.sum(), [{ins[0]}], "
                               f"retain_graph=True, allow_unused=True)", (g2,))

    def st_transform(self):
        """torch.func over a unary op: its jvp (tangents through the forward-derivative
        table), or vmap over the first dim (the batching rules, or the per-sample loop)."""
        a = self.pick(lambda t: t.dtype.is_floating_point)
        if a is None or not self.table["UNARY"]:
            return
        name, tpl = self.rng.choice(self.table["UNARY"])
        if not _clear_of_bounds(tpl, self.env[a]):
            return  # Note [Bounds within rounding]
        nd = self.env[a].dim()
        vmapped = self.rng.random() < 0.5
        if vmapped and nd == 0:
            return
        d = [self.rng.randrange(-(nd - 1), nd - 1)] if vmapped and nd > 1 else self.dims(a)
        if "{d}" in tpl and (d is None or (vmapped and nd < 2)):
            return
        body = tpl.format(a="u", d=d[0] if d else 0)
        t = self.fresh()
        if vmapped:
            self.emit(f"vmap:{name}", f"{t} = torch.func.vmap(lambda u: {body})({a})", (t,))
        else:
            g = self.fresh("g")
            self.emit(f"jvp:{name}", f"{t}, {g} = torch.func.jvp(lambda u: {body}, ({a},), "
                                     f"(torch.ones_like({a}),))", (t, g))

    def st_grad_backward(self):
        leaves = self.tensors(lambda t: t.is_leaf and t.grad is not None and
                              t.grad.requires_grad)
        if leaves:
            a = self.rng.choice(leaves)
            self.emit("grad.backward", f"{a}.grad.sum().backward()")

    def st_compiled(self):
        """torch.compile of a random chain of the elementwise ops compiled mode fuses
        (Note [Fused blocks] in autograd_core/_dynamo/__init__.py): a contiguous float
        tensor of at most 128 elements, numbers and the input itself as other operands,
        called three times (the recording, the first replay that plans the block, a
        replay). PyTorch runs its aot_eager backend (no C++ compiler), whose grad_fn,
        CompiledFunctionBackward, the fused block's node gives too."""
        fl = (self.torch.float32, self.torch.float64)
        a = self.pick(lambda t: t.dtype in fl and t.numel() <= 128 and t.is_contiguous())
        if a is None:
            return
        expr = "u"
        for _ in range(self.rng.randint(2, 5)):
            r = self.rng.random()
            if r < 0.4:
                expr = f"torch.{self.rng.choice(_FUSED_UNARY)}({expr})"
            elif r < 0.8:
                op = self.rng.choice(["+", "-", "*", "/"])
                expr = f"({expr}) {op} {_lit(self.rng)}"
            else:
                expr = f"({expr}) {self.rng.choice(['+', '-', '*'])} u"
        t = self.fresh()
        self.emit("compiled:chain", f"{t} = (lambda f: [f({a}) for _ in range(3)][-1])("
                                    f"torch.compile(lambda u: {expr}, backend='aot_eager'))",
                  (t,), keep_error=0)

    # ------------------------------------------------------------- program
    def generate(self):
        for _ in range(self.rng.randint(1, 3)):
            self.leaf()
        steps = [(self.st_unary, 16), (self.st_binary, 14), (self.st_reduce, 7),
                 (self.st_view, 14), (self.st_getitem, 7), (self.st_inplace, 10),
                 (self.st_setitem, 5), (self.st_matmul, 3), (self.st_function, 4),
                 (self.st_misc, 7), (self.st_backward, 6), (self.st_grad, 5),
                 (self.st_grad_backward, 1), (lambda: self.leaf(), 4),
                 # issue 25's constructs
                 (self.st_seq_leaf, 3), (self.st_composite, 5), (self.st_default_dtype, 1),
                 (self.st_write_between, 3), (self.st_grad_inplace, 3),
                 # issue 26's torch.func statements
                 (self.st_transform, 3),
                 # issue 27's complex tensors
                 (self.st_complex, 4),
                 # issue 31's compiled mode (fused elementwise chains)
                 (self.st_compiled, 2)]
        fns, weights = zip(*steps)
        n = self.rng.randint(4, self.max_len)
        tries = 0
        while len(self.prog.stmts) < n and tries < 4 * n:
            tries += 1
            self.rng.choices(fns, weights)[0]()
        roots = self.roots()
        if roots:
            chosen = sorted(set(self.rng.sample(roots, min(3, len(roots)))))
            loss = " + ".join(f"({r} * {r}).sum()" if i % 2 else f"{r}.sum()"
                              for i, r in enumerate(chosen))
            self.emit("backward", f"({loss}).backward()", keep_error=1.0)
        if self.torch.get_default_dtype() != self.torch.float32:
            self.emit("default_dtype", "torch.set_default_dtype(torch.float32)", keep_error=0)
        return self.prog


def _safe(pred, t):
    """pred(t), False if reading t's flags raises (torch refuses to give the grad_fn of a
    view whose base was modified in a way it forbids)."""
    try:
        return bool(pred(t))
    except Exception:  # noqa: BLE001
        return False


# Note [Signs within rounding]: `t > 0` (a mask for getitem/setitem, where's condition)
# on a float32 tensor holding a value within rounding of 0 has no defined answer: a
# float32 result is right within a rounding (Note [Mixed precision] in run.py), and
# PyTorch's own differ in the last place between its vectorised (SLEEF) and scalar
# paths, so the sign of logit(sigmoid(x)) - x, say, depends on the kernel (seed 716129:
# 0 in PyTorch, 1 ulp of 1 here, and where() then picks another operand). Such masks
# are not drawn: a float32 (or narrower) tensor is masked by its sign only when every
# value is clear of 0 by more than the float32 tolerance run.py compares at. float64
# keeps every mask (its exact cancellations are the library's to get right).
_LOW_SIGN_MARGIN = 1e-4


def _clear_sign(t):
    try:
        if t.dtype.is_floating_point and t.dtype.itemsize < 8:
            return bool((t.detach().abs() > _LOW_SIGN_MARGIN).all())
    except Exception:  # noqa: BLE001
        pass
    return True


# Note [Bounds within rounding]: clamp's gradient (and its jvp) is the incoming one
# where min <= x <= max and 0 outside, so a value within rounding of a bound has no
# defined gradient: two correct libraries computing it one ulp apart pass or stop it
# (seed 18000971: conv2d's -0.9 * 0.5 + 0.1 * -1.5 is -0.6000000000000001 in PyTorch,
# which sums the two rounded products, and -0.6 here, the exact sum rounded once; clamp
# at -0.6 then stops the gradient in one and passes it in the other, 0.5 apart, far
# beyond any tolerance). clamp and clamp_ are drawn only on tensors clear of their
# bounds (read from the op table's template) by more than rounding. float64
# included: unlike an exact cancellation to 0 (Note [Signs within rounding]), a bound
# like -0.6 is not representable, so which side of it a value lands is rounding alone.
_CLAMP = re.compile(r"clamp_?\((?:[^,]+, )?(-?[\d.]+), (-?[\d.]+)\)")
_BOUND_MARGIN_F64 = 1e-9


def _clear_of_bounds(tpl, t):
    """False when the op template tpl clamps (bounds read from it) and a value of t lies
    within rounding of a bound (Note [Bounds within rounding])."""
    m = _CLAMP.search(tpl)
    if not m:
        return True
    try:
        if t.dtype.is_floating_point and t.numel():
            margin = _BOUND_MARGIN_F64 if t.dtype.itemsize >= 8 else _LOW_SIGN_MARGIN
            v = t.detach().double()
            return all(bool(((v - float(b)).abs() > margin).all()) for b in m.groups())
    except Exception:  # noqa: BLE001
        pass
    return True


# binary ops whose second operand must be a tensor (a number becomes full_like)
_TENSOR_ONLY = {"div", "maximum", "minimum", "atan2", "hypot", "lerp", "where", "addcmul"}


def _broadcasts_to(shape, target):
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False


def generate(seed, torch_mod, table, max_len=24):
    """The program of this seed (table: available(autograd_core))."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return Generator(seed, torch_mod, table, max_len).generate()
        finally:  # a program may set another default dtype (st_default_dtype)
            torch_mod.set_default_dtype(torch_mod.float32)
