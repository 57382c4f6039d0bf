"""utils.tensorboard.SummaryWriter against PyTorch's: the same calls write event files
that TensorBoard's own reader (EventAccumulator) reads back as the same scalars,
histograms, images, audio, text, hparams, curves and layouts; plus log_dir defaults,
flush/close, the context manager, errors, and add_graph (autograd's graph: see Note
[add_graph]).  Skipped when the optional ``tensorboard`` package is absent."""
import glob
import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("tensorboard")
from _diff import assert_same, catch, same_error  # noqa: E402
from _subprocess import CWD, child_env  # noqa: E402
from google.protobuf.json_format import MessageToDict  # noqa: E402
from tensorboard.backend.event_processing import event_accumulator  # noqa: E402
from tensorboard.backend.event_processing.event_file_loader import EventFileLoader  # noqa: E402

import autograd_core  # noqa: E402

torch = pytest.importorskip("torch")
import torch.utils.tensorboard  # noqa: E402,F401
import autograd_core.utils.tensorboard  # noqa: E402,F401


def _read_accumulator(path):
    acc = event_accumulator.EventAccumulator(path, size_guidance={k: 0 for k in (
        event_accumulator.SCALARS, event_accumulator.HISTOGRAMS, event_accumulator.IMAGES,
        event_accumulator.AUDIO, event_accumulator.TENSORS)})
    acc.Reload()
    tags = acc.Tags()
    out = {"tags": {k: sorted(v) if isinstance(v, list) else v for k, v in tags.items()}}
    out["scalars"] = {t: [(e.step, e.value) for e in acc.Scalars(t)] for t in tags["scalars"]}
    out["histograms"] = {t: [(e.step, e.histogram_value.min, e.histogram_value.max,
                              e.histogram_value.num, e.histogram_value.sum,
                              e.histogram_value.sum_squares,
                              list(e.histogram_value.bucket_limit),
                              list(e.histogram_value.bucket)) for e in acc.Histograms(t)]
                         for t in tags["histograms"]}
    out["images"] = {t: [(e.step, e.width, e.height, e.encoded_image_string)
                         for e in acc.Images(t)] for t in tags["images"]}
    out["audio"] = {t: [(e.step, e.content_type, e.sample_rate, e.length_frames,
                         e.encoded_audio_string) for e in acc.Audio(t)]
                    for t in tags["audio"]}
    out["tensors"] = {t: [(e.step, MessageToDict(e.tensor_proto)) for e in acc.Tensors(t)]
                      for t in tags["tensors"]}
    out["metadata"] = {t: MessageToDict(acc.SummaryMetadata(t)) for t in tags["tensors"]}
    return out


def _raw_events(path):
    # every event of every file, minus what differs run to run (times, file names)
    events = []
    for f in sorted(glob.glob(os.path.join(path, "events.out.tfevents.*"))):
        for ev in EventFileLoader(f).Load():
            d = MessageToDict(ev)
            d.pop("wallTime", None)
            events.append(d)
    return events


def _logged(mod, tmp_path, prog):
    """Run prog(mod, writer-factory) into a fresh directory; every run directory written
    (relative) -> what TensorBoard reads there."""
    root = tmp_path / mod.__name__
    root.mkdir()
    tb = mod.utils.tensorboard
    result = prog(mod, lambda **kw: tb.SummaryWriter(str(root), **kw))
    out = {}
    for dirpath, _, files in os.walk(root):
        if any(f.startswith("events.out.tfevents") for f in files):
            rel = os.path.relpath(dirpath, root)
            out[rel] = {"read": _read_accumulator(dirpath), "raw": _raw_events(dirpath),
                        "files": sorted(re.sub(r"tfevents\.\d+\.[^.]+\.\d+\.\d+", "X", f)
                                        for f in files)}
    return out, result


def same_logs(tmp_path, prog, rtol=1e-6):
    want = _logged(torch, tmp_path, prog)
    got = _logged(autograd_core, tmp_path, prog)
    assert want[0], "torch wrote no event file: a broken case"
    assert_same(want, got, rtol=rtol, atol=1e-9)
    return got


def _data(mod, *shape, seed=0, lo=0.0, hi=1.0, dtype="float32"):
    a = np.random.default_rng(seed).uniform(lo, hi, size=shape)
    return mod.tensor(a.tolist(), dtype=getattr(mod, dtype))


