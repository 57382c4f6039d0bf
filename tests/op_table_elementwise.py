"""Op-table entries for the elementwise ops.

Collected by op_table.py (see op_spec.py for the format).
Ops whose natural domain is bounded (asin, acos, atanh, acosh, logit, tan) get their
input through a smooth map into it (e.g. ``0.9 * x.tanh()``); the op is still the
output's grad_fn.  Ops that PyTorch makes raise in backward (floor_divide's
``NotImplemented``, ``asinh_``'s ``AsinhBackward1``) and the random ops are tested in
test_elementwise.py.
"""
from op_spec import C, registrar

OPS = []
op = registrar(OPS)


# Node classes that no table entry can carry (backward through them raises by design,
# so the table's backward checks cannot run); test_elementwise.py checks each against torch.
GRAD_FN_ALLOWLIST = {
    "AsinhBackward1": "asinh_ with grad: PyTorch's backward raises NotImplementedError "
                      "(test_elementwise.py::test_inplace_not_implemented)",
    "AcoshBackward1": "acosh_, as AsinhBackward1",
    "SpecialZetaBackward2": "zeta(tensor, number): its only input's derivative is PyTorch's "
                            "not_implemented (test_special.py::test_zeta_gradients)",
    "AtanhBackward1": "atanh_, as AsinhBackward1",
    "NormalBackward0": "normal_ (random values): test_elementwise.py::test_random_inplace_grad",
    "UniformBackward0": "uniform_ (random values), as NormalBackward0",
    "RandomBackward0": "random_(from, to) (random values), as NormalBackward0",
    "RandomBackward1": "random_(to) (random values), as NormalBackward0",
    "RandomBackward2": "random_() (random values), as NormalBackward0",
    "NotImplemented": "floor_divide's and (scalar % tensor)'s grad_fn, whose backward raises: "
                      "test_elementwise.py::test_not_implemented_node; also binomial's "
                      "(test_random_streams.py::test_poisson_binomial_nodes_and_errors)",
    # samplers (random values; zero derivatives as PyTorch's):
    # test_random_streams.py::test_sampler_errors_and_nodes / test_normal_nodes_and_errors
    "ExponentialBackward0": "exponential_",
    "GeometricBackward0": "geometric_",
    "LogNormalBackward0": "log_normal_",
    "CauchyBackward0": "cauchy_",
    "BernoulliBackward0": "bernoulli(p)",
    "BernoulliBackward1": "bernoulli_(Tensor p)",
    "BernoulliBackward2": "bernoulli_(float p)",
    "NormalBackward1": "normal(Tensor mean, float std)",
    "NormalBackward2": "normal(float mean, Tensor std)",
    "NormalBackward3": "normal(Tensor mean, Tensor std)",
    "PoissonBackward0": "poisson (test_poisson_binomial_nodes_and_errors)",
    "StandardGammaBackward0": "_standard_gamma (random values, a reparameterised derivative): "
                              "test_distributions.py::test_standard_gamma_op_and_gradient",
    "StandardGammaGradBackward0": "_standard_gamma_grad, whose backward raises: "
                                  "test_distributions.py::test_gamma_op_errors",
}

_U = [C(()), C((5,)), C((3, 4)), C((2, 3, 4)), C((4, 3), nc=("t",)), C((3, 2), nc=("step",))]
_U_SMALL = [C(()), C((5,)), C((3, 4))]


def unary(name, grad_fn, domain="real", pre=None, second_order=True, cases=None, method=True,
          inplace=True, extra=()):
    """Function form, method form and in-place form (on a non-leaf copy)."""
    if pre is None:
        cs = list(_U if cases is None else cases) + list(extra)
        op(name, lambda m, x: getattr(m, name)(x), cs, (grad_fn,), domain=domain,
           second_order=second_order)
        if method:
            op(name + ".method", lambda m, x: getattr(x, name)(), [C((3, 4)), C(())],
               (grad_fn,), domain=domain, second_order=second_order)
        if inplace:
            op(name + "_", lambda m, x: getattr(x * 1, name + "_")(),
               [C((3, 4)), C(())], (grad_fn,), domain=domain, second_order=second_order)
        return
    cs = list(_U_SMALL if cases is None else cases) + list(extra)
    op(name, lambda m, x: getattr(m, name)(pre(x)), cs, (grad_fn,), domain=domain,
       second_order=second_order)
    if method:
        op(name + ".method", lambda m, x: getattr(pre(x), name)(), [C((3, 4))], (grad_fn,),
           domain=domain, second_order=second_order)
    if inplace:
        op(name + "_", lambda m, x: getattr(pre(x) * 1, name + "_")(), [C((3, 4)), C(())],
           (grad_fn,), domain=domain, second_order=second_order)


