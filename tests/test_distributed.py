"""torch.distributed on MPI: every collective on 2 and 4 ranks (mpiexec on this machine)
against a numpy reference computed in each rank, point to point, async work, object
collectives, groups; PyTorch's errors for misuse (compared with torch in one process);
a rank that raises ends the job instead of hanging it. Each launch has a timeout."""
import os
import shutil
import subprocess
import sys
import textwrap
import warnings

import pytest

from _subprocess import CWD, child_env

import autograd_core as ag
import autograd_core.distributed as dist

MPIEXEC = shutil.which("mpiexec")
needs_mpi = pytest.mark.skipif(
    not dist.is_mpi_available() or MPIEXEC is None,
    reason="needs mpi4py, an MPI library and mpiexec (pip install mpi4py mpich)")


def launch(tmp_path, source, n, timeout=180, check=True):
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(source))
    cmd = [MPIEXEC, "-n", str(n), sys.executable, str(path)] if n else [sys.executable,
                                                                        str(path)]
    proc = subprocess.run(cmd, cwd=CWD, env=child_env(), capture_output=True, text=True,
                          timeout=timeout)
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


COLLECTIVES = """
    import numpy as np
    import autograd_core as torch
    import autograd_core.distributed as dist

    dist.init_process_group("mpi")
    r, n = dist.get_rank(), dist.get_world_size()
    rng = np.random.default_rng(0)
    data = rng.standard_normal((n, 5))        # row k: rank k's values, known to all ranks
    idata = rng.integers(0, 64, (n, 5))
    close = lambda t, ref: np.testing.assert_allclose(t.numpy(), ref, rtol=1e-6, atol=1e-12)

    for name, ref in [("SUM", data.sum(0)), ("PRODUCT", data.prod(0)), ("MIN", data.min(0)),
                      ("MAX", data.max(0)), ("AVG", data.mean(0))]:
        t = torch.tensor(data[r])
        dist.all_reduce(t, op=getattr(dist.ReduceOp, name))
        close(t, ref)
    for name, f in [("BAND", np.bitwise_and), ("BOR", np.bitwise_or), ("BXOR", np.bitwise_xor)]:
        t = torch.tensor(idata[r])
        dist.all_reduce(t, op=getattr(dist.ReduceOp, name))
        assert t.tolist() == f.reduce(idata, axis=0).tolist(), name
    # float32, a non-contiguous tensor, half precision
    t = torch.tensor(data[r], dtype=torch.float32)
    dist.all_reduce(t)
    np.testing.assert_allclose(t.numpy(), data.astype(np.float32).sum(0), rtol=1e-5)
    t = torch.tensor(np.stack([data[r], data[r]]).T.copy()).t()
    assert not t.is_contiguous()
    dist.all_reduce(t)
    close(t, np.stack([data.sum(0)] * 2))
    t = torch.tensor(data[r], dtype=torch.bfloat16)
    dist.all_reduce(t)
    np.testing.assert_allclose(t.float().numpy(), data.sum(0), rtol=2e-2, atol=2e-2)

    t = torch.tensor(data[r])
    dist.reduce(t, dst=n - 1)
    close(t, data.sum(0) if r == n - 1 else data[r])

    t = torch.tensor(data[r])
    dist.broadcast(t, src=n - 1)
    close(t, data[n - 1])

    out = [torch.zeros(5, dtype=torch.int64) for _ in range(n)]
    dist.all_gather(out, torch.tensor(idata[r]))
    assert [o.tolist() for o in out] == idata.tolist()

    out = [torch.zeros(5, dtype=torch.float64) for _ in range(n)] if r == 0 else None
    dist.gather(torch.tensor(data[r]), out, dst=0)
    if r == 0:
        close(torch.stack(out), data)

    t = torch.zeros(5, dtype=torch.float64)
    dist.scatter(t, [torch.tensor(data[k]) for k in range(n)] if r == 1 else None, src=1)
    close(t, data[r])

    blocks = rng.standard_normal((n, n, 3))  # blocks[k, i]: rank k's input i
    t = torch.zeros(3, dtype=torch.float64)
    dist.reduce_scatter(t, [torch.tensor(blocks[r, i]) for i in range(n)])
    close(t, blocks[:, r].sum(0))

    outs = [torch.zeros(3, dtype=torch.float64) for _ in range(n)]
    dist.all_to_all(outs, [torch.tensor(blocks[r, i]) for i in range(n)])
    close(torch.stack(outs), blocks[:, r])

    # point to point around a ring, blocking and not
    nxt, prv = (r + 1) % n, (r - 1) % n
    got = torch.zeros(5, dtype=torch.float64)
    recv_work = dist.irecv(got, src=prv)
    send_work = dist.isend(torch.tensor(data[r]), dst=nxt)
    assert recv_work.wait() and send_work.wait()
    assert recv_work.is_completed()
    close(got, data[prv])
    if r == 0:
        dist.send(torch.tensor(idata[0]), dst=1)
    elif r == 1:
        t = torch.zeros(5, dtype=torch.int64)
        assert dist.recv(t) == 0 and t.tolist() == idata[0].tolist()

    work = dist.all_reduce(torch.tensor(data[r]), async_op=True)
    assert isinstance(work, dist.Work) and work.wait() and work.is_completed()
    t = torch.tensor(data[r])
    work = dist.all_reduce(t, async_op=True)
    work.wait()
    close(t, data.sum(0))

    objs = [None] * n
    dist.all_gather_object(objs, {"rank": r, "sq": r * r})
    assert objs == [{"rank": k, "sq": k * k} for k in range(n)]
    lst = ["x", {"k": 3}, 7] if r == 1 else [None, None, None]
    dist.broadcast_object_list(lst, src=1)
    assert lst == ["x", {"k": 3}, 7]

    evens = dist.new_group([k for k in range(n) if k % 2 == 0])
    if r % 2 == 0:
        assert dist.get_rank(evens) == r // 2
        assert dist.get_world_size(evens) == (n + 1) // 2
        t = torch.tensor(data[r])
        dist.all_reduce(t, group=evens)
        close(t, data[::2].sum(0))
        assert dist.get_global_rank(evens, 1 if n > 2 else 0) == (2 if n > 2 else 0)
    else:
        assert evens == dist.GroupMember.NON_GROUP_MEMBER and dist.get_rank(evens) == -1
    dist.barrier()
    dist.monitored_barrier()
    assert dist.get_backend() == "mpi" and dist.group.WORLD is not None
    res = [None] * n
    dist.all_gather_object(res, f"OK {r} {n}")
    dist.destroy_process_group()
    assert not dist.is_initialized()
    if r == 0:
        print("\\n".join(res))
"""


