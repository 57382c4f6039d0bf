"""A differential fuzzer of autograd_core against PyTorch.

Design
------
* **Programs** (gen.py): random straight-line programs over tensors — leaves of random
  shapes (0-d, empty, broadcastable; float64 and float32), unary/binary (broadcasting)
  ops, reductions, matrix products, views (slicing, select, unbind, transpose, expand,
  ...), getitem with basic and advanced indices and bool masks, in-place ops on leaves,
  intermediates and views, setitem, detach / detach_, retain_grad, tensor / node /
  post-accumulate-grad hooks (logging into a list), custom autograd.Functions (saved
  tensors, once_differentiable, mark_non_differentiable, setup_context), backward with
  retain_graph, grad_tensors, inputs= and create_graph, autograd.grad (several inputs,
  create_graph) and second-order grads, .grad reset, no_grad blocks; since issue 25
  also tensors built from tuples, deques, ranges, array.array and tuples of 0-d tensors,
  composite-op results (sdpa on transposed q/k/v, einsum, linalg decompositions,
  (transposed) convolutions, unfold ...) followed by view()/transpose().view()/reshape
  and writes through them (and their strides logged), set_default_dtype changes (reset
  to float32 at the program's end, and by run() whatever the program did), in-place
  writes through views between a create_graph gradient and a second one, and in-place
  ops on returned gradients (autograd.grad's, stride-0 ones included, and .grad); since
  issue 26 also torch.func statements (jvp of a unary op with its tangent, vmap over the
  first dim).  A program is drawn
  statement by statement while it runs under torch, so operands always have the shapes
  the op needs; statements torch rejects are mostly dropped, some kept (error paths).
* **Ops** (ops.py): one table per kind of operation, one line per op; entries whose op
  autograd_core lacks (probed with hasattr) are skipped, so the fuzzer grows with the
  API.  Add a line to extend it.
* **Comparison** (run.py): the program runs statement by statement under torch and
  under autograd_core; after every statement the whole state is observed — for every
  tensor its shape, dtype, values, requires_grad, is_leaf, grad_fn name and .grad (for
  leaves and retained grads), plus the hook log and whether the statement raised (the
  exception type) — and compared (numbers through tests/_diff.py's assert_close, with
  per-dtype tolerances).  The names of nodes made by create_graph backward formulas
  (results of autograd.grad(create_graph=True), .grad after backward(create_graph=True))
  are not compared: the one difference the project allows.
* **Crashes and hangs** (campaign.py, worker.py): programs run in worker processes; a
  worker dying while a program runs is a crash of autograd_core, one exceeding the
  timeout a hang; the worker is replaced and the program reported.
* **Shrinking** (run.py): a failing program is cut after the failing statement, then
  statements are dropped greedily (each with what depends on it) while the same kind of
  difference stays at the same kind of statement; the result prints as a runnable
  program (``import autograd_core as torch``; change the import to see PyTorch's result).
* **Signatures**: a difference is classed as "<what differs> @ <statement kind>"
  (e.g. "value @ inplace:add_"); the suite pins the classes known today
  (fuzz/known.py) and fails on any other.

Commands (from the repository root)
-----------------------------------
    python -m tests.fuzz --programs 20000 --jobs 2         # a long run, with a report
    python -m tests.fuzz --programs 300 --seed 0 --show all # the suite's CI budget
    python -m tests.fuzz --replay 1234                      # one seed: program + result

The suite runs tests/test_fuzz.py: seeds 0..CI_PROGRAMS-1 (a minute at most).
"""
