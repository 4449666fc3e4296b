"""train_tiny.py: a small deterministic PyTorch training loop (SGD with
momentum, three steps) and an evaluation forward; prints its losses and a
weight checksum. The traced and untraced runs must print the same."""
import torch
from torch import nn

torch.manual_seed(1234)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
criterion = nn.CrossEntropyLoss()
inputs = torch.randn(8, 6)
targets = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
for step in range(3):
    optimizer.zero_grad()
    loss = criterion(model(inputs), targets)
    loss.backward()
    optimizer.step()
    print("step %d loss %.6f" % (step, loss.item()))
with torch.no_grad():
    print("eval %.6f" % model(inputs).sum().item())
print("checksum %.6f" % sum(p.sum().item() for p in model.parameters()))
