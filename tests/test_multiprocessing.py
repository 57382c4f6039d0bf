"""torch.multiprocessing: tensors shared between processes (Hogwild!), queues, spawn's
errors, DataLoader batches through shared memory. Programs that start processes run in
a child interpreter with a timeout, so nothing can hang the suite."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

from _subprocess import CWD, child_env

import autograd_core as ag
import autograd_core.multiprocessing as agmp


def run_script(tmp_path, source, *args, timeout=120):
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent(source))
    proc = subprocess.run([sys.executable, str(path), *args], cwd=CWD, env=child_env(),
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_share_memory_in_place():
    t = ag.arange(6.0)
    arr_before = t.numpy()
    assert not t.is_shared()
    assert t.share_memory_() is t
    assert t.is_shared()
    assert not np.shares_memory(arr_before, t.numpy())
    np.testing.assert_array_equal(t.numpy(), np.arange(6.0))
    v = t.view(2, 3)[1]  # views taken afterwards are windows on the shared buffer
    assert v.is_shared()
    v.add_(10)
    np.testing.assert_array_equal(t.numpy(), [0, 1, 2, 13, 14, 15])
    assert t.share_memory_() is t  # no-op when shared already


def test_share_memory_keeps_autograd_identity():
    p = ag.nn.Parameter(ag.ones(3))
    p.share_memory_()
    assert isinstance(p, ag.nn.Parameter) and p.requires_grad and p.is_leaf
    (p * 2).sum().backward()
    np.testing.assert_allclose(p.grad.numpy(), [2, 2, 2])


def test_share_memory_refuses_a_view():
    base = ag.zeros(4)
    with pytest.raises(RuntimeError, match="view"):
        base[1:].share_memory_()
    assert not base.is_shared()


def test_module_share_memory():
    m = ag.nn.Sequential(ag.nn.Linear(3, 2), ag.nn.BatchNorm1d(2))
    assert m.share_memory() is m
    assert all(t.is_shared() for t in m.state_dict().values())


def test_sharing_strategies_match_torch():
    import torch.multiprocessing as tmp
    assert agmp.get_all_sharing_strategies() == tmp.get_all_sharing_strategies()
    assert agmp.get_sharing_strategy() == tmp.get_sharing_strategy()
    with pytest.raises(AssertionError) as e_ag:
        agmp.set_sharing_strategy("nope")
    with pytest.raises(AssertionError) as e_t:
        tmp.set_sharing_strategy("nope")
    assert str(e_ag.value) == str(e_t.value)


def test_non_leaf_requiring_grad_is_refused_as_torch():
    import torch.multiprocessing  # noqa: F401  (registers torch's reducers)
    from multiprocessing.reduction import ForkingPickler
    x = ag.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError) as e_ag:
        ForkingPickler.dumps(x)
    with pytest.raises(RuntimeError) as e_t:
        ForkingPickler.dumps(torch.ones(2, requires_grad=True) * 2)
    assert str(e_ag.value) == str(e_t.value)


def test_plain_pickle_is_unchanged():
    # only multiprocessing's ForkingPickler sends handles; pickle.dumps copies values
    t = ag.arange(3.0).share_memory_()
    r = pickle.loads(pickle.dumps(t))
    assert not r.is_shared()
    np.testing.assert_array_equal(r.numpy(), [0, 1, 2])


HOGWILD = """
    import sys
    import autograd_core as torch
    import autograd_core.multiprocessing as mp

    def train(rank, model, q, done, lock):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        x = torch.ones(4, 3)
        for _ in range(5):
            opt.zero_grad()
            model(x).sum().backward()
            # Two unsynchronised read-modify-writes of one page can lose an update (true
            # Hogwild does); the lock makes the expected total exact without hiding a lost write.
            with lock:
                opt.step()
        q.put(rank)
        done.wait()

    if __name__ == "__main__":
        method, strategy = sys.argv[1], sys.argv[2]
        mp.set_sharing_strategy(strategy)
        torch.manual_seed(0)
        model = torch.nn.Linear(3, 2)
        model.share_memory()
        b0 = model.bias.detach().clone()
        ctx = mp.get_context(method)
        q, done, lock = ctx.Queue(), ctx.Event(), ctx.Lock()
        ps = [ctx.Process(target=train, args=(r, model, q, done, lock)) for r in range(2)]
        for p in ps:
            p.start()
        ranks = sorted(q.get(timeout=60) for _ in ps)
        done.set()
        for p in ps:
            p.join(60)
        # d(sum)/d(bias) = 4 per step: 2 processes x 5 steps x lr 0.1 x 4 = 4
        print((ranks, (b0 - model.bias).tolist(), [p.exitcode for p in ps]))
