"""autograd_core.save/load: round trips, files written by torch.save loaded here and ours
loaded by torch.load, and files that must not load (malicious pickles run nothing,
corrupted archives raise clear errors)."""
import collections
import io
import os
import pathlib
import pickle
import struct
import zipfile

import numpy as np
import pytest
import torch

import autograd_core as ag
from autograd_core import serialization


def _np(t):
    return t.detach().numpy()


def _assert_tree_equal(a, b):
    """a (autograd_core objects) equals b (autograd_core or torch objects)."""
    if isinstance(a, ag.Tensor):
        assert isinstance(b, (ag.Tensor, torch.Tensor)), type(b)
        assert str(a.dtype).split(".")[-1] == str(b.dtype).split(".")[-1]
        assert tuple(a.shape) == tuple(b.shape)
        assert a.requires_grad == b.requires_grad
        np.testing.assert_array_equal(_np(a), b.detach().numpy())
    elif isinstance(a, dict):
        assert type(a).__name__ == type(b).__name__
        assert list(a.keys()) == list(b.keys())
        for k in a:
            _assert_tree_equal(a[k], b[k])
    elif isinstance(a, (list, tuple)) and not isinstance(a, ag.Size):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b):
            _assert_tree_equal(x, y)
    elif isinstance(a, float) and a != a:
        assert b != b
    else:
        assert str(a).replace("torch.", "autograd_core.") == \
            str(b).replace("torch.", "autograd_core."), (a, b)


def _sample_objects():
    x = ag.arange(12, dtype=ag.float32).reshape(3, 4)
    shared = ag.tensor([1.0, 2.0])
    return {
        "f32": x, "f64": ag.tensor([[1.5, -2.25]], dtype=ag.float64),
        "f16": ag.tensor([0.5, 1024.0], dtype=ag.float16),
        "i64": ag.tensor([1, -2, 3]), "i32": ag.tensor([7], dtype=ag.int32),
        "i16": ag.tensor([-3], dtype=ag.int16), "i8": ag.tensor([-4], dtype=ag.int8),
        "u8": ag.tensor([250], dtype=ag.uint8), "b": ag.tensor([True, False]),
        "scalar": ag.tensor(3.5), "empty": ag.zeros(0, 3), "transposed": x.t(),
        "view": x[1:, 2:], "grad": ag.tensor([1.0, 2.0], requires_grad=True),
        "param": ag.nn.Parameter(ag.ones(2, 2)),
        "nested": [1, 2.5, "s", b"bytes", None, True, (x, [shared]), {"k": {3: shared}}],
        "set": {1, 2, 3}, "counter": collections.Counter("abca"), "complex": 1 + 2j,
        "bytearray": bytearray(b"xy"),
        "floats": (float("inf"), float("-inf"), float("nan"), -0.0, 1e308),
        "bigint": 2 ** 70, "dtype": ag.float64, "size": ag.Size([2, 3]),
        "device": ag.device("cpu"), "od": collections.OrderedDict(a=1, b=x),
    }


@pytest.mark.parametrize("target", ["path", "str", "bytesio"])
def test_round_trip(tmp_path, target):
    obj = _sample_objects()
    if target == "bytesio":
        buf = io.BytesIO()
        ag.save(obj, buf)
        buf.seek(0)
        loaded = ag.load(buf)
    else:
        path = tmp_path / "obj.pt"
        ag.save(obj, path if target == "path" else str(path))
        loaded = ag.load(path if target == "path" else str(path))
    _assert_tree_equal(obj, loaded)
    assert isinstance(loaded["param"], ag.nn.Parameter)
    assert loaded["nested"][6][1][0] is loaded["nested"][7]["k"][3]  # shared object kept
    # a view keeps its strides, as PyTorch's load gives them (Note [Saved views share their
    # storage]): the transposed view of x loads transposed
    assert loaded["transposed"].stride() == obj["transposed"].stride()
    assert not loaded["transposed"].is_contiguous()


