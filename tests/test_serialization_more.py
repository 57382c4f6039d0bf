"""save/load beyond the zip round trip: load(mmap=True) (the tensors are views of the mapped
file, private or shared as set_default_mmap_options says), PyTorch's legacy (pre-1.6,
non-zip) format, 64-byte aligned stored records, and files crossing between the libraries.
Every expectation is PyTorch's own behaviour on the same file."""
import io
import mmap
import pickle
import struct
import sys
import zipfile

import numpy as np
import pytest

from _diff import assert_same, catch, same, sub_name

torch = pytest.importorskip("torch")
import autograd_core as ag  # noqa: E402

LIBS = {"torch": torch, "ag": ag}


def _sample(mod):
    g = np.random.default_rng(0)
    base = mod.tensor(g.standard_normal((4, 6)).astype(np.float32))
    return {
        "w": base,
        "row": base[1],                      # a view of w's storage
        "cols": base[:, 2:4],                # a non-contiguous view of it
        "i64": mod.arange(10),
        "mask": mod.tensor([True, False, True]),
        "h": mod.tensor([1.5, -2.25], dtype=mod.float16),
        "bf": mod.tensor([1.0, 3.0, -0.5], dtype=mod.bfloat16),
        "c": mod.tensor([1 + 2j, 3 - 1j]),
        "scalar": mod.tensor(3.5, dtype=mod.float64),
        "nested": [(mod.ones(2, 3), {"k": mod.zeros(0)}), 7, "text"],
        "p": mod.nn.Parameter(mod.full((3,), 2.0)),
    }


