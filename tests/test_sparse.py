"""Sparse COO/CSR tensors against PyTorch: construction and its errors, printing,
coalescing, conversions, the sparse ops and their gradients, sparse embedding
gradients, the optimizers that consume them, torch.save, and a sweep showing that no
other op computes on a sparse tensor's placeholder (Note [Sparse tensors])."""
import io

import pytest

from _diff import Raised, assert_same, autograd_core, catch, same, same_error, sub_name, torch

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def desc(x):
    """A comparable description of a result that may be sparse."""
    if isinstance(x, (torch.Tensor, autograd_core.Tensor)) and \
            str(x.layout).endswith(("sparse_coo", "sparse_csr")):
        lay = str(x.layout).split(".")[-1]
        if lay == "sparse_coo":
            parts = (x._indices().tolist(), x._values().detach().tolist(), x.is_coalesced())
        else:
            parts = (x.crow_indices().tolist(), x.col_indices().tolist(),
                     x.values().detach().tolist())
        gf = None if x.grad_fn is None else type(x.grad_fn).__name__
        return ("sparse", lay, tuple(x.shape), str(x.dtype).split(".")[-1], parts,
                x.requires_grad, gf)
    if isinstance(x, (torch.Tensor, autograd_core.Tensor)):
        gf = None if x.grad_fn is None else type(x.grad_fn).__name__
        return ("dense", tuple(x.shape), x.detach().tolist(), x.requires_grad, gf)
    if isinstance(x, (list, tuple)):
        return type(x)(desc(v) for v in x)
    return x


def same_desc(prog, **kw):
    def wrapped(mod):
        return desc(prog(mod))
    return same(wrapped, quiet=True, **kw)


def same_repr(prog):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = sub_name(repr(prog(torch)))
        got = repr(prog(autograd_core))
    assert got == want, f"\ntorch:\n{want}\nours:\n{got}"


def coo(mod, requires_grad=False, dtype=None):
    return mod.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3., 4., 5.], (2, 3),
                                 requires_grad=requires_grad, dtype=dtype)


def uncoalesced(mod):
    return mod.sparse_coo_tensor([[1, 0, 1, 0], [0, 1, 0, 2]], [1., 2., 3., 4.], (2, 3))


# ------------------------------------------------------------------ construction, printing

@pytest.mark.parametrize("case", [
    lambda m: coo(m),
    lambda m: coo(m, requires_grad=True),
    lambda m: coo(m, dtype=m.float64),
    lambda m: uncoalesced(m),
    lambda m: uncoalesced(m).coalesce(),
    lambda m: m.sparse_coo_tensor([[0, 2]], [[1., 2.], [3., 4.]], (3, 2)),   # hybrid
    lambda m: m.sparse_coo_tensor(m.zeros(2, 0, dtype=m.int64), [], (2, 3)),  # empty
    lambda m: m.sparse_coo_tensor([[0, 1]], [1, 2], (2,)),                    # int values
    lambda m: m.sparse_coo_tensor([[0, 5]], [1., 2.]),                        # inferred size
    lambda m: m.sparse_csr_tensor([0, 1, 2], [1, 0], [1., 2.], (2, 2)),
    lambda m: m.tensor([[0., 1.5], [2., 0.]]).to_sparse(),
    lambda m: m.tensor([[0., 1.5], [2., 0.]]).to_sparse(1),
    lambda m: m.tensor([[0., 1.5], [2., 0.]]).to_sparse_csr(),
    lambda m: m.tensor([[0., 1.5], [2., 0.]]).to_sparse().to_sparse_csr(),
    lambda m: m.tensor([[0., 1.5], [2., 0.]]).to_sparse_csr().to_sparse(),
    lambda m: m.sparse_coo_tensor([[0, 1]], m.tensor([1., 2.], requires_grad=True), (2,)),
    lambda m: m.sparse.softmax(coo(m, requires_grad=True), 1),
])
def test_printing_and_parts(case):
    same_repr(case)
    same_desc(case)


