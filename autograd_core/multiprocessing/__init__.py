"""``torch.multiprocessing``: Python's :mod:`multiprocessing` with tensors that cross
process boundaries through shared memory instead of pickled copies.

Everything of :mod:`multiprocessing` is here under the same names (``Process``,
``Queue``, ``SimpleQueue``, ``Pool``, ``get_context``, ``set_start_method``...); importing
autograd_core registers a reducer with ``multiprocessing``'s ``ForkingPickler``, so a
tensor put on a queue or passed to a child arrives as a window on the same shared
buffer (Note [Shared tensors] in ``reductions.py``). Add ``spawn``/``start_processes``
and the sharing strategies.

>>> import autograd_core as torch
>>> import autograd_core.multiprocessing as mp
>>> q = mp.SimpleQueue()
>>> t = torch.zeros(3).share_memory_()
>>> q.put(t)
>>> r = q.get()
>>> r.add_(1)
tensor([1., 1., 1.])
>>> t  # the same memory
tensor([1., 1., 1.])
"""
import multiprocessing
from multiprocessing import *  # noqa: F401,F403

from autograd_core.multiprocessing.reductions import (  # noqa: F401
    get_all_sharing_strategies,
    get_sharing_strategy,
    init_reductions,
    set_sharing_strategy,
)
from autograd_core.multiprocessing.spawn import (  # noqa: F401
    ENV_VAR_PARALLEL_START,
    ProcessContext,
    ProcessExitedException,
    ProcessRaisedException,
    SpawnContext,
    spawn,
    start_processes,
)

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies"]
__all__ += multiprocessing.__all__

init_reductions()
