# pytorch/examples siamese_network/main.py (a smaller backbone)
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import Dataset, DataLoader
from torch.optim.lr_scheduler import StepLR


class SiameseNetwork(nn.Module):
    def __init__(self):
        super(SiameseNetwork, self).__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(inplace=True), nn.MaxPool2d(2),
                                 nn.Conv2d(4, 8, 3), nn.ReLU(inplace=True),
                                 nn.AdaptiveAvgPool2d((2, 2)))
        self.fc_in_features = 8 * 4
        self.fc = nn.Sequential(
            nn.Linear(self.fc_in_features * 2, 16),
            nn.ReLU(inplace=True),
            nn.Linear(16, 1),
        )
        self.sigmoid = nn.Sigmoid()
        self.cnn.apply(self.init_weights)
        self.fc.apply(self.init_weights)

    def init_weights(self, m):
        if isinstance(m, nn.Linear):
            torch.nn.init.xavier_uniform_(m.weight)
            m.bias.data.fill_(0.01)

    def forward_once(self, x):
        output = self.cnn(x)
        output = output.view(output.size()[0], -1)
        return output

    def forward(self, input1, input2):
        output1 = self.forward_once(input1)
        output2 = self.forward_once(input2)
        output = torch.cat((output1, output2), 1)
        output = self.fc(output)
        output = self.sigmoid(output)
        return output


class PairDataset(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(7)
        self.images = torch.rand(n, 1, 12, 12, generator=g)
        self.classes = torch.randint(0, 3, (n,), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        other = (index * 7 + 3) % len(self.images)
        target = torch.tensor(float(self.classes[index] == self.classes[other]))
        return self.images[index], self.images[other], target


torch.manual_seed(1)
model = SiameseNetwork()
optimizer = optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
loader = DataLoader(PairDataset(24), batch_size=8, shuffle=True)
criterion = nn.BCELoss()
for epoch in range(1, 4):
    model.train()
    for batch_idx, (images_1, images_2, targets) in enumerate(loader):
        optimizer.zero_grad()
        outputs = model(images_1, images_2).squeeze()
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        print('Train Epoch: {} [{}/{}]\tLoss: {:.6f}'.format(
            epoch, batch_idx * len(images_1), len(loader.dataset), loss.item()))
    scheduler.step()
model.eval()
with torch.no_grad():
    a, b, t = next(iter(DataLoader(PairDataset(8), batch_size=8)))
    out = model(a, b).squeeze()
    pred = torch.where(out > 0.5, 1, 0)
    print(pred, t, pred.eq(t.view_as(pred)).sum().item())