def test_layouts_and_metadata():
    def prog(m):
        s, c, d = coo(m), coo(m).to_sparse_csr(), m.ones(2)
        return [str(s.layout), str(c.layout), str(d.layout), s.layout == m.sparse_coo,
                c.layout == m.sparse_csr, d.layout == m.strided, s.layout == m.strided,
                s.is_sparse, c.is_sparse, d.is_sparse, c.is_sparse_csr, s.is_sparse_csr,
                s.sparse_dim(), s.dense_dim(), s._nnz(), c._nnz(), tuple(s.shape), s.dim(),
                s.numel(), len(s), str(s.dtype), s.requires_grad, s.is_leaf, d.sparse_dim(),
                d.dense_dim(), s.stride(), repr(m.sparse_coo)]
    same(prog, quiet=True)


@pytest.mark.parametrize("case", [
    lambda m: m.sparse_coo_tensor([0, 1], [1., 2.], (2,)),
    lambda m: m.sparse_coo_tensor([[0, 1]], [1., 2., 3.], (2,)),
    lambda m: m.sparse_coo_tensor([[0, 1]], [[1., 2.], [3, 4]], (2,)),
    lambda m: m.sparse_coo_tensor([[0, 1]], [1, 2], (2,), requires_grad=True),
    lambda m: m.sparse_coo_tensor([[0, 5]], [1., 2.], (2,), check_invariants=True),
    lambda m: m.sparse_coo_tensor([[0, -1]], [1., 2.], (2,), check_invariants=True),
    lambda m: coo(m).to_dense().to_sparse(3),
    lambda m: coo(m).to_sparse_csr().indices(),
    lambda m: coo(m).to_sparse_csr().is_coalesced(),
    lambda m: coo(m).to_sparse_csr().coalesce(),
    lambda m: coo(m).crow_indices(),
    lambda m: m.ones(2).crow_indices(),
    lambda m: m.ones(2).indices(),
    lambda m: m.ones(2).values(),
    lambda m: m.ones(2).coalesce(),
    lambda m: m.ones(2).is_coalesced(),
    lambda m: uncoalesced(m).indices(),
    lambda m: uncoalesced(m).values(),
    lambda m: coo(m).numpy(),
    lambda m: coo(m) + m.ones(2, 3),
    lambda m: coo(m) + coo(m).t(),
    lambda m: m.ones(3, 2) + coo(m),
    lambda m: coo(m).reshape(6),
    lambda m: coo(m).contiguous(),
    lambda m: coo(m).data_ptr(),
    lambda m: coo(m).item(),
    lambda m: bool(coo(m)),
    lambda m: m.mm(coo(m), m.ones(2, 2)),
    lambda m: m.mm(coo(m), m.ones(3, 2, dtype=m.float64)),
])
def test_errors(case):
    same_error(lambda m: case(m))


@pytest.mark.parametrize("case", [
    lambda m: coo(m).exp(), lambda m: m.exp(coo(m)), lambda m: coo(m).view(6),
    lambda m: m.nn.functional.softplus(coo(m)), lambda m: coo(m) == coo(m),
    lambda m: m.sigmoid(coo(m)), lambda m: coo(m).cumsum(0), lambda m: coo(m).max(),
])
def test_unsupported_ops_raise_pytorchs_error(case):
    # torch lists the backends the op has after this text; the text itself is the same
    same_error(lambda m: case(m), message="prefix")


def test_coalesce_sums_duplicates():
    def prog(m):
        s = m.sparse_coo_tensor([[1, 0, 1, 0, 1], [0, 1, 0, 2, 0]], [1., 2., 3., 4., 5.], (2, 3))
        c = s.coalesce()
        return [desc(s), desc(c), s.is_coalesced(), c.is_coalesced(), desc(c.indices()),
                desc(c.values()), desc(s.to_dense()), desc(c.to_dense())]
    same(prog, quiet=True)


