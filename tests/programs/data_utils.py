# torch.utils.data: Dataset, TensorDataset, random_split, DataLoader options, samplers, collate
import torch
from torch.utils.data import (Dataset, TensorDataset, DataLoader, random_split, Subset, ConcatDataset,
                              RandomSampler, SequentialSampler, BatchSampler, WeightedRandomSampler,
                              IterableDataset, default_collate)

torch.manual_seed(0)


class SquaresDataset(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return {'x': torch.tensor([idx], dtype=torch.float32), 'y': idx ** 2, 'name': f"item{idx}"}


ds = SquaresDataset(10)
print(len(ds), ds[3])
for batch in DataLoader(ds, batch_size=4):
    print(batch)
train, val = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), train.indices, val.indices)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2])
print(list(a), list(b), list(c))
td = TensorDataset(torch.arange(12).view(6, 2), torch.arange(6))
print(td[1], len(td), td.tensors[1])
dl = DataLoader(td, batch_size=4, shuffle=True, drop_last=False)
print(len(dl))
for epoch in range(2):
    for xb, yb in dl:
        print(epoch, xb.tolist(), yb.tolist())
dl = DataLoader(td, batch_size=4, drop_last=True)
print(len(dl), [y.tolist() for _, y in dl])
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(RandomSampler(range(6))))
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 6, replacement=True)))
cat = ConcatDataset([td, Subset(td, [0, 5])])
print(len(cat), cat[7])


class Stream(IterableDataset):
    def __iter__(self):
        for i in range(5):
            yield torch.tensor(i * 1.5)


print(list(DataLoader(Stream(), batch_size=2)))
print(default_collate([(torch.ones(2), 1), (torch.zeros(2), 2)]))


def collate_pad(batch):
    seqs = [b[0] for b in batch]
    lens = torch.tensor([len(s) for s in seqs])
    return torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True), lens


seqs = [(torch.arange(n) + 1,) for n in (3, 1, 4, 2)]
for padded, lens in DataLoader(seqs, batch_size=2, collate_fn=collate_pad):
    print(padded, lens)
g = torch.Generator()
g.manual_seed(0)
print([b.tolist() for b, in DataLoader(TensorDataset(torch.arange(8)), batch_size=3, shuffle=True, generator=g)])
print(next(iter(DataLoader(td, batch_size=2, sampler=SequentialSampler(td)))))
