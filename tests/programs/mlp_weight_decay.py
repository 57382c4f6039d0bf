# d2l.ai 4.2 / 4.5: MLP from scratch, weight decay from scratch and via optimizer param groups
import torch
from torch import nn

torch.manual_seed(42)
n_train, n_test, num_inputs, batch_size = 20, 50, 40, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
X = torch.randn(n_train + n_test, num_inputs)
y = X @ true_w + true_b + torch.normal(0, 0.01, (n_train + n_test, 1))
train_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[:n_train], y[:n_train]), batch_size, shuffle=True)


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


print(relu(torch.tensor([-1.0, 0.5, 2.0])))


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w, b = init_params()
    net, loss = lambda X: torch.matmul(X, w) + b, lambda y_hat, y: (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
    num_epochs, lr = 20, 0.003
    for epoch in range(num_epochs):
        for Xb, yb in train_iter:
            l = loss(net(Xb), yb) + lambd * l2_penalty(w)
            l.sum().backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= lr * param.grad / batch_size
                    param.grad.zero_()
    print('w的L2范数是：', torch.norm(w).item())


train(lambd=0)
train(lambd=3)


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction='none')
    num_epochs, lr = 20, 0.003
    trainer = torch.optim.SGD([
        {"params": net[0].weight, 'weight_decay': wd},
        {"params": net[0].bias}], lr=lr)
    for epoch in range(num_epochs):
        for Xb, yb in train_iter:
            trainer.zero_grad()
            l = loss(net(Xb), yb)
            l.mean().backward()
            trainer.step()
        if (epoch + 1) % 5 == 0:
            print(epoch + 1, loss(net(X[n_train:]), y[n_train:]).mean().item())
    print('w的L2范数：', net[0].weight.norm().item())
    print(trainer)


train_concise(0)
train_concise(3)

# the MLP with dropout, d2l 4.6
dropout1, dropout2 = 0.2, 0.5
net = nn.Sequential(nn.Flatten(), nn.Linear(num_inputs, 32), nn.ReLU(), nn.Dropout(dropout1),
                    nn.Linear(32, 16), nn.ReLU(), nn.Dropout(dropout2), nn.Linear(16, 1))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)
print(net(X[:3]))
net.eval()
print(net(X[:3]))