@pytest.mark.parametrize("case", [
    lambda m: uncoalesced(m) + uncoalesced(m),
    lambda m: uncoalesced(m) + coo(m),
    lambda m: coo(m) + coo(m),
    lambda m: coo(m).sub(uncoalesced(m), alpha=2),
    lambda m: coo(m) * 2,
    lambda m: 2 * uncoalesced(m),
    lambda m: coo(m) / 4,
    lambda m: -coo(m),
    lambda m: coo(m).t(),
    lambda m: m.ones(2, 3) + uncoalesced(m),
    lambda m: m.add(m.ones(2, 3), coo(m), alpha=2),
    lambda m: m.ones(2, 3).add_(uncoalesced(m)),
    lambda m: coo(m).mul_(3),
    lambda m: coo(m).add_(uncoalesced(m)),
    lambda m: m.ones(2, 3).sparse_mask(coo(m)),
    lambda m: coo(m).clone(),
    lambda m: coo(m).detach(),
    lambda m: coo(m).to(m.float64),
    lambda m: coo(m).double(),
    lambda m: coo(m, requires_grad=True).data,
    lambda m: uncoalesced(m).zero_(),
    lambda m: coo(m).sum(),
    lambda m: m.sparse.sum(coo(m)),
    lambda m: m.sparse.sum(uncoalesced(m), dim=1),
    lambda m: m.sparse.sum(uncoalesced(m), dim=0),
    lambda m: m.sparse.sum(uncoalesced(m), dim=(0, 1)),
    lambda m: m.sparse.softmax(uncoalesced(m), 1),
    lambda m: m.sparse.softmax(coo(m), 0),
    lambda m: m.sparse.log_softmax(uncoalesced(m), 1),
    lambda m: coo(m).to_dense(),
    lambda m: coo(m).to_sparse_csr().to_dense(),
    lambda m: coo(m).to_sparse_csr() * 2,
    lambda m: coo(m) * uncoalesced(m),
    lambda m: uncoalesced(m) * coo(m),
    lambda m: m.sparse_coo_tensor([[0, 1]], [5., 6.], (2,)) * m.sparse_coo_tensor(
        [[1, 0, 1]], [1., 2., 3.], (2,)),
    lambda m: m.tensor(coo(m)),
])
def test_sparse_ops(case):
    same_desc(case)


# ------------------------------------------------------------------ products and gradients

def _dense(m, *shape, seed=0):
    g = m.Generator().manual_seed(seed)
    return m.randn(*shape, generator=g, dtype=m.float64)


@pytest.mark.parametrize("op", ["mm", "spmm", "matmul", "at", "sparse_mm", "addmm",
                                "sparse_addmm", "mv", "dense_mm"])
@pytest.mark.parametrize("sparse_grad", [False, True])
def test_products_and_gradients(op, sparse_grad):
    def prog(m):
        v = m.tensor([3., 4., 5., -1.], dtype=m.float64, requires_grad=sparse_grad)
        s = m.sparse_coo_tensor([[0, 1, 1, 0], [2, 0, 2, 2]], v, (2, 3))
        x = _dense(m, 3, 2).requires_grad_()
        b = _dense(m, 2, 2, seed=1).requires_grad_()
        if op == "mm":
            y = m.mm(s, x)
        elif op == "spmm":
            y = m.spmm(s, x)
        elif op == "matmul":
            y = m.matmul(s, x)
        elif op == "at":
            y = s @ x
        elif op == "sparse_mm":
            y = m.sparse.mm(s, x)
        elif op == "addmm":
            y = m.addmm(b, s, x, beta=0.5, alpha=2.0)
        elif op == "sparse_addmm":
            y = m.sparse.addmm(b, s, x, beta=0.5, alpha=2.0)
        elif op == "mv":
            y = s @ x[:, 0]
        else:
            y = m.mm(x.t(), s.t())
        (y * _dense(m, *y.shape, seed=2)).sum().backward()
        return [desc(y), desc(x.grad), desc(b.grad), desc(v.grad)]
    same(prog, quiet=True)


@pytest.mark.parametrize("op", ["sparse_mm", "mm", "sparse_addmm", "to_dense", "sum", "sum_dim",
                                "softmax", "log_softmax", "mul", "neg", "add", "coalesce",
                                "dense_add", "values"])
