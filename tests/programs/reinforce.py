# pytorch/examples reinforcement_learning/reinforce.py with a tiny deterministic environment
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical

torch.manual_seed(543)
gamma = 0.99


class Env:
    """A 1-d corridor: move left/right, reward at the right end."""
    def reset(self):
        self.pos = 0
        return np.array([0.0, 0.0, 1.0, 0.0], dtype=np.float32)

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        done = abs(self.pos) >= 3
        reward = 1.0 if self.pos >= 3 else 0.1
        s = np.array([self.pos / 3.0, float(action), 1.0, -self.pos / 3.0], dtype=np.float32)
        return s, reward, done, {}


class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 32)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(32, 2)
        self.saved_log_probs = []
        self.rewards = []

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, dim=1)


policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = np.finfo(np.float32).eps.item()


def select_action(state):
    state = torch.from_numpy(state).float().unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss.item()


env = Env()
running_reward = 10
for i_episode in range(1, 16):
    state, ep_reward = env.reset(), 0
    for t in range(1, 20):
        action = select_action(state)
        state, reward, done, _ = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
    loss = finish_episode()
    print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}\tsteps {}\tloss {:.4f}'.format(
        i_episode, ep_reward, running_reward, t, loss))
m = Categorical(torch.tensor([0.25, 0.25, 0.5]))
print(m, m.probs, m.logits, m.entropy(), m.sample((4,)))
