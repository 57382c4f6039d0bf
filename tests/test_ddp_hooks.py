"""DDP communication hooks (register_comm_hook, default_hooks) on 2 ranks under mpiexec:
each default hook gives the gradients PyTorch's math gives (a reference in each rank
computes both shards' gradients in one process and applies the hook's rounding with
numpy), a custom hook sees the buckets as PyTorch's GradBucket shows them, and
registration errors are PyTorch's. Every launch has a timeout."""
import shutil
import subprocess
import sys
import textwrap

import pytest

from _subprocess import CWD, child_env

import autograd_core as ag
import autograd_core.distributed as dist

MPIEXEC = shutil.which("mpiexec")
needs_mpi = pytest.mark.skipif(
    not dist.is_mpi_available() or MPIEXEC is None,
    reason="needs mpi4py, an MPI library and mpiexec (pip install mpi4py mpich)")

HOOKS = """
    import copy
    import warnings
    import numpy as np
    import autograd_core as torch
    import autograd_core.distributed as dist
    from autograd_core.distributed.algorithms.ddp_comm_hooks import default_hooks as dh
    from autograd_core.nn.parallel import DistributedDataParallel as DDP

    warnings.simplefilter("ignore")
    dist.init_process_group("mpi")
    r, n = dist.get_rank(), dist.get_world_size()
    g = np.random.default_rng(0)
    X = torch.tensor(g.standard_normal((8, 4)) * 3, dtype=torch.float32)
    Y = torch.tensor(g.standard_normal((8, 3)), dtype=torch.float32)
    out = []   # gathered to rank 0, so that the ranks' lines do not interleave
    shards = [slice(k * 8 // n, (k + 1) * 8 // n) for k in range(n)]

    def net():
        torch.manual_seed(r)   # DDP broadcasts rank 0's parameters
        return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(),
                                   torch.nn.Linear(8, 3))

    def shard_grads(model):
        # one process: every rank's gradients, as flat float32 arrays per parameter
        out = []
        for s in shards:
            model.zero_grad()
            torch.nn.functional.mse_loss(model(X[s]), Y[s]).backward()
            out.append([p.grad.numpy().copy() for p in model.parameters()])
        return out

    f16 = np.float16
    reference = {
        "allreduce_hook": lambda gs: sum(x / np.float32(n) for x in gs),
        "fp16_compress_hook": lambda gs: sum(
            (x.astype(f16) / f16(n)).astype(f16) for x in gs).astype(f16).astype(np.float32),
    }
    for name, ref_of in reference.items():
        for cap in (25, 0.0001):
            ddp = DDP(net(), bucket_cap_mb=cap)
            ref = copy.deepcopy(ddp.module)
            ddp.register_comm_hook(None, getattr(dh, name))
            for step in range(2):
                per_rank = shard_grads(ref)
                ddp.zero_grad()
                torch.nn.functional.mse_loss(ddp(X[shards[r]]), Y[shards[r]]).backward()
                for k, p in enumerate(ddp.module.parameters()):
                    want = ref_of([per_rank[q][k] for q in range(n)])
                    np.testing.assert_allclose(p.grad.numpy(), want, rtol=1e-6, atol=1e-7,
                                               err_msg=name)
                    if name == "fp16_compress_hook":
                        # the rounding happened (float16 values), not a float32 average
                        assert (p.grad.numpy().astype(f16).astype(np.float32)
                                == p.grad.numpy()).all()
                with torch.no_grad():
                    for p, q in zip(ddp.module.parameters(), ref.parameters()):
                        p -= 0.1 * p.grad
                        q -= 0.1 * p.grad
            out.append(" ".join(map(str, ("HOOK", r, name, cap))))

    # a custom hook sees the buckets; its future's value becomes the gradients
    seen = []

    def hook(state, bucket):
        state.append((bucket.index(), bucket.is_last(),
                      [tuple(t.shape) for t in bucket.gradients()],
                      [tuple(p.shape) for p in bucket.parameters()],
                      tuple(bucket.buffer().shape)))
        fut = torch.futures.Future()
        fut.set_result(bucket.buffer() * 0 + bucket.index() + 1)
        return fut

    ddp = DDP(net(), bucket_cap_mb=0.0001)
    ddp.register_comm_hook(seen, hook)
    torch.nn.functional.mse_loss(ddp(X[shards[r]]), Y[shards[r]]).backward()
    out.append(" ".join(map(str, ("SEEN", r, seen))))
    out.append(" ".join(map(str, ("GRADS", r, [p.grad.unique().tolist() for p in ddp.module.parameters()]))))

    # registration errors, as PyTorch's
    errors = []
    for h in (3, dh.bf16_compress_hook, dh.allreduce_hook, dh.allreduce_hook):
        try:
            ddp = DDP(net()) if h == 3 else ddp
            ddp.register_comm_hook(None, h)
        except Exception as e:
            errors.append(f"{type(e).__name__}: {e}")
    out.append(" ".join(map(str, ("ERRORS", r, errors))))
    res = [None] * n
    dist.all_gather_object(res, out)
    if r == 0:
        print("\\n".join(line for lines in res for line in lines))
"""


