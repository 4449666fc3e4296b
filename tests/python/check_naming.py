"""check_naming.py LOG: run by test_torch_naming.sh in a python3 that has
fake_dnntrace.so preloaded (logging to LOG) and dnntrace_torch's shim on
PYTHONPATH, exactly as `dnntrace record --torch-names` sets it up.

Ground truth is built by construction, independently of the helper: this
script keeps every module output (its own forward hooks), every parameter,
buffer, gradient and optimizer state tensor, and knows from the model's
design which outputs are fresh tensors. Each training step, the (pointer,
name) pairs that reached dnntrace_tag must be exactly those, inside exactly
one NVTX range "train_step". Must never pass when a name or pointer is wrong.
"""
import sys

import torch
from torch import nn

import dnntrace_torch

LOG = sys.argv[1]
_log_offset = 0


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def new_log_lines():
    global _log_offset
    with open(LOG) as log:
        log.seek(_log_offset)
        text = log.read()
        _log_offset = log.tell()
    return text.splitlines()


def split_log(lines):
    """(set of (pointer, name) tags, list of range lines)."""
    tags, ranges = [], []
    for line in lines:
        kind, _, rest = line.partition(" ")
        if kind == "tag":
            pointer, _, name = rest.partition(" ")
            tags.append((int(pointer), name))
        elif kind in ("start", "end"):
            ranges.append(line)
        elif kind != "init":
            fail("unexpected log line %r" % line)
    return tags, ranges


def by_category(tags, prefix):
    return {tag for tag in tags if tag[1].startswith(prefix)}


def expect_equal(what, got, expected):
    if got != expected:
        fail("%s: missing %s, unexpected %s" % (what, sorted(expected - got, key=str),
                                              sorted(got - expected, key=str)))


class Net(nn.Module):
    """Fresh outputs: features.0, features.1, features.3, features.4, head.
    Not fresh: flatten (a view of the input batch, a new tensor object
    sharing its storage), features.2 (in-place ReLU returns its input),
    features (its last child's output), the root (head's output)."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(inplace=True),
                                      nn.Linear(16, 16), nn.Tanh())
        self.flatten = nn.Flatten()
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.features(self.flatten(x)))


FRESH_OUTPUTS = ("features.0", "features.1", "features.3", "features.4", "head")

# --- the shim activated naming when torch was imported -------------------
if dnntrace_torch.active_namer() is None:
    fail("importing torch under the shim with dnntrace_tag present did not activate naming")
if type(torch.__spec__.loader).__module__ != "_frozen_importlib_external" or \
        torch.__loader__ is not torch.__spec__.loader:
    fail("torch's loader is not its own after activation: %r" % (torch.__spec__.loader,))
split_log(new_log_lines())  # the injection's init line

torch.manual_seed(0)
model = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

outputs = {}  # the test's own record of every module output of the last forward


def keep_output(path):
    def hook(module, inputs, output):
        outputs[path] = output
    return hook


for path, module in model.named_modules():
    module.register_forward_hook(keep_output(path))
criterion.register_forward_hook(keep_output("<loss>"))

for step in range(3):
    x = torch.randn(5, 2, 4)
    target = torch.tensor([0, 1, 2, 3, 0])
    optimizer.zero_grad(set_to_none=True)
    loss = criterion(model(x), target)
    loss.backward()
    optimizer.step()

    tags, ranges = split_log(new_log_lines())
    what = "step %d" % step
    tag_set = set(tags)
    parameters = dict(model.named_parameters())
    expect_equal(what + " parameters", by_category(tag_set, "param:"),
                 {(p.data_ptr(), "param:" + n) for n, p in parameters.items()})
    expect_equal(what + " buffers", by_category(tag_set, "buffer:"),
                 {(b.data_ptr(), "buffer:" + n) for n, b in model.named_buffers()})
    expect_equal(what + " gradients", by_category(tag_set, "grad:"),
                 {(p.grad.data_ptr(), "grad:" + n) for n, p in parameters.items()})
    expected_state = set()
    for n, p in parameters.items():
        for key, value in optimizer.state[p].items():
            if torch.is_tensor(value):
                expected_state.add((value.data_ptr(), "optim:%s.%s" % (n, key)))
    if len(expected_state) != 3 * len(parameters):  # Adam: step, exp_avg, exp_avg_sq
        fail("%s: Adam state has %d tensors, expected %d" % (what, len(expected_state), 3 * len(parameters)))
    expect_equal(what + " optimizer state", by_category(tag_set, "optim:"), expected_state)
    expected_acts = {(outputs[p].data_ptr(), "act:" + p) for p in FRESH_OUTPUTS}
    expected_acts.add((outputs["<loss>"].data_ptr(), "act:CrossEntropyLoss"))
    expect_equal(what + " activations", by_category(tag_set, "act:"), expected_acts)
    unknown = {t for t in tag_set if not t[1].startswith(("param:", "buffer:", "grad:", "optim:", "act:"))}
    if unknown:
        fail("%s: unexpected names %s" % (what, sorted(unknown)))
    # Each activation named once; the step's NVTX range wraps all of it.
    if sum(1 for t in tags if t[1].startswith("act:")) != len(expected_acts):
        fail("%s: an activation was named twice: %s" % (what, [t for t in tags if t[1].startswith("act:")]))
    if len(ranges) != 2 or not ranges[0].endswith(" train_step") or \
            ranges[1] != "end " + ranges[0].split()[1]:
        fail("%s: expected one train_step range start/end, got %s" % (what, ranges))

# --- an evaluation forward: named, but no training step is opened --------
model.eval()
with torch.no_grad():
    model(torch.randn(2, 2, 4))
tags, ranges = split_log(new_log_lines())
if ranges:
    fail("a no_grad forward opened a training step range: %s" % ranges)
expect_equal("eval activations", by_category(set(tags), "act:"),
             {(outputs[p].data_ptr(), "act:" + p) for p in FRESH_OUTPUTS})

# --- a parameter no module owns: named by its optimizer position ----------
loose = torch.zeros(3, requires_grad=True)
sgd = torch.optim.SGD([loose], lr=0.1, momentum=0.9)
(loose * 2).sum().backward()
sgd.step()
tags, ranges = split_log(new_log_lines())
expect_equal("loose parameter", set(tags),
             {(loose.grad.data_ptr(), "grad:group0.0"),
              (sgd.state[loose]["momentum_buffer"].data_ptr(), "optim:group0.0.momentum_buffer")})
if ranges:
    fail("an optimizer step with no forward opened or closed a range: %s" % ranges)

print("naming checks passed")
