"""The refusals of tests/test_unsigned.py::test_refusal_messages that still differ from
PyTorch's (strict xfails): form -> PyTorch's words and ours, as the comparison found them
when this list was written. A fix that makes a form match fails its xfail until its
entry goes. None remains (the last, argsort's and index_put's parser words,
differed between PyTorch's Tensor method and its function: each has its own wrapper now)."""
KNOWN = {}
