"""``torch.optim.swap_in_optimizer_params_and_state``: run optimizer code against other
parameter tensors and another state_dict for the length of a ``with`` block."""
import contextlib
from collections import defaultdict

__all__ = ["swap_in_optimizer_params_and_state"]

_NAME = "swap_in_optimizer_params_and_state"


def _check_state(state):
    # the "state" of optimizer.state_dict(): packed int ids -> per-parameter dicts
    if not isinstance(state, dict):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be a dict "
                           f"mapping packed parameter ids to per-param state dicts, got "
                           f"{type(state).__name__}.")
    import autograd_core as _ag
    if any(isinstance(k, _ag.Tensor) for k in state):
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style state keyed by "
                           f"packed parameter ids.")
    if any(isinstance(k, int) and not isinstance(v, dict) for k, v in state.items()):
        raise RuntimeError(f"{_NAME} requires per-parameter optimizer state entries to be "
                           f"dictionaries.")
    return state


def _check_group(idx, group, swapin_group):
    """The packed ids of swapin_group, which must match the live group's keys and
    parameter count."""
    if not isinstance(swapin_group, dict):
        raise RuntimeError(f"{_NAME} requires each optimizer param group to be a dictionary.")
    ids = swapin_group.get("params")
    if not isinstance(ids, list) or not all(isinstance(pid, int) for pid in ids):
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style "
                           f"param_groups[*]['params'] entries keyed by packed parameter ids.")
    if len(group["params"]) != len(ids):
        raise RuntimeError(f"swapin_optim_state param group {idx} has a different number of "
                           f"params than the live optimizer param group.")
    swapin_only = [k for k in swapin_group if k not in group]
    live_only = [k for k in group if k not in swapin_group]
    if swapin_only or live_only:
        raise RuntimeError(f"{_NAME} requires optimizer.state_dict()-style param group keys to "
                           f"exactly match the live optimizer group keys for group {idx}. "
                           f"Keys only in swap-in: {swapin_only}. Keys only in live: "
                           f"{live_only}.")
    return ids


@contextlib.contextmanager
def swap_in_optimizer_params_and_state(optimizer, swapin_parameters, swapin_optim_state):
    """Inside the block, ``optimizer`` works on ``swapin_parameters`` (a dict of tensors
    in the order of the optimizer's parameters, e.g. ``model.named_parameters()``'s)
    with the hyperparameters and per-parameter state of ``swapin_optim_state`` (an
    ``optimizer.state_dict()``); on exit its own parameters, groups and state are back.
    The optimizer's state must exist already (after a first step).  Only in-place
    changes of the state's tensors reach ``swapin_optim_state``.

    >>> import autograd_core as torch
    >>> p = torch.nn.Parameter(torch.ones(2))
    >>> opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    >>> p.grad = torch.ones(2); opt.step()
    >>> q = torch.zeros(2); q.grad = torch.ones(2)
    >>> sd = opt.state_dict()
    >>> with torch.optim.swap_in_optimizer_params_and_state(opt, {"p": q}, sd):
    ...     opt.step()
    >>> q, p.data
    (tensor([-0.1900, -0.1900]), tensor([0.9000, 0.9000]))
    """
    if not optimizer.state:
        raise RuntimeError(f"{_NAME} requires initialized optimizer state.")
    if not isinstance(swapin_optim_state, dict):
        raise RuntimeError(f"{_NAME} requires a DCP-style optimizer state_dict.")
    state = _check_state(swapin_optim_state.get("state"))
    groups = swapin_optim_state.get("param_groups")
    if not isinstance(groups, list):
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['param_groups'] to be a list "
                           f"of param-group dicts, got {type(groups).__name__}.")
    if len(optimizer.param_groups) != len(groups):
        raise RuntimeError("swapin_optim_state has a different number of parameter groups "
                           "than the live optimizer.")
    # the given tensors, in order, take the places of the groups' parameters in order
    flat = list(swapin_parameters.values())
    offset, seen, plan = 0, set(), []
    for idx, (group, swapin_group) in enumerate(zip(optimizer.param_groups, groups)):
        ids = _check_group(idx, group, swapin_group)
        seen.update(ids)
        if offset + len(ids) > len(flat):
            raise RuntimeError(f"{_NAME} requires the explicit parameter state to match "
                               f"optimizer.param_groups ordering.")
        plan.append((group, swapin_group, flat[offset:offset + len(ids)]))
        offset += len(ids)
    extra_keys = [k for k in state if k not in seen]
    if extra_keys:
        raise RuntimeError(f"{_NAME} requires swapin_optim_state['state'] to be keyed only by "
                           f"packed parameter ids from param_groups[*]['params']; got extra "
                           f"keys {extra_keys!r}.")

    original_state = optimizer.state
    # shallow copies: the exit restores each group dict in place, keeping the identity of
    # its original params list
    snapshots = [dict(g) for g in optimizer.param_groups]
    try:
        swapped = defaultdict(dict)
        for group, swapin_group, params in plan:
            group["params"] = params
            for key, value in swapin_group.items():
                if key != "params":
                    group[key] = value
            for param, pid in zip(params, swapin_group["params"]):
                # a new dict per parameter: its tensors are shared (in-place updates reach
                # the caller's state_dict), new entries are not
                swapped[param] = dict(state.get(pid, {}))
        optimizer.state = swapped
        yield
    finally:
        for group, snapshot in zip(optimizer.param_groups, snapshots):
            group.clear()
            group.update(snapshot)
        optimizer.state = original_state