def _desc(obj):
    """A comparable description, with each tensor's type (Parameter or not)."""
    if isinstance(obj, dict):
        return {k: _desc(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj).__name__, [_desc(v) for v in obj]
    if hasattr(obj, "requires_grad") and hasattr(obj, "dtype"):
        return type(obj).__name__, obj.detach(), obj.requires_grad
    return obj


def _check_loaded(want, got):
    assert_same(_desc(want), _desc(got))


def _write(writer, path, legacy=False):
    mod = LIBS[writer]
    kw = {"_use_new_zipfile_serialization": False} if legacy else {}
    mod.save(_sample(mod), path, **kw)


def _storage_offset(path, member_suffix="data/0"):
    """Where a stored record's bytes start in the file (after its local header)."""
    with zipfile.ZipFile(path) as zf:
        info = next(i for i in zf.infolist() if i.filename.endswith(member_suffix))
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        head = fh.read(30)
    n, e = struct.unpack("<HH", head[26:30])
    return info.header_offset + 30 + n + e, info


# ---------------------------------------------------------------------------- mmap
@pytest.mark.parametrize("writer", ["torch", "ag"])
@pytest.mark.parametrize("weights_only", [True, False])
def test_mmap_load_gives_pytorchs_values(tmp_path, writer, weights_only):
    p = tmp_path / "m.pt"
    _write(writer, p)
    want = torch.load(p, mmap=True, weights_only=weights_only)
    got = ag.load(p, mmap=True, weights_only=weights_only)
    _check_loaded(want, got)
    # and the same as reading it
    _check_loaded(want, ag.load(p, weights_only=weights_only))


@pytest.mark.parametrize("writer", ["torch", "ag"])
def test_records_are_stored_and_64_byte_aligned(tmp_path, writer):
    p = tmp_path / "a.pt"
    _write(writer, p)
    with zipfile.ZipFile(p) as zf:
        names = [i.filename for i in zf.infolist() if "/data/" in i.filename]
    assert names
    for name in names:
        start, info = _storage_offset(p, name.split("/", 1)[1])
        assert info.compress_type == zipfile.ZIP_STORED
        assert start % 64 == 0, name


def _poke(path, value):
    """Overwrite the first float32 of storage 0 in the file on disk."""
    start, _ = _storage_offset(path)
    with open(path, "r+b") as fh:
        fh.seek(start)
        fh.write(struct.pack("<f", value))


def _mmap_program(mod, path, shared):
    """Load mapped, write through the tensor, change the file; what each side sees."""
    ctx = mod.serialization.set_default_mmap_options(
        mmap.MAP_SHARED if shared else mmap.MAP_PRIVATE)
    with ctx:
        t = mod.load(path, mmap=True)["w"]
    t[0, 1] = 42.0                        # a write to the loaded tensor
    _poke(path, -7.0)                     # a write to the file
    seen_by_tensor = float(t[0, 0])
    on_disk = float(mod.load(path)["w"][0, 1])
    return seen_by_tensor, on_disk


@pytest.mark.skipif(sys.platform == "win32", reason="mmap options are POSIX-only in PyTorch")
@pytest.mark.parametrize("shared", [False, True])
def test_mmap_shares_the_files_memory_as_pytorch(tmp_path, shared):
    results = {}
    for name, mod in LIBS.items():
        p = tmp_path / f"{name}.pt"
        torch.save({"w": torch.arange(12, dtype=torch.float32).reshape(3, 4)}, p)
        results[name] = _mmap_program(mod, p, shared)
    assert_same(results["torch"], results["ag"])
    if shared:
        assert results["ag"] == (-7.0, 42.0)     # both ways through the file
    else:
        assert results["ag"][1] == 1.0           # the private write did not reach the file


def test_mmap_views_share_one_storage(tmp_path):
    p = tmp_path / "v.pt"
    torch.save({"w": torch.zeros(2, 3), }, p)
    base = torch.zeros(2, 3)
    torch.save({"w": base, "row": base[1]}, p)
    out = {}
    for name, mod in LIBS.items():
        d = mod.load(p, mmap=True)
        d["w"][1, 2] = 5.0
        out[name] = d["row"]
    assert_same(out["torch"], out["ag"])


def test_default_mmap_options_as_pytorch():
    assert ag.serialization.get_default_mmap_options() == \
        torch.serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
    if sys.platform != "win32":
        ag.serialization.set_default_mmap_options(mmap.MAP_SHARED)
        try:
            assert ag.serialization.get_default_mmap_options() == mmap.MAP_SHARED
        finally:
            ag.serialization.set_default_mmap_options(mmap.MAP_PRIVATE)
        with ag.serialization.set_default_mmap_options(mmap.MAP_SHARED):
            assert ag.serialization.get_default_mmap_options() == mmap.MAP_SHARED
        assert ag.serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
        assert_same(catch(torch.serialization.set_default_mmap_options, 12345),
                    catch(ag.serialization.set_default_mmap_options, 12345))


def test_mmap_errors_as_pytorch(tmp_path):
    p = tmp_path / "z.pt"
    torch.save(torch.ones(2), p)
    buf = p.read_bytes()
    assert_same(catch(lambda: torch.load(io.BytesIO(buf), mmap=True)),
                catch(lambda: ag.load(io.BytesIO(buf), mmap=True)))
    leg = tmp_path / "legacy.pt"
    torch.save(torch.ones(2), leg, _use_new_zipfile_serialization=False)
    for f in (str(leg), leg):
        assert_same(catch(lambda: torch.load(f, mmap=True)),
                    catch(lambda: ag.load(f, mmap=True)))
    raw = leg.read_bytes()
    assert_same(catch(lambda: torch.load(io.BytesIO(raw), mmap=True)),
                catch(lambda: ag.load(io.BytesIO(raw), mmap=True)))


# ---------------------------------------------------------------------------- legacy format
@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("source", ["path", "bytesio"])
def test_legacy_files_from_pytorch_load(tmp_path, weights_only, source):
    p = tmp_path / "legacy.pt"
    _write("torch", p, legacy=True)
    with open(p, "rb") as fh:
        assert fh.read(2) != b"PK"
    f = (lambda: p) if source == "path" else (lambda: io.BytesIO(p.read_bytes()))
    want = torch.load(f(), weights_only=weights_only)
    got = ag.load(f(), weights_only=weights_only)
    _check_loaded(want, got)


def test_legacy_views_share_their_storage(tmp_path):
    p = tmp_path / "legacy.pt"
    base = torch.arange(6.0).reshape(2, 3)
    torch.save({"w": base, "row": base[1], "same": base}, p,
               _use_new_zipfile_serialization=False)
    out = {}
    for name, mod in LIBS.items():
        d = mod.load(p)
        d["w"][1, 0] = -1.0
        out[name] = (d["row"], d["same"], d["same"] is d["w"])
    assert_same(out["torch"], out["ag"])


class Opaque:
    def __init__(self, v):
        self.v = v


def test_legacy_weights_only_refuses_unknown_globals(tmp_path):
    p = tmp_path / "legacy.pt"
    torch.save({"o": Opaque(3), "w": torch.ones(2)}, p, _use_new_zipfile_serialization=False)
    want = catch(lambda: torch.load(p, weights_only=True))
    got = catch(lambda: ag.load(p, weights_only=True))
    assert type(want.exc) is type(got.exc) is pickle.UnpicklingError
    assert "Weights only load failed" in str(got.exc)
    assert f"{__name__}.Opaque" in str(got.exc)
    # the explicit opt-in loads it, as PyTorch
    d = ag.load(p, weights_only=False)
    assert isinstance(d["o"], Opaque) and d["o"].v == 3
    assert_same(torch.load(p, weights_only=False)["w"], d["w"])


def test_corrupt_legacy_files_raise(tmp_path):
    p = tmp_path / "legacy.pt"
    torch.save({"w": torch.ones(4)}, p, _use_new_zipfile_serialization=False)
    raw = p.read_bytes()
    t = tmp_path / "trunc.pt"
    t.write_bytes(raw[:-4])
    with pytest.raises(RuntimeError, match="truncated|overruns the file"):
        ag.load(t)
    # a storage's element count claiming more than the file holds allocates nothing
    count_at = len(raw) - 4 * 4 - 8
    assert struct.unpack("<q", raw[count_at:count_at + 8]) == (4,)
    huge = tmp_path / "huge.pt"
    huge.write_bytes(raw[:count_at] + struct.pack("<q", 1 << 60) + raw[count_at + 8:])
    for wo in (True, False):
        with pytest.raises(RuntimeError, match="corrupted"):
            ag.load(huge, weights_only=wo)
    # random damage raises load's errors, never another exception
    rng = np.random.default_rng(0)
    for _ in range(300):
        damaged = bytearray(raw)
        for pos in rng.integers(0, len(raw), 2):
            damaged[pos] = int(rng.integers(0, 256))
        try:
            ag.load(io.BytesIO(bytes(damaged)), weights_only=True)
        except (RuntimeError, pickle.UnpicklingError):
            pass
    bad = tmp_path / "notmagic.pt"
    bad.write_bytes(pickle.dumps(12345))
    assert_same(catch(lambda: torch.load(bad, weights_only=False)),
                catch(lambda: ag.load(bad, weights_only=False)))


# ---------------------------------------------------------------------------- both ways
@pytest.mark.parametrize("mmap_load", [False, True])
def test_files_cross_between_the_libraries(tmp_path, mmap_load):
    a = tmp_path / "ours.pt"
    b = tmp_path / "theirs.pt"
    ag.save(_sample(ag), a)
    torch.save(_sample(torch), b)
    _check_loaded(torch.load(b), torch.load(a, mmap=mmap_load))
    _check_loaded(torch.load(b), ag.load(b, mmap=mmap_load))


def test_large_tensor_round_trip(tmp_path):
    x = np.random.default_rng(1).standard_normal(1 << 20).astype(np.float32)
    p = tmp_path / "big.pt"
    ag.save(ag.tensor(x), p)
    np.testing.assert_array_equal(torch.load(p).numpy(), x)
    np.testing.assert_array_equal(ag.load(p, mmap=True).numpy(), x)
    buf = io.BytesIO()
    ag.save(ag.tensor(x), buf)
    buf.seek(0)
    np.testing.assert_array_equal(ag.load(buf).numpy(), x)


@pytest.mark.parametrize("weights_only", [True, False])
def test_legacy_files_written_here_load_in_pytorch(tmp_path, weights_only):
    ours, theirs = tmp_path / "ours.pt", tmp_path / "theirs.pt"
    _write("ag", ours, legacy=True)
    _write("torch", theirs, legacy=True)
    with open(ours, "rb") as fh:
        assert fh.read(2) != b"PK"
    want = torch.load(theirs, weights_only=weights_only)
    _check_loaded(want, torch.load(ours, weights_only=weights_only))
    _check_loaded(want, ag.load(ours, weights_only=weights_only))
    buf = io.BytesIO()
    ag.save(_sample(ag), buf, _use_new_zipfile_serialization=False)
    buf.seek(0)
    _check_loaded(want, torch.load(buf, weights_only=weights_only))


def test_unaligned_and_deflated_records_load(tmp_path):
    """Zip files another tool rewrote (records not aligned, small ones compressed) load."""
    src = tmp_path / "src.pt"
    torch.save({"w": torch.arange(5, dtype=torch.float64), "i": torch.arange(3)}, src)
    out = tmp_path / "rewritten.pt"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            method = zipfile.ZIP_DEFLATED if info.filename.endswith("/1") else \
                zipfile.ZIP_STORED
            zout.writestr(info.filename, zin.read(info), compress_type=method)
    _check_loaded(torch.load(src), ag.load(out))
    # a compressed storage cannot be mapped
    with pytest.raises(RuntimeError, match="compressed"):
        ag.load(out, mmap=True)


def test_saved_views_share_their_storage_as_pytorchs():
    # views saved together load as views of one storage (a write through one is seen by
    # the others), keep their strides, and tied weights stay tied
    def prog(m):
        t = m.arange(12.0).reshape(3, 4)
        buf = io.BytesIO()
        m.save({"t": t, "row": t[1], "tt": t.t(), "cols": t[:, 1:3]}, buf)
        buf.seek(0)
        d = m.load(buf)
        d["row"][0] = 100.0
        d["tt"][0, 2] = -1.0
        lin, emb = m.nn.Linear(3, 3), m.nn.Embedding(3, 3)
        emb.weight = lin.weight
        buf = io.BytesIO()
        m.save(m.nn.ModuleDict({"a": lin, "b": emb}).state_dict(), buf)
        buf.seek(0)
        sd = m.load(buf)
        sd["a.weight"].zero_()
        return (d["t"], d["cols"], d["tt"].stride(), d["cols"].stride(),
                d["tt"].is_contiguous(), sd["b.weight"])
    same(prog)


def test_weights_only_refusal_message_as_pytorchs():
    # load's default weights_only=True refuses a pickled module with PyTorch's message
    # (its two options, the unpickler's reason naming the class, the docs pointer)
    from _diff import same_error

    def prog(m):
        buf = io.BytesIO()
        m.save(m.nn.Linear(2, 2), buf)
        buf.seek(0)
        m.load(buf)
    want, got = same_error(prog, message=False)
    url = "https://pytorch.org/docs/stable/generated/torch.load.html"
    assert url in want.message and url in got.message
    assert got.message.replace(url, "") == sub_name(want.message.replace(url, ""))