def test_scalars(tmp_path):
    def prog(mod, writer):
        with writer() as w:
            for step in range(5):
                w.add_scalar("loss", 1.0 / (step + 1), step, walltime=100.0 + step)
                w.add_scalar("acc/train", _data(mod, 1, seed=step)[0], step)
                w.add_scalar("np", np.float64(step) / 3, global_step=step)
            w.add_scalar("new", mod.tensor(0.25, dtype=mod.float64), 7, new_style=True)
            w.add_scalar("new64", 1 / 3, 8, new_style=True, double_precision=True)
            w.add_scalars("run", {"a": 1.0, "b": mod.tensor(2.5)}, 0)
            w.add_scalars("run", {"a": 3.0, "b": 4.0}, 1)
            return w.get_logdir() == w.log_dir
    same_logs(tmp_path, prog)


def test_histograms(tmp_path):
    def prog(mod, writer):
        with writer() as w:
            w.add_histogram("normal", _data(mod, 1000, seed=1, lo=-3, hi=3), 0)
            w.add_histogram("ints", mod.arange(50), 1, bins="auto")
            w.add_histogram("np", np.linspace(-1, 1, 101), 2, bins=10)
            w.add_histogram("maxbins", _data(mod, 200, seed=2, dtype="float64"), 3,
                            max_bins=7)
            w.add_histogram("bf16", _data(mod, 64, seed=3, dtype="bfloat16"), 4)
            w.add_histogram_raw("raw", min=0.0, max=4.0, num=10, sum=20.0, sum_squares=50.0,
                                bucket_limits=[1.0, 2.0, 4.0], bucket_counts=[3, 3, 4],
                                global_step=5)
    same_logs(tmp_path, prog)


def test_images(tmp_path):
    def prog(mod, writer):
        with writer() as w:
            w.add_image("chw", _data(mod, 3, 8, 6, seed=1), 0)
            w.add_image("hwc", _data(mod, 5, 4, 3, seed=2), 1, dataformats="HWC")
            w.add_image("hw_uint8", (_data(mod, 7, 7, seed=3) * 255).to(mod.uint8), 2,
                        dataformats="HW")
            w.add_image("gray", _data(mod, 1, 4, 4, seed=4) * 2 - 0.5, 3)   # clipped
            w.add_images("batch", _data(mod, 10, 3, 4, 5, seed=5), 4)
            w.add_images("nhwc", _data(mod, 2, 4, 4, 1, seed=6), 5, dataformats="NHWC")
            w.add_image("np", np.ones((3, 2, 2)) * 0.5, 6)
            w.add_image_with_boxes("boxes", _data(mod, 3, 32, 32, seed=7),
                                   mod.tensor([[2.0, 3.0, 20.0, 25.0], [5, 5, 10, 10]]), 7,
                                   labels=["a", "b"])
    same_logs(tmp_path, prog)


def test_text_audio_tensor_curves_layouts(tmp_path):
    def prog(mod, writer):
        with writer() as w:
            w.add_text("note", "hello **world**", 0)
            w.add_text("note", "second", 1)
            w.add_audio("sound", mod.sin(mod.arange(800, dtype=mod.float64) / 10) * 0.5, 0,
                        sample_rate=8000)
            w.add_tensor("t32", _data(mod, 2, 3, seed=1), 0)
            w.add_tensor("t16", _data(mod, 4, seed=2, dtype="float16"), 1)
            w.add_tensor("i64", mod.arange(6).view(2, 3), 2)
            w.add_tensor("b", mod.tensor([True, False]), 3)
            w.add_tensor("c", mod.tensor([1 + 2j, -0.5j]), 4)
            w.add_tensor("bf", _data(mod, 3, seed=9, dtype="bfloat16"), 5)
            w.add_tensor("u8", mod.tensor([1, 200], dtype=mod.uint8), 6)
            labels = (_data(mod, 100, seed=3) > 0.5).to(mod.int64)
            w.add_pr_curve("pr", labels, _data(mod, 100, seed=4), 0)
            w.add_pr_curve("pr_small", np.array([0, 1, 1, 0]), np.array([0.1, 0.9, 0.6, 0.4]),
                           1, num_thresholds=5, weights=np.array([1.0, 2.0, 1.0, 0.5]))
            w.add_pr_curve_raw("pr_raw", [10, 8, 2], [5, 3, 0], [0, 2, 5], [0, 2, 8],
                               [0.66, 0.72, 1.0], [1.0, 0.8, 0.2], 2, num_thresholds=3)
            w.add_custom_scalars({"cat": {"chart": ["Multiline", ["loss", "acc"]],
                                          "m": ["Margin", ["x", "lo", "hi"]]}})
            w.add_custom_scalars_multilinechart(["a", "b"], category="c2", title="t")
            w.add_custom_scalars_marginchart(["a", "b", "c"])
            w.add_mesh("mesh", mod.tensor([[[1.0, 1, 1], [-1, -1, 1], [1, -1, -1]]]),
                       colors=mod.tensor([[[255, 0, 0], [0, 255, 0], [0, 0, 255]]]),
                       faces=mod.tensor([[[0, 1, 2]]]), config_dict={"camera": {"fov": 75}})
    same_logs(tmp_path, prog, rtol=1e-6)