@needs_mpi
@pytest.mark.parametrize("n", [2, 4])
def test_collectives_match_numpy(tmp_path, n):
    out = launch(tmp_path, COLLECTIVES, n).stdout.split("\n")
    assert sorted(line for line in out if line.startswith("OK")) == \
        [f"OK {r} {n}" for r in range(n)]


GLOO = """
    import warnings
    import autograd_core as torch
    import autograd_core.distributed as dist
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        dist.init_process_group(backend="gloo", init_method="env://")
    t = torch.ones(2) * (dist.get_rank() + 1)
    dist.all_reduce(t)
    res = [None] * dist.get_world_size()
    dist.all_gather_object(res, (dist.get_backend(), len(w), "served by MPI" in str(w[0].message),
                                 t.tolist()))
    if dist.get_rank() == 0:
        print("\\n".join(" ".join(map(str, x)) for x in res))
"""


@needs_mpi
def test_gloo_request_served_by_mpi(tmp_path):
    lines = launch(tmp_path, GLOO, 2).stdout.split("\n")
    assert sorted(x for x in lines if x) == ["mpi 1 True [3.0, 3.0]"] * 2


RAISES = """
    import autograd_core as torch
    import autograd_core.distributed as dist
    dist.init_process_group("mpi")
    if dist.get_rank() == 1:
        raise ValueError("rank one failed")
    dist.all_reduce(torch.ones(2))  # rank 0 would wait here forever
    print("unreachable")
"""


