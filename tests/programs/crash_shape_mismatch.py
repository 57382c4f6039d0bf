# a beginner's script that dies: the flattened size does not match the Linear layer
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 28 * 28, 10))
x = torch.randn(2, 1, 28, 28)
print(model(torch.randn(2, 1, 30, 30)).shape)
print(model(x).shape)
