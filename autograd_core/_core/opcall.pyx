"""The op caller: each op of the table called by name from Python, through OPS (Note [Op
table]), and the table's schemas. Used by the batched backward (Note [Batched backward],
autograd/_batched_backward.py) to run the op a Python op hook intercepts on other
arguments (Note [Op hook]: ops run from a hook's callbacks are not hooked)."""
from autograd_core._core.tensor cimport OPS, Tensor
from autograd_core._core.dtype cimport dtype

include "_op_table_call.pxi"
