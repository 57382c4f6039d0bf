"""Issue 13: gradient accumulation into a shared leaf is atomic with respect to
backward passes running concurrently on several threads (PyTorch's AccumulateGrad
holds a mutex): with thread switches forced as often as possible, no gradient is lost.
Checked under torch too (tests/_diff.py)."""
import sys
import threading

import pytest

from _diff import same

THREADS = 8
PASSES = 60


@pytest.mark.parametrize("size", [1, 200_000])
def test_concurrent_backward_loses_no_gradient(size):
    def prog(torch):
        leaf = torch.zeros(size, dtype=torch.float64, requires_grad=True)
        leaf2 = torch.zeros(size, dtype=torch.float64, requires_grad=True)
        start = threading.Barrier(THREADS)
        errors = []

        def work(k):
            try:
                start.wait()
                for _ in range(PASSES):
                    # the first pass finds .grad None (steal or clone), the others add
                    ((leaf * (k + 1)).sum() + (leaf2 * 2).sum()).backward()
            except Exception as e:  # noqa: BLE001 (reported in the result)
                errors.append(repr(e))

        old = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)
        try:
            threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            sys.setswitchinterval(old)
        # integers in float64: every sum is exact, whatever the order
        return errors, leaf.grad, leaf2.grad
    same(prog)
