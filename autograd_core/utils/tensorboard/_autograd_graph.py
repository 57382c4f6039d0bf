"""add_graph's graph: the autograd graph one forward pass of the model records, as a
TensorBoard GraphDef.

Note [add_graph]
PyTorch's add_graph traces the model with torch.jit.trace and logs the TorchScript
graph (aten ops inside module scopes).  There is no tracer here, so add_graph logs what
this library does have: the autograd graph of one forward pass (run in eval mode, with
grad mode on).  Its op nodes are the backward nodes (AddmmBackward0, ReluBackward0, ...,
one per differentiable op), its inputs the model's parameters (by their names in
named_parameters) and the input tensors; ops that record nothing (no operand requires
grad) do not appear.  So the picture differs from PyTorch's by design: same model,
autograd's view of it.
"""
from tensorboard.compat.proto.attr_value_pb2 import AttrValue
from tensorboard.compat.proto.config_pb2 import RunMetadata
from tensorboard.compat.proto.graph_pb2 import GraphDef
from tensorboard.compat.proto.node_def_pb2 import NodeDef
from tensorboard.compat.proto.step_stats_pb2 import DeviceStepStats, StepStats
from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto
from tensorboard.compat.proto.versions_pb2 import VersionDef


def _node(name, op, inputs=(), shape=None, attr=None):
    attrs = {}
    if attr is not None:
        attrs["attr"] = AttrValue(s=attr.encode("utf_8"))
    if shape is not None:
        attrs["_output_shapes"] = AttrValue(list=AttrValue.ListValue(shape=[
            TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(d)) for d in shape])]))
    return NodeDef(name=name, op=op, input=list(inputs), attr=attrs)


def _flat_tensors(x, out):
    import autograd_core as _ag
    if isinstance(x, _ag.Tensor):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _flat_tensors(v, out)
    elif isinstance(x, dict):
        for v in x.values():
            _flat_tensors(v, out)
    return out


def graph(model, args, verbose=False):
    """(GraphDef, RunMetadata) of model(*args)'s autograd graph (Note [add_graph])."""
    import autograd_core as _ag
    if args is None:
        args = ()
    elif not isinstance(args, (list, tuple)):
        args = (args,)
    training = model.training
    model.train(False)
    try:
        with _ag.enable_grad():
            result = model(*args)
    finally:
        model.train(training)
    scope = type(model).__name__
    params = {id(p): name for name, p in model.named_parameters()}
    nodes, names = [], {}           # names: id(autograd node or tensor) -> NodeDef name
    inputs = _flat_tensors(list(args), [])
    for i, t in enumerate(inputs):
        names[id(t)] = f"input/input.{i}"
        nodes.append(_node(names[id(t)], "IO Node", shape=t.shape, attr=str(t.dtype)))
    outputs = _flat_tensors(result, [])

    def name_of(fn):
        # an AccumulateGrad node stands for its leaf: a parameter or an input
        if fn.name().endswith("AccumulateGrad"):
            leaf = fn.variable
            if id(leaf) in names:
                return names[id(leaf)]
            pname = params.get(id(leaf))
            label = f"{scope}/{pname}" if pname is not None else f"{scope}/leaf.{len(names)}"
            names[id(leaf)] = label
            nodes.append(_node(label, "Parameter" if pname is not None else "Leaf",
                               shape=leaf.shape, attr=str(leaf.dtype)))
            return label
        return names[id(fn)]

    # the op nodes in creation order (a node's inputs are created before it); the walk
    # is iterative (graphs may be deep)
    seen, order, stack = set(), [], [t.grad_fn for t in outputs if t.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        order.append(fn)
        stack.extend(nf for nf, _ in fn.next_functions if nf is not None)
    ops = [fn for fn in order if not fn.name().endswith("AccumulateGrad")]
    ops.sort(key=lambda fn: fn._sequence_nr())
    for k, fn in enumerate(ops):
        names[id(fn)] = f"{scope}/{fn.name()}_{k}"
    keep = []                       # (referents stay alive while names hold their ids)
    for fn in ops:
        ins = [name_of(nf) for nf, _ in fn.next_functions if nf is not None]
        keep.append(fn)
        nodes.append(_node(names[id(fn)], fn.name(), ins))
    for i, t in enumerate(outputs):
        if t.grad_fn is not None:
            src = [names[id(t.grad_fn)]]
        elif id(t) in names:
            src = [names[id(t)]]
        else:
            src = []
        nodes.append(_node(f"output/output.{i}", "IO Node", src, shape=t.shape,
                           attr=str(t.dtype)))
    graph_def = GraphDef(node=nodes, versions=VersionDef(producer=22))
    if verbose:
        print(graph_def)
    # the device is CPU (PyTorch writes the same empty step statistics)
    stepstats = RunMetadata(step_stats=StepStats(dev_stats=[DeviceStepStats(
        device="/device:CPU:0")]))
    return graph_def, stepstats
