# train_small.py: a tiny deterministic CNN training run (conv-bn-relu x2,
# max pool, linear, Adam, batch 8, 3 steps) for the real-GPU check
# (run_gpu_check.sh), which runs it untraced and under `dnntrace record
# --torch-names`. Unmodified user code: it knows nothing of dnntrace and must
# never import or call it. Lines starting "step " (each step's loss, exactly,
# and a final parameter checksum) and "model " (what the model is: its
# parameters, buffers and modules with their bytes, the step count, for
# check_torch_report.py) must be identical traced and untraced; "info: "
# lines are informational.
#
#   python3 train_small.py        exits 3 without a CUDA device
import os
import sys
import time

os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
t_import = time.time()
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

STEPS = 3
t_imported = time.time()
torch.manual_seed(0)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
if not torch.cuda.is_available():
    print("info: no CUDA device", flush=True)
    sys.exit(3)
dev = "cuda"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32 * 16 * 16, 10)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.max_pool2d(x, 2)
        return self.fc(torch.flatten(x, 1))


g = torch.Generator().manual_seed(1)
x_cpu = torch.randn(8, 3, 32, 32, generator=g)
y_cpu = torch.randint(0, 10, (8,), generator=g)
model = Net().to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for name, p in model.named_parameters():
    print(f"model param {name} {p.numel() * p.element_size()}", flush=True)
for name, b in model.named_buffers():
    print(f"model buffer {name} {b.numel() * b.element_size()}", flush=True)
for name, m in model.named_modules():
    if name and not list(m.children()):
        print(f"model module {name}", flush=True)
print(f"model steps {STEPS}", flush=True)
x, y = x_cpu.to(dev), y_cpu.to(dev)
t0 = time.time()
for step in range(STEPS):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    v = loss.item()
    print(f"step {step} loss {v!r} {v.hex()}", flush=True)
torch.cuda.synchronize()
t1 = time.time()
checksum = sum(float(p.detach().double().sum()) for p in model.parameters())
print(f"step final param checksum {checksum!r}", flush=True)
print(f"info: device {torch.cuda.get_device_name(0)}; torch {torch.__version__} "
      f"cuda {torch.version.cuda} cudnn {torch.backends.cudnn.version()}", flush=True)
try:
    backend = torch.cuda.memory.get_allocator_backend()
except Exception as e:  # older torch
    backend = f"? ({e})"
print(f"info: allocator backend {backend}; max_memory_allocated "
      f"{torch.cuda.max_memory_allocated()}", flush=True)
print(f"info: import {t_imported - t_import:.2f}s, {STEPS} steps {t1 - t0:.3f}s", flush=True)