def test_gradients_of_a_sparse_leaf(op):
    def prog(m):
        s = m.sparse_coo_tensor([[1, 0, 1, 0], [0, 1, 0, 2]], [1., 2., 3., 4.], (2, 3),
                                dtype=m.float64, requires_grad=True)
        x = _dense(m, 3, 2)
        w = _dense(m, 2, 3, seed=3)
        if op == "sparse_mm":
            y = m.sparse.mm(s, x)
        elif op == "mm":
            y = m.mm(s, x)
        elif op == "sparse_addmm":
            y = m.sparse.addmm(_dense(m, 2, 2), s, x)
        elif op == "to_dense":
            y = s.to_dense() * w
        elif op == "sum":
            y = m.sparse.sum(s) * 3
        elif op == "sum_dim":
            y = m.sparse.sum(s, dim=1).to_dense() * w[:, 0]
        elif op == "softmax":
            y = m.sparse.softmax(s, 1).to_dense() * w
        elif op == "log_softmax":
            y = m.sparse.log_softmax(s, 1).to_dense() * w
        elif op == "mul":
            y = (s * 2.5).to_dense() * w
        elif op == "neg":
            y = (-s).to_dense() * w
        elif op == "add":
            y = (s + s).to_dense() * w
        elif op == "coalesce":
            y = s.coalesce().to_dense() * w
        elif op == "dense_add":
            y = (w + s) * w
        else:
            y = s.coalesce().values() * w[0, :3]
        y.sum().backward()
        if op == "add":
            # known difference: PyTorch flags the sum of the two gradients coalesced
            return [desc(y), desc(s.grad.coalesce())]
        return [desc(y), desc(s.grad)]
    same(prog, quiet=True)


def test_values_gradient_through_construction():
    def prog(m):
        v = m.tensor([1., 2., 3.], dtype=m.float64, requires_grad=True)
        s = m.sparse_coo_tensor([[0, 1, 0], [1, 0, 1]], v, (2, 2))
        y = (s.to_dense() * m.tensor([[1., 2.], [3., 4.]], dtype=m.float64)).sum()
        y.backward()
        return [desc(s), desc(v.grad)]
    same(prog, quiet=True)


# ------------------------------------------------------------------ sparse embedding gradients

@pytest.mark.parametrize("kw", [{}, {"padding_idx": 1}, {"max_norm": 1.0}])
def test_embedding_sparse_gradient(kw):
    def prog(m):
        m.manual_seed(0)
        e = m.nn.Embedding(6, 3, sparse=True, **kw)
        e(m.tensor([[1, 3, 1], [0, 3, 4]])).sum().backward()
        g1 = desc(e.weight.grad)
        (e(m.tensor([2, 1])) * 2).sum().backward()      # accumulated: two sparse grads
        return [g1, desc(e.weight.grad), desc(e.weight.grad.to_dense()),
                desc(e.weight.grad.coalesce())]
    same(prog, quiet=True)


def test_functional_embedding_sparse_and_dense_grad_mix():
    def prog(m):
        w = _dense(m, 5, 2).requires_grad_()
        (w * 1).sum().backward()
        m.nn.functional.embedding(m.tensor([1, 1]), w, sparse=True).sum().backward()
        dense_then_sparse = desc(w.grad)
        w.grad = None
        m.nn.functional.embedding(m.tensor([4, 0]), w, sparse=True).sum().backward()
        (w * 2).sum().backward()
        return [dense_then_sparse, desc(w.grad)]
    same(prog, quiet=True)


@pytest.mark.parametrize("mode", ["sum", "mean"])
@pytest.mark.parametrize("form", ["offsets", "2d", "psw", "padding"])
def test_embedding_bag_sparse_gradient(mode, form):
    def prog(m):
        m.manual_seed(0)
        kw = {"padding_idx": 2} if form == "padding" else {}
        b = m.nn.EmbeddingBag(6, 2, sparse=True, mode=mode, **kw)
        gout = m.tensor([[1., 2.], [3., 4.]])
        psw = None
        if form == "2d":
            o = b(m.tensor([[1, 2], [4, 1]]))
        elif form == "psw":
            if mode != "sum":
                return "skip"
            psw = m.tensor([1., 2., 3., 4.], requires_grad=True)
            o = b(m.tensor([1, 2, 4, 1]), m.tensor([0, 2]), per_sample_weights=psw)
        else:
            o = b(m.tensor([1, 2, 4, 1, 2]), m.tensor([0, 3]))
        (o * gout).sum().backward()
        return [desc(o), desc(b.weight.grad), None if psw is None else desc(psw.grad)]
    same(prog, quiet=True)