def _bounded(x):
    return x.tanh() * 0.9


unary("exp2", "Exp2Backward0")
unary("expm1", "Expm1Backward0")
unary("log2", "Log2Backward0", "positive")
unary("log10", "Log10Backward0", "positive")
unary("log1p", "Log1PBackward0", "positive")
unary("rsqrt", "RsqrtBackward0", "positive")
unary("tan", "TanBackward0", pre=lambda x: x.tanh())
unary("asin", "AsinBackward0", pre=_bounded)
unary("acos", "AcosBackward0", pre=_bounded)
unary("atan", "AtanBackward0")
unary("sinh", "SinhBackward0")
unary("cosh", "CoshBackward0")
unary("asinh", "AsinhBackward0", inplace=False)
unary("acosh", "AcoshBackward0", "positive", pre=lambda x: x + 1, inplace=False)
unary("atanh", "AtanhBackward0", pre=_bounded, inplace=False)
unary("erf", "ErfBackward0")
unary("erfc", "ErfcBackward0")
unary("reciprocal", "ReciprocalBackward0", "nonzero")
unary("square", "PowBackward0")
unary("sign", "SignBackward0", "nonzero", second_order=False)
unary("angle", "AngleBackward0", "nonzero", second_order=False, inplace=False)
# sgn's derivative is a ZeroTensor in PyTorch (no numpy()): add x so the leaf's grad is real
op("sgn", lambda m, x: m.sgn(x) + x, [C((3, 4)), C(()), C((4, 3), nc=("t",))], ("AddBackward0",),
   domain="nonzero", inner_grad_fns=("SgnBackward0",), second_order=False)
op("sgn.method", lambda m, x: x.sgn() + x, [C((3, 4))], ("AddBackward0",), domain="nonzero",
   inner_grad_fns=("SgnBackward0",), second_order=False)
op("sgn_", lambda m, x: (x * 1).sgn_() + x, [C((3, 4))], ("AddBackward0",), domain="nonzero",
   inner_grad_fns=("SgnBackward0",), second_order=False)
unary("floor", "FloorBackward0", second_order=False)
unary("ceil", "CeilBackward0", second_order=False)
unary("round", "RoundBackward0", second_order=False)
unary("trunc", "TruncBackward0", second_order=False)
unary("frac", "FracBackward0", second_order=False)
unary("nan_to_num", "NanToNumBackward0", second_order=False)
# logit(sigmoid(x)) is x (clamped to [eps, 1 - eps] with eps): no second derivative
unary("logit", "LogitBackward0", pre=lambda x: x.sigmoid(), second_order=False)

# aliases
op("arcsin", lambda m, x: m.arcsin(_bounded(x)), [C((3, 4))], ("AsinBackward0",))
op("arctan.method", lambda m, x: x.arctan(), [C((3, 4))], ("AtanBackward0",))
op("fix", lambda m, x: m.fix(x), [C((3, 4))], ("TruncBackward0",), second_order=False)
op("negative", lambda m, x: m.negative(x), [C((3, 4))], ("NegBackward0",), second_order=False)
op("absolute.method", lambda m, x: x.absolute(), [C((3, 4), domain="zeros")], ("AbsBackward0",),
   second_order=False)

# unary ops with arguments
op("round.decimals", lambda m, x: m.round(x * 10, decimals=2), [C((3, 4)), C(())],
   ("RoundBackward1",), second_order=False)
op("round.decimals_neg", lambda m, x: (x * 100).round(decimals=-1), [C((3, 4))],
   ("RoundBackward1",), second_order=False)
op("round_.decimals", lambda m, x: (x * 10).round_(decimals=1), [C((3, 4))],
   ("RoundBackward1",), second_order=False)
op("logit.eps", lambda m, x: m.logit(x.sigmoid(), eps=0.2), [C((3, 4)), C((5,))],
   ("LogitBackward0",), second_order=False)
op("logit.eps_method", lambda m, x: x.sigmoid().logit(0.1), [C((3, 4))], ("LogitBackward0",),
   second_order=False)
op("logit.no_pre", lambda m, x: m.logit(x), [C((3, 4))], ("LogitBackward0",), gradcheck=False)
def _nonfinite(m, x):
    """nan (log of negatives), -inf and +inf (log of 0), and finite values."""
    return m.cat([m.log(x), m.log(x * 0), -m.log(x * 0), x])


def _signed(m, x):
    """Signed values, -0.0 (x * 0 for negative x), -inf and +inf, without nan (whose sign
    bit differs between libms)."""
    return m.cat([x, x * 0, m.log((x * 0).abs()), -m.log((x * 0).abs())])


