"""report_check.py: what the report checkers (tests/e2e/compare.py against
a workload's ground truth, tests/gpu/check_torch_report.py without one)
share: the problems found, kept per check and printed as they come up to a
limit per check, and reading a report's CSV file, where a missing file is a
problem, never a crash. Must never decide what is right in a report."""
import csv
import os

problems = []  # (check, text), every one found, printed or not
shown_per_check = 20


def problem(check, text):
    if sum(1 for p in problems if p[0] == check) < shown_per_check:
        print(f"{check}: {text}")
    problems.append((check, text))


def checks():
    """The names of the checks that found problems, sorted."""
    return sorted({p[0] for p in problems})


def read_csv(path):
    if not os.path.exists(path):
        problem("files", f"missing {path}")
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))
