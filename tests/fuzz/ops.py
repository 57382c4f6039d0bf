"""The operations the fuzzer draws from: one table per kind, one line per operation.

Each entry is ``(name, template)``: ``name`` is the attribute probed on autograd_core
(``torch.NAME`` for templates that call ``torch.``, ``Tensor.NAME`` — probed on an
instance — for method templates, ``F.NAME`` for nn.functional); an entry whose name
autograd_core lacks is skipped, so the fuzzer keeps working, and grows, with the API.
Templates are Python source with ``{a}``/``{b}``/``{c}`` for operand names and
``{d}``/``{d2}`` for dimensions; inputs are kept inside each op's smooth domain by the
template itself (``torch.log({a}.abs() + 0.5)``) so that float rounding stays small.

To extend the fuzzer, add a line to the right table (and, for a new kind of
statement, a generator function in gen.py)."""

# one tensor operand; {d} is a valid dimension of it (entries with {d} need ndim >= 1)
UNARY = [
    ("exp", "torch.exp({a} * 0.5)"), ("sin", "torch.sin({a})"), ("cos", "torch.cos({a})"),
    ("tanh", "torch.tanh({a})"), ("sigmoid", "torch.sigmoid({a})"), ("neg", "torch.neg({a})"),
    ("abs", "torch.abs({a})"), ("relu", "torch.relu({a})"), ("square", "torch.square({a})"),
    ("log", "torch.log({a}.abs() + 0.5)"), ("sqrt", "torch.sqrt({a}.abs() + 0.25)"),
    ("rsqrt", "torch.rsqrt({a}.abs() + 0.25)"),
    ("reciprocal", "torch.reciprocal({a}.abs() + 0.5)"), ("expm1", "torch.expm1({a})"),
    ("log1p", "torch.log1p({a}.abs())"), ("atan", "torch.atan({a})"),
    ("asinh", "torch.asinh({a})"), ("erf", "torch.erf({a})"), ("sinh", "torch.sinh({a})"),
    ("cosh", "torch.cosh({a})"), ("clamp", "torch.clamp({a}, -0.6, 0.7)"),
    ("sign", "torch.sign({a})"), ("trunc", "torch.trunc({a})"),
    ("sgn", "torch.sgn({a})"), ("logit", "torch.logit(torch.sigmoid({a}))"),
    ("exp", "{a}.exp()"), ("sin", "{a}.sin()"), ("pow", "{a} ** 2"), ("pow", "{a} ** 3"),
    ("pow", "({a}.abs() + 0.5) ** 0.5"), ("mul", "{a} * 1.5"), ("add", "{a} + 0.25"),
    ("sub", "1.0 - {a}"), ("div", "{a} / 2.0"), ("neg", "-{a}"), ("clone", "{a}.clone()"),
    ("softmax", "torch.softmax({a}, dim={d})"),
    ("log_softmax", "torch.log_softmax({a}, dim={d})"),
    ("cumsum", "torch.cumsum({a}, dim={d})"), ("cumprod", "torch.cumprod({a}, dim={d})"),
    ("flip", "torch.flip({a}, dims=({d},))"), ("roll", "torch.roll({a}, 1, dims={d})"),
]

# two tensor operands whose shapes broadcast ({b} may also be a Python number)
BINARY = [
    ("add", "{a} + {b}"), ("sub", "{a} - {b}"), ("mul", "{a} * {b}"),
    ("div", "{a} / ({b}.abs() + 0.5)"), ("add", "torch.add({a}, {b}, alpha=2.0)"),
    ("sub", "torch.sub({a}, {b}, alpha=0.5)"), ("mul", "torch.mul({a}, {b})"),
    ("maximum", "torch.maximum({a}, {b})"), ("minimum", "torch.minimum({a}, {b})"),
    ("atan2", "torch.atan2({a}, {b}.abs() + 0.5)"),
    ("pow", "torch.pow({a}.abs() + 0.5, {b})"), ("hypot", "torch.hypot({a}, {b})"),
    ("lerp", "torch.lerp({a}, {b}, 0.3)"), ("where", "torch.where({a} > 0, {a}, {b})"),
    ("addcmul", "torch.addcmul({a}, {a}, {b}, value=0.5)"),
]