op("nan_to_num.nonfinite",
   lambda m, x: m.nan_to_num(_nonfinite(m, x), nan=1.5, posinf=2.0, neginf=-3.0),
   [C((3, 4)), C((4, 3), nc=("t",))], ("NanToNumBackward0",), gradcheck=False)
op("nan_to_num_.nonfinite", lambda m, x: _nonfinite(m, x).nan_to_num_(),
   [C((3, 4))], ("NanToNumBackward0",), gradcheck=False)

# in-place forms of the core unary ops (_ops.pxi)
for _name, _node, _dom, _so in [
        ("exp", "ExpBackward0", "real", True), ("log", "LogBackward0", "positive", True),
        ("sqrt", "SqrtBackward0", "positive", True), ("sin", "SinBackward0", "real", True),
        ("cos", "CosBackward0", "real", True), ("tanh", "TanhBackward0", "real", True),
        ("sigmoid", "SigmoidBackward0", "real", True),
        ("relu", "ReluBackward0", "nonzero", False), ("neg", "NegBackward0", "real", False),
        ("abs", "AbsBackward0", "nonzero", False)]:
    _cs = [C((3, 4), domain="zeros"), C((5,), domain="zeros")] if _name in ("abs", "relu") \
        else [C((3, 4)), C(())]
    op(_name + "_", (lambda n: lambda m, x: getattr(x * 1, n + "_")())(_name), _cs, (_node,),
       domain=_dom, second_order=_so)


# ------------------------------------------------------------------ binary

# rsub as a function (the `number - tensor` operator is in op_table_core.py)
op("rsub.fn", lambda m, a, b: m.rsub(a, b), [C((3, 4), (3, 4)), C((3, 4), (4,)), C((3,), ())],
   ("RsubBackward0",), second_order=False)
op("rsub.fn_alpha", lambda m, a, b: m.rsub(a, b, alpha=2), [C((3, 4), (3, 1))],
   ("RsubBackward0",), second_order=False)
op("rsub.fn_scalar", lambda m, a: m.rsub(a, 2.5, alpha=3), [C((3, 4))], ("RsubBackward1",),
   second_order=False)

_TT = [C((3, 4), (3, 4)), C((3, 4), (4,)), C((3, 1), (1, 4)), C((), (2, 3)), C((2, 3), ()),
       C((3, 4), (3, 4), nc=("t", "step")), C((3, 4), (3, 4), ng=(1,)),
       C((3, 4), (3, 4), ng=(0,))]
_TT_SMALL = [C((3, 4), (3, 4)), C((3, 1), (4,)), C((), ())]

op("div.trunc", lambda m, a, b: m.div(a, b, rounding_mode="trunc"), _TT, ("DivBackward2",),
   domain=("real", "nonzero"), second_order=False)
op("div.floor", lambda m, a, b: m.div(a * 3, b, rounding_mode="floor"), _TT,
   ("DivBackward2",), domain=("real", "nonzero"), second_order=False)
op("div.none_mode", lambda m, a, b: m.div(a, b, rounding_mode=None), _TT, ("DivBackward2",),
   domain=("real", "nonzero"))
op("div.mode_scalar", lambda m, a: a.div(0.7, rounding_mode="floor"), [C((3, 4)), C(())],
   ("DivBackward2",), second_order=False)
op("div.none_mode_scalar", lambda m, a: m.div(a, 3, rounding_mode=None), [C((3, 4))],
   ("DivBackward2",), second_order=False)
op("div.mode_scalar_first", lambda m, a: m.div(2.5, a, rounding_mode="trunc"), [C((3, 4))],
   ("DivBackward2",), domain="nonzero", second_order=False)
op("div.default_kw_method", lambda m, a, b: a.div(b), [C((3, 4), (4,))], ("DivBackward0",),
   domain=("real", "nonzero"))
op("divide", lambda m, a, b: m.divide(a, b, rounding_mode="floor"), [C((3, 4), (3, 4))],
   ("DivBackward2",), domain=("real", "nonzero"), second_order=False)
op("div_.floor", lambda m, a, b: (a * 5).div_(b, rounding_mode="floor"), [C((3, 4), (4,))],
   ("DivBackward2",), domain=("real", "nonzero"), second_order=False)
op("div_.none_mode", lambda m, a, b: (a * 1).div_(b, rounding_mode=None), [C((3, 4), (4,))],
   ("DivBackward2",), domain=("real", "nonzero"))
op("true_divide.method", lambda m, a, b: a.true_divide(b), [C((3, 4), (3, 4))],
   ("DivBackward0",), domain=("real", "nonzero"))
op("floor_divide.values", lambda m, a, b: m.floor_divide(a * 4, b), [C((3, 4), (3, 4), ng=(0, 1))],
   (), domain=("real", "nonzero"), second_order=False)