"""


@pytest.mark.parametrize("method,strategy", [
    (m, s) for m, s in [("fork", "file_descriptor"), ("spawn", "file_descriptor"),
                        ("spawn", "file_system")]
    if s in agmp.get_all_sharing_strategies()])
def test_hogwild_updates_visible_in_parent(tmp_path, method, strategy):
    if method not in agmp.get_all_start_methods():
        pytest.skip(f"start method {method} not available here")
    out = run_script(tmp_path, HOGWILD, method, strategy)
    ranks, delta, codes = eval(out.strip().splitlines()[-1])
    assert ranks == [0, 1] and codes == [0, 0]
    np.testing.assert_allclose(delta, [4.0, 4.0], rtol=1e-5)


QUEUE = """
    import autograd_core as torch
    import autograd_core.multiprocessing as mp

    def child(q_in, q_out, done):
        shared, copy = q_in.get()
        shared.mul_(3)          # the parent's tensor: same pages
        copy.add_(100)          # sent unshared: a shared copy, the parent's stays as is
        q_out.put((shared.is_shared(), copy.is_shared(), torch.arange(4.0) * 2))
        done.wait()

    if __name__ == "__main__":
        ctx = mp.get_context("spawn")
        q_in, q_out, done = ctx.Queue(), ctx.Queue(), ctx.Event()
        p = ctx.Process(target=child, args=(q_in, q_out, done))
        p.start()
        shared = torch.ones(3).share_memory_()
        copy = torch.ones(2)
        q_in.put((shared, copy))
        flags = q_out.get(timeout=60)
        done.set()
        p.join(60)
        print(shared.tolist(), copy.tolist(), flags[0], flags[1], flags[2].tolist(),
              flags[2].is_shared())
"""


def test_queue_transfers_through_shared_memory(tmp_path):
    out = run_script(tmp_path, QUEUE)
    assert out.split() == ["[3.0,", "3.0,", "3.0]", "[1.0,", "1.0]", "True", "True",
                           "[0.0,", "2.0,", "4.0,", "6.0]", "True"]


SPAWN = """
    import sys
    import autograd_core.multiprocessing as mp

    def work(i, mode):
        if i == 1 and mode == "raise":
            raise ValueError("rank one failed")
        if i == 1 and mode == "exit":
            sys.exit(3)

    if __name__ == "__main__":
        mode = sys.argv[1]
        try:
            mp.spawn(work, args=(mode,), nprocs=2)
        except mp.ProcessRaisedException as e:
            print("RAISED", e.error_index, "ValueError: rank one failed" in str(e),
                  str(e).startswith("\\n\\n-- Process 1 terminated with the following error:"))
        except mp.ProcessExitedException as e:
            print("EXITED", e.error_index, e.exit_code, str(e))
        else:
            ctx = mp.spawn(work, args=(mode,), nprocs=2, join=False)
            while not ctx.join():
                pass
            print("OK", len(ctx.pids()))
"""


def test_spawn_success_and_join_false(tmp_path):
    assert run_script(tmp_path, SPAWN, "ok").split() == ["OK", "2"]


def test_spawn_raised_exception(tmp_path):
    assert run_script(tmp_path, SPAWN, "raise").split() == ["RAISED", "1", "True", "True"]


def test_spawn_exited_exception(tmp_path):
    assert run_script(tmp_path, SPAWN, "exit").strip() == \
        "EXITED 1 3 process 1 terminated with exit code 3"


def test_spawn_start_method_warning_as_torch():
    import warnings
    import torch.multiprocessing as tmp

    def messages(mod):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                mod.spawn(print, nprocs=0, start_method="fork")
            except Exception:  # noqa: BLE001 - only the warning is compared
                pass
        return [(x.category, str(x.message)) for x in w]

    assert messages(agmp) == messages(tmp)


LOADER = """
    import autograd_core as torch
    from autograd_core.utils.data import DataLoader, TensorDataset

    if __name__ == "__main__":
        ds = TensorDataset(torch.arange(24.0).reshape(12, 2), torch.arange(12))
        for ctx in ("fork", "spawn"):
            batches = list(DataLoader(ds, batch_size=4, num_workers=2,
                                      multiprocessing_context=ctx))
            print(ctx, [b[0].is_shared() for b in batches],
                  torch.cat([b[0] for b in batches]).sum().item(),
                  torch.cat([b[1] for b in batches]).tolist())
"""


def test_dataloader_batches_come_through_shared_memory(tmp_path):
    lines = run_script(tmp_path, LOADER).strip().splitlines()
    for ctx, line in zip(("fork", "spawn"), lines):
        assert line == f"{ctx} [True, True, True] 276.0 {list(range(12))}"


def test_exports():
    import torch.multiprocessing as tmp
    for name in ("Process", "Queue", "SimpleQueue", "Pool", "get_context", "set_start_method",
                 "get_start_method", "spawn", "start_processes", "ProcessContext",
                 "ProcessRaisedException", "ProcessExitedException"):
        assert hasattr(agmp, name) and hasattr(tmp, name), name
    assert set(tmp.__all__) <= set(agmp.__all__)


@pytest.mark.parametrize("name", ["autograd_core.multiprocessing",
                                  "autograd_core.multiprocessing.reductions"])
def test_docstring_examples_run(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_module_share_memory_docstring_runs():
    import doctest
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(ag.nn.Module.share_memory, "share_memory", globs={}):
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