def test_embedding_sparse_scale_grad_by_freq_refused():
    def prog(m):
        e = m.nn.Embedding(6, 3, sparse=True, scale_grad_by_freq=True)
        e(m.tensor([1, 1])).sum().backward()
    same_error(prog)


def test_embedding_bag_max_sparse_refused():
    same_error(lambda m: m.nn.EmbeddingBag(5, 2, sparse=True, mode="max")(m.tensor([[1, 2]])))


# ------------------------------------------------------------------ optimizers

@pytest.mark.parametrize("name", ["sparseadam", "sparseadam_maximize", "sgd", "sgd_momentum",
                                  "sgd_nesterov", "sgd_dampening", "sgd_maximize"])
def test_optimizer_steps_on_sparse_gradients(name):
    def prog(m):
        m.manual_seed(0)
        emb = m.nn.Embedding(10, 3, sparse=True)
        lin = m.nn.Linear(3, 1)
        make = {"sparseadam": lambda p: m.optim.SparseAdam(p, lr=0.1),
                "sparseadam_maximize": lambda p: m.optim.SparseAdam(p, lr=0.05, betas=(0.8, 0.9),
                                                                    maximize=True),
                "sgd": lambda p: m.optim.SGD(p, lr=0.1),
                "sgd_momentum": lambda p: m.optim.SGD(p, lr=0.1, momentum=0.9),
                "sgd_nesterov": lambda p: m.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
                "sgd_dampening": lambda p: m.optim.SGD(p, lr=0.1, momentum=0.5, dampening=0.3),
                "sgd_maximize": lambda p: m.optim.SGD(p, lr=0.1, maximize=True)}[name]
        opt = make(emb.parameters())
        dense_opt = m.optim.Adam(lin.parameters(), lr=0.01)
        losses = []
        for _ in range(4):
            opt.zero_grad()
            dense_opt.zero_grad()
            idx = m.randint(0, 10, (5,))
            loss = (lin(emb(idx)) ** 2).mean()
            loss.backward()
            opt.step()
            dense_opt.step()
            losses.append(loss.item())
        sd = opt.state_dict()
        state = {k: desc(v) for k, v in sd["state"].get(0, {}).items()}
        return [losses, desc(emb.weight), desc(lin.weight), state, sd["param_groups"]]
    same(prog, quiet=True)


@pytest.mark.parametrize("case", [
    lambda m, p: m.optim.Adam(p), lambda m, p: m.optim.AdamW(p), lambda m, p: m.optim.RMSprop(p),
    lambda m, p: m.optim.Adamax(p), lambda m, p: m.optim.NAdam(p), lambda m, p: m.optim.RAdam(p),
    lambda m, p: m.optim.Adadelta(p), lambda m, p: m.optim.Rprop(p),
    lambda m, p: m.optim.ASGD(p), lambda m, p: m.optim.SGD(p, lr=0.1, weight_decay=0.1),
])
def test_optimizers_refusing_sparse_gradients(case):
    def prog(m):
        emb = m.nn.Embedding(4, 2, sparse=True)
        opt = case(m, emb.parameters())
        emb(m.tensor([1])).sum().backward()
        opt.step()
    same_error(prog)


@pytest.mark.parametrize("case", [
    lambda m: m.optim.SparseAdam([m.nn.Parameter(m.ones(2))], lr=0.0),
    lambda m: m.optim.SparseAdam([m.nn.Parameter(m.ones(2))], eps=0.0),
    lambda m: m.optim.SparseAdam([m.nn.Parameter(m.ones(2))], betas=(1.0, 0.9)),
    lambda m: m.optim.SparseAdam([m.nn.Parameter(m.ones(2))], betas=(0.9, -0.1)),
])
def test_sparse_adam_argument_errors(case):
    same_error(case)


def test_sparse_adam_refuses_dense_gradients():
    def prog(m):
        p = m.nn.Parameter(m.ones(3))
        opt = m.optim.SparseAdam([p])
        (p * 2).sum().backward()
        opt.step()
    same_error(prog)


