# "Deep Learning with PyTorch" ch. 5/6: the thermometer model, by hand, with optim, then nn
import torch
import torch.nn as nn
import torch.optim as optim
from collections import OrderedDict

t_c = [0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0]
t_u = [35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]
t_c = torch.tensor(t_c)
t_u = torch.tensor(t_u)


def model(t_u, w, b):
    return w * t_u + b


def loss_fn(t_p, t_c):
    squared_diffs = (t_p - t_c)**2
    return squared_diffs.mean()


def training_loop(n_epochs, learning_rate, params, t_u, t_c):
    for epoch in range(1, n_epochs + 1):
        if params.grad is not None:
            params.grad.zero_()
        t_p = model(t_u, *params)
        loss = loss_fn(t_p, t_c)
        loss.backward()
        with torch.no_grad():
            params -= learning_rate * params.grad
        if epoch % 500 == 0:
            print('Epoch %d, Loss %f' % (epoch, float(loss)))
    return params


t_un = 0.1 * t_u
print(training_loop(n_epochs=2000, learning_rate=1e-2,
                    params=torch.tensor([1.0, 0.0], requires_grad=True), t_u=t_un, t_c=t_c))
print(dir(optim)[:5])
params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = optim.Adam(params=[params], lr=1e-1)
for epoch in range(1, 2001):
    t_p = model(t_u, *params)
    loss = loss_fn(t_p, t_c)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 500 == 0:
        print('Epoch %d, Loss %f' % (epoch, float(loss)))
print(params)
n_samples = t_u.shape[0]
n_val = int(0.2 * n_samples)
torch.manual_seed(123)
shuffled_indices = torch.randperm(n_samples)
train_indices = shuffled_indices[:-n_val]
val_indices = shuffled_indices[-n_val:]
print(train_indices, val_indices)
t_c = t_c.unsqueeze(1)
t_u = t_u.unsqueeze(1)
t_un = 0.1 * t_u
seq_model = nn.Sequential(OrderedDict([
    ('hidden_linear', nn.Linear(1, 8)),
    ('hidden_activation', nn.Tanh()),
    ('output_linear', nn.Linear(8, 1))
]))
print(seq_model)
print([param.shape for param in seq_model.parameters()])
for name, param in seq_model.named_parameters():
    print(name, param.shape)
print(seq_model.output_linear.bias)
optimizer = optim.SGD(seq_model.parameters(), lr=1e-3)
# (3000 epochs as in the book turn chaotic after ~900 at this lr: rounding differences
# between any two builds grow without bound, so the run stops at 600)
for epoch in range(1, 601):
    t_p_train = seq_model(t_un[train_indices])
    loss_train = nn.MSELoss()(t_p_train, t_c[train_indices])
    with torch.no_grad():
        t_p_val = seq_model(t_un[val_indices])
        loss_val = nn.MSELoss()(t_p_val, t_c[val_indices])
        assert loss_val.requires_grad == False
    optimizer.zero_grad()
    loss_train.backward()
    optimizer.step()
    if epoch == 1 or epoch % 200 == 0:
        print(f"Epoch {epoch}, Training loss {loss_train.item():.4f},"
              f" Validation loss {loss_val.item():.4f}")
print('output', seq_model(t_un[val_indices]))
print('answer', t_c[val_indices])
print('hidden', seq_model.hidden_linear.weight.grad)
