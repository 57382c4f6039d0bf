# torch.func used wrongly: the errors PyTorch raises (caught and printed)
import torch
from torch.func import grad, vmap, jacrev, jacfwd, hessian, vjp, jvp, functional_call

torch.manual_seed(0)


def show(f):
    try:
        r = f()
        print("ok", r if not isinstance(r, torch.Tensor) else tuple(r.shape))
    except Exception as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0][:160])


x = torch.randn(3)
show(lambda: grad(lambda t: t)(x))
show(lambda: grad(lambda t: (t.sum(), 1))(x))
show(lambda: grad(lambda t: t.sum(), argnums=1)(x))
show(lambda: grad(lambda t: t.sum(), argnums=(0, 0))(x))
show(lambda: grad(lambda t: (t.sum(), t), has_aux=True)(x))
show(lambda: grad(lambda t: [t.sum()], has_aux=True)(x))
show(lambda: vmap(torch.sum, in_dims=(0, 1))(x))
show(lambda: vmap(torch.sum, in_dims="a")(x))
show(lambda: vmap(lambda a, b: a + b)(torch.ones(2), torch.ones(3)))
show(lambda: vmap(torch.sum)(torch.tensor(1.0)))
show(lambda: vmap(lambda t: t, out_dims=2)(x))
show(lambda: vmap(lambda t: 1.0)(x))
show(lambda: vmap(torch.sum, randomness="bogus")(x))
show(lambda: vmap(lambda t: t.sum().item())(torch.ones(2, 2)))
show(lambda: vmap(lambda t: t.add_(torch.ones(3)))(torch.ones(3)) if False else vmap(lambda t: torch.ones(3).add_(t))(torch.ones(2, 3)))
show(lambda: jacrev(lambda t: t.sum(), argnums=2)(x))
show(lambda: jacrev(lambda t: t.long())(x))
show(lambda: jacfwd(lambda t: t * 2)(torch.tensor([1, 2])))
show(lambda: hessian(lambda t: (t ** 3).sum())(x))
show(lambda: vjp(lambda t: t * 2, x)[1](torch.ones(4)))
show(lambda: jvp(lambda t: t * 2, (x,), (torch.ones(4),)))
show(lambda: jvp(lambda t: t * 2, x, (torch.ones(3),)))
show(lambda: jvp(lambda t: t * 2, (x,), (torch.ones(3, dtype=torch.float64),)))
show(lambda: functional_call(torch.nn.Linear(2, 2), {"weight": torch.ones(2, 2)}, torch.ones(1, 2)))
show(lambda: functional_call(torch.nn.Linear(2, 2), ({"weight": torch.ones(2, 2)}, {"weight": torch.ones(2, 2)}), torch.ones(1, 2)))
show(lambda: grad(lambda t: t.sum())(torch.tensor([1, 2])))
show(lambda: vmap(lambda t: t.view(-1))(torch.ones(2, 3).t()))
show(lambda: vmap(torch.mm)(torch.ones(2, 3, 4), torch.ones(2, 5, 6)))
