"""The classes of differences (run.signature) that the fuzzer finds today, each with the
issue-8 patterns behind it (the smallest programs are regression tests in
tests/test_issue8_regressions.py).  tests/test_fuzz.py fails on a difference of any
other class; `python -m tests.fuzz` lists the pinned classes a long run no longer
meets, so that fixed ones can be removed from here."""
KNOWN = {
    "grad @ backward": "gradients after backward: backward(inputs=) with non-leaf inputs",
    "exception @ setitem": "setitem through an advanced index whose value shares memory "
                           "with the target: PyTorch's index_put_ raises",
    "binding @ grad": "autograd.grad stops at an input that lies on the path to another "
                      "input (None instead of its gradient)",
    "exception @ backward": "a second backward through freed saved values of an indexing "
                            "node does not raise",
    "hook log @ grad": "tensor hooks on leaves are not run by autograd.grad (pattern 1)",
    "value @ grad": "tensor hooks on leaves are not run by autograd.grad (pattern 1)",
    "value @ setitem": "setitem whose value is a view overlapping the target: PyTorch "
                       "copies element by element, numpy as if from a copy",
    "exception @ grad": "autograd.grad stops at an input that lies on the path to another "
                        "input, so it misses a modified saved tensor past it",
    "hook log @ backward": "max/min(dim)'s node has one output in PyTorch (the indices are "
                           "not differentiable): its Node pre-hooks get one gradient",
    "grad @ grad": "autograd.grad: a retain_grad() root's .grad is filled by PyTorch "
                   "even when the inputs are unreachable",
    # met only in the 20,000-program run (not in the suite's budget)
    "requires_grad @ grad": "autograd.grad(create_graph=True) through a Function output "
                            "modified in place by copy_",
    "value @ binary:add": "add(float64, float32, alpha=) scales in float32 first "
                          "(pattern 6)",
}