op("floordiv.op_values", lambda m, a, b: (a * 4) // b, [C((3, 4), (4,), ng=(0, 1))], (),
   domain=("real", "nonzero"), second_order=False)

_MOD = _TT + [C((3, 4), 0.7), C((3, 4), -1.3)]
op("remainder", lambda m, a, b: m.remainder(a * 3, b), _MOD,
   ("RemainderBackward0", "RemainderBackward1"), domain=("real", "nonzero"), second_order=False)
op("remainder.op", lambda m, a, b: a % b, [C((3, 4), (3, 4)), C((3, 4), 0.6)],
   ("RemainderBackward0", "RemainderBackward1"), domain=("real", "nonzero"), second_order=False)
op("remainder.method", lambda m, a, b: a.remainder(b), [C((3, 4), (4,))],
   ("RemainderBackward1",), domain=("real", "nonzero"), second_order=False)
op("remainder_", lambda m, a, b: (a * 2).remainder_(b), [C((3, 4), (4,)), C((3, 4), 0.5)],
   ("RemainderBackward0", "RemainderBackward1"), domain=("real", "nonzero"), second_order=False)
op("fmod", lambda m, a, b: m.fmod(a * 3, b), _MOD, ("FmodBackward0", "FmodBackward1"),
   domain=("real", "nonzero"), second_order=False)
op("fmod_", lambda m, a, b: (a * 2).fmod_(b), [C((3, 4), (4,)), C((3, 4), 0.5)],
   ("FmodBackward0", "FmodBackward1"), domain=("real", "nonzero"), second_order=False)

op("atan2", lambda m, a, b: m.atan2(a, b), _TT, ("Atan2Backward0",), domain=("nonzero", "real"))
op("atan2.method", lambda m, a, b: a.arctan2(b), [C((3, 4), (4,))], ("Atan2Backward0",),
   domain=("nonzero", "real"))
op("atan2_", lambda m, a, b: (a * 1).atan2_(b), [C((3, 4), (4,))], ("Atan2Backward0",),
   domain=("nonzero", "real"))
op("hypot", lambda m, a, b: m.hypot(a, b), _TT, ("HypotBackward0",))
op("hypot.method", lambda m, a, b: a.hypot(b), [C((3, 4), (3, 1))], ("HypotBackward0",))
op("hypot_", lambda m, a, b: (a * 1).hypot_(b), [C((3, 4), (4,))], ("HypotBackward0",))

_MAXMIN = _TT + [C((3, 4), (3, 4), domain="ties", id="ties"),
                 C((4,), (3, 4), domain="ties", id="ties-broadcast")]
op("maximum", lambda m, a, b: m.maximum(a, b), _MAXMIN, ("MaximumBackward0",),
   domain="distinct", second_order=False)
op("maximum.method", lambda m, a, b: a.maximum(b), [C((3, 4), (4,))], ("MaximumBackward0",),
   domain="distinct", second_order=False)
op("minimum", lambda m, a, b: m.minimum(a, b), _MAXMIN, ("MinimumBackward0",),
   domain="distinct", second_order=False)
op("minimum.method", lambda m, a, b: a.minimum(b), [C((3, 4), (4,))], ("MinimumBackward0",),
   domain="distinct", second_order=False)

# ------------------------------------------------------------------ clamp

_CL = [C((3, 4)), C(()), C((4, 3), nc=("t",)), C((2, 3, 4))]
op("clamp", lambda m, x: m.clamp(x, -0.5, 0.5), _CL, ("ClampBackward1",), second_order=False)
op("clamp.min", lambda m, x: m.clamp(x, min=-0.2), _CL, ("ClampBackward1",), second_order=False)
op("clamp.max", lambda m, x: x.clamp(max=0.3), _CL, ("ClampBackward1",), second_order=False)
op("clamp.inverted", lambda m, x: x.clamp(0.5, -0.5), [C((3, 4))], ("ClampBackward1",),
   second_order=False)
op("clip", lambda m, x: m.clip(x, -1, 1), [C((3, 4))], ("ClampBackward1",), second_order=False)
op("clamp_", lambda m, x: (x * 1).clamp_(-0.5, 0.5), [C((3, 4))], ("ClampBackward1",),
   second_order=False)
op("clip_", lambda m, x: (x * 1).clip_(min=0.1), [C((3, 4))], ("ClampBackward1",),
   second_order=False)
op("clamp_min", lambda m, x: m.clamp_min(x, 0.2), [C((3, 4)), C(())], ("ClampMinBackward0",),
   second_order=False)
op("clamp_max", lambda m, x: x.clamp_max(0.2), [C((3, 4)), C(())], ("ClampMaxBackward0",),
   second_order=False)
op("clamp_min_", lambda m, x: (x * 1).clamp_min_(-0.1), [C((3, 4))], ("ClampMinBackward0",),
   second_order=False)