# ------------------------------------------------------------------ save/load, copies

@pytest.mark.parametrize("saver,loader", [("torch", "ours"), ("ours", "torch"), ("ours", "ours")])
def test_save_load(saver, loader):
    mods = {"torch": torch, "ours": autograd_core}
    ms, ml = mods[saver], mods[loader]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = uncoalesced(ms)
        c = coo(ms).to_sparse_csr()
        buf = io.BytesIO()
        ms.save({"s": s, "c": c}, buf)
        buf.seek(0)
        r = ml.load(buf)
        assert_same(desc(s), desc(r["s"]))
        assert_same(desc(c), desc(r["c"]))


def test_deepcopy_and_requires_grad():
    import copy

    def prog(m):
        s = coo(m, requires_grad=True)
        t = copy.deepcopy(s)
        u = coo(m).requires_grad_()
        return [desc(t), desc(u), u.is_leaf]
    same(prog, quiet=True)


# ------------------------------------------------------------------ no silent dense compute

_SWEEP_SKIP = {"backward", "register_hook", "register_post_accumulate_grad_hook", "share_memory_",
               "retain_grad", "requires_grad_", "detach_", "set_", "resize_", "resize_as_",
               "pin_memory", "apply_", "map_", "map2_", "record_stream", "storage",
               "untyped_storage", "_typed_storage", "tolist", "cuda", "cpu", "to",
               "type", "is_set_to", "new_tensor", "numpy", "__array__", "__array_wrap__",
               "__reduce_ex__", "__deepcopy__", "__setstate__", "__getstate__",
               "__torch_function__", "__dlpack__", "__dlpack_device__", "__init__", "__new__",
               "__class__", "__init_subclass__", "__subclasshook__", "__reduce__", "__repr__",
               "__str__", "__format__", "__dir__", "__sizeof__", "__getattribute__",
               "__setattr__", "__delattr__", "__hash__", "__len__", "__iter__", "__bool__",
               "__index__", "__int__", "__float__", "__complex__", "__contains__", "__del__"}


def _method_names():
    return sorted(n for n in dir(autograd_core.Tensor) if n not in _SWEEP_SKIP
                  and callable(getattr(autograd_core.Tensor, n, None))
                  and not isinstance(getattr(autograd_core.Tensor, n), property))


def _sweep_result(mod, name, args):
    s = uncoalesced(mod)
    f = getattr(s, name, None)
    if f is None:
        return Raised(AttributeError(name))
    return catch(lambda: desc(f(*args)), quiet=True)


@pytest.mark.parametrize("args", [(), (2,), (uncoalesced,)], ids=["noargs", "scalar", "sparse"])
def test_sweep_methods_never_compute_on_the_placeholder(args):
    """Every Tensor method on a sparse tensor either raises or gives PyTorch's result:
    none may compute on the zero placeholder (Note [Sparse tensors])."""
    bad = []
    for name in _method_names():
        if not hasattr(torch.Tensor, name):
            continue
        a_t = tuple(a(torch) if callable(a) else a for a in args)
        a_o = tuple(a(autograd_core) if callable(a) else a for a in args)
        got = _sweep_result(autograd_core, name, a_o)
        if isinstance(got, Raised):
            continue
        want = _sweep_result(torch, name, a_t)
        try:
            assert_same(want, got)
        except AssertionError as e:
            bad.append(f"{name}{args}: {str(e)[:300]}")
    assert not bad, "\n".join(bad)