@needs_mpi
def test_a_rank_that_raises_ends_the_job(tmp_path):
    proc = launch(tmp_path, RAISES, 2, timeout=120, check=False)
    assert proc.returncode != 0
    assert "ValueError: rank one failed" in proc.stderr
    assert "unreachable" not in proc.stdout


WORLD_MISMATCH = """
    import os
    import autograd_core.distributed as dist
    os.environ.update(RANK="0", WORLD_SIZE="2")
    try:
        dist.init_process_group("mpi")
    except RuntimeError as e:
        print("mpiexec -n 2" in str(e))
"""


@needs_mpi
def test_env_world_size_must_match_mpi(tmp_path):
    assert launch(tmp_path, WORLD_MISMATCH, 0).stdout.strip() == "True"


# ------------------------------------------------------------------ errors, in one process

def test_uninitialized_errors_as_torch():
    import torch.distributed as tdist
    for f in ("get_rank", "get_world_size", "get_backend", "barrier"):
        with pytest.raises(ValueError) as e_t:
            getattr(tdist, f)()
        with pytest.raises(ValueError) as e_a:
            getattr(dist, f)()
        assert str(e_a.value) == str(e_t.value)
    assert not dist.is_initialized()


def test_nccl_and_unknown_backends_as_torch():
    with pytest.raises(RuntimeError, match="Distributed package doesn't have NCCL built in"):
        dist.init_process_group("nccl")
    with pytest.raises(AssertionError, match="Unknown backend type bogus"):
        dist.init_process_group("bogus")
    assert not dist.is_initialized()


def test_constants_as_torch():
    import torch.distributed as tdist
    for name in ("SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"):
        assert int(getattr(dist.ReduceOp, name)) == int(getattr(tdist.ReduceOp, name)), name
    for name in ("GLOO", "MPI", "NCCL"):
        assert getattr(dist.Backend, name) == getattr(tdist.Backend, name)
    assert dist.Backend("GLOO") == tdist.Backend("GLOO") == "gloo"
    assert dist.is_nccl_available() is False


SINGLE = """
    import os, warnings
    import autograd_core as torch
    import autograd_core.distributed as dist
    import torch as T
    import torch.distributed as tdist
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(29500 + os.getpid() % 1000))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dist.init_process_group("gloo")
        tdist.init_process_group("gloo", rank=0, world_size=1)

    def err(f):
        try:
            f()
        except Exception as e:
            return type(e).__name__, str(e).replace("autograd_core.", "torch.")
        return None

    for m in (dist, tdist):
        lib = torch if m is dist else T
        print(err(lambda: m.init_process_group("gloo")))
        print(err(lambda: m.all_reduce([1.0])))
        print(err(lambda: m.all_gather(1, lib.ones(2))))
        print(err(lambda: m.all_reduce(lib.ones(2), op=m.ReduceOp.BAND)))
        print(err(lambda: m.all_gather([lib.ones(2, dtype=lib.int64)], lib.ones(2))))
        print(err(lambda: m.send(lib.ones(2), dst=0)))
        t = lib.arange(3.0)
        m.all_reduce(t)
        print(t.tolist(), m.get_rank(), m.get_world_size())
"""


@needs_mpi
def test_misuse_errors_as_torch_single_process(tmp_path):
    lines = launch(tmp_path, SINGLE, 0).stdout.strip().split("\n")
    assert len(lines) == 14
    assert lines[:7] == lines[7:]


@needs_mpi
def test_docstring_examples_run():
    import doctest
    import autograd_core.distributed.distributed_c10d as c10d
    for mod in (dist, c10d):
        result = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and result.attempted > 0