op("clamp_max_", lambda m, x: (x * 1).clamp_max_(-0.1), [C((3, 4))], ("ClampMaxBackward0",),
   second_order=False)
_CLT = [C((3, 4), (3, 4), (3, 4)), C((3, 4), (4,), ()), C((4,), (3, 1), (3, 4)),
        C((3, 4), (3, 4), (3, 4), nc=("t", None, "step")), C((3, 4), (3, 4), (3, 4), ng=(0,)),
        C((3, 4), (3, 4), (3, 4), ng=(1, 2))]
op("clamp.tensor", lambda m, x, lo, hi: m.clamp(x, lo - 0.5, hi + 0.5), _CLT,
   ("ClampBackward0",), second_order=False)
op("clamp.tensor_min", lambda m, x, lo: m.clamp(x, min=lo), _TT, ("ClampBackward0",),
   second_order=False)
op("clamp.tensor_max", lambda m, x, hi: x.clamp(max=hi), _TT, ("ClampBackward0",),
   second_order=False)
op("clamp_.tensor", lambda m, x, lo, hi: (x * 1).clamp_(lo - 0.5, hi + 0.5),
   [C((3, 4), (4,), (3, 1))], ("ClampBackward0",), second_order=False)
op("clamp_min.tensor", lambda m, x, lo: m.clamp_min(x, lo), _TT, ("ClampMinBackward1",),
   second_order=False)
op("clamp_max.tensor", lambda m, x, hi: x.clamp_max(hi), _TT, ("ClampMaxBackward1",),
   second_order=False)
op("clamp_min_.tensor", lambda m, x, lo: (x * 1).clamp_min_(lo), [C((3, 4), (4,))],
   ("ClampMinBackward1",), second_order=False)

# ------------------------------------------------------------------ lerp, addcmul, addcdiv

op("lerp.scalar", lambda m, a, b: m.lerp(a, b, 0.3), _TT, ("LerpBackward0",),
   second_order=False)
op("lerp.scalar_big", lambda m, a, b: a.lerp(b, 0.8), [C((3, 4), (3, 4))], ("LerpBackward0",),
   second_order=False)
op("lerp.tensor", lambda m, a, b, w: m.lerp(a, b, w),
   [C((3, 4), (3, 4), (3, 4)), C((3, 4), (4,), (3, 1)), C((), (3,), ()),
    C((3, 4), (3, 4), (3, 4), nc=("t", "step", None)), C((3, 4), (3, 4), (3, 4), ng=(2,)),
    C((3, 4), (3, 4), (3, 4), ng=(0, 1))],
   ("LerpBackward1",))
op("lerp_", lambda m, a, b, w: (a * 1).lerp_(b, w), [C((3, 4), (4,), (3, 4))],
   ("LerpBackward1",))
op("lerp_.scalar", lambda m, a, b: (a * 1).lerp_(b, 0.6), [C((3, 4), (3, 4))],
   ("LerpBackward0",), second_order=False)

_ADDC = [C((3, 4), (3, 4), (3, 4)), C((3, 4), (4,), (3, 1)), C((), (3,), ()),
         C((3, 4), (3, 4), (3, 4), nc=(None, "t", "step")), C((3, 4), (3, 4), (3, 4), ng=(1,)),
         C((3, 4), (3, 4), (3, 4), ng=(0, 2))]
op("addcmul", lambda m, x, a, b: m.addcmul(x, a, b), _ADDC, ("AddcmulBackward0",))
op("addcmul.value", lambda m, x, a, b: x.addcmul(a, b, value=-1.5), [C((3, 4), (3, 4), (4,))],
   ("AddcmulBackward0",))
op("addcmul_", lambda m, x, a, b: (x * 1).addcmul_(a, b, value=2), [C((3, 4), (4,), (3, 4))],
   ("AddcmulBackward0",))
op("addcdiv", lambda m, x, a, b: m.addcdiv(x, a, b), _ADDC, ("AddcdivBackward0",),
   domain=("real", "real", "nonzero"))
op("addcdiv.value", lambda m, x, a, b: x.addcdiv(a, b, value=0.5), [C((3, 4), (3, 4), (4,))],
   ("AddcdivBackward0",), domain=("real", "real", "nonzero"))
op("addcdiv_", lambda m, x, a, b: (x * 1).addcdiv_(a, b, value=-2), [C((3, 4), (4,), (3, 4))],
   ("AddcdivBackward0",), domain=("real", "real", "nonzero"))

# ------------------------------------------------------------------ where (method form)

op("where.method", lambda m, a, b: a.where(a > 0, b), [C((3, 4), (3, 4)), C((3, 4), (4,))],
   ("WhereBackward0",), domain="nonzero", second_order=False)