# one operand, a result of another shape ({d} a valid dimension)
REDUCE = [
    ("sum", "{a}.sum()"), ("sum", "{a}.sum(dim={d})"), ("sum", "{a}.sum(dim={d}, keepdim=True)"),
    ("mean", "{a}.mean()"), ("mean", "torch.mean({a}, dim={d})"), ("prod", "torch.prod({a})"),
    ("prod", "torch.prod({a}, dim={d})"), ("amax", "torch.amax({a}, dim={d})"),
    ("amin", "torch.amin({a}, dim={d}, keepdim=True)"), ("max", "{a}.max()"),
    ("max", "torch.max({a}, dim={d}).values"), ("min", "torch.min({a}, dim={d})[0]"),
    ("var", "torch.var({a}, dim={d})"), ("std", "torch.std({a})"),
    ("logsumexp", "torch.logsumexp({a}, dim={d})"), ("norm", "torch.norm({a})"),
]

# views of one operand; index expressions are made by gen.py
VIEW = [
    ("t", "{a}.t()"), ("T", "{a}.T"), ("mT", "{a}.mT"), ("transpose", "{a}.transpose({d}, {d2})"),
    ("swapaxes", "torch.swapaxes({a}, {d}, {d2})"), ("unsqueeze", "{a}.unsqueeze({d})"),
    ("squeeze", "{a}.squeeze()"), ("squeeze", "{a}.squeeze({d})"),
    ("flatten", "{a}.flatten()"), ("movedim", "torch.movedim({a}, {d}, {d2})"),
    ("narrow", "torch.narrow({a}, {d}, 0, 1)"), ("select", "torch.select({a}, {d}, -1)"),
    ("unbind", "torch.unbind({a}, {d})[0]"), ("split", "torch.split({a}, 1, {d})[-1]"),
    ("chunk", "torch.chunk({a}, 2, {d})[0]"), ("view", "{a}.view(-1)"),
    ("reshape", "{a}.reshape(-1)"), ("expand", "{a}.expand(2, *{a}.shape)"),
    ("detach", "{a}.detach()"), ("view_as", "{a}.view_as({a})"),
    ("diagonal", "torch.diagonal({a}, 0, {d}, {d2})"),
]

# in-place ops on one operand (the target), {b} a tensor broadcastable to it or a number
INPLACE = [
    ("add_", "{a}.add_({b})"), ("sub_", "{a}.sub_({b})"), ("mul_", "{a}.mul_({b})"),
    ("div_", "{a}.div_({b}.abs() + 0.5)"), ("copy_", "{a}.copy_({b})"),
    ("__iadd__", "{a} += {b}"), ("__imul__", "{a} *= {b}"), ("__isub__", "{a} -= {b}"),
    ("zero_", "{a}.zero_()"), ("fill_", "{a}.fill_(0.75)"), ("exp_", "{a}.exp_()"),
    ("sin_", "{a}.sin_()"), ("tanh_", "{a}.tanh_()"), ("sigmoid_", "{a}.sigmoid_()"),
    ("relu_", "{a}.relu_()"), ("neg_", "{a}.neg_()"), ("abs_", "{a}.abs_()"),
    ("clamp_", "{a}.clamp_(-0.5, 0.5)"), ("mul_", "{a}.mul_(2.0)"), ("add_", "{a}.add_(1.0)"),
]

# matrix products: (name, template, shapes of a and b as letters)
MATMUL = [
    ("mm", "torch.mm({a}, {b})", ("ij", "jk")), ("matmul", "{a} @ {b}", ("ij", "jk")),
    ("matmul", "torch.matmul({a}, {b})", ("bij", "jk")), ("bmm", "torch.bmm({a}, {b})",
                                                          ("bij", "bjk")),
    ("mv", "torch.mv({a}, {b})", ("ij", "j")), ("dot", "torch.dot({a}, {b})", ("i", "i")),
    ("outer", "torch.outer({a}, {b})", ("i", "j")),
    ("einsum", "torch.einsum('ij,jk->ik', {a}, {b})", ("ij", "jk")),
]