def test_torch_loads_our_files(tmp_path):
    obj = _sample_objects()
    path = tmp_path / "ours.pt"
    ag.save(obj, path)
    loaded = torch.load(path)  # torch's default weights_only=True loader
    _assert_tree_equal(obj, loaded)
    assert isinstance(loaded["param"], torch.nn.Parameter)
    assert loaded["dtype"] is torch.float64 and loaded["size"] == torch.Size([2, 3])
    torch.load(path, mmap=True)  # payloads are 64-byte aligned like PyTorch's


def _torch_objects():
    torch.manual_seed(0)
    x = torch.randn(3, 4)
    return {
        "f32": x, "view": x[1:, 1:3], "t": x.t(), "f64": torch.randn(2, dtype=torch.float64),
        "f16": torch.tensor([1.5, 2.0], dtype=torch.float16), "i64": torch.arange(5),
        "i32": torch.tensor([1], dtype=torch.int32), "u8": torch.tensor([255], dtype=torch.uint8),
        "bool": torch.tensor([[True], [False]]), "scalar": torch.tensor(2.0),
        "empty": torch.zeros(2, 0), "req": torch.ones(2, requires_grad=True),
        "param": torch.nn.Parameter(torch.ones(3)),
        "list": [x, (x[0], {"a": 1.5})], "set": {1, 2}, "bytes": b"\x00\x01",
        "od": collections.OrderedDict(z=1), "dtype": torch.int32,
        "size": torch.Size([1, 2]), "device": torch.device("cpu"),
    }


def test_load_files_written_by_torch(tmp_path):
    path = tmp_path / "torch.pt"
    obj = _torch_objects()
    torch.save(obj, path)
    loaded = ag.load(path)
    for k, v in obj.items():
        if isinstance(v, torch.Tensor):
            _assert_tree_equal(loaded[k], v)
    assert isinstance(loaded["param"], ag.nn.Parameter)
    assert loaded["list"][1][1] == {"a": 1.5} and loaded["set"] == {1, 2}
    assert loaded["bytes"] == b"\x00\x01" and loaded["dtype"] is ag.int32
    assert tuple(loaded["size"]) == (1, 2) and str(loaded["device"]) == "cpu"
    # the view shares its storage with x in PyTorch; here each tensor gets its own data
    np.testing.assert_array_equal(_np(loaded["view"]), obj["view"].numpy())


def test_torch_module_state_dict_loads_into_our_module(tmp_path):
    torch.manual_seed(1)
    tm = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8), torch.nn.ReLU(),
                             torch.nn.Linear(8, 2))
    tm(torch.randn(5, 4))  # update the running statistics
    tm.eval()
    torch.save(tm.state_dict(), tmp_path / "model.pt")
    am = ag.nn.Sequential(ag.nn.Linear(4, 8), ag.nn.BatchNorm1d(8), ag.nn.ReLU(),
                          ag.nn.Linear(8, 2))
    sd = ag.load(tmp_path / "model.pt")
    assert isinstance(sd, collections.OrderedDict) and list(sd) == list(tm.state_dict())
    assert sd._metadata == tm.state_dict()._metadata
    am.load_state_dict(sd)
    am.eval()
    xin = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(_np(am(ag.tensor(xin))), tm(torch.tensor(xin)).detach().numpy(),
                               rtol=1e-5, atol=1e-6)
    # and back: our state_dict loads into the torch module
    ag.save(am.state_dict(), tmp_path / "ours.pt")
    tm2 = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8), torch.nn.ReLU(),
                              torch.nn.Linear(8, 2))
    tm2.load_state_dict(torch.load(tmp_path / "ours.pt"))
    for (k, a), (_, b) in zip(tm.state_dict().items(), tm2.state_dict().items()):
        assert torch.equal(a, b), k


