"""The classes of differences (run.signature) that the fuzzer finds today, each with the
issue-8 patterns behind it (the smallest programs are regression tests in
tests/test_issue8_regressions.py).  tests/test_fuzz.py fails on a difference of any
other class; `python -m tests.fuzz` lists the pinned classes a long run no longer
meets, so that fixed ones can be removed from here.

None today.  The two rounding classes pinned before ("value @ binary:add": a float32
sinh 1 ulp off PyTorch's, added to a float64 tensor; "value @ binary:atan2", seed
601792: float32 atan2 1 ulp off, carried into float64 results) were float32 rounding
compared at float64's tolerance; run.py's Note [Mixed precision] compares values that
float32 tensors feed at float32's tolerance, so they no longer show."""
KNOWN = {}
