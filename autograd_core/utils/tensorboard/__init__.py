"""torch.utils.tensorboard: ``SummaryWriter`` writes scalars, histograms, images, text,
hyperparameters, curves and graphs to event files that TensorBoard reads.

As in PyTorch, this needs the ``tensorboard`` package (its protocol buffers and event
file writer; install ``autograd_core[tensorboard]``): without it, importing this module
raises the same ModuleNotFoundError as PyTorch's.

>>> import tempfile
>>> from autograd_core.utils.tensorboard import SummaryWriter
>>> with SummaryWriter(tempfile.mkdtemp()) as w:
...     w.add_scalar("loss", 0.5, global_step=1)
"""
import tensorboard

from autograd_core.version import TorchVersion as _Version

if not hasattr(tensorboard, "__version__") or _Version(tensorboard.__version__) < (1, 15):
    raise ImportError("TensorBoard logging requires TensorBoard version 1.15 or above")

del tensorboard, _Version

from autograd_core.utils.tensorboard.writer import FileWriter, SummaryWriter  # noqa: E402
from tensorboard.summary.writer.record_writer import RecordWriter  # noqa: E402

__all__ = ["FileWriter", "RecordWriter", "SummaryWriter"]
