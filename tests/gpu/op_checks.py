#!/usr/bin/env python3
"""Reruns every numerical operator check of tests/lit/ops (the `%op_check` RUN lines) on a
GPU: each module built for and run on DEVICE (cuda or vulkan) and compared with NumPy, as
on lavapipe in the lit suite. Prints one line per check and the totals; exits 1 when one
failed. tests/gpu/run.sh calls it for each device present.

    tests/gpu/op_checks.py --relaxc BUILD/relaxc --device cuda [--jobs N] [--filter TEXT]
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPS = os.path.join(ROOT, "tests", "lit", "ops")
OP_CHECK = os.path.join(OPS, "Inputs", "op_check.py")


def checks(name_filter):
    """(test file, index, op_check arguments) for each %op_check RUN line."""
    found = []
    for folder, _, files in sorted(os.walk(OPS)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not name.endswith(".py") or folder.endswith("Inputs") or name_filter not in path:
                continue
            with open(path, encoding="utf-8") as f:
                lines = [m.group(1) for m in re.finditer(r"^# RUN: %op_check (.*)$", f.read(), re.M)]
            for index, line in enumerate(lines):
                line = line.split(" | FileCheck")[0]
                found.append((path, index, line))
    return found


def run_check(check, relaxc, device, work_root):
    path, index, line = check
    work = os.path.join(work_root, f"{os.path.relpath(path, OPS).replace('/', '_')}.{index}")
    args = shlex.split(line.replace("%s", path).replace("%t", work))
    command = [sys.executable, OP_CHECK] + args + ["--relaxc", relaxc, "--device", device]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    return check, result.returncode == 0, (result.stdout + result.stderr).strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--relaxc", required=True)
    parser.add_argument("--device", choices=["cuda", "vulkan"], required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--filter", default="")
    args = parser.parse_args()
    found = checks(args.filter)
    failed = 0
    with tempfile.TemporaryDirectory() as work_root, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(run_check, c, args.relaxc, args.device, work_root) for c in found]
        for job in concurrent.futures.as_completed(jobs):
            (path, index, _), ok, output = job.result()
            name = f"{os.path.relpath(path, OPS)}#{index}"
            print(f"{'ok    ' if ok else 'FAILED'} {args.device} {name}", flush=True)
            if not ok:
                failed += 1
                print("    " + output.replace("\n", "\n    ")[-2000:])
    print(f"op checks on {args.device}: {len(found) - failed} passed, {failed} failed "
          f"of {len(found)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