# custom Functions, defined in the preamble of every program (gen.PREAMBLE)
FUNCTIONS = [
    ("Square", "Square.apply({a})"), ("MulConst", "MulConst.apply({a}, 1.5)"),
    ("CloneFn", "CloneFn.apply({a})"), ("OnceExp", "OnceExp.apply({a})"),
    ("TwoOut", "TwoOut.apply({a})[0]"), ("SetupCtxCube", "SetupCtxCube.apply({a})"),
]

# composite ops (several kernels, or a LAPACK/BLAS call, behind one op) whose results the
# generator follows with view()/transpose().view(): (name, template, operand shapes as
# letters); a name with a dot is an attribute path (linalg.qr, nn.functional.conv2d).
# Sizes: letters l (spatial) 2-4, h (kernel) 1-2, any other 1-3. `{a}` in a linalg
# template is made symmetric positive definite by the template where the op needs it.
_SPD = "({a} @ {a}.mT + 3 * torch.eye({a}.shape[-1], dtype={a}.dtype))"
COMPOSITE = [
    ("nn.functional.scaled_dot_product_attention",
     "torch.nn.functional.scaled_dot_product_attention({a}.transpose(1, 2), "
     "{b}.transpose(1, 2), {c}.transpose(1, 2))", ("bihk", "bjhk", "bjhk")),
    ("nn.functional.scaled_dot_product_attention",
     "torch.nn.functional.scaled_dot_product_attention({a}.mT, {b}.mT, {c}.mT)",
     ("bki", "bkj", "bkj")),
    ("einsum", "torch.einsum('bij,bkj->bik', {a}, {b})", ("bij", "bkj")),
    ("einsum", "torch.einsum('ij,jk->ki', {a}, {b})", ("ij", "jk")),
    ("einsum", "torch.einsum('ij->ji', {a})", ("ij",)),
    ("einsum", "torch.einsum('bij,jk->bki', {a}, {b})", ("bij", "jk")),
    ("linalg.qr", "torch.linalg.qr({a}).Q", ("ij",)),
    ("linalg.qr", "torch.linalg.qr({a}).R", ("bij",)),
    ("linalg.cholesky", "torch.linalg.cholesky(" + _SPD + ")", ("bii",)),
    ("linalg.inv", "torch.linalg.inv(" + _SPD + ")", ("ii",)),
    ("linalg.solve", "torch.linalg.solve(" + _SPD + ", {b})", ("ii", "ik")),
    ("linalg.lu_factor", "torch.linalg.lu_factor(" + _SPD + ").LU", ("ii",)),
    ("linalg.matrix_exp", "torch.linalg.matrix_exp({a} * 0.5)", ("bii",)),
    ("linalg.eigvalsh", "torch.linalg.eigvalsh(" + _SPD + ")", ("bii",)),
    ("nn.functional.conv_transpose1d",
     "torch.nn.functional.conv_transpose1d({a}, {b}, stride=2)", ("bil", "ijh")),
    ("nn.functional.conv_transpose2d",
     "torch.nn.functional.conv_transpose2d({a}, {b})", ("bill", "ijhh")),
    ("nn.functional.conv2d", "torch.nn.functional.conv2d({a}, {b}, padding=1)",
     ("bill", "jihh")),
    ("nn.functional.linear", "torch.nn.functional.linear({a}, {b})", ("bik", "jk")),
    ("tensordot", "torch.tensordot({a}, {b}, dims=([0], [1]))", ("ij", "ki")),
    ("kron", "torch.kron({a}, {b})", ("ij", "kh")),
    ("nn.functional.unfold", "torch.nn.functional.unfold({a}, 2)", ("bill",)),
]