op("where.method_scalar", lambda m, a: a.where(a < 0, 1.5), [C((3, 4))], ("WhereBackward0",),
   domain="nonzero", second_order=False)

# ------------------------------------------------------------------ comparisons, logical, predicates
# (bool outputs: no grad_fn even when the inputs require grad)

for _name in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
              "less_equal", "not_equal"):
    op("cmp." + _name, (lambda n: lambda m, a, b: getattr(m, n)(a, b))(_name),
       [C((3, 4), (3, 4), domain="ties"), C((3, 4), (4,)), C((3, 4), 0.0), C((), (3,))], (),
       second_order=False)
    op("cmp." + _name + ".method", (lambda n: lambda m, a, b: getattr(a, n)(b))(_name),
       [C((3, 4), (3, 4), domain="ties"), C((3, 4), 1)], (), second_order=False)

for _name, _n0, _n1 in [("eq", "EqBackward0", "EqBackward1"), ("ne", "NeBackward0", "NeBackward1"),
                        ("lt", "LtBackward0", "LtBackward1"), ("le", "LeBackward0", "LeBackward1"),
                        ("gt", "GtBackward0", "GtBackward1"), ("ge", "GeBackward0", "GeBackward1")]:
    op("cmp." + _name + "_", (lambda n: lambda m, a, b: getattr(a * 1, n + "_")(b))(_name),
       [C((3, 4), (3, 4)), C((3, 4), (4,)), C((3, 4), (3, 4), ng=(1,)), C((3, 4), 0.25)],
       (_n0, _n1), second_order=False)

for _name in ("logical_and", "logical_or", "logical_xor"):
    op(_name, (lambda n: lambda m, a, b: getattr(m, n)(a, b))(_name),
       [C((3, 4), (3, 4), domain="zeros"), C((3, 4), (4,), domain="zeros")], (),
       second_order=False)
    op(_name + ".method", (lambda n: lambda m, a, b: getattr(a, n)(b))(_name),
       [C((3, 4), (3, 4), domain="zeros")], (), second_order=False)
op("logical_not", lambda m, a: m.logical_not(a), [C((3, 4), domain="zeros")], (),
   second_order=False)
op("logical_not.method", lambda m, a: a.logical_not(), [C((3, 4), domain="zeros")], (),
   second_order=False)
for _name in ("isnan", "isinf", "isfinite", "isposinf", "isneginf", "signbit"):
    _pre = _signed if _name == "signbit" else _nonfinite
    op(_name, (lambda n, p: lambda m, a: getattr(m, n)(p(m, a)))(_name, _pre),
       [C((3, 4)), C((4, 3), nc=("t",))], (), second_order=False)
    op(_name + ".method", (lambda n: lambda m, a: getattr(a, n)())(_name), [C((3, 4))], (),
       second_order=False)


# ------------------------------------------------------------------ more elementwise math
# (special functions, binary float ops; integer-only ops and errors: test_pointwise_more.py)

unary("deg2rad", "Deg2RadBackward0", second_order=False)
unary("rad2deg", "Rad2DegBackward0", second_order=False)
# sinc's derivative cancels near 0: float32 second derivatives there differ with the libm
unary("sinc", "SincBackward0", "positive")
op("sinc.near_zero", lambda m, x: m.sinc(x), [C((3, 4)), C((5,))], ("SincBackward0",),
   dtypes=("float64",))
unary("lgamma", "LgammaBackward0", "positive")
unary("digamma", "DigammaBackward0", "positive")
unary("erfinv", "ErfinvBackward0", pre=_bounded)
unary("i0", "I0Backward0")
op("lgamma.negative", lambda m, x: m.lgamma(x - 3.5), [C((3, 4))], ("LgammaBackward0",),
   domain="nonzero")
op("digamma.negative", lambda m, x: m.digamma(x * 0.2 - 2.5), [C((3, 4))], ("DigammaBackward0",))
op("i0.large", lambda m, x: m.i0(x * 30), [C((3, 4))], ("I0Backward0",))
op("i0.at_zero", lambda m, x: m.i0(x * 0), [C((3, 4))], ("I0Backward0",), gradcheck=False,
   second_order=False)
for _n in (0, 1, 2, 3):
    op(f"polygamma.{_n}", (lambda n: lambda m, x: m.polygamma(n, x))(_n), [C((3, 4)), C(())],
       ("PolygammaBackward0",), domain="positive")
op("polygamma.negative_x", lambda m, x: m.polygamma(1, x * 0.2 - 1.5), [C((3, 4))],
   ("PolygammaBackward0",))
op("polygamma.method", lambda m, x: x.polygamma(2), [C((3, 4))], ("PolygammaBackward0",),
   domain="positive")
