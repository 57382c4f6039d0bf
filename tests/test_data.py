"""autograd_core.utils.data against torch.utils.data: collation, datasets, samplers and
DataLoader batching compared value for value; random orders compared by structure (valid
permutations, reproducibility, batch composition for the same indices), since
autograd_core's random streams do not reproduce PyTorch's numbers (when they do, the
shuffled orders themselves can be compared)."""
import collections
import os
import warnings

import numpy as np
import pytest
import torch
import torch.utils.data as tud

import autograd_core as ag
import autograd_core.utils.data as agd
from _diff import assert_same

Point = collections.namedtuple("Point", ["x", "y"])


def _mk(lib, sample):
    """Build a sample for lib from a spec: ("t", values, dtype) -> tensor."""
    if isinstance(sample, tuple) and sample and sample[0] == "t":
        return lib.tensor(sample[1], dtype=getattr(lib, sample[2]))
    if isinstance(sample, Point):
        return Point(_mk(lib, sample.x), _mk(lib, sample.y))
    if isinstance(sample, dict):
        return {k: _mk(lib, v) for k, v in sample.items()}
    if isinstance(sample, tuple):
        return tuple(_mk(lib, v) for v in sample)
    if isinstance(sample, list):
        return [_mk(lib, v) for v in sample]
    return sample


BATCHES = [
    [("t", [1.0, 2.0], "float32"), ("t", [3.0, 4.0], "float32")],
    [("t", 1.5, "float64"), ("t", 2.5, "float64")],
    [("t", [[1, 2]], "int64"), ("t", [[3, 4]], "int64")],
    [("t", [True], "bool"), ("t", [False], "bool")],
    [1, 2, 3],
    [1.5, 2.5],
    [True, False],
    ["a", "b"],
    [b"x", b"y"],
    [np.array([1.0, 2.0], dtype=np.float32), np.array([3.0, 4.0], dtype=np.float32)],
    [np.array([1, 2]), np.array([3, 4])],
    [np.float32(1.5), np.float32(2.5)],
    [np.int16(3), np.int16(4)],
    [np.float64(1.0), np.float64(2.0)],
    [{"a": ("t", [1.0], "float32"), "b": 1}, {"a": ("t", [2.0], "float32"), "b": 2}],
    [(("t", [1.0], "float32"), 3), (("t", [2.0], "float32"), 4)],
    [[("t", [1.0], "float32"), 3.5], [("t", [2.0], "float32"), 4.5]],
    [Point(1, ("t", [1.0], "float32")), Point(2, ("t", [2.0], "float32"))],
    [{"nested": {"x": [1, 2], "y": ("t", [0.5], "float32")}, "s": "id0"},
     {"nested": {"x": [3, 4], "y": ("t", [1.5], "float32")}, "s": "id1"}],
    [collections.OrderedDict(a=1.0, b=np.int64(2)), collections.OrderedDict(a=3.0, b=np.int64(4))],
]


@pytest.mark.parametrize("batch", BATCHES, ids=[str(i) for i in range(len(BATCHES))])
def test_default_collate_matches_torch(batch):
    assert_same(tud.default_collate(_mk(torch, batch)), agd.default_collate(_mk(ag, batch)))


@pytest.mark.parametrize("sample", [
    np.array([1.0, 2.0]), np.float32(3.0), {"a": np.array([1])}, (np.int64(1), 2.0),
    [np.array([1.0]), "s"], Point(np.array([1]), 2), ("t", [1.0], "float32"), "text", 3,
    np.array(["a", "b"]),
], ids=lambda s: type(s).__name__)
def test_default_convert_matches_torch(sample):
    assert_same(tud.default_convert(_mk(torch, sample)), agd.default_convert(_mk(ag, sample)))


@pytest.mark.parametrize("batch", [
    [[1, 2], [3]], [object(), object()], [np.array(["a"]), np.array(["b"])],
    [{"a": 1}, {"b": 2}],
])
def test_default_collate_errors_match(batch):
    errs = []
    for lib, mod in ((torch, tud), (ag, agd)):
        with pytest.raises(Exception) as e:
            mod.default_collate(batch)
        errs.append((type(e.value), str(e.value).replace("torch.", "autograd_core.")))
    assert errs[0] == errs[1]


# ---------------------------------------------------------------------------- datasets
def _xy(lib, n=10):
    x = lib.arange(n * 3, dtype=lib.float32).reshape(n, 3)
    y = lib.arange(n) % 3
    return x, y


