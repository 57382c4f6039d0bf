"""The classes of differences (run.signature) that the fuzzer finds today, each with the
issue-8 patterns behind it (the smallest programs are regression tests in
tests/test_issue8_regressions.py).  tests/test_fuzz.py fails on a difference of any
other class; `python -m tests.fuzz` lists the pinned classes a long run no longer
meets, so that fixed ones can be removed from here."""
KNOWN = {
    "grad @ backward": "gradients after backward: a view's stale grad_fn after an in-place "
                       "op on its base, a leaf detach_()ed after use still accumulating, a "
                       "view made under no_grad getting a gradient (patterns 3 and 6)",
    "grad_fn @ binary:sub": "sub(alpha=) records AddBackward0",
    "exception @ setitem": "setitem on a 0-d tensor (a None index, a bool mask), on an "
                           "expanded tensor (pattern 5)",
    "binding @ grad": "autograd.grad to a view made under no_grad of a tensor that requires "
                      "grad (PyTorch: the view has no edge, its gradient is None)",
    "exception @ view:mT": ".mT of a 0-d tensor raises",
    "grad_fn @ setitem": "the grad_fn of a view regenerated after setitem on its base "
                         "(PyTorch: AsStridedBackward0)",
    "exception @ inplace": "in-place ops: on outputs of split/chunk/unbind and with an "
                           "argument overlapping the target they must raise; on results "
                           "of autograd.grad they must not; copy_(number) error type",
    "exception @ backward": "backward of a view made under no_grad does not raise",
    "grad_fn @ inplace": "the grad_fn of a view or base after an in-place op on one of "
                         "them (PyTorch: AsStridedBackward0 / CopySlices; pattern 3)",
    "requires_grad @ setitem": "a view of a base later written by a value that requires "
                               "grad does not start requiring grad (pattern 3)",
    "requires_grad @ inplace": "a view of a base later written by a value that requires "
                               "grad does not start requiring grad (pattern 3)",
    "value @ setitem": "integer indexing giving a 0-d tensor returns a copy (pattern 2); "
                       "bool-mask setitem on a 0-d tensor (pattern 5)",
    "value @ inplace": "integer indexing / select / [...] giving a 0-d tensor returns a "
                       "copy, so writes do not propagate (pattern 2)",
    "is_leaf @ setitem": "views made under no_grad, or outputs of multi-view ops, whose "
                         "base is modified in place: PyTorch raises on reading their flags",
    "is_leaf @ inplace": "views made under no_grad, or outputs of multi-view ops, whose "
                         "base is modified in place: PyTorch raises on reading their flags",
    "exception @ grad": "autograd.grad through a view made under no_grad (PyTorch raises)",
    "grad_fn @ unary:roll": "roll of an empty tensor records CloneBackward0",
    "grad_fn @ view:flatten": "flatten of a contiguous advanced-index result records "
                              "UnsafeViewBackward0",
    # met only in the 20,000-program run (not in the suite's budget)
    "exception @ detach_": "detach_() on a view does not raise",
    "requires_grad @ detach_": "detach_() of a base changes requires_grad of a view made "
                               "under no_grad",
    "grad @ grad.backward": "a leaf detach_()ed after use still accumulates (pattern 6)",
    "hook log @ backward": "a Node pre-hook on a view's grad_fn after an in-place op on "
                           "the view (pattern 3)",
    "requires_grad @ grad": "autograd.grad(create_graph=True) through a Function output "
                            "modified in place by copy_",
    "value @ binary:add": "a float32 unary result 1 ulp off PyTorch's (sinh: libm rounds "
                          "differently) shows once added to a float64 tensor; add's alpha "
                          "scaling itself follows PyTorch (pattern 6)",
}
