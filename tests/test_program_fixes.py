"""What running real PyTorch programs unchanged (tests/test_real_programs.py) found wrong,
each checked against PyTorch directly: formatting 0-d tensors in f-strings, ``size=`` given
by keyword, ``nn.DataParallel`` on a machine without accelerators, cross_entropy choosing
class probabilities by shape, ``nn.Parameter`` of a non-tensor."""
import pytest

from _diff import same, same_error



def test_format_of_tensors():
    def prog(mod):
        t = mod.tensor(2.170964002609253)
        return (f"{t}", f"{t:.3f}", "{:+.2f}".format(mod.tensor([1.5])[0]), f"{mod.tensor(7):>4d}",
                f"{mod.tensor(True)}", f"{mod.tensor([1., 2.])}", format(mod.tensor(0.5), ""),
                f"{mod.nn.Parameter(mod.tensor(1.5))}")
    same(prog)
    same_error(lambda mod: f"{mod.tensor([1.0, 2.0]):.2f}")
    same_error(lambda mod: f"{mod.nn.Parameter(mod.tensor(1.5)):.2f}")


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "rand", "randn"])
def test_size_by_keyword(fn):
    def prog(mod):
        mod.manual_seed(0)
        t = getattr(mod, fn)(size=(2, 3), dtype=mod.float64)
        return t.shape, t.dtype, (t if fn != "empty" else None)
    same(prog)
    same_error(lambda mod: getattr(mod, fn)(2, size=(2, 3)))


def test_data_parallel_without_accelerators():
    def prog(mod):
        mod.manual_seed(0)
        inner = mod.nn.Linear(3, 2)
        net = mod.nn.DataParallel(inner)
        x = mod.randn(4, 3)
        out = net(x)
        out.sum().backward()
        return (repr(net), net.device_ids, list(net.state_dict()), out, inner.weight.grad,
                net.module is inner, mod.nn.parallel.DataParallel is mod.nn.DataParallel)
    same(prog)
    same_error(lambda mod: mod.nn.parallel.data_parallel(mod.nn.Linear(2, 1), mod.ones(2, 2)))


@pytest.mark.parametrize("target", [
    lambda mod: mod.tensor([1., 2., 0.]),                 # class indices as floats
    lambda mod: mod.ones(3, 4, dtype=mod.long),           # probabilities as integers
    lambda mod: mod.ones(3, 4),                           # fine: probabilities
])
def test_cross_entropy_target_kind_follows_shape(target):
    def prog(mod):
        x = mod.tensor([[0.1, 0.2, 0.3, 0.4]] * 3)
        return mod.nn.functional.cross_entropy(x, target(mod))
    same(prog, may_raise=True)


def test_parameter_of_non_tensor():
    same_error(lambda mod: mod.nn.Parameter([1.0, 2.0]))


def test_float_of_tensor_requiring_grad_warns_once_per_process():
    import subprocess
    import sys
    from _subprocess import CWD, child_env
    code = ("import warnings, {m} as torch\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    x = torch.tensor(2., requires_grad=True)\n"
            "    with torch.no_grad():\n"
            "        float(x)\n"
            "    float(torch.tensor(2.)); int(x)\n"
            "    print(float(x * 2), float(x))\n"
            "print([(i.category.__name__, str(i.message).split(' (Triggered')[0]) for i in w])\n")
    outs = [subprocess.run([sys.executable, "-c", code.format(m=m)], cwd=CWD, env=child_env(),
                           capture_output=True, text=True, timeout=120) for m in ("torch", "autograd_core")]
    assert outs[1].returncode == 0, outs[1].stderr
    assert outs[1].stdout == outs[0].stdout
    assert "Converting a tensor with requires_grad=True" in outs[1].stdout