op("polygamma_", lambda m, x: (x * 1).polygamma_(1), [C((3, 4))], ("PolygammaBackward1",),
   domain="positive")
op("mvlgamma", lambda m, x: m.mvlgamma(x + 1.5, 3), [C((3, 4)), C(())], ("MvlgammaBackward0",),
   domain="positive")
op("mvlgamma.method", lambda m, x: (x + 0.1).mvlgamma(1), [C((3, 4))], ("MvlgammaBackward0",),
   domain="positive")
op("mvlgamma_", lambda m, x: (x + 1).mvlgamma_(p=2), [C((3, 4))], ("MvlgammaBackward0",),
   domain="positive")
op("frexp", lambda m, x: m.frexp(x * 10).mantissa, [C((3, 4)), C(()), C((4, 3), nc=("t",))],
   ("FrexpBackward0",), domain="nonzero", second_order=False)
op("frexp.method", lambda m, x: x.frexp()[0], [C((3, 4))], ("FrexpBackward0",),
   domain="nonzero", second_order=False)
op("positive", lambda m, x: m.positive(x * 2), [C((3, 4))], ("MulBackward0",),
   second_order=False)

op("copysign", lambda m, a, b: m.copysign(a, b), _TT, ("CopysignBackward0",),
   domain=("nonzero", "nonzero"), second_order=False)
op("copysign.scalar", lambda m, a: m.copysign(a, -1.5), [C((3, 4)), C(())],
   ("CopysignBackward1",), domain="nonzero", second_order=False)
op("copysign.method", lambda m, a, b: a.copysign(b), [C((3, 4), (4,))], ("CopysignBackward0",),
   domain=("nonzero", "nonzero"), second_order=False)
op("copysign_", lambda m, a, b: (a * 1).copysign_(b), [C((3, 4), (4,))],
   ("CopysignBackward0",), domain=("nonzero", "nonzero"), second_order=False)
op("float_power", lambda m, a, b: m.float_power(a, b), _TT_SMALL, ("PowBackward1",),
   domain=("positive", "real"))
op("float_power.float32", lambda m, a, b: m.float_power(a.float(), b), [C((3, 4), (4,))],
   ("PowBackward1",), domain=("positive", "real"), inner_grad_fns=("ToCopyBackward0",),
   dtypes=("float64",), gradcheck=False)
op("float_power.scalar", lambda m, a: m.float_power(a, 2.5), [C((3, 4))], ("PowBackward0",),
   domain="positive")
op("float_power.scalar_base", lambda m, a: m.float_power(1.5, a), [C((3, 4))],
   ("PowBackward2",))
op("float_power.method", lambda m, a, b: a.float_power(b), [C((3, 4), (3, 4))],
   ("PowBackward1",), domain=("positive", "real"))
op("float_power_", lambda m, a, b: (a.double() * 1).float_power_(b), [C((3, 4), (4,))],
   ("PowBackward1",), domain=("positive", "real"))
op("fmax", lambda m, a, b: m.fmax(a, b), _MAXMIN, ("FmaxBackward0",), domain="distinct",
   second_order=False)
op("fmin", lambda m, a, b: m.fmin(a, b), _MAXMIN, ("FminBackward0",), domain="distinct",
   second_order=False)
op("fmax.method", lambda m, a, b: a.fmax(b), [C((3, 4), (4,))], ("FmaxBackward0",),
   domain="distinct", second_order=False)
op("fmax.nan", lambda m, a, b: m.fmax(m.log(a), b), [C((3, 4), (3, 4))], ("FmaxBackward0",),
   domain="distinct", gradcheck=False)
op("fmin.nan", lambda m, a, b: m.fmin(a, m.log(b)), [C((3, 4), (3, 4))], ("FminBackward0",),
   domain="distinct", gradcheck=False)
op("logaddexp", lambda m, a, b: m.logaddexp(a, b), _TT, ("LogaddexpBackward0",))
op("logaddexp2", lambda m, a, b: m.logaddexp2(a, b), _TT, ("Logaddexp2Backward0",))
op("logaddexp.method", lambda m, a, b: a.logaddexp(b * 40), [C((3, 4), (4,))],
   ("LogaddexpBackward0",))
op("ldexp", lambda m, a, b: m.ldexp(a, b), _TT, ("LdexpBackward0",))
op("ldexp_", lambda m, a, b: (a * 1).ldexp_(b), [C((3, 4), (4,))], ("LdexpBackward0",))
op("nextafter", lambda m, a, b: m.nextafter(a, b), _TT_SMALL, ("NextafterBackward0",),
   second_order=False)
op("nextafter_", lambda m, a, b: (a * 1).nextafter_(b), [C((3, 4), (3, 4))],
   ("NextafterBackward0",), second_order=False)