# views (and a reshape) of a composite result: whether view() succeeds depends on the
# result's strides, which PyTorch's kernels choose
COMPOSITE_VIEWS = [
    ("view", "{r}.view(-1)"), ("transpose.view", "{r}.transpose(0, 1).view(-1)"),
    ("mT.view", "{r}.mT.view(-1)"), ("view_shape", "{r}.view({rev})"),
    ("transpose.reshape", "{r}.transpose(-2, -1).reshape(-1)"),
    ("flatten", "{r}.flatten(-2)"),
]

# in-place ops on a returned gradient (autograd.grad's result, or a leaf's .grad); a
# gradient of a sum is an expanded (stride-0) tensor in PyTorch
GRAD_INPLACE = [
    ("masked_fill_", "{g}.masked_fill_({g} > 0, 0.0)"), ("exp_", "{g}.exp_()"),
    ("mul_", "{g}.mul_(2.0)"), ("add_", "{g}.add_(0.5)"), ("zero_", "{g}.zero_()"),
    ("clamp_", "{g}.clamp_(-0.5, 0.5)"), ("__setitem__", "{g}[0] = 1.5"),
    ("mul_", "{g}.mul_({g})"), ("sigmoid_", "{g}.sigmoid_()"),
]

# complex tensors (issue 27): values only unless autograd_core._complex.COMPLEX_AUTOGRAD
# is set (gen.py's complex_grad switch). Each entry's name is an op of the complex guard's
# allowlist (autograd_core._complex.COMPLEX_OPS); an entry whose op is not in it is
# skipped. Inputs are kept off branch cuts and poles by the template ({a} + 2.5 has a
# real part above 0.8 for the fuzzer's values).
COMPLEX_UNARY = [
    ("exp", "torch.exp({a} * 0.5)"), ("sin", "torch.sin({a})"), ("cos", "{a}.cos()"),
    ("tanh", "torch.tanh({a} * 0.5)"), ("neg", "-{a}"), ("abs", "torch.abs({a})"),
    ("square", "torch.square({a})"), ("log", "torch.log({a} + 2.5)"),
    ("sqrt", "torch.sqrt({a} + 2.5)"), ("rsqrt", "torch.rsqrt({a} + 2.5)"),
    ("reciprocal", "torch.reciprocal({a} + 2.5)"), ("expm1", "torch.expm1({a} * 0.5)"),
    ("sinh", "torch.sinh({a} * 0.5)"), ("cosh", "torch.cosh({a} * 0.5)"),
    ("sgn", "torch.sgn({a} + 2.5)"), ("angle", "torch.angle({a} + 2.5)"),
    ("conj", "torch.conj({a}).resolve_conj()"), ("conj", "{a}.conj() * 1"),
    ("real", "{a}.real * 2"), ("imag", "torch.imag({a}) + 1"),
    ("view_as_real", "torch.view_as_real({a}) * 1"), ("mul", "{a} * (0.5 - 1.5j)"),
    ("add", "{a} + 0.25j"), ("div", "{a} / 2.0"), ("pow", "{a} ** 2"),
    ("clone", "{a}.clone()"), ("sum", "{a}.sum()"), ("mean", "torch.mean({a})"),
    ("prod", "{a}.prod()"), ("cumsum", "torch.cumsum({a}, dim={d})"),
    ("flip", "torch.flip({a}, dims=({d},))"), ("roll", "torch.roll({a}, 1, dims={d})"),
    ("sum", "{a}.sum(dim={d})"), ("isfinite", "torch.isfinite({a})"),
    ("eq", "{a} == {a}.conj()"),
]

COMPLEX_BINARY = [
    ("add", "{a} + {b}"), ("sub", "{a} - {b}"), ("mul", "{a} * {b}"),
    ("div", "{a} / ({b} + 2.5)"), ("add", "torch.add({a}, {b}, alpha=2.0)"),
    ("where", "torch.where({a}.real > 0, {a}, {b})"),
]