def test_sweep_namespace_functions_never_compute_on_the_placeholder():
    import types
    bad = []
    for name in sorted(dir(autograd_core)):
        f = getattr(autograd_core, name)
        if name.startswith("_") or isinstance(f, (type, types.ModuleType)) or not callable(f):
            continue
        if name in ("save", "load", "manual_seed", "set_default_dtype", "set_default_tensor_type",
                    "set_printoptions", "set_rng_state", "use_deterministic_algorithms",
                    "set_num_threads", "set_num_interop_threads", "set_grad_enabled",
                    "set_anomaly_enabled", "compile", "vmap", "cond", "set_warn_always",
                    "set_float32_matmul_precision", "set_default_device", "seed",
                    "set_deterministic_debug_mode", "autocast", "from_numpy", "frombuffer"):
            continue
        for args in ((), (2,)):
            src = uncoalesced(autograd_core)
            res = catch(lambda: f(src, *args), quiet=True)
            if isinstance(res, Raised) or res is src:   # (returning the input computes nothing)
                continue
            got = catch(lambda: desc(res), quiet=True)
            tf = getattr(torch, name, None)
            if tf is None:
                bad.append(f"{name}: no torch counterpart, computed {got!r}"[:300])
                continue
            want = catch(lambda: desc(tf(uncoalesced(torch), *args)), quiet=True)
            try:
                assert_same(want, got)
            except AssertionError as e:
                bad.append(f"{name}{args}: {str(e)[:300]}")
    assert not bad, "\n".join(bad)


def test_engine_never_adds_sparse_gradients_through_dense_ops():
    # two sparse gradients for one input of a node (the weight used twice in one graph)
    def prog(m):
        m.manual_seed(0)
        e = m.nn.Embedding(5, 2, sparse=True)
        y = e(m.tensor([1, 2])).sum() + (e(m.tensor([2, 4])) * 3).sum()
        y.backward()
        return desc(e.weight.grad)
    same(prog, quiet=True)


def test_layouts_pickle_and_compare():
    import pickle
    for lay in (autograd_core.sparse_coo, autograd_core.sparse_csr, autograd_core.strided):
        assert pickle.loads(pickle.dumps(lay)) is lay
    assert autograd_core.sparse_coo != autograd_core.sparse_csr


@pytest.mark.parametrize("name", ["autograd_core._sparse", "autograd_core.sparse",
                                  "autograd_core.optim.sparse_adam"])
def test_docstring_examples_run(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_double_backward_through_spmm():
    def prog(m):
        s = m.sparse_coo_tensor([[0, 1], [1, 0]], [1., 2.], (2, 2))
        x = m.ones(2, 2, requires_grad=True)
        y = m.spmm(s, x * x).sum()
        (g,) = m.autograd.grad(y, x, create_graph=True)
        g.sum().backward()
        return [desc(g), desc(x.grad)]
    same(prog, quiet=True)


def test_double_backward_needing_a_sparse_backward_raises():
    # the sparse ops' backwards are once differentiable: differentiating one raises
    # instead of returning a gradient that misses its contribution
    s = autograd_core.sparse_coo_tensor([[0, 1], [1, 0]], [1., 2.], (2, 2))
    x = autograd_core.ones(2, 2, requires_grad=True)
    v = autograd_core.ones(2, 2, requires_grad=True)
    y = (autograd_core.spmm(s, x) * v).sum()
    (g,) = autograd_core.autograd.grad(y, x, create_graph=True)
    with pytest.raises(RuntimeError):
        g.sum().backward()


def test_sparse_coo_tensor_size_only_overload():
    # PyTorch's third overload: sparse_coo_tensor(size, *, dtype, requires_grad, ...)
    def prog(m):
        with __import__("warnings").catch_warnings():
            __import__("warnings").simplefilter("ignore")
            a = m.sparse_coo_tensor((2, 3))
            b = m.sparse_coo_tensor(size=(2, 2), dtype=m.float64)
            c = m.sparse_coo_tensor(m.Size([4]), requires_grad=True)
        return [(repr(t), t.shape, t._nnz(), t.to_dense()) for t in (a, b, c)]
    same(prog)


def test_sparse_times_sparse_is_differentiable():
    # the product had no history: a loss through it gave its operands no gradient
    def prog(m):
        a = m.tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse().requires_grad_(True)
        b = m.tensor([[1.0, 5.0], [0.0, 4.0]]).to_sparse().requires_grad_(True)
        p = a * b
        (p.to_dense() * m.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        d = m.tensor([[0.5, 0.0, -2.0]]).to_sparse().requires_grad_(True)
        m.sparse.sum(d * d).backward()
        return (p.requires_grad, type(p.grad_fn).__name__, str(a.grad.layout).split(".")[-1],
                a.grad.to_dense(),
                b.grad.to_dense(), d.grad.to_dense())
    same(prog)