def test_hparams(tmp_path):
    def prog(mod, writer):
        with writer() as w:
            w.add_hparams({"lr": 0.1, "bsize": 16, "opt": "adam", "flag": True, "none": None,
                           "t": mod.tensor([0.5])},
                          {"hparam/accuracy": 0.9, "hparam/loss": mod.tensor(0.25)},
                          hparam_domain_discrete={"opt": ["adam", "sgd"], "bsize": [16, 32]},
                          run_name="run1", global_step=3)
            w.add_hparams({"lr": 0.01}, {"hparam/accuracy": 0.5}, run_name="run2")
    same_logs(tmp_path, prog)


def test_purge_step_reopen_flush_and_close(tmp_path):
    def prog(mod, writer):
        w = writer(purge_step=3, filename_suffix=".sfx")
        w.add_scalar("x", 1.0, 3)
        w.flush()
        w.close()
        w.close()                        # a second close does nothing
        w.add_scalar("x", 2.0, 4)        # reopens: a new event file
        w.flush()
        w.close()
        w2 = writer(max_queue=1, flush_secs=1)
        w2.add_text("t", "x")
        # (tensorboard 2.x's EventFileWriter has no reopen: PyTorch's FileWriter.reopen
        # raises AttributeError with it)
        reopened = catch(w2.file_writer.reopen)
        w2.close()
        return w.file_writer is None and w.all_writers is None, reopened
    got = same_logs(tmp_path, prog)
    assert got[1][0] is True


def test_errors():
    tb = lambda mod: mod.utils.tensorboard  # noqa: E731
    same_error(lambda mod: tb(mod).summary.scalar("x", mod.ones(2)))
    same_error(lambda mod: tb(mod).summary.histogram("x", mod.ones(0), bins=3))
    same_error(lambda mod: tb(mod).summary.hparams([1], {}))
    same_error(lambda mod: tb(mod).summary.hparams({"a": [1]}, {}))
    same_error(lambda mod: tb(mod).summary.hparams({"a": 1}, {}, {"a": ["x"]}))
    same_error(lambda mod: tb(mod).summary.image("x", mod.ones(2, 2), dataformats="CHW"))
    same_error(lambda mod: tb(mod).summary.image("x", mod.ones(2, 2), dataformats="HH"))
    same_error(lambda mod: tb(mod).summary.custom_scalars({"c": {"m": ["Margin", ["a"]]}}))
    same_error(lambda mod: tb(mod)._utils.make_np([1]) if mod is autograd_core
               else tb(mod)._convert_np.make_np([1]))
    same_error(lambda mod: tb(mod).summary.audio("x", mod.ones(2, 2) * 0.5))


def test_writer_errors(tmp_path):
    def errors(mod):
        with mod.utils.tensorboard.SummaryWriter(str(tmp_path / mod.__name__)) as w:
            out = [catch(w.add_hparams, [("lr", 1)], {}),
                   catch(w.add_histogram_raw, "h", 0, 1, 1, 1, 1, [1.0], [1, 2]),
                   catch(w.add_custom_scalars_marginchart, ["a"]),
                   catch(w.add_embedding, mod.ones(3, 2), metadata=["a"]),
                   catch(w.add_embedding, mod.ones(3), global_step=1)]
        return out
    assert_same(errors(torch), errors(autograd_core))


def test_embedding(tmp_path):
    def prog(mod, writer):
        with writer() as w:
            w.add_embedding(_data(mod, 6, 3, seed=1), metadata=list("abcdef"),
                            label_img=_data(mod, 6, 3, 4, 4, seed=2), global_step=2,
                            tag="emb/1")
            w.add_embedding(_data(mod, 4, 2, seed=3), metadata=[[1, "x"], [2, "y"], [3, "z"],
                                                                [4, "w"]],
                            metadata_header=["n", "s"])
            logdir = w.get_logdir()
        files = {}
        for dirpath, _, names in os.walk(logdir):
            for n in names:
                if not n.startswith("events"):
                    with open(os.path.join(dirpath, n), "rb") as f:
                        files[os.path.relpath(os.path.join(dirpath, n), logdir)] = f.read()
        return files
    want = prog(torch, lambda: torch.utils.tensorboard.SummaryWriter(str(tmp_path / "t")))
    got = prog(autograd_core,
               lambda: autograd_core.utils.tensorboard.SummaryWriter(str(tmp_path / "a")))
    assert set(want) == set(got)
    for k in want:
        if k.endswith("tensors.tsv"):   # str() of float32 numbers: compare as numbers
            a = np.array([[float(x) for x in line.split("\t")]
                          for line in want[k].decode().splitlines()])
            b = np.array([[float(x) for x in line.split("\t")]
                          for line in got[k].decode().splitlines()])
            np.testing.assert_allclose(a, b, rtol=1e-6)
        else:
            assert want[k] == got[k], k


