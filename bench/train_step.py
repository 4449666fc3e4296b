#!/usr/bin/env python3
"""train_step.py: training steps per second of two models on this machine's
GPU, for bench/gpu_cost.py (make bench-gpu), which runs it bare, under
`dnntrace record` and with --profiler. Needs PyTorch with CUDA; never part
of make test (no GPU there).

  train_step.py [--profiler] [--steps LAUNCH_WARMUP:LAUNCH_N,GPU_WARMUP:GPU_N]
                [--gpu-batch N]

launch_bound: an MLP (8 Linear 512x512 + ReLU, batch 16, Adam): each step
  is about a hundred small kernels, so the step time is the host's launch
  time, which a tracer adds to.
gpu_bound: torchvision's ResNet-18 (batch --gpu-batch, default 256, 3x224x224,
  SGD; at batch 32 an H200 was host-bound: 9 ms a step, and --gpu-records=off
  alone cost x1.7) where
  torchvision imports, else a GPT-2-small-like block written in plain torch
  (2 layers, d_model 768, 12 heads, sequence 256, batch 8, AdamW): the GPU
  is busy the whole step.
Each model: WARMUP steps, a synchronize, N timed steps, a synchronize.
--profiler: the whole run (warm-up included, as CUPTI starts with the
process under dnntrace) inside torch.profiler.profile with CPU and CUDA
activities, as users run it; the profiler's own processing when the
context ends is not timed (as dnntrace's trace is written by LTTng outside
the process). Prints one JSON line:
  {"launch_bound": {"model", "s_per_step", "steps"}, "gpu_bound": {...},
   "torch": VERSION}
Fixed seeds; the data is random tensors made once on the GPU. Must never
write anything but that line to stdout.
"""
import argparse
import contextlib
import json
import sys
import time


def parse_steps(text):
    try:
        (lw, ln), (gw, gn) = (tuple(int(x) for x in part.split(":")) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"want LW:LN,GW:GN (integers), not {text!r}")
    if min(lw, gw) < 0 or min(ln, gn) <= 0:
        raise argparse.ArgumentTypeError(f"warm-up >= 0 and steps > 0, not {text!r}")
    return (lw, ln), (gw, gn)


def mlp(torch):
    layers = []
    for _ in range(8):
        layers += [torch.nn.Linear(512, 512), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers).cuda()
    x = torch.randn(16, 512, device="cuda")
    y = torch.randn(16, 512, device="cuda")
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    loss_fn = torch.nn.MSELoss()
    return "MLP 8x512, batch 16, Adam", model, opt, lambda out: loss_fn(out, y), x


def resnet18(torch, torchvision, batch):
    model = torchvision.models.resnet18(num_classes=1000).cuda()
    x = torch.randn(batch, 3, 224, 224, device="cuda")
    y = torch.randint(0, 1000, (batch,), device="cuda")
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    return f"ResNet-18, batch {batch}, 224x224, SGD", model, opt, lambda out: loss_fn(out, y), x


def gpt2_block(torch):
    layer = torch.nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072,
                                             batch_first=True, norm_first=True)
    model = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).cuda()
    x = torch.randn(8, 256, 768, device="cuda")
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    return ("GPT-2-small-like block x2 (768, 12 heads, seq 256), batch 8, AdamW "
            "(no torchvision)"), model, opt, lambda out: out.float().pow(2).mean(), x


def time_steps(torch, built, warmup, steps):
    name, model, opt, loss_of, x = built

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_of(model(x))
        loss.backward()
        opt.step()

    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    torch.cuda.synchronize()
    return {"model": name, "s_per_step": (time.perf_counter() - start) / steps, "steps": steps}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiler", action="store_true")
    parser.add_argument("--steps", type=parse_steps, default=parse_steps("50:400,10:40"))
    parser.add_argument("--gpu-batch", type=int, default=256)
    args = parser.parse_args()
    try:
        import torch
    except ImportError as e:
        sys.exit(f"train_step: no PyTorch ({e})")
    if not torch.cuda.is_available():
        sys.exit(f"train_step: torch {torch.__version__} sees no CUDA device")
    torch.manual_seed(0)
    (lw, ln), (gw, gn) = args.steps
    profiler = contextlib.nullcontext()
    if args.profiler:
        from torch.profiler import ProfilerActivity, profile
        profiler = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])
    result = {"torch": torch.__version__}
    with profiler:
        result["launch_bound"] = time_steps(torch, mlp(torch), lw, ln)
        try:
            import torchvision
            gpu_model = resnet18(torch, torchvision, args.gpu_batch)
        except ImportError:
            gpu_model = gpt2_block(torch)
        result["gpu_bound"] = time_steps(torch, gpu_model, gw, gn)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
