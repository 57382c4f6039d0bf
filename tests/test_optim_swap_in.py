"""optim.swap_in_optimizer_params_and_state against PyTorch: the step inside the block
acts on the swapped-in tensors and state, the optimizer is restored on exit, and bad
state_dicts raise PyTorch's errors."""
import copy

import pytest

from _diff import data, same, same_error


def _setup(mod, kind="Adam"):
    model = mod.nn.Sequential(mod.nn.Linear(3, 2), mod.nn.Linear(2, 1))
    with mod.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(data(mod, *p.shape, seed=i, dtype="float32"))
    groups = [{"params": model[0].parameters()},
              {"params": model[1].parameters(), "lr": 0.05}]
    opt = getattr(mod.optim, kind)(groups, lr=0.1, **({"momentum": 0.9} if kind == "SGD"
                                                       else {}))
    x = data(mod, 4, 3, seed=9, dtype="float32")
    model(x).pow(2).sum().backward()
    opt.step()
    return model, opt, x


@pytest.mark.parametrize("kind", ["Adam", "SGD"])
def test_swap_in_step(kind):
    def prog(mod):
        model, opt, x = _setup(mod, kind)
        live_before = [p.detach().clone() for p in model.parameters()]
        params_list = opt.param_groups[0]["params"]
        swap = {n: p.detach().clone().requires_grad_() for n, p in model.named_parameters()}
        for s, p in zip(swap.values(), model.parameters()):
            s.grad = p.grad * 2
        sd = copy.deepcopy(opt.state_dict())
        sd["param_groups"][1]["lr"] = 0.5
        with mod.optim.swap_in_optimizer_params_and_state(opt, swap, sd):
            inside = ([g["lr"] for g in opt.param_groups],
                      opt.param_groups[0]["params"][0] is swap["0.weight"])
            opt.step()
        return (list(swap.values()), sd["state"], inside,
                [g["lr"] for g in opt.param_groups],
                opt.param_groups[0]["params"] is params_list,
                [(a - b).abs().max() for a, b in zip(model.parameters(), live_before)],
                opt.state_dict()["state"])
    same(prog)


def _call(mod, opt, swap, sd):
    with mod.optim.swap_in_optimizer_params_and_state(opt, swap, sd):
        pass


@pytest.mark.parametrize("case", ["fresh", "not_dict", "state_not_dict", "tensor_keys",
                                  "entry_not_dict", "groups_not_list", "group_count",
                                  "group_not_dict", "ids", "param_count", "keys",
                                  "too_few", "extra_state"])
def test_swap_in_errors(case):
    def prog(mod):
        model, opt, _ = _setup(mod)
        swap = dict(model.named_parameters())
        sd = copy.deepcopy(opt.state_dict())
        if case == "fresh":
            opt = mod.optim.Adam(model.parameters())
        elif case == "not_dict":
            sd = [1]
        elif case == "state_not_dict":
            sd["state"] = [1]
        elif case == "tensor_keys":
            sd["state"] = {mod.zeros(1): {}}
        elif case == "entry_not_dict":
            sd["state"][0] = 3
        elif case == "groups_not_list":
            sd["param_groups"] = tuple(sd["param_groups"])
        elif case == "group_count":
            sd["param_groups"] = sd["param_groups"][:1]
        elif case == "group_not_dict":
            sd["param_groups"][1] = 5
        elif case == "ids":
            sd["param_groups"][0]["params"] = ["a", "b"]
        elif case == "param_count":
            sd["param_groups"][0]["params"] = [0]
        elif case == "keys":
            sd["param_groups"][0]["new"] = 1
            del sd["param_groups"][0]["lr"]
        elif case == "too_few":
            swap = dict(list(swap.items())[:3])
        elif case == "extra_state":
            sd["state"][17] = {}
        _call(mod, opt, swap, sd)
    same_error(prog)
