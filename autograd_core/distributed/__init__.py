"""``torch.distributed`` on MPI: run ``mpiexec -n N python train.py`` and call
``init_process_group("mpi")`` (or ``"gloo"``, served by MPI) in the script; Note
[Distributed on MPI] in ``distributed_c10d.py`` says how it works. Needs the optional
extra ``pip install 'autograd_core[distributed]'`` (mpi4py and an MPI library).

>>> import autograd_core.distributed as dist
>>> dist.is_initialized()
False
"""
from autograd_core.distributed.distributed_c10d import *  # noqa: F401,F403
from autograd_core.distributed.distributed_c10d import __all__  # noqa: F401
