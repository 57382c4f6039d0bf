"""The classes of differences (run.signature) that the fuzzer finds today, each with the
patterns behind it (the smallest programs are regression tests in
tests/test_issue8_regressions.py once fixed).  tests/test_fuzz.py fails on a difference
of any other class; `python -m tests.fuzz` lists the pinned classes a long run no longer
meets, so that fixed ones can be removed from here.

Pinned below: the classes the constructs added for issue 25 meet (gen.py: tensors from
sequences other than lists, composite-op results viewed, default-dtype changes, writes
between first and second derivatives, in-place ops on returned gradients; first met in
seeds 8,000,000-8,002,999 and in the suite's seeds 0-299).  Each is a divergence other
items of issue 25 are fixing (tensor creation, composite-op strides, grad_fn names,
in-place divergences); the constructs stay in the generator so that the fixes show here
as "pinned classes not met".

The two rounding classes pinned before ("value @ binary:add": a float32 sinh 1 ulp off
PyTorch's, added to a float64 tensor; "value @ binary:atan2", seed 601792: float32 atan2
1 ulp off, carried into float64 results) were float32 rounding compared at float64's
tolerance; run.py's Note [Mixed precision] compares values that float32 tensors feed at
float32's tolerance, so they no longer show."""
_STRIDES = ("a composite op's result does not have PyTorch's strides (cholesky, qr's R, "
            "... give column-major batches in PyTorch), so view() raises on one side only, "
            "reshape() copies on one side only (a grad_fn of ViewBackward0 against "
            "UnsafeViewBackward0) and a write through it reaches the result on one side "
            "only (issue 25: composite-op strides; seeds 8000226, 8000541, 8000669, "
            "8000579, 8001086, 8000595, 8000822)")
KNOWN = {
    "exception @ seq_leaf:range": "torch.tensor(range(...)) raises (issue 25: creation; "
                                  "seed 8000029: torch.tensor(range(-2, -2), "
                                  "dtype=torch.float32))",
    "exception @ seq_leaf:deque": "torch.tensor(deque([...])) raises (issue 25: creation; "
                                  "seed 8000023)",
    "exception @ seq_leaf:array": "torch.tensor(array.array('i', [0, 2])) raises (issue 25: "
                                  "creation; seed 8000012)",
    "dtype @ seq_leaf:0d_tensors": "torch.tensor((a, b, -0.1)) of float32 0-d tensors and a "
                                   "float is float32 in PyTorch, float64 here (issue 25: "
                                   "creation; seed 8002488)",
    "exception @ composite_view:view": _STRIDES,
    "exception @ composite_view:mT.view": _STRIDES,
    "exception @ composite_view:transpose.view": _STRIDES,
    "exception @ composite_view:view_shape": _STRIDES,
    "grad_fn @ composite_view:flatten": _STRIDES,
    "grad_fn @ composite_view:transpose.reshape": _STRIDES,
    "grad_fn @ view:flatten": _STRIDES,
    "value @ composite_view:write": _STRIDES,
    "exception @ composite_view:write": _STRIDES,
    "hook log @ composite:strides": _STRIDES,
    "exception @ grad_inplace:masked_fill_":
        "masked_fill_ on the expanded (stride-0) gradient of a sum raises here; PyTorch "
        "warns that it is deprecated and writes (issue 25: in-place divergences; seed "
        "8001285)",
}