def test_missing_mpi4py_names_the_missing_piece(tmp_path):
    # a fresh interpreter where importing mpi4py fails
    src = """
        import sys
        sys.modules["mpi4py"] = None
        import autograd_core.distributed as dist
        print(dist.is_mpi_available(), dist.is_available())
        try:
            dist.init_process_group("mpi")
        except ImportError as e:
            print("mpi4py" in str(e) and "pip install" in str(e))
    """
    assert launch(tmp_path, src, 0).stdout.split() == ["False", "False", "True"]


# ------------------------------------------------------------------ DistributedDataParallel

DDP = """
    import copy
    import sys
    import warnings
    import numpy as np
    import autograd_core as torch
    import autograd_core.distributed as dist
    from autograd_core.nn.parallel import DistributedDataParallel as DDP

    warnings.simplefilter("ignore")
    dist.init_process_group("gloo")
    r, n = dist.get_rank(), dist.get_world_size()
    cap = float(sys.argv[1])
    torch.manual_seed(r)  # a different init on every rank: DDP broadcasts rank 0's
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    ddp = DDP(model, bucket_cap_mb=cap)
    ref = copy.deepcopy(model)  # one process on the whole batch
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
    ropt = torch.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    g = np.random.default_rng(0)
    ce = torch.nn.functional.cross_entropy
    for step in range(4):
        X = torch.tensor(g.standard_normal((8, 4)), dtype=torch.float32)
        Y = torch.tensor(g.integers(0, 3, 8))
        shard = slice(r * 8 // n, (r + 1) * 8 // n)
        opt.zero_grad()
        if step == 2:  # accumulate two half-shards, the first without synchronising
            half = slice(shard.start, shard.start + (shard.stop - shard.start) // 2)
            rest = slice(half.stop, shard.stop)
            with ddp.no_sync():
                (ce(ddp(X[half]), Y[half]) * 0.5).backward()
            (ce(ddp(X[rest]), Y[rest]) * 0.5).backward()
        else:
            ce(ddp(X[shard]), Y[shard]).backward()
        opt.step()
        ropt.zero_grad()
        ce(ref(X), Y).backward()
        ropt.step()
    for (k, a), b in zip(ddp.state_dict().items(), ref.state_dict().values()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-5, err_msg=k)
    assert list(ddp.state_dict()) == ["module." + k for k in model.state_dict()]
    assert ddp.module is model
    res = [None] * n
    dist.all_gather_object(res, f"OK {r} {len(ddp._buckets)}")
    if r == 0:
        print("\\n".join(res))
"""


