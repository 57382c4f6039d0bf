# backward through a freed graph: the classic RNN-state mistake, uncaught
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNNCell(3, 4)
h = torch.zeros(1, 4)
opt = torch.optim.SGD(rnn.parameters(), lr=0.1)
for step in range(3):
    h = rnn(torch.randn(1, 3), h)
    loss = h.pow(2).sum()
    opt.zero_grad()
    print(step, round(loss.item(), 6))
    loss.backward()
    opt.step()