def test_optimizer_checkpoint_both_ways(tmp_path):
    tp = torch.nn.Parameter(torch.ones(3))
    topt = torch.optim.Adam([tp], lr=0.1)
    (tp * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    topt.step()
    torch.save({"optimizer": topt.state_dict(), "epoch": 3}, tmp_path / "ckpt.pt")
    ck = ag.load(tmp_path / "ckpt.pt")
    ap = ag.nn.Parameter(ag.tensor(tp.detach().numpy().copy()))
    aopt = ag.optim.Adam([ap], lr=0.5)
    aopt.load_state_dict(ck["optimizer"])
    assert ck["epoch"] == 3 and aopt.param_groups[0]["lr"] == 0.1
    for lib, p, opt in ((torch, tp, topt), (ag, ap, aopt)):
        opt.zero_grad()
        (p * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
        opt.step()
    np.testing.assert_allclose(_np(ap), tp.detach().numpy(), rtol=1e-6)
    ag.save(aopt.state_dict(), tmp_path / "ours_opt.pt")
    topt2 = torch.optim.Adam([torch.nn.Parameter(torch.ones(3))])
    topt2.load_state_dict(torch.load(tmp_path / "ours_opt.pt"))
    assert float(topt2.state_dict()["state"][0]["step"]) == 2.0


def test_bfloat16_round_trip(tmp_path):
    # torch's file loads as bfloat16; ours loads in torch and back
    torch.save({"w": torch.tensor([1.5, -2.0, 3.0, 1e-40], dtype=torch.bfloat16)}, tmp_path / "b.pt")
    w = ag.load(tmp_path / "b.pt")["w"]
    assert w.dtype == ag.bfloat16 and w.tolist() == [1.5, -2.0, 3.0, 9.183549615799121e-41]
    ag.save({"w": w[::2], "p": ag.nn.Parameter(w.clone())}, tmp_path / "ours.pt")
    back = torch.load(tmp_path / "ours.pt")
    assert back["w"].dtype == torch.bfloat16 and back["w"].tolist() == [1.5, 3.0]
    assert back["p"].dtype == torch.bfloat16 and back["p"].requires_grad
    again = ag.load(tmp_path / "ours.pt")
    assert again["p"].dtype == ag.bfloat16 and again["p"].tolist() == w.tolist()


_NEW_DTYPES = ["complex64", "complex128", "uint16", "uint32", "uint64", "bfloat16"]


def _values(name):
    if name.startswith("complex"):
        return [[1 + 2j, -3.5j], [0.25, 7 - 1j]]
    if name.startswith("uint"):
        big = {"uint16": 65535, "uint32": 4294967295, "uint64": 18446744073709551615}[name]
        return [[0, 1], [big, 12345]]
    return [[1.5, -2.0], [3.0, 0.0]]


@pytest.mark.parametrize("name", _NEW_DTYPES)
@pytest.mark.parametrize("weights_only", [True, False])
def test_new_dtypes_both_ways(tmp_path, name, weights_only):
    # complex (typed ComplexFloat/ComplexDoubleStorage), the wide unsigned ints (untyped
    # storage, _rebuild_tensor_v3) and bfloat16, in both directions with the installed torch
    tt = torch.tensor(_values(name), dtype=getattr(torch, name))
    torch.save({"x": tt, "xt": tt.t(), "row": tt[1]}, tmp_path / "theirs.pt")
    got = ag.load(tmp_path / "theirs.pt", weights_only=weights_only)
    for k, ref in (("x", tt), ("xt", tt.t()), ("row", tt[1])):
        assert got[k].dtype == getattr(ag, name)
        assert got[k].tolist() == ref.tolist()
    if name.startswith("uint"):
        # (from numpy: tensor(<ints>, dtype=uint64) is a known gap, test_unsigned.py)
        ours = ag.from_numpy(np.array(_values(name), dtype=name))
    else:
        ours = ag.tensor(_values(name), dtype=getattr(ag, name))
    ag.save({"x": ours, "xt": ours.t(), "p": ours[0]}, tmp_path / "ours.pt")
    back = torch.load(tmp_path / "ours.pt", weights_only=weights_only)
    assert back["x"].dtype == tt.dtype and back["x"].tolist() == tt.tolist()
    assert back["xt"].tolist() == tt.t().tolist() and back["p"].tolist() == tt[0].tolist()
    again = ag.load(tmp_path / "ours.pt", weights_only=weights_only)
    assert again["xt"].dtype == ours.dtype and again["xt"].tolist() == ours.t().tolist()


# ---------------------------------------------------------------------------- safety
MARKER_DIR = None


def _marker(tmp_path):
    return tmp_path / "pwned"


class _Evil:
    """Unpickling this with plain pickle runs os.system (creates a marker file)."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


class _EvilEval:
    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (eval, (f"open({self.path!r}, 'w').write('x')",))


def _zip_with_pickle(path, data_pkl, extra=()):
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("archive/data.pkl", data_pkl)
        zf.writestr("archive/byteorder", b"little")
        zf.writestr("archive/version", b"3\n")
        for name, payload in extra:
            zf.writestr("archive/" + name, payload)


@pytest.mark.parametrize("evil_cls", [_Evil, _EvilEval])
def test_malicious_torch_file_runs_nothing(tmp_path, evil_cls):
    marker = _marker(tmp_path)
    path = tmp_path / "evil.pt"
    torch.save({"weights": torch.ones(2), "payload": evil_cls(marker)}, path)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        ag.load(path)
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global"):
        ag.load(path, weights_only=True)
    assert not marker.exists()
    # sanity: the file really is malicious (full unpickling runs the payload)
    if evil_cls is _Evil:
        ag.load(path, weights_only=False)
        assert marker.exists()


def _pickle_bytes(*ops):
    return b"\x80\x02" + b"".join(ops) + b"."


HOSTILE_PICKLES = {
    "os.system via GLOBAL": _pickle_bytes(b"cos\nsystem\n(Vtouch MARKER\ntR"),
    "builtins.exec": _pickle_bytes(b"cbuiltins\nexec\n(Vopen('MARKER','w')\ntR"),
    "getattr chain": _pickle_bytes(b"cbuiltins\ngetattr\n(cbuiltins\nobject\nV__subclasses__\ntR"),
    "STACK_GLOBAL dotted": b"\x80\x04\x8c\x02os\x8c\x06system\x93\x8c\x0ctouch MARKER\x85R.",
    "INST opcode": b"(S'touch MARKER'\nios\nsystem\n.",
    "OBJ opcode": _pickle_bytes(b"(cos\nsystem\nVtouch MARKER\no"),
    "EXT1 opcode": _pickle_bytes(b"\x82\x01)R"),
    "REDUCE on a tensor rebuild name with a string": _pickle_bytes(
        b"ctorch._utils\n_rebuild_tensor_v2\n(VMARKER\nK\x00)))tR"),
    "REDUCE on a non-callable": _pickle_bytes(b"K\x01)R"),
    "NEWOBJ of a function": _pickle_bytes(b"ctorch._utils\n_rebuild_tensor_v2\n)\x81"),
    "BUILD on a list": _pickle_bytes(b"]}(V__class__\nK\x01ub"),
    "frozenset (not allowed by default, as PyTorch)": _pickle_bytes(
        b"c__builtin__\nfrozenset\n]\x85R"),
    "numpy reconstruct": _pickle_bytes(
        b"cnumpy.core.multiarray\n_reconstruct\n(cnumpy\nndarray\nK\x00\x85C\x01b\x87R"),
    "persistent id that is not a storage": _pickle_bytes(b"VMARKER\nQ"),
    "unknown storage type": _pickle_bytes(b"(Vstorage\ncos\nsystem\nV0\nVcpu\nK\x01tQ"),
    "memo get of a missing key": _pickle_bytes(b"h\x05"),
    "empty stack": _pickle_bytes(b"0"),
    "truncated": b"\x80\x02(K\x01",
    "no STOP": b"\x80\x02K\x01",
    "garbage": b"\xff\xfe\xfd",
}


@pytest.mark.parametrize("name", list(HOSTILE_PICKLES))
def test_hostile_pickles_raise_and_run_nothing(tmp_path, name):
    marker = _marker(tmp_path)
    data = HOSTILE_PICKLES[name].replace(b"MARKER", str(marker).encode())
    if b"touch " in data:  # keep BINUNICODE/SHORT lengths valid for the replaced text
        data = data.replace(b"\x8c\x0ctouch " + str(marker).encode(),
                            b"\x8c" + bytes([len(b"touch " + str(marker).encode())])
                            + b"touch " + str(marker).encode())
    path = tmp_path / "h.pt"
    _zip_with_pickle(path, data)
    with pytest.raises(pickle.UnpicklingError):
        ag.load(path)
    assert not marker.exists()


def _storage_pickle(size, stride, offset=0, numel=4):
    """A pickle of one float tensor over storage 0 (numel elements)."""
    def tup(values):
        return b"(" + b"".join(b"K" + bytes([v]) for v in values) + b"t"
    return _pickle_bytes(
        b"ctorch._utils\n_rebuild_tensor_v2\n("
        b"(Vstorage\nctorch\nFloatStorage\nV0\nVcpu\nK" + bytes([numel]) + b"tQ"
        b"K" + bytes([offset]) + tup(size) + tup(stride) + b"\x89ccollections\nOrderedDict\n)R"
        b"tR")


@pytest.mark.parametrize("size,stride,offset,numel,nbytes", [
    ((2, 2), (2, 1), 0, 4, 16),  # valid
    ((4, 4), (4, 1), 0, 4, 16),  # reads past the storage
    ((2,), (200,), 0, 4, 16),  # stride past the storage
    ((2,), (1,), 3, 4, 16),  # offset past the storage
    ((2,), (1,), 0, 4, 12),  # storage record shorter than declared
    ((2,), (1,), 0, 4, 20),  # storage record longer than declared
    ((3, 3), (0, 1), 0, 4, 16),  # an expanded (zero-stride) tensor: fine
    ((255, 255, 255, 255), (0, 0, 0, 0), 0, 4, 16),  # zero strides expanding to 4e9 elements
])
def test_tensor_bounds_are_checked(tmp_path, size, stride, offset, numel, nbytes):
    path = tmp_path / "t.pt"
    _zip_with_pickle(path, _storage_pickle(size, stride, offset, numel),
                     [("data/0", np.arange(nbytes // 4, dtype="<f4").tobytes()
                       + b"\x00" * (nbytes % 4))])
    if size == (2, 2) and nbytes == 16:
        assert ag.load(path).tolist() == [[0.0, 1.0], [2.0, 3.0]]
    elif size == (3, 3):
        assert ag.load(path).tolist() == [[0.0, 1.0, 2.0]] * 3
    else:
        with pytest.raises((pickle.UnpicklingError, RuntimeError)):
            ag.load(path)


def test_corrupted_archives_raise_clear_errors(tmp_path):
    good = tmp_path / "good.pt"
    ag.save({"w": ag.ones(3)}, good)
    raw = good.read_bytes()
    cases = {
        "truncated": raw[: len(raw) // 2],
        "empty": b"",
        "not a zip": b"hello world, not a checkpoint",
        "plain pickle": pickle.dumps({"w": 1}),
        "flipped bytes": raw[:40] + bytes(b ^ 0xFF for b in raw[40:200]) + raw[200:],
    }
    for name, payload in cases.items():
        p = tmp_path / f"{name}.pt"
        p.write_bytes(payload)
        with pytest.raises((RuntimeError, pickle.UnpicklingError)) as e:
            ag.load(p)
        assert "load" in str(e.value) or "Weights only" in str(e.value) \
            or "Invalid magic number" in str(e.value), name
    p = tmp_path / "nodata.pt"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("archive/version", b"3\n")
    with pytest.raises(RuntimeError, match="data.pkl"):
        ag.load(p)
    p = tmp_path / "missing_storage.pt"
    _zip_with_pickle(p, _storage_pickle((2,), (1,)))
    with pytest.raises(RuntimeError, match="missing"):
        ag.load(p)


def test_plain_pickle_file_is_not_unpickled(tmp_path):
    marker = _marker(tmp_path)
    p = tmp_path / "plain.pkl"
    p.write_bytes(pickle.dumps(_Evil(marker)))
    for wo in (True, False):
        # PyTorch's message (its legacy loader reads a magic number first); the pickle is
        # parsed as data only, so nothing in it runs even with weights_only=False
        with pytest.raises(RuntimeError, match="Invalid magic number; corrupt file"):
            ag.load(p, weights_only=wo)
    assert not marker.exists()


class Point3:
    def __init__(self, x, y, z):
        self.x, self.y, self.z = x, y, z


def test_weights_only_false_and_safe_globals(tmp_path):
    p = tmp_path / "obj.pt"
    ag.save({"pt": Point3(1, ag.ones(2), "z")}, p)
    with pytest.raises(pickle.UnpicklingError, match="Point3"):
        ag.load(p)
    full = ag.load(p, weights_only=False)
    assert full["pt"].x == 1 and full["pt"].y.tolist() == [1.0, 1.0]
    with serialization.safe_globals([Point3]):
        safe = ag.load(p)
        assert isinstance(safe["pt"], Point3) and safe["pt"].z == "z"
    assert Point3 not in serialization.get_safe_globals()
    serialization.add_safe_globals([Point3])
    try:
        assert ag.load(p)["pt"].x == 1
    finally:
        serialization.clear_safe_globals()
    with pytest.raises(RuntimeError, match="pickle_module"):
        ag.load(p, pickle_module=pickle)
    os.environ["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"] = "1"
    try:
        with pytest.warns(UserWarning, match="forcing weights_only=False"):
            assert ag.load(p)["pt"].z == "z"
        with pytest.raises(pickle.UnpicklingError):  # an explicit argument wins
            ag.load(p, weights_only=True)
    finally:
        del os.environ["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"]
    os.environ["TORCH_FORCE_WEIGHTS_ONLY_LOAD"] = "1"
    try:
        with pytest.raises(pickle.UnpicklingError):
            ag.load(p, weights_only=False)
    finally:
        del os.environ["TORCH_FORCE_WEIGHTS_ONLY_LOAD"]


def test_map_location_for_accelerator_storages(tmp_path, monkeypatch):
    class CudaPickler(serialization._TorchPickler):
        def persistent_id(self, obj):
            pid = super().persistent_id(obj)
            return None if pid is None else pid[:3] + ("cuda:0",) + pid[4:]

    monkeypatch.setattr(serialization, "_TorchPickler", CudaPickler)
    p = tmp_path / "cuda.pt"
    ag.save({"w": ag.ones(2)}, p)
    monkeypatch.undo()
    with pytest.raises(RuntimeError, match="map_location='cpu'"):
        ag.load(p)
    for loc in ("cpu", ag.device("cpu"), {"cuda:0": "cpu"}, lambda s, loc: s):
        assert ag.load(p, map_location=loc)["w"].tolist() == [1.0, 1.0]


def test_whole_module_pickles_only_with_weights_only_false(tmp_path):
    model = ag.nn.Linear(3, 2)
    p = tmp_path / "model.pt"
    ag.save(model, p)
    with pytest.raises(pickle.UnpicklingError):
        ag.load(p)
    m2 = ag.load(p, weights_only=False)
    np.testing.assert_array_equal(_np(m2.weight), _np(model.weight))


def test_archive_layout_matches_torch(tmp_path):
    ag.save({"w": ag.ones(2)}, tmp_path / "ours.pt")
    torch.save({"w": torch.ones(2)}, tmp_path / "theirs.pt")
    ours = sorted(n.split("/", 1)[1] for n in zipfile.ZipFile(tmp_path / "ours.pt").namelist())
    theirs = sorted(n.split("/", 1)[1]
                    for n in zipfile.ZipFile(tmp_path / "theirs.pt").namelist())
    assert ours == theirs
    with zipfile.ZipFile(tmp_path / "ours.pt") as zf:
        assert zf.read("ours/version") == b"3\n" and zf.read("ours/byteorder") == b"little"
        info = zf.getinfo("ours/data/0")
        with open(tmp_path / "ours.pt", "rb") as f:
            f.seek(info.header_offset)
            header = f.read(30)
            name_len, extra_len = struct.unpack("<HH", header[26:30])
            assert (info.header_offset + 30 + name_len + extra_len) % 64 == 0


def test_exported_names():
    assert ag.save is serialization.save and ag.load is serialization.load
    assert pathlib.Path  # noqa - pathlib paths are exercised in test_round_trip


# ---------------------------------------------------------------- copy.deepcopy (issue 13)

def _deepcopy_program(mod):
    """Tensors sharing memory keep sharing it within one deepcopy (PyTorch copies each
    storage once); what each copy then sees after writes through one of them."""
    import copy
    b = mod.arange(6.)
    x = mod.ones(3, 2)
    x.grad = mod.zeros(3, 2)
    flipped = mod.arange(4.).flip(0)
    tree = {"b": b, "slice": b[1:3], "t": b.view(2, 3).t(), "x": x, "xt": x.t(),
            "empty": mod.zeros(0, 3)[:, 1:], "flip": [flipped, flipped[1:]],
            "separate": mod.arange(3.)}
    c = copy.deepcopy(tree)
    c["b"][1] = 100.0
    c["b"][3] = 7.0
    c["x"].add_(1.0)
    c["flip"][0][1] = -5.0
    out = {k: (v if not isinstance(v, list) else list(v)) for k, v in c.items()}
    return (out, [c[k].is_leaf for k in ("slice", "t", "xt")], c["x"].grad,
            b.tolist(), x.tolist())   # the originals are untouched


def test_deepcopy_keeps_memory_shared_within_one_copy():
    want, got = _deepcopy_program(torch), _deepcopy_program(ag)
    for k in want[0]:
        w, g = want[0][k], got[0][k]
        if isinstance(w, list):
            assert [t.tolist() for t in w] == [t.tolist() for t in g]
        else:
            assert w.tolist() == g.tolist() and tuple(w.shape) == tuple(g.shape), k
    assert want[1] == got[1]
    assert want[2].tolist() == got[2].tolist()
    assert want[3:] == got[3:]


def test_deepcopy_of_a_tensor_over_a_strided_numpy_array():
    import copy
    a = np.arange(8.0)
    t = ag.from_numpy(a[::2])
    c = copy.deepcopy(t)
    a[0] = 50.0
    assert c.tolist() == [0.0, 2.0, 4.0, 6.0]
    assert t.tolist() == [50.0, 2.0, 4.0, 6.0]


@pytest.mark.parametrize("weights_only", [True, False])
def test_the_tensor_class_itself_both_ways(tmp_path, weights_only):
    # a checkpoint may hold the class (a registry of types, say): PyTorch's allowlist
    # takes torch.Tensor, and ours names it torch.Tensor for torch.load
    torch.save({"cls": torch.Tensor, "x": torch.ones(2)}, tmp_path / "theirs.pt")
    got = ag.load(tmp_path / "theirs.pt", weights_only=weights_only)
    assert got["cls"] is ag.Tensor and got["x"].tolist() == [1.0, 1.0]
    ag.save({"cls": ag.Tensor, "again": ag.Tensor}, tmp_path / "ours.pt")
    back = torch.load(tmp_path / "ours.pt", weights_only=weights_only)
    assert back["cls"] is torch.Tensor and back["again"] is torch.Tensor
    assert ag.load(tmp_path / "ours.pt", weights_only=weights_only)["cls"] is ag.Tensor
