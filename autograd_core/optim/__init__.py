"""autograd_core.optim: PyTorch 2.13's ``torch.optim`` (every optimizer, every learning-rate scheduler in ``optim.lr_scheduler``, and ``optim.swa_utils``)."""
from autograd_core.optim import lr_scheduler  # noqa: F401
from autograd_core.optim import swa_utils  # noqa: F401
from autograd_core.optim._adafactor import Adafactor
from autograd_core.optim._muon import Muon
from autograd_core.optim.adadelta import Adadelta
from autograd_core.optim.adagrad import Adagrad
from autograd_core.optim.adam import Adam
from autograd_core.optim.adamax import Adamax
from autograd_core.optim.adamw import AdamW
from autograd_core.optim.asgd import ASGD
from autograd_core.optim.lbfgs import LBFGS
from autograd_core.optim.nadam import NAdam
from autograd_core.optim.optimizer import (  # noqa: F401
    Optimizer, register_optimizer_step_post_hook, register_optimizer_step_pre_hook,
)
from autograd_core.optim.radam import RAdam
from autograd_core.optim.rmsprop import RMSprop
from autograd_core.optim.rprop import Rprop
from autograd_core.optim.sgd import SGD
from autograd_core.optim.sparse_adam import SparseAdam
from autograd_core.optim._stateless import swap_in_optimizer_params_and_state

Adafactor.__module__ = "autograd_core.optim"
Muon.__module__ = "autograd_core.optim"

__all__ = [
    "Adafactor", "Adadelta", "Adagrad", "Adam", "Adamax", "AdamW", "ASGD", "LBFGS",
    "lr_scheduler", "Muon", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop", "SGD", "SparseAdam",
    "swa_utils",
    "swap_in_optimizer_params_and_state",
]