op("xlogy", lambda m, a, b: m.xlogy(a, b), _TT, ("XlogyBackward0",), domain=("real", "positive"))
op("xlogy.zeros", lambda m, a, b: m.xlogy(a, b - 1), [C((3, 4), (3, 4))], ("XlogyBackward0",),
   domain=("zeros", "real"), gradcheck=False)
op("xlogy.scalar_other", lambda m, a: m.xlogy(a, 2.5), [C((3, 4)), C(())], ("XlogyBackward2",),
   second_order=False)
op("xlogy.scalar_other_neg", lambda m, a: m.xlogy(a, -2.0), [C((3, 4), domain="zeros")],
   ("XlogyBackward2",), gradcheck=False, second_order=False)
op("xlogy.scalar_self", lambda m, b: m.xlogy(3.0, b), [C((3, 4))], ("XlogyBackward1",),
   domain="positive")
op("xlogy.method", lambda m, a, b: a.xlogy(b), [C((3, 4), (4,))], ("XlogyBackward0",),
   domain=("real", "positive"))
op("xlogy_", lambda m, a, b: (a * 1).xlogy_(b), [C((3, 4), (4,)), C((3, 4), 0.5)],
   ("XlogyBackward0", "XlogyBackward2"), domain=("real", "positive"))
# igamma's derivative in its first argument raises in PyTorch: only `other` needs grad
_IG = [C((3, 4), (3, 4), ng=(0,)), C((3, 4), (4,), ng=(0,)), C((), (2, 3), ng=(0,))]
op("igamma", lambda m, a, b: m.igamma(a, b * 2), _IG, ("IgammaBackward0",), domain="positive")
op("igammac", lambda m, a, b: m.igammac(a * 3, b * 3), _IG, ("IgammacBackward0",),
   domain="positive")
op("igamma_", lambda m, a, b: (a * 1).igamma_(b), [C((3, 4), (3, 4), ng=(0,))],
   ("IgammaBackward0",), domain="positive")
op("heaviside.values", lambda m, a, b: m.heaviside(a * (a.abs() > 0.5), b),
   [C((3, 4), (3, 4), ng=(0, 1)), C((3, 4), (4,), ng=(0, 1))], (), second_order=False)
# torch.special's differentiable functions of their own (the rest: tests/test_special.py)
_SP = [C((3, 4)), C(())]
op("special.i0e", lambda m, x: m.special.i0e(x), _SP, ("SpecialI0EBackward0",),
   domain="nonzero")
op("special.i1", lambda m, x: m.special.i1(x), _SP, ("SpecialI1Backward0",))
op("special.i1e", lambda m, x: m.special.i1e(x), _SP, ("SpecialI1EBackward0",),
   domain="nonzero")
op("special.erfcx", lambda m, x: m.special.erfcx(x), _SP, ("SpecialErfcxBackward0",))
op("special.ndtri", lambda m, x: m.special.ndtri(x.tanh() * 0.4 + 0.5), _SP,
   ("SpecialNdtriBackward0",))
op("special.log_ndtr", lambda m, x: m.special.log_ndtr(x * 3), _SP,
   ("SpecialLogNdtrBackward0",))
op("special.entr", lambda m, x: m.special.entr(x), _SP, ("SpecialEntrBackward0",),
   domain="positive")
op("special.ndtr", lambda m, x: m.special.ndtr(x), _SP, ("MulBackward1",))
op("special.xlog1py", lambda m, a, b: m.special.xlog1py(a, b),
   [C((3, 4), (3, 4)), C((3, 4), (4,)), C((), (2, 3))], ("SpecialXlog1PyBackward0",),
   domain="positive")
op("special.xlog1py.number_self", lambda m, b: m.special.xlog1py(2.5, b), _SP,
   ("SpecialXlog1PyBackward1",), domain="positive")
op("special.xlog1py.number_other", lambda m, a: m.special.xlog1py(a, 0.5), _SP,
   ("SpecialXlog1PyBackward2",), second_order=False)
op("special.zeta", lambda m, a, b: m.special.zeta(a + 3, b),
   [C((3, 4), (3, 4), ng=(0,)), C((), (2, 3), ng=(0,))], ("SpecialZetaBackward0",),
   domain="positive")
op("special.zeta.number_self", lambda m, b: m.special.zeta(3.5, b), _SP,
   ("SpecialZetaBackward1",), domain="positive")
# i0's derivative is i1 (PyTorch's special_i1, SpecialI1Backward0): i0's gradient as an op
op("i0.grad", lambda m, x: m.autograd.grad(m.i0(x).sum(), x, create_graph=True)[0],
   [C((3, 4)), C((5,))], ("MulBackward0",), inner_grad_fns=("SpecialI1Backward0",))