@needs_mpi
def test_default_and_custom_comm_hooks_on_two_ranks(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(HOOKS))
    proc = subprocess.run([MPIEXEC, "-n", "2", sys.executable, str(path)], cwd=CWD,
                          env=child_env(), capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    for r in range(2):
        for name in ("allreduce_hook", "fp16_compress_hook"):
            for cap in ("25", "0.0001"):
                assert f"HOOK {r} {name} {cap}" in lines, proc.stdout
        # buckets in PyTorch's order: index 0 holds the last layer, reduced first
        assert (f"SEEN {r} [(0, False, [(3,)], [(3,)], (3,)), "
                f"(1, False, [(3, 8)], [(3, 8)], (24,)), (2, False, [(8,)], [(8,)], (8,)), "
                f"(3, True, [(8, 4)], [(8, 4)], (32,))]") in lines, proc.stdout
        assert f"GRADS {r} [[4.0], [3.0], [2.0], [1.0]]" in lines, proc.stdout
        assert (f"ERRORS {r} ['TypeError: Communication hook must be callable.', "
                "'TypeError: BF16 all reduce communication hook required CUDA 11+ and NCCL "
                "2.10+ or XPU and XCCL', 'RuntimeError: register_comm_hook or "
                "register_builtin_comm_hook can only be called once.']") in lines, proc.stdout


def test_futures_as_torch():
    import torch
    for lib in (torch, ag):
        fut = lib.futures.Future()
        chained = fut.then(lambda f: f.value() + 1)
        assert not fut.done()
        fut.set_result(lib.tensor([1.0]))
        assert chained.wait().tolist() == [2.0] and fut.done()
        bad = lib.futures.Future()
        failing = bad.then(lambda f: f.value())
        bad.set_exception(ValueError("boom"))
        with pytest.raises(ValueError, match="boom"):
            bad.wait()
        with pytest.raises(RuntimeError, match="Got the following error when running the "
                                               "callback: ValueError: boom"):
            failing.wait()
        with pytest.raises(RuntimeError):
            bad.set_result(1)


VIEWS = """
    import warnings
    import numpy as np
    import autograd_core as torch
    import autograd_core.distributed as dist
    from autograd_core.distributed.algorithms.ddp_comm_hooks import default_hooks as dh
    from autograd_core.nn.parallel import DistributedDataParallel as DDP

    warnings.simplefilter("ignore")
    dist.init_process_group("mpi")
    r, n = dist.get_rank(), dist.get_world_size()
    g = np.random.default_rng(0)
    X = torch.tensor(g.standard_normal((8, 4)), dtype=torch.float32)
    Y = torch.tensor(g.standard_normal((8, 3)), dtype=torch.float32)
    s = slice(r * 4, r * 4 + 4)
    out = []
    for hook in (None, dh.fp16_compress_hook):
        models = []
        for as_view in (False, True):
            torch.manual_seed(r)
            m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(),
                                    torch.nn.Linear(8, 3))
            ddp = DDP(m, gradient_as_bucket_view=as_view)
            if hook is not None:
                ddp.register_comm_hook(None, hook)
            opt = torch.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
            for step in range(4):
                opt.zero_grad(set_to_none=(step % 2 == 0))
                if step == 2:
                    with ddp.no_sync():
                        torch.nn.functional.mse_loss(ddp(X[s][:2]), Y[s][:2]).backward()
                torch.nn.functional.mse_loss(ddp(X[s]), Y[s]).backward()
                grads = [p.grad for p in m.parameters()]
                if as_view:
                    # one bucket: every grad is a view of its flat buffer
                    bases = {id(t._base) for t in grads}
                    out.append(f"views {len(bases) == 1 and grads[0]._base is not None}")
                opt.step()
            models.append(m)
        for a, b in zip(*(list(m.parameters()) for m in models)):
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6,
                                       atol=1e-7)
        out.append(f"same {hook is not None}")
    res = [None] * n
    dist.all_gather_object(res, out)
    if r == 0:
        print("\\n".join(line for lines in res for line in lines))
"""


@needs_mpi
def test_gradient_as_bucket_view_on_two_ranks(tmp_path):
    # .grad is a view into the bucket buffer; the parameters are those of the default path
    # (with and without a comm hook, through no_sync and zero_grad(set_to_none=True))
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(VIEWS))
    proc = subprocess.run([MPIEXEC, "-n", "2", sys.executable, str(path)], cwd=CWD,
                          env=child_env(), capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines.count("views True") == 16 and lines.count("same False") == 2 \
        and lines.count("same True") == 2, proc.stdout