@needs_mpi
@pytest.mark.parametrize("n,cap,buckets", [(2, 25, 1), (2, 0.0001, 4), (4, 0.0001, 4)])
def test_ddp_matches_one_process_on_the_whole_batch(tmp_path, n, cap, buckets):
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(DDP))
    proc = subprocess.run([MPIEXEC, "-n", str(n), sys.executable, str(path), str(cap)],
                          cwd=CWD, env=child_env(), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert sorted(x for x in proc.stdout.split("\n") if x) == \
        [f"OK {r} {buckets}" for r in range(n)]


DDP_UNUSED = """
    import warnings
    import autograd_core as torch
    import autograd_core.distributed as dist
    from autograd_core.nn.parallel import DistributedDataParallel as DDP

    warnings.simplefilter("ignore")
    dist.init_process_group("mpi")
    r = dist.get_rank()

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Linear(2, 1)
            self.b = torch.nn.Linear(2, 1)

        def forward(self, x):  # rank 0 uses only a, rank 1 uses a and b
            return self.a(x) + (self.b(x) if r == 1 else 0)

    torch.manual_seed(0)
    ddp = DDP(Net(), find_unused_parameters=True)
    ddp(torch.ones(1, 2)).sum().backward()
    res = [None] * 2
    dist.all_gather_object(res, f"{r} {ddp.module.a.weight.grad.tolist()} "
                                f"{ddp.module.b.bias.grad.tolist()}")
    if r == 0:
        print("\\n".join(res), flush=True)
    if r == 0:
        strict = DDP(torch.nn.Linear(2, 2).requires_grad_(True), process_group=dist.new_group([0]))
        strict.module.bias.requires_grad_(True)
        strict(torch.ones(1, 2))[:, 0].sum().backward()  # bias[1] unused: fine, it is one tensor
        net = Net()
        solo = DDP(net, process_group=dist.new_group([0]))
        solo(torch.ones(1, 2)).sum().backward()       # b unused on this (only) rank
        try:
            solo(torch.ones(1, 2))
        except RuntimeError as e:
            print("ERR", str(e).startswith("Expected to have finished reduction in the prior"))
    else:
        dist.new_group([0])
        dist.new_group([0])
"""


@needs_mpi
def test_ddp_find_unused_parameters(tmp_path):
    lines = sorted(x for x in launch(tmp_path, DDP_UNUSED, 2).stdout.split("\n") if x)
    # a's gradient averaged over both ranks; b's (used by rank 1 only) averaged with 0
    assert lines == ["0 [[1.0, 1.0]] [0.5]", "1 [[1.0, 1.0]] [0.5]", "ERR True"]


def test_ddp_needs_an_initialized_group():
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        ag.nn.parallel.DistributedDataParallel(ag.nn.Linear(2, 2))


# ------------------------------------------------------------------ the launcher

LAUNCHED = """
    import os
    import sys
    import warnings
    import autograd_core as torch
    import autograd_core.distributed as dist
    warnings.simplefilter("ignore")
    dist.init_process_group("gloo")
    t = torch.ones(1) * (int(os.environ["LOCAL_RANK"]) + 1)
    dist.all_reduce(t)
    res = [None] * dist.get_world_size()
    dist.all_gather_object(res, (os.environ["RANK"], os.environ["WORLD_SIZE"], sys.argv[1:],
                                 t.item()))
    if dist.get_rank() == 0:
        print(res)
    if "--fail" in sys.argv and dist.get_rank() == 1:
        raise SystemExit(5)
"""


@needs_mpi
def test_launcher_runs_ranks_with_torchrun_variables(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(LAUNCHED))
    proc = subprocess.run([sys.executable, "-m", "autograd_core.distributed.run",
                           "--nproc-per-node", "3", str(path), "--lr", "0.1"], cwd=CWD,
                          env=child_env(), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    assert eval(proc.stdout.strip()) == [(str(r), "3", ["--lr", "0.1"], 6.0) for r in range(3)]
    proc = subprocess.run([sys.executable, "-m", "autograd_core.distributed.run",
                           "--nproc_per_node=2", str(path), "--fail"], cwd=CWD,
                          env=child_env(), capture_output=True, text=True, timeout=180)
    assert proc.returncode != 0


def test_launcher_needs_a_hostfile_for_several_machines():
    from autograd_core.distributed import run
    with pytest.raises(SystemExit, match="--hostfile"):
        run._command(run.get_args_parser().parse_args(["--nnodes", "2", "x.py"]))


EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "examples", "ddp_digits.py")


@needs_mpi
def test_ddp_digits_example_trains_on_two_ranks():
    # the example as its docstring runs it (the suite's tests/test_demo.py also runs it on
    # one rank under both libraries and compares the final loss with PyTorch's)
    proc = subprocess.run([sys.executable, "-m", "autograd_core.distributed.run",
                           "--nproc-per-node", "2", str(EXAMPLE), "--steps", "60"],
                          cwd=CWD, env=child_env(), capture_output=True, text=True,
                          timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert out.startswith("running under autograd_core") and ", 2 ranks" in out, out
    assert "parameters identical on the 2 ranks: True" in out, out
    first = float(out.split("first loss: ")[1].split()[0])
    final = float(out.split("final loss: ")[1].split()[0])
    assert final < 0.8 * first, out