def test_tensor_stack_concat_subset_datasets():
    for lib, mod in ((torch, tud), (ag, agd)):
        x, y = _xy(lib)
        ds = mod.TensorDataset(x, y)
        assert len(ds) == 10
        with pytest.raises(AssertionError, match="Size mismatch between tensors"):
            mod.TensorDataset(x, y[:3])
    res = {}
    for lib, mod in ((torch, tud), (ag, agd)):
        x, y = _xy(lib)
        ds = mod.TensorDataset(x, y)
        cat = mod.ConcatDataset([ds, mod.Subset(ds, [9, 0, 4])])
        st = mod.StackDataset(ds, mod.Subset(ds, list(range(10))[::-1]))
        sk = mod.StackDataset(a=ds, b=x)
        added = ds + mod.Subset(ds, [1])
        res[lib] = [ds[3], cat[11], cat[-1], cat[-13], len(cat), cat.cumulative_sizes,
                    st[2], sk[5], sk.__getitems__([1, 2]), st.__getitems__([0, 9]),
                    len(added), added[10], mod.Subset(ds, [2, 5]).__getitems__([1, 0])]
    assert_same(res[torch], res[ag])


def test_dataset_errors_match():
    def errors(lib, mod):
        x, y = _xy(lib)
        ds = mod.TensorDataset(x, y)
        out = []
        for fn in [lambda: mod.ConcatDataset([]), lambda: mod.ConcatDataset([ds])[-11],
                   lambda: mod.StackDataset(ds, a=ds), lambda: mod.StackDataset(),
                   lambda: mod.StackDataset(ds, mod.Subset(ds, [1])),
                   lambda: mod.Dataset()[0],
                   lambda: mod.ConcatDataset([ds, _Count(3)])]:
            try:
                fn()
                out.append(None)
            except Exception as e:  # noqa: BLE001 - comparing types and messages
                out.append((type(e).__name__, str(e)))
        return out

    assert errors(torch, tud) == errors(ag, agd)


