"""torch.autograd.enforce_grad_layout_policy against PyTorch: with the policy off,
AccumulateGrad keeps a gradient it may steal as laid out; a gradient it must copy still
gets the leaf's layout; the policy is per thread, set at once, restored on exit."""
import threading

import pytest

from _diff import same

torch = pytest.importorskip("torch")


def _permuted_leaf(m):
    return m.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()


@pytest.mark.parametrize("enable", [True, False])
def test_stolen_gradient_layout(enable):
    def prog(m):
        p = _permuted_leaf(m)
        with m.autograd.enforce_grad_layout_policy(enable):
            (p * 1).backward(m.ones(4, 2, 3))
        return p.stride(), p.grad.stride(), p.grad
    same(prog)


@pytest.mark.parametrize("enable", [True, False])
def test_copied_gradient_still_follows_the_contract(enable):
    def prog(m):
        p = _permuted_leaf(m)
        with m.autograd.enforce_grad_layout_policy(enable):
            (p * 2).sum().backward()       # an expanded gradient: never stolen
        return p.grad.stride(), p.grad
    same(prog)


def test_set_at_once_restored_on_exit_and_as_decorator():
    def prog(m):
        seen = []
        policy = m.autograd.enforce_grad_layout_policy
        with policy(False):
            p = _permuted_leaf(m)
            (p * 1).backward(m.ones(4, 2, 3))
            seen.append(p.grad.stride())
        q = _permuted_leaf(m)
        (q * 1).backward(m.ones(4, 2, 3))
        seen.append(q.grad.stride())

        @policy(False)
        def run():
            r = _permuted_leaf(m)
            (r * 1).backward(m.ones(4, 2, 3))
            return r.grad.stride()
        seen.append(run())
        s = _permuted_leaf(m)
        (s * 1).backward(m.ones(4, 2, 3))
        seen.append(s.grad.stride())
        return seen
    same(prog)


def test_per_thread():
    def prog(m):
        out = []

        def other():
            p = _permuted_leaf(m)
            (p * 1).backward(m.ones(4, 2, 3))
            out.append(p.grad.stride())
        with m.autograd.enforce_grad_layout_policy(False):
            t = threading.Thread(target=other)
            t.start()
            t.join()
        return out
    same(prog)
