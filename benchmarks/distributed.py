#!/usr/bin/env python
"""torch.distributed on MPI: all_reduce bandwidth of the wrapper against mpi4py's own
Allreduce on numpy arrays of the same size, and the DistributedDataParallel step time.
Run under MPI's launcher (it launches itself when started plainly):

    python benchmarks/distributed.py                 # 2 ranks: mpiexec -n 2 ...
    mpiexec -n 4 python benchmarks/distributed.py --repeats 20

Prints, on rank 0, per size: the best time of mpi4py's Allreduce (the floor), of
``dist.all_reduce`` and their ratio (the wrapper's cost; near 1 above 1 MB is the aim),
then the DDP step (forward, backward with bucketed averaging, SGD step) of a small MLP
against the same step in one process without DDP. Absolute times on shared machines are
noise: the ratios in one run are the figures.
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
    args = p.parse_args()
    if not any(v in os.environ for v in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK")):
        mpiexec = shutil.which("mpiexec")
        if mpiexec is None:
            sys.exit("needs mpiexec (pip install mpi4py mpich)")
        sys.exit(subprocess.call([mpiexec, "-n", str(args.nproc), sys.executable,
                                  *sys.argv]))
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

    from autograd_core.nn.parallel import DistributedDataParallel as DDP
    ag.manual_seed(0)
    model = ag.nn.Sequential(ag.nn.Linear(256, 512), ag.nn.ReLU(), ag.nn.Linear(512, 10))
    ddp = DDP(model)
    plain = ag.nn.Sequential(ag.nn.Linear(256, 512), ag.nn.ReLU(), ag.nn.Linear(512, 10))
    x, y = ag.randn(64, 256), ag.randint(0, 10, (64,))

    def step(m):
        opt = ag.optim.SGD(m.parameters(), lr=0.01)

        def run():
            opt.zero_grad()
            ag.nn.functional.cross_entropy(m(x), y).backward()
            opt.step()
        return run
    comm.Barrier()
    t_ddp = best(step(ddp), args.repeats)
    t_one = best(step(plain), args.repeats)
    if rank == 0:
        print(f"DDP step (MLP 256-512-10, batch 64 per rank): {t_ddp * 1e3:.2f} ms on {n} "
              f"ranks, {t_one * 1e3:.2f} ms without DDP (ratio {t_ddp / t_one:.2f})")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