class _Count:
    """An iterable dataset of 0..n-1 (registered as IterableDataset of either library)."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = _WORKER_INFO()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))

    def __len__(self):
        return self.n


_WORKER_INFO = agd.get_worker_info


def _count_ds(mod, n):
    cls = type("Count", (_Count, mod.IterableDataset), {})
    return cls(n)


def test_chain_and_iterable_datasets():
    res = {}
    for lib, mod in ((torch, tud), (ag, agd)):
        a, b = _count_ds(mod, 3), _count_ds(mod, 2)
        chain = a + b
        res[lib] = (list(chain), len(chain), type(chain).__name__)
        with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
            list(mod.ChainDataset([a, [1]]))
    assert res[torch] == res[ag]


def test_random_split():
    for lib, mod in ((torch, tud), (ag, agd)):
        x, y = _xy(lib, 11)
        ds = mod.TensorDataset(x, y)
        parts = mod.random_split(ds, [0.5, 0.3, 0.2])
        assert [len(p) for p in parts] == [6, 3, 2]  # remainder distributed round-robin
        idx = sorted(i for p in parts for i in p.indices)
        assert idx == list(range(11))
        parts = mod.random_split(range(5), [2, 3])
        assert sorted(parts[0].indices + parts[1].indices) == [0, 1, 2, 3, 4]
        with pytest.raises(ValueError, match="Sum of input lengths"):
            mod.random_split(range(5), [2, 2])
        with pytest.raises(ValueError, match="Fraction at index 0 is not between 0 and 1"):
            mod.random_split(range(5), [1.5, -0.5])
        with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
            mod.random_split(range(3), [0.9, 0.1])
    # reproducible from a generator; different seeds give different splits
    a = agd.random_split(range(50), [25, 25], generator=ag.Generator().manual_seed(42))
    b = agd.random_split(range(50), [25, 25], generator=ag.Generator().manual_seed(42))
    c = agd.random_split(range(50), [25, 25], generator=ag.Generator().manual_seed(7))
    assert a[0].indices == b[0].indices and a[0].indices != c[0].indices
    ag.manual_seed(3)
    d = agd.random_split(range(50), [25, 25])
    ag.manual_seed(3)
    e = agd.random_split(range(50), [25, 25])
    assert d[1].indices == e[1].indices


# ---------------------------------------------------------------------------- samplers
def test_sequential_and_batch_samplers_match():
    for drop_last in (False, True):
        for bs in (1, 3, 4, 10, 11):
            t = list(tud.BatchSampler(tud.SequentialSampler(range(10)), bs, drop_last))
            a = list(agd.BatchSampler(agd.SequentialSampler(range(10)), bs, drop_last))
            assert t == a
            assert len(tud.BatchSampler(range(10), bs, drop_last)) == \
                len(agd.BatchSampler(range(10), bs, drop_last))


def test_sampler_errors_match():
    def errors(mod):
        out = []
        for fn in [lambda: mod.BatchSampler(range(3), 0, False),
                   lambda: mod.BatchSampler(range(3), True, False),
                   lambda: mod.BatchSampler(range(3), 2, 1),
                   lambda: mod.RandomSampler(range(3), replacement=1),
                   lambda: mod.RandomSampler(range(3), num_samples=0),
                   lambda: mod.WeightedRandomSampler([1.0], 0),
                   lambda: mod.WeightedRandomSampler([1.0], 1, replacement=0),
                   lambda: mod.WeightedRandomSampler([[1.0]], 1),
                   lambda: list(mod.WeightedRandomSampler([1.0, 0.0], 3, replacement=False)),
                   lambda: list(mod.WeightedRandomSampler([0.0, 0.0], 1))]:
            try:
                fn()
                out.append(None)
            except Exception as e:  # noqa: BLE001 - comparing types and messages
                out.append((type(e).__name__, str(e)))
        return out

    assert errors(tud) == errors(agd)


def test_random_samplers_structure():
    g = ag.Generator().manual_seed(0)
    perm = list(agd.RandomSampler(range(20), generator=g))
    assert sorted(perm) == list(range(20)) and perm != list(range(20))
    again = list(agd.RandomSampler(range(20), generator=ag.Generator().manual_seed(0)))
    assert perm == again
    assert list(agd.RandomSampler(range(20), generator=g)) != perm  # the generator advanced
    # num_samples larger than the dataset: whole permutations, then a partial one
    s = list(agd.RandomSampler(range(5), num_samples=12, generator=g))
    assert len(s) == 12 and sorted(s[:5]) == list(range(5)) and sorted(s[5:10]) == \
        list(range(5)) and len(set(s[10:])) == 2
    r = list(agd.RandomSampler(range(4), replacement=True, num_samples=70, generator=g))
    assert len(r) == 70 and set(r) <= set(range(4))
    assert len(agd.RandomSampler(range(4), replacement=True, num_samples=70)) == 70
    sub = list(agd.SubsetRandomSampler([10, 20, 30, 40], generator=g))
    assert sorted(sub) == [10, 20, 30, 40]
    w = list(agd.WeightedRandomSampler([0.0, 1.0, 3.0], 200, generator=g))
    assert 0 not in w and w.count(2) > w.count(1)
    w = list(agd.WeightedRandomSampler([1.0, 1.0, 1.0, 0.5], 4, replacement=False, generator=g))
    assert sorted(w) == [0, 1, 2, 3]
    ag.manual_seed(5)
    a = list(agd.RandomSampler(range(30)))
    ag.manual_seed(5)
    assert list(agd.RandomSampler(range(30))) == a


def test_distributed_sampler():
    for kw in (dict(shuffle=False), dict(shuffle=False, drop_last=True)):
        for rank in range(3):
            t = list(torch.utils.data.distributed.DistributedSampler(
                range(10), num_replicas=3, rank=rank, **kw))
            a = list(agd.DistributedSampler(range(10), num_replicas=3, rank=rank, **kw))
            assert t == a
    shards = [list(agd.DistributedSampler(range(10), num_replicas=3, rank=r, seed=1))
              for r in range(3)]
    flat = sum(shards, [])
    assert len(flat) == 12 and set(flat) == set(range(10))
    s = agd.DistributedSampler(range(10), num_replicas=2, rank=0)
    e0 = list(s)
    s.set_epoch(1)
    assert list(s) != e0 and sorted(list(s) + list(agd.DistributedSampler(
        range(10), num_replicas=2, rank=1))) != []
    with pytest.raises(ValueError, match="Invalid rank 3"):
        agd.DistributedSampler(range(10), num_replicas=3, rank=3)


def test_distributed_sampler_reads_the_process_group_as_pytorchs():
    """Without num_replicas/rank: the default group's, and PyTorch's error without one
    (the ranks of an initialised group: tests/test_distributed.py)."""
    import torch.distributed as tdist
    if tdist.is_initialized():
        pytest.skip("a process group is initialised in this process")
    with pytest.raises(ValueError) as want:
        torch.utils.data.distributed.DistributedSampler(range(10))
    with pytest.raises(ValueError) as got:
        agd.DistributedSampler(range(10))
    assert str(got.value) == str(want.value)


# ---------------------------------------------------------------------------- DataLoader
def _loader_batches(lib, mod, make_ds, **kw):
    ds = make_ds(lib, mod)
    dl = mod.DataLoader(ds, **kw)
    return [len(dl)] + list(dl)


def _tensor_ds(lib, mod):
    return mod.TensorDataset(*_xy(lib, 10))


class _DictDS:
    def __init__(self, lib):
        self.lib = lib

    def __getitem__(self, i):
        return {"x": self.lib.tensor([float(i), -float(i)]), "label": i % 2, "w": i * 0.5,
                "name": f"s{i}", "pt": Point(i, np.float32(i) / 2)}

    def __len__(self):
        return 7


def _dict_ds(lib, mod):
    return _DictDS(lib)


@pytest.mark.parametrize("kw", [
    dict(), dict(batch_size=3), dict(batch_size=3, drop_last=True), dict(batch_size=None),
    dict(batch_size=4, sampler=[9, 1, 5, 5, 0, 2]),
    dict(batch_sampler=[[1, 2], [0], [9, 8, 7]]),
    dict(batch_size=2, collate_fn=lambda b: len(b)),
    dict(batch_size=10), dict(batch_size=20),
], ids=lambda kw: ",".join(f"{k}={v if not callable(v) else 'fn'}" for k, v in kw.items()))
@pytest.mark.parametrize("make_ds", [_tensor_ds, _dict_ds], ids=["tensors", "dicts"])
def test_dataloader_batches_match_torch(make_ds, kw):
    if make_ds is _dict_ds and "sampler" in kw:
        kw = dict(kw, sampler=[6, 1, 5, 5, 0, 2])
    if make_ds is _dict_ds and "batch_sampler" in kw:
        kw = dict(kw, batch_sampler=[[1, 2], [0], [6, 5, 4]])
    assert_same(_loader_batches(torch, tud, make_ds, **kw), _loader_batches(ag, agd, make_ds, **kw))


@pytest.mark.parametrize("kw", [dict(batch_size=2), dict(batch_size=2, drop_last=True),
                                dict(batch_size=None), dict(batch_size=5)])
def test_iterable_dataloader_matches_torch(kw):
    res = {}
    for lib, mod in ((torch, tud), (ag, agd)):
        dl = mod.DataLoader(_count_ds(mod, 7), **kw)
        res[lib] = (len(dl), list(dl))
    assert_same(res[torch], res[ag])


def test_iterable_len_warning_matches():
    msgs = {}
    for lib, mod in ((torch, tud), (ag, agd)):
        # an iterable dataset whose __len__ under-reports: warns once per extra batch
        cls = type("Liar", (type(_count_ds(mod, 5)),), {"__len__": lambda self: 2})
        dl = mod.DataLoader(cls(5), batch_size=None)
        len(dl)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            list(dl)
        msgs[lib] = [str(x.message).split(" was reported")[1] for x in w]
    assert msgs[torch] == msgs[ag] and len(msgs[ag]) == 3


def test_shuffle_structure_and_batch_composition():
    x, y = _xy(ag, 23)
    ds = agd.TensorDataset(x, y)
    for drop_last in (False, True):
        dl = agd.DataLoader(ds, batch_size=5, shuffle=True, drop_last=drop_last,
                            generator=ag.Generator().manual_seed(1))
        batches = list(dl)
        assert [len(b[1]) for b in batches] == ([5, 5, 5, 5] if drop_last else [5, 5, 5, 5, 3])
        seen = np.concatenate([b[1].numpy() for b in batches])
        rows = np.concatenate([b[0].numpy() for b in batches])
        np.testing.assert_array_equal(rows[:, 0] / 3, np.arange(23)[rows[:, 0].astype(int) // 3])
        if not drop_last:
            assert sorted((rows[:, 0] / 3).astype(int).tolist()) == list(range(23))
        assert len(seen) == (20 if drop_last else 23)
    # a new epoch reshuffles; the same generator seed reproduces an epoch
    dl = agd.DataLoader(ds, batch_size=23, shuffle=True, generator=ag.Generator().manual_seed(9))
    e1, e2 = next(iter(dl))[1].tolist(), next(iter(dl))[1].tolist()
    dl2 = agd.DataLoader(ds, batch_size=23, shuffle=True,
                         generator=ag.Generator().manual_seed(9))
    assert next(iter(dl2))[1].tolist() == e1
    assert sorted(e2) == sorted(e1)
    # batch composition: torch's shuffled indices fed to both loaders as a sampler
    order = list(tud.RandomSampler(range(23), generator=torch.Generator().manual_seed(0)))
    xt, yt = _xy(torch, 23)
    assert_same(list(tud.DataLoader(tud.TensorDataset(xt, yt), batch_size=4, sampler=order)),
                list(agd.DataLoader(ds, batch_size=4, sampler=order)))


def test_dataloader_errors_match():
    def errors(lib, mod):
        ds = mod.TensorDataset(*_xy(lib))
        it = _count_ds(mod, 3)
        out = []
        for fn in [
            lambda: mod.DataLoader(ds, num_workers=-1),
            lambda: mod.DataLoader(ds, timeout=-1),
            lambda: mod.DataLoader(ds, prefetch_factor=2),
            lambda: mod.DataLoader(ds, num_workers=1, prefetch_factor=-1),
            lambda: mod.DataLoader(ds, persistent_workers=True),
            lambda: mod.DataLoader(it, shuffle=True),
            lambda: mod.DataLoader(it, sampler=[0]),
            lambda: mod.DataLoader(it, batch_sampler=[[0]]),
            lambda: mod.DataLoader(ds, sampler=[0], shuffle=True),
            lambda: mod.DataLoader(ds, batch_sampler=[[0]], batch_size=2),
            lambda: mod.DataLoader(ds, batch_size=None, drop_last=True),
            lambda: mod.DataLoader(ds, multiprocessing_context="fork"),
            lambda: mod.DataLoader(ds, num_workers=1, multiprocessing_context="nope"),
            lambda: setattr(mod.DataLoader(ds), "batch_size", 3),
            lambda: list(mod.DataLoader(ds, timeout=1)),
        ]:
            try:
                fn()
                out.append(None)
            except Exception as e:  # noqa: BLE001 - comparing types and messages
                out.append((type(e).__name__, str(e).split(" but got sampler=")[0]
                            .split(" but got batch_sampler=")[0]))
        return out

    assert errors(torch, tud) == errors(ag, agd)


def test_dataloader_attributes():
    x, y = _xy(ag)
    dl = agd.DataLoader(agd.TensorDataset(x, y), batch_size=4, shuffle=True)
    assert isinstance(dl.sampler, agd.RandomSampler)
    assert isinstance(dl.batch_sampler, agd.BatchSampler)
    assert dl.collate_fn is agd.default_collate
    assert agd.DataLoader(range(3), batch_size=None).collate_fn is agd.default_convert
    assert len(dl) == 3
    with pytest.warns(UserWarning, match="pin_memory"):
        next(iter(agd.DataLoader(range(3), pin_memory=True)))


# ---------------------------------------------------------------------------- workers
def test_workers_give_the_same_batches():
    x, y = _xy(ag, 37)
    ds = agd.TensorDataset(x, y)
    ref = list(agd.DataLoader(ds, batch_size=4))
    got = list(agd.DataLoader(ds, batch_size=4, num_workers=2))
    assert_same(ref, got)
    unordered = list(agd.DataLoader(ds, batch_size=4, num_workers=2, in_order=False))
    assert sorted(b[1].tolist() for b in unordered) == sorted(b[1].tolist() for b in ref)
    assert_same(list(agd.DataLoader(_DictDS(ag), batch_size=3, num_workers=2)),
                list(agd.DataLoader(_DictDS(ag), batch_size=3)))


def _init_fn(worker_id):
    os.environ["AGC_TEST_WORKER"] = str(worker_id)


class _InfoDS(agd.Dataset):
    def __getitem__(self, i):
        info = agd.get_worker_info()
        return (info.id, info.num_workers, info.seed, os.environ.get("AGC_TEST_WORKER"),
                os.getpid())

    def __len__(self):
        return 8


def test_worker_info_seed_and_init_fn():
    items = list(agd.DataLoader(_InfoDS(), batch_size=None, num_workers=2,
                                worker_init_fn=_init_fn,
                                generator=ag.Generator().manual_seed(0)))
    ids = {i[0] for i in items}
    assert ids == {0, 1} and all(i[1] == 2 for i in items)
    seeds = {i[0]: i[2] for i in items}
    assert seeds[1] == seeds[0] + 1
    assert all(str(i[0]) == i[3] for i in items)
    assert all(i[4] != os.getpid() for i in items)
    assert agd.get_worker_info() is None


def test_iterable_dataset_sharded_across_workers():
    got = list(agd.DataLoader(_count_ds(agd, 11), batch_size=2, num_workers=2))
    vals = sorted(v for b in got for v in b.tolist())
    assert vals == list(range(11))


class _Failing(agd.Dataset):
    def __getitem__(self, i):
        if i == 5:
            raise KeyError("bad index 5")
        return i

    def __len__(self):
        return 8


def test_worker_exception_is_reraised_with_traceback():
    with pytest.raises(KeyError, match="Caught KeyError in DataLoader worker process"):
        list(agd.DataLoader(_Failing(), batch_size=2, num_workers=2))
    with pytest.raises(KeyError, match="bad index 5"):
        list(agd.DataLoader(_Failing(), batch_size=2))


class _Dies(agd.Dataset):
    def __getitem__(self, i):
        if i == 3:
            os._exit(1)
        return i

    def __len__(self):
        return 6


def test_dead_worker_is_detected(monkeypatch):
    from autograd_core.utils.data import _worker
    monkeypatch.setattr(_worker, "_POLL_INTERVAL", 0.5)
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid\(s\) .*\) exited "
                                           "unexpectedly"):
        list(agd.DataLoader(_Dies(), batch_size=1, num_workers=2))


def test_persistent_workers_two_epochs():
    x, y = _xy(ag, 9)
    dl = agd.DataLoader(agd.TensorDataset(x, y), batch_size=2, num_workers=2,
                        persistent_workers=True)
    e1, e2 = list(dl), list(dl)
    assert_same(e1, e2)
    it_dl = agd.DataLoader(_count_ds(agd, 5), batch_size=2, num_workers=2,
                           persistent_workers=True)
    assert sorted(v for b in it_dl for v in b.tolist()) == list(range(5))
    assert sorted(v for b in it_dl for v in b.tolist()) == list(range(5))


def test_shuffled_workers_match_single_process_for_same_seed():
    x, y = _xy(ag, 15)
    ds = agd.TensorDataset(x, y)
    a = list(agd.DataLoader(ds, batch_size=4, shuffle=True,
                            generator=ag.Generator().manual_seed(3)))
    b = list(agd.DataLoader(ds, batch_size=4, shuffle=True, num_workers=2,
                            generator=ag.Generator().manual_seed(3)))
    # the sampler runs in the main process, so the order does not depend on the workers
    # (the per-iterator base-seed draw happens before the sampler draws in both)
    assert_same(a, b)


def test_spawn_context_workers():
    x, y = _xy(ag, 7)
    ds = agd.TensorDataset(x, y)
    got = list(agd.DataLoader(ds, batch_size=3, num_workers=2, multiprocessing_context="spawn"))
    assert_same(got, list(agd.DataLoader(ds, batch_size=3)))


class _Slow(agd.Dataset):
    def __getitem__(self, i):
        import time
        time.sleep(1.5 if i == 2 else 0)
        return i

    def __len__(self):
        return 4


def test_worker_timeout():
    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 0.5 seconds"):
        list(agd.DataLoader(_Slow(), batch_size=None, num_workers=1, timeout=0.5))


def test_generic_subscripts_and_custom_sampler():
    class EvenFirst(agd.Sampler[int]):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(list(range(0, self.n, 2)) + list(range(1, self.n, 2)))

        def __len__(self):
            return self.n

    class Squares(agd.Dataset[int]):
        def __getitem__(self, i):
            return i * i

        def __len__(self):
            return 5

    loader: agd.DataLoader[int] = agd.DataLoader(Squares(), batch_size=2, sampler=EvenFirst(5))
    assert [b.tolist() for b in loader] == [[0, 4], [16, 1], [9]]
