# WGAN-GP: the gradient penalty needs autograd.grad with create_graph=True (double backward
# through Linear/LeakyReLU/LayerNorm), RMSprop/Adam, weight clipping for the original WGAN
import torch
import torch.nn as nn
import torch.autograd as autograd

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.LayerNorm(16), nn.Linear(16, 1))
opt_G = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_D = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))


def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1)
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1, requires_grad=False)
    gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake,
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    gradients = gradients.view(gradients.size(0), -1)
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


for i in range(6):
    real = torch.randn(8, 2) * 0.5 + torch.tensor([2.0, -1.0])
    z = torch.randn(8, 4)
    fake = G(z)
    opt_D.zero_grad()
    gp = compute_gradient_penalty(D, real, fake.detach())
    d_loss = -torch.mean(D(real)) + torch.mean(D(fake.detach())) + 10 * gp
    d_loss.backward()
    opt_D.step()
    if i % 2 == 0:
        opt_G.zero_grad()
        g_loss = -torch.mean(D(G(z)))
        g_loss.backward()
        opt_G.step()
        print(f"[{i}] D loss: {d_loss.item():.5f} GP: {gp.item():.5f} G loss: {g_loss.item():.5f}")
print(D[0].weight.grad)
critic = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
opt_c = torch.optim.RMSprop(critic.parameters(), lr=5e-3)
for i in range(3):
    opt_c.zero_grad()
    loss = -critic(torch.randn(4, 2)).mean() + critic(torch.randn(4, 2) + 1).mean()
    loss.backward()
    opt_c.step()
    for p in critic.parameters():
        p.data.clamp_(-0.01, 0.01)
    print(i, loss.item(), critic[0].weight.abs().max().item())
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
h = torch.autograd.grad(g.sum(), x)[0]
print(g, h)
