#!/usr/bin/env python3
"""Runs a Relax module of operators on lavapipe (or a GPU) and compares it with NumPy.

  op_check.py MODULE --relaxc RELAXC --work DIR --input NAME:DIMS:DTYPE[:LO,HI] ...
              [--values NAME=EXPR ...] --sizes VAR=N[,VAR=N...] ... --reference EXPR
              [--function main] [--rtol R] [--atol A] [--ptxas PTXAS] [--device D]

MODULE is built once for the device D, `vulkan` (default) or `cuda` (the environment's
RELAXC_OP_CHECK_DEVICE, where set, is the default: tests/gpu/op_checks.py reruns every
check on a GPU that way), with `relaxc build --target D`; then, for each --sizes, the
inputs are drawn at random (fixed seed) with the shapes of --input (DIMS: comma-separated
numbers and symbolic size names, empty for a 0-d tensor; floats uniform in [LO, HI),
default [-2, 2); integers in [LO, HI), default [-5, 5); bools fair; an input named by
--values takes the values of its NumPy expression EXPR instead, in its dtype, whatever
the sizes: special values such as inf, NaN and subnormals), the function runs
with `relaxc run --device D`, and each output (FUNCTION_0.npy, ...) is compared with
the reference: EXPR, evaluated with `np`, the inputs and the sizes by name (a tuple for
several outputs). Shapes must be equal, the kind of dtype (bool, integer, float) the
same, and values close (rtol/atol; exact for integers and bools). With --ptxas the module
is also built for CUDA sm_80 and sm_90 and every kernel verified with ptxas
(`relaxc inspect --verify`). Prints "ok: ..." and exits 0, or says what differs and
exits 1.
"""

import argparse
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    sys.exit("op_check: error: numpy is missing (Debian's python3-numpy; scripts/setup.sh "
             "installs it)")


def parse_input(spec):
    parts = spec.split(":")
    if len(parts) not in (3, 4):
        sys.exit(f"op_check: error: --input '{spec}': expected NAME:DIMS:DTYPE[:LO,HI]")
    name, dims, dtype = parts[0], parts[1], parts[2]
    dims = [d.strip() for d in dims.split(",") if d.strip()]
    bounds = None
    if len(parts) == 4:
        lo, hi = parts[3].split(",")
        bounds = (float(lo), float(hi))
    return name, dims, np.dtype(dtype), bounds


def parse_sizes(spec):
    sizes = {}
    for item in spec.split(","):
        if item.strip():
            key, value = item.split("=")
            sizes[key.strip()] = int(value)
    return sizes


def draw(rng, dims, dtype, bounds, sizes):
    shape = tuple(int(d) if d.lstrip("-").isdigit() else sizes[d] for d in dims)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        lo, hi = bounds or (-5, 5)
        return rng.integers(int(lo), int(hi), size=shape).astype(dtype)
    lo, hi = bounds or (-2.0, 2.0)
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def kind(dtype):
    if dtype == np.bool_:
        return "bool"
    return "integer" if np.issubdtype(dtype, np.integer) else "float"


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"op_check: '{' '.join(command)}' failed ({result.returncode}):\n"
              f"{result.stdout}{result.stderr}")
        sys.exit(1)
    return result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("module")
    parser.add_argument("--relaxc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--function", default="main")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--values", action="append", default=[])
    parser.add_argument("--sizes", action="append", default=[])
    parser.add_argument("--reference", required=True)
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--ptxas")
    parser.add_argument("--device", choices=["vulkan", "cuda"],
                        default=os.environ.get("RELAXC_OP_CHECK_DEVICE", "vulkan"))
    args = parser.parse_args()

    os.makedirs(args.work, exist_ok=True)
    executable = os.path.join(args.work, "module.rxe")
    run([args.relaxc, "build", args.module, "--target", args.device, "-o", executable])
    inputs = [parse_input(spec) for spec in args.input]
    fixed = dict(spec.split("=", 1) for spec in args.values)
    rng = np.random.default_rng(20261125)
    outputs_checked = 0
    for index, size_spec in enumerate(args.sizes or [""]):
        sizes = parse_sizes(size_spec)
        values = {}
        command = [args.relaxc, "run", executable, "--device", args.device, "--function",
                   args.function]
        out_dir = os.path.join(args.work, f"out{index}")
        for name, dims, dtype, bounds in inputs:
            if name in fixed:
                values[name] = np.asarray(eval(fixed[name], {"np": np}), dtype=dtype)  # noqa: S307
            else:
                values[name] = draw(rng, dims, dtype, bounds, sizes)
            path = os.path.join(args.work, f"{name}{index}.npy")
            np.save(path, values[name])
            command += ["--input", path]
        run(command + ["--output-dir", out_dir])
        scope = {"np": np, **sizes, **values}
        reference = eval(args.reference, scope)  # noqa: S307 (the test's own expression)
        references = reference if isinstance(reference, tuple) else (reference,)
        where = f"sizes {size_spec or '(none)'}"
        for k, expected in enumerate(references):
            expected = np.asarray(expected)
            path = os.path.join(out_dir, f"{args.function}_{k}.npy")
            if not os.path.exists(path):
                print(f"op_check: {where}: output {k} missing ({path})")
                sys.exit(1)
            actual = np.load(path)
            if actual.shape != expected.shape:
                print(f"op_check: {where}: output {k} has shape {actual.shape}, "
                      f"expected {expected.shape}")
                sys.exit(1)
            if kind(actual.dtype) != kind(expected.dtype):
                print(f"op_check: {where}: output {k} is {actual.dtype}, expected a "
                      f"{kind(expected.dtype)} ({expected.dtype})")
                sys.exit(1)
            if kind(actual.dtype) == "float":
                close = np.isclose(actual, expected, rtol=args.rtol, atol=args.atol,
                                   equal_nan=True)
            else:
                close = actual == expected
            if not np.all(close):
                bad = np.argwhere(~np.asarray(close))
                first = tuple(bad[0]) if bad.size else ()
                print(f"op_check: {where}: output {k} differs at {len(bad)} of {actual.size} "
                      f"element(s); first at {first}: {actual[first]} vs {expected[first]}")
                sys.exit(1)
            outputs_checked += 1
    if args.ptxas:
        for arch in ("sm_80", "sm_90"):
            cuda = os.path.join(args.work, f"module_{arch}.rxe")
            run([args.relaxc, "build", args.module, "--target", f"cuda -arch={arch}", "-o", cuda])
            report = run([args.relaxc, "inspect", "--verify", cuda])
            verdicts = [line for line in report.splitlines() if "ptxas:" in line]
            failed = [line for line in verdicts if not line.endswith("ptxas: valid")]
            if not verdicts or failed:
                print(f"op_check: ptxas {arch}:\n" + "\n".join(failed or ["no kernel verified"]))
                sys.exit(1)
    print(f"ok: {len(args.sizes or [''])} size(s), {outputs_checked} output(s) match NumPy"
          + (", PTX valid for sm_80 and sm_90" if args.ptxas else ""))


if __name__ == "__main__":
    main()
