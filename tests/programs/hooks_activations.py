# forward hooks to capture activations, tensor/module backward hooks for gradients
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3), nn.Softmax(dim=1))
activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()
    return hook


handles = [model[0].register_forward_hook(get_activation('fc1')),
           model[2].register_forward_hook(get_activation('fc2'))]
x = torch.randn(2, 4)
out = model(x)
print(activation['fc1'])
print(activation['fc2'])
for h in handles:
    h.remove()
print(len(model[0]._forward_hooks))

grads = {}


def save_grad(name):
    def hook(grad):
        grads[name] = grad
    return hook


x = torch.randn(3, 4, requires_grad=True)
h = model[0](x)
h.register_hook(save_grad('h'))
y = model[2](torch.relu(h)).sum()
y.backward()
print(grads['h'])
print(x.grad)


def backward_hook(module, grad_input, grad_output):
    print('backward', module.__class__.__name__, [None if g is None else tuple(g.shape) for g in grad_input],
          [tuple(g.shape) for g in grad_output])


def pre_hook(module, args):
    print('pre', module, [a.shape for a in args])
    return (args[0] * 2,)


lin = nn.Linear(4, 2)
hb = lin.register_full_backward_hook(backward_hook)
hp = lin.register_forward_pre_hook(pre_hook)
out = lin(torch.ones(1, 4, requires_grad=True))
out.sum().backward()
print(out)
hb.remove(); hp.remove()


def double_grad(grad):
    return grad * 2


p = nn.Parameter(torch.tensor([1., 2.]))
p.register_hook(double_grad)
(p * p).sum().backward()
print(p.grad)
layer_outputs = []
net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 2))
for name, m in net.named_modules():
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        m.register_forward_hook(lambda mod, inp, out, name=name: layer_outputs.append((name, tuple(out.shape))))
net(torch.randn(1, 1, 4, 4))
print(layer_outputs)
print([n for n, _ in net.named_parameters()])
