# pytorch/examples vae/main.py on synthetic binary images
import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F

torch.manual_seed(1)
device = torch.device("cpu")


class VAE(nn.Module):
    def __init__(self):
        super(VAE, self).__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5*logvar)
        eps = torch.randn_like(std)
        return mu + eps*std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


model = VAE().to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


data = (torch.rand(80, 1, 8, 8) > 0.5).float()
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data), batch_size=20, shuffle=True)
for epoch in range(1, 4):
    model.train()
    train_loss = 0
    for batch_idx, (x,) in enumerate(loader):
        x = x.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(x)
        loss = loss_function(recon_batch, x, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / len(loader.dataset)))
    with torch.no_grad():
        sample = torch.randn(4, 4).to(device)
        sample = model.decode(sample).cpu()
        print(sample.view(4, 1, 8, 8).shape, sample.mean())
print(recon_batch.grad_fn, mu.requires_grad)
