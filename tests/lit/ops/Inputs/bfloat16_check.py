#!/usr/bin/env python3
"""Runs tests/lit/ops/elementwise/bfloat16.py's module on a Vulkan device, where bfloat16
is emulated (passes/tir legalize_bfloat16), and compares it with NumPy.

  bfloat16_check.py EXECUTABLE --relaxc RELAXC --work DIR

The module's main(x: float32 (n,), a, b: bfloat16 (64,)) returns (bfloat16(x),
float32(bfloat16(x)), a + b, a * b, (a + b) * b). NumPy has no bfloat16: the reference
rounds float32 to it here, by comparing the two neighbouring bfloat16 values in float64
(ties to the even one), and bfloat16 data travels as .npy's [('bfloat16', '<u2')] of its
bits. x holds ties, NaNs (quiet and signalling), infinities, values that overflow
bfloat16, subnormals and random values; a NaN must stay a quiet NaN. Prints "ok: ..." and
exits 0, or says what differs and exits 1.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

BFLOAT16_NPY = np.dtype([("bfloat16", "<u2")])


def to_float32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def round_to_bfloat16(values):
    """The bits of the bfloat16 nearest each float32 (ties to even; NaN: a quiet NaN)."""
    values = np.asarray(values, dtype=np.float32)
    below = (values.view(np.uint32) >> 16).astype(np.uint16)  # toward zero
    above = below + np.uint16(1)  # away from zero (one more unit in the last place)
    # Rounding as if the exponent were unbounded: past the largest finite bfloat16 the next
    # value is 2^128, whose bits are infinity's (0x7f80), where a value that rounds up goes.
    with np.errstate(invalid="ignore"):  # NaN and infinity inputs: handled below
        exact = np.float64(values)
        above_value = np.where((above & 0x7fff) == 0x7f80, np.copysign(2.0 ** 128, exact),
                               np.float64(to_float32(above)))
        distance_below = np.abs(exact - np.float64(to_float32(below)))
        distance_above = np.abs(exact - above_value)
    take_above = (distance_above < distance_below) | (
        (distance_above == distance_below) & (below % 2 == 1))
    bits = np.where(take_above & np.isfinite(exact), above, below)
    return np.where(np.isnan(values), np.uint16(0x7fc0), bits).astype(np.uint16)


def same_bfloat16(actual, expected):
    """Equal bits, or both NaN with the actual one quiet."""
    nan = np.isnan(to_float32(expected))
    quiet = (actual & 0x7fc0) == 0x7fc0
    return np.where(nan, quiet, actual == expected)


def special_inputs():
    f32 = np.float32
    ties = [1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, -(1 + 2.0 ** -8), 2 ** 10 * (1 + 2.0 ** -8)]
    bits = np.array([0x7fc00000, 0x7f800001, 0xffc00001, 0x7fffffff], dtype=np.uint32)
    nans = list(bits.view(np.float32))  # quiet, signalling, negative quiet, all ones
    infinities = [np.inf, -np.inf]
    largest_bfloat16 = float(to_float32(np.array([0x7f7f], dtype=np.uint16))[0])
    overflow = [np.finfo(f32).max, -np.finfo(f32).max, largest_bfloat16,
                largest_bfloat16 * (1 + 2.0 ** -9),  # just below the midpoint: stays
                largest_bfloat16 + 2.0 ** 119]  # the midpoint to 2^128: ties to even, infinity
    subnormals = [1e-40, -1e-40, 2.0 ** -149, 2.0 ** -133, 1.5 * 2.0 ** -133, 2.5 * 2.0 ** -133,
                  np.finfo(f32).tiny * (1 - 2.0 ** -9)]
    return np.array(ties + nans + infinities + overflow + subnormals + [0.0, -0.0], dtype=f32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("executable")
    parser.add_argument("--relaxc", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(7)
    x = np.concatenate([special_inputs(),
                        rng.standard_normal(200).astype(np.float32) * 10.0 ** rng.integers(
                            -30, 30, 200)]).astype(np.float32)
    # a and b: bfloat16 values of moderate size, so that float32 holds every sum exactly.
    a_bits = round_to_bfloat16(rng.uniform(-4, 4, 64))
    b_bits = round_to_bfloat16(rng.uniform(-4, 4, 64))
    a, b = to_float32(a_bits), to_float32(b_bits)
    paths = []
    for name, value in (("x", x), ("a", a_bits.view(BFLOAT16_NPY)),
                        ("b", b_bits.view(BFLOAT16_NPY))):
        paths.append(os.path.join(args.work, name + ".npy"))
        np.save(paths[-1], value)
    out_dir = os.path.join(args.work, "out")
    command = [args.relaxc, "run", args.executable, "--device", "vulkan", "--output-dir", out_dir]
    for path in paths:
        command += ["--input", path]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bfloat16_check: relaxc run failed:\n{result.stdout}{result.stderr}")

    y = round_to_bfloat16(x)
    expected = [y, to_float32(y), round_to_bfloat16(a + b), round_to_bfloat16(a * b),
                round_to_bfloat16(to_float32(round_to_bfloat16(a + b)) * b)]
    for k, reference in enumerate(expected):
        actual = np.load(os.path.join(out_dir, f"main_{k}.npy"))
        if reference.dtype == np.float32:
            ok = (actual.view(np.uint32) == reference.view(np.uint32)) | (
                np.isnan(actual) & np.isnan(reference))
        else:
            if actual.dtype != BFLOAT16_NPY:
                sys.exit(f"bfloat16_check: output {k} has dtype {actual.dtype}, expected bfloat16")
            actual = actual["bfloat16"]
            ok = same_bfloat16(actual, reference)
        if not np.all(ok):
            i = int(np.argwhere(~ok)[0][0])
            source = x[i] if k < 2 else (a[i], b[i])
            sys.exit(f"bfloat16_check: output {k} differs at {int((~ok).sum())} of {ok.size}; "
                     f"first at {i} (input {source!r}): {actual[i]!r}, expected {reference[i]!r}")
    print(f"ok: {len(expected)} outputs match NumPy ({x.size} casts, {a.size} sums and products)")


if __name__ == "__main__":
    main()
