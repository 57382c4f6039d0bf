#!/usr/bin/env python
"""torch.distributed on MPI: all_reduce bandwidth of the wrapper against mpi4py's own
Allreduce on numpy arrays of the same size, and the DistributedDataParallel step time.
Run under MPI's launcher (it launches itself when started plainly):

    python benchmarks/distributed.py                 # 2 ranks: mpiexec -n 2 ...
    mpiexec -n 4 python benchmarks/distributed.py --repeats 20

Prints, on rank 0, per size: the best time of mpi4py's Allreduce (the floor), of
``dist.all_reduce`` and their ratio (the wrapper's cost; near 1 above 1 MB is the aim),
then the DDP step (forward, backward with bucketed averaging, SGD step) of a small MLP
against the same step in one process without DDP. Started plainly, it then runs the DDP
step on 1 and on 2 ranks under autograd_core and under PyTorch (gloo, ranks started by
mpiexec) and prints them side by side with their ratios. Absolute times on shared
machines are noise: the ratios in one run are the figures.
"""
import argparse
import os
import shutil
import subprocess
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import _import_core, best  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--nproc", type=int, default=2)
    p.add_argument("--ddp-only", choices=("autograd_core", "torch"), default=None,
                   help="(internal) one rank's DDP step under this library")
    args = p.parse_args()
    if not any(v in os.environ for v in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK")):
        mpiexec = shutil.which("mpiexec")
        if mpiexec is None:
            sys.exit("needs mpiexec (pip install mpi4py mpich)")
        rc = subprocess.call([mpiexec, "-n", str(args.nproc), sys.executable, *sys.argv])
        if rc == 0:
            ddp_table(mpiexec, args.repeats)
        sys.exit(rc)
    if args.ddp_only:
        return ddp_child(args.ddp_only, args.repeats)
    ag = _import_core("autograd_core")
    import autograd_core.distributed as dist
    from mpi4py import MPI
    dist.init_process_group("mpi")
    rank, n = dist.get_rank(), dist.get_world_size()
    comm = MPI.COMM_WORLD
    if rank == 0:
        print(f"all_reduce (SUM, float32), {n} ranks: best of {args.repeats}")
        print(f"{'bytes':>10} {'mpi4py':>10} {'dist':>10} {'ratio':>6}")
    for nbytes in (1 << 10, 1 << 16, 1 << 20, 1 << 24):
        arr = np.ones(nbytes // 4, np.float32)
        t = ag.ones(nbytes // 4)
        comm.Barrier()
        floor = best(lambda: comm.Allreduce(MPI.IN_PLACE, arr), args.repeats)
        comm.Barrier()
        ours = best(lambda: dist.all_reduce(t), args.repeats)
        if rank == 0:
            print(f"{nbytes:>10} {floor * 1e3:>8.3f}ms {ours * 1e3:>8.3f}ms "
                  f"{ours / floor:>6.2f}")

    t_ddp, t_one = _ddp_step_times(ag, ag.nn.parallel.DistributedDataParallel, args.repeats,
                                   comm.Barrier)
    if rank == 0:
        print(f"DDP step (MLP 256-512-10, batch 64 per rank): {t_ddp * 1e3:.2f} ms on {n} "
              f"ranks, {t_one * 1e3:.2f} ms without DDP (ratio {t_ddp / t_one:.2f})")
    dist.destroy_process_group()


def _ddp_step_times(torch, DDP, repeats, sync):
    torch.manual_seed(0)

    def mlp():
        return torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(),
                                   torch.nn.Linear(512, 10))
    ddp, plain = DDP(mlp()), mlp()
    x, y = torch.randn(64, 256), torch.randint(0, 10, (64,))

    def step(m):
        opt = torch.optim.SGD(m.parameters(), lr=0.01)

        def run():
            opt.zero_grad()
            torch.nn.functional.cross_entropy(m(x), y).backward()
            opt.step()
        return run
    sync()
    t_ddp = best(step(ddp), repeats)
    sync()
    t_one = best(step(plain), repeats)
    return t_ddp, t_one


def ddp_child(lib, repeats):
    """One rank of the DDP comparison: prints ``DDPSTEP <ddp s> <no-DDP s>`` on rank 0."""
    import warnings
    warnings.simplefilter("ignore")
    if lib == "torch":
        import torch
        import torch.distributed as dist
        torch.set_num_threads(1)
        rank = int(os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK", 0)))
        size = int(os.environ.get("PMI_SIZE", os.environ.get("OMPI_COMM_WORLD_SIZE", 1)))
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        os.environ.setdefault("MASTER_PORT", "29731")
        dist.init_process_group("gloo", rank=rank, world_size=size)
    else:
        torch = _import_core("autograd_core")
        import autograd_core.distributed as dist
        dist.init_process_group("mpi")
    t_ddp, t_one = _ddp_step_times(torch, torch.nn.parallel.DistributedDataParallel,
                                   repeats, dist.barrier)
    if dist.get_rank() == 0:
        print(f"DDPSTEP {t_ddp!r} {t_one!r}", flush=True)
    dist.destroy_process_group()


def ddp_table(mpiexec, repeats):
    """The DDP step on 1 and 2 ranks, autograd_core beside PyTorch (gloo)."""
    import importlib.util
    libs = ["autograd_core"] + (["torch"] if importlib.util.find_spec("torch") else [])
    times = {}
    for lib in libs:
        for n in (1, 2):
            out = subprocess.run([mpiexec, "-n", str(n), sys.executable,
                                  os.path.abspath(__file__), "--ddp-only", lib,
                                  "--repeats", str(repeats)],
                                 capture_output=True, text=True, timeout=600).stdout
            line = [x for x in out.splitlines() if x.startswith("DDPSTEP ")]
            times[lib, n] = tuple(map(float, line[0].split()[1:])) if line else None
    print(f"\nDDP step (MLP 256-512-10, batch 64 per rank, SGD), best of {repeats}; "
          "'alone' is the same step without DDP in that rank")
    print(f"{'ranks':>5} {'ours':>9} {'ours alone':>10} {'ratio':>6} "
          f"{'torch':>9} {'torch alone':>11} {'ratio':>6} {'ours/torch':>10}")
    for n in (1, 2):
        ours = times.get(("autograd_core", n))
        theirs = times.get(("torch", n))
        row = f"{n:>5} "
        row += (f"{ours[0] * 1e3:>7.2f}ms {ours[1] * 1e3:>8.2f}ms {ours[0] / ours[1]:>6.2f} "
                if ours else f"{'failed':>27} ")
        row += (f"{theirs[0] * 1e3:>7.2f}ms {theirs[1] * 1e3:>9.2f}ms "
                f"{theirs[0] / theirs[1]:>6.2f} " if theirs else f"{'-':>28} ")
        if ours and theirs:
            row += f"{ours[0] / theirs[0]:>10.2f}"
        print(row)


if __name__ == "__main__":
    main()
