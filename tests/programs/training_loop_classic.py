# the PyTorch "Optimizing Model Parameters" tutorial loop (train_loop / test_loop)
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(42)
X = torch.rand(200, 1, 6, 6)
y = (X.mean(dim=(1, 2, 3)) * 10).long().clamp(0, 9)
training_data = TensorDataset(X[:150], y[:150])
test_data = TensorDataset(X[150:], y[150:])


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(36, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))

    def forward(self, x):
        x = self.flatten(x)
        return self.linear_relu_stack(x)


model = NeuralNetwork()
learning_rate = 1e-2
batch_size = 32
epochs = 4
train_dataloader = DataLoader(training_data, batch_size=batch_size, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=batch_size)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate, momentum=0.9, nesterov=True)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
for opt_cls, kw in [(torch.optim.Adam, dict(lr=1e-2, amsgrad=True)), (torch.optim.AdamW, dict(lr=1e-2)),
                    (torch.optim.RMSprop, dict(lr=1e-3, momentum=0.5)), (torch.optim.Adagrad, dict(lr=0.1)),
                    (torch.optim.NAdam, dict()), (torch.optim.RAdam, dict())]:
    torch.manual_seed(0)
    m = NeuralNetwork()
    opt = opt_cls(m.parameters(), **kw)
    for X_, y_ in DataLoader(training_data, batch_size=50):
        opt.zero_grad()
        l = loss_fn(m(X_), y_)
        l.backward()
        opt.step()
    print(opt_cls.__name__, round(l.item(), 5))
print(opt)