def test_default_log_dir(tmp_path):
    # runs/<Mon DD_HH-MM-SS>_<hostname><comment>, relative to the working directory
    code = ("import socket, sys\n"
            "from autograd_core.utils.tensorboard import SummaryWriter\n"
            "w = SummaryWriter(comment='_lr0.1'); w.close()\n"
            "print(w.get_logdir()); print(socket.gethostname())\n")
    # (the child runs in tmp_path, outside the source tree as CWD is, because the default
    # log_dir is relative to the working directory)
    out = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), env=child_env(),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    logdir, host = out.stdout.split()
    assert re.fullmatch(r"runs/[A-Z][a-z]{2}\d\d_\d\d-\d\d-\d\d_" + re.escape(host) +
                        r"_lr0\.1", logdir.replace(os.sep, "/")), logdir
    assert glob.glob(os.path.join(str(tmp_path), logdir, "events.out.tfevents.*"))


def test_missing_tensorboard_raises_as_pytorch():
    # with the tensorboard package hidden, both imports fail the same way
    code = ("import sys\n"
            "sys.modules['tensorboard'] = None\n"
            "try:\n"
            "    import {m}.utils.tensorboard\n"
            "except Exception as e:\n"
            "    print(type(e).__name__, e)\n")
    res = []
    for m in ("torch", "autograd_core"):
        out = subprocess.run([sys.executable, "-c", code.format(m=m)], cwd=CWD,
                             env=child_env(), capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        res.append(out.stdout.strip())
    assert res[0] == res[1] and res[0].startswith("ModuleNotFoundError"), res


def test_add_graph_logs_the_autograd_graph(tmp_path):
    # Note [add_graph]: not PyTorch's traced graph, autograd's; checked for what it says
    class Net(autograd_core.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = autograd_core.nn.Linear(4, 3)
            self.drop = autograd_core.nn.Dropout(0.5)
            self.fc2 = autograd_core.nn.Linear(3, 2)

        def forward(self, x):
            return self.fc2(self.drop(autograd_core.relu(self.fc1(x))))

    net = Net()
    x = autograd_core.randn(5, 4)
    with autograd_core.utils.tensorboard.SummaryWriter(str(tmp_path)) as w:
        w.add_graph(net, x)
    assert net.training                  # restored after the eval-mode pass
    acc = event_accumulator.EventAccumulator(str(tmp_path))
    acc.Reload()
    assert acc.Tags()["graph"] and acc.Tags()["run_metadata"] == ["step1"]
    g = acc.Graph()
    nodes = {n.name: (n.op, list(n.input)) for n in g.node}
    params = {n for n, (op, _) in nodes.items() if op == "Parameter"}
    assert params == {"Net/fc1.weight", "Net/fc1.bias", "Net/fc2.weight", "Net/fc2.bias"}
    ops = [op for op, _ in nodes.values() if op not in ("Parameter", "IO Node")]
    # eval mode: dropout records nothing; two linears (transpose + addmm) and a relu
    assert sorted(ops) == sorted(["TBackward0", "AddmmBackward0", "ReluBackward0",
                                  "TBackward0", "AddmmBackward0"])
    out_src = nodes["output/output.0"][1]
    assert len(out_src) == 1 and nodes[out_src[0]][0] == "AddmmBackward0"
    assert "input/input.0" in nodes
    # every input of every node is a node of the graph
    assert all(i in nodes for _, ins in nodes.values() for i in ins)
    assert acc.RunMetadata("step1").step_stats.dev_stats[0].device == "/device:CPU:0"


def test_add_onnx_graph_and_figure_are_honest(tmp_path):
    with autograd_core.utils.tensorboard.SummaryWriter(str(tmp_path)) as w:
        with pytest.raises(NotImplementedError):
            w.add_onnx_graph("model.onnx")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            with pytest.raises(ImportError):   # PyTorch's too needs matplotlib
                w.add_figure("fig", object())
