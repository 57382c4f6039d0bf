"""``python -m autograd_core.distributed.run --nproc-per-node N script.py [args]``:
torchrun's command line, starting the ranks through the MPI launcher (``mpiexec``).

Each rank runs ``script.py`` as ``__main__`` with torchrun's variables set from MPI's:
``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``LOCAL_WORLD_SIZE``, ``MASTER_ADDR``,
``MASTER_PORT``; ``init_process_group("gloo")`` or ``("mpi")`` in the script then runs on
MPI. On several machines pass ``--hostfile FILE`` (MPI's host file: one host name per
line) and ``--nnodes``; the command is run once, on the first machine.
"""
import argparse
import os
import runpy
import shutil
import subprocess
import sys

__all__ = ["main", "get_args_parser"]


def get_args_parser():
    """The launcher's argument parser (torchrun's names, with '-' or '_')."""
    p = argparse.ArgumentParser(
        prog="python -m autograd_core.distributed.run",
        description="Start N ranks of a training script through mpiexec (torchrun's options).")
    p.add_argument("--nproc-per-node", "--nproc_per_node", type=int, default=1,
                   help="ranks per machine")
    p.add_argument("--nnodes", type=str, default="1", help="number of machines")
    p.add_argument("--hostfile", type=str, default=None,
                   help="MPI host file listing the machines (needed when --nnodes > 1)")
    p.add_argument("--master-addr", "--master_addr", default="127.0.0.1")
    p.add_argument("--master-port", "--master_port", type=int, default=29500)
    p.add_argument("--mpiexec", default=None, help="the MPI launcher (default: mpiexec on PATH)")
    p.add_argument("-m", "--module", action="store_true",
                   help="run the target as a module (python -m)")
    p.add_argument("--standalone", action="store_true", help="accepted (single machine)")
    p.add_argument("training_script")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def _command(args):
    mpiexec = args.mpiexec or shutil.which("mpiexec") or shutil.which("mpirun")
    if mpiexec is None:
        raise SystemExit("autograd_core.distributed.run: no MPI launcher (mpiexec) on PATH; "
                         "pip install 'autograd_core[distributed]' or load your MPI module")
    nnodes = int(str(args.nnodes).split(":")[-1])
    if nnodes > 1 and not args.hostfile:
        raise SystemExit("autograd_core.distributed.run: --nnodes > 1 needs --hostfile "
                         "(MPI's host file, one machine per line)")
    cmd = [mpiexec, "-n", str(args.nproc_per_node * nnodes)]
    if args.hostfile:
        cmd += ["-f" if "mpich" in _mpi_flavour(mpiexec) else "--hostfile", args.hostfile,
                "-ppn" if "mpich" in _mpi_flavour(mpiexec) else "--npernode",
                str(args.nproc_per_node)]
    cmd += [sys.executable, "-m", "autograd_core.distributed.run", "--_rank",
            args.master_addr, str(args.master_port), "1" if args.module else "0",
            args.training_script, *args.training_script_args]
    return cmd


def _mpi_flavour(mpiexec):
    try:
        out = subprocess.run([mpiexec, "--version"], capture_output=True, text=True,
                             timeout=30).stdout.lower()
    except (OSError, subprocess.SubprocessError):
        return ""
    return "openmpi" if "open mpi" in out or "open-mpi" in out else "mpich"


def _first(*names, default=None):
    for n in names:
        if n in os.environ:
            return os.environ[n]
    return default


def _run_rank(argv):
    # inside one rank, before the script: torchrun's variables from the MPI launcher's
    master_addr, master_port, as_module, target, *rest = argv
    rank = _first("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", default="0")
    size = _first("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", default="1")
    local = _first("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", default=rank)
    local_size = _first("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", default=size)
    os.environ.update(RANK=rank, WORLD_SIZE=size, LOCAL_RANK=local,
                      LOCAL_WORLD_SIZE=local_size, GROUP_RANK="0", MASTER_ADDR=master_addr,
                      MASTER_PORT=master_port)
    sys.argv = [target, *rest]
    if as_module == "1":
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
        runpy.run_path(target, run_name="__main__")


def main(argv=None):
    """Parse torchrun-style arguments and run the ranks; returns mpiexec's exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--_rank"]:
        _run_rank(argv[1:])
        return 0
    args = get_args_parser().parse_args(argv)
    return subprocess.call(_command(args))


if __name__ == "__main__":
    sys.exit(main())
