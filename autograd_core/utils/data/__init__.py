"""autograd_core.utils.data: PyTorch's ``torch.utils.data`` (datasets, samplers, DataLoader,
default collation)."""
from autograd_core.utils.data._random import Generator  # noqa: F401
from autograd_core.utils.data.dataloader import (
    DataLoader, _DatasetKind, default_collate, default_convert, get_worker_info,
)
from autograd_core.utils.data.dataset import (
    ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset,
    random_split,
)
from autograd_core.utils.data.distributed import DistributedSampler
from autograd_core.utils.data.sampler import (
    BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset",
    "DistributedSampler", "IterableDataset", "RandomSampler", "Sampler", "SequentialSampler",
    "StackDataset", "Subset", "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler",
    "_DatasetKind", "default_collate", "default_convert", "get_worker_info", "random_split",
]
