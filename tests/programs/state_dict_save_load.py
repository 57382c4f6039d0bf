# PyTorch tutorial "Saving and Loading Models"
import io
import os
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])
x = torch.randn(2, 3, 32, 32)
loss = model(x).sum()
loss.backward()
optimizer.step()
PATH = "model.pt"
torch.save(model.state_dict(), PATH)
model2 = TheModelClass()
print(model2.load_state_dict(torch.load(PATH, weights_only=True)))
model2.eval()
print(torch.equal(model(x), model2(x)))
torch.save({
    'epoch': 5,
    'model_state_dict': model.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss,
}, "ckpt.tar")
checkpoint = torch.load("ckpt.tar", weights_only=True)
model3 = TheModelClass()
opt3 = optim.SGD(model3.parameters(), lr=0.5)
model3.load_state_dict(checkpoint['model_state_dict'])
opt3.load_state_dict(checkpoint['optimizer_state_dict'])
print(checkpoint['epoch'], checkpoint['loss'], opt3.param_groups[0]['lr'])
print(opt3.state_dict()['state'][0]['momentum_buffer'].shape)
buf = io.BytesIO()
torch.save([torch.arange(5), {'a': torch.ones(2, dtype=torch.float64)}], buf)
buf.seek(0)
print(torch.load(buf))
sd = model.state_dict()
sd.pop('fc3.bias')
sd['extra.weight'] = torch.zeros(1)
res = model3.load_state_dict(sd, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
try:
    model3.load_state_dict(sd)
except RuntimeError as e:
    print(e)
bad = {k: v for k, v in model.state_dict().items()}
bad['fc1.weight'] = torch.zeros(3, 3)
try:
    model3.load_state_dict(bad)
except RuntimeError as e:
    print(e)
torch.save(model, "whole.pt")
print(type(torch.load("whole.pt", weights_only=False)).__name__)
print(sorted(os.listdir('.')))
