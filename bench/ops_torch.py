#!/usr/bin/env python3
"""The cases of bench/ops_bench.cc in PyTorch, on a CUDA GPU, for comparison: SGEMM
(cuBLAS, TF32 off) as FLOP/s, the memory-bound cases (copy, elementwise chain, softmax,
layer_norm, rms_norm) as bytes/s of compulsory traffic, eager and (with --compile)
torch.compile. Times are CUDA-event medians over repeated calls.

    python3 bench/ops_torch.py [--compile] [--sizes 256,1024,4096]
"""
import argparse
import sys

try:
    import torch
except ImportError:
    sys.exit("ops_torch.py: PyTorch is not installed")


def median_ms(fn, repeat=20):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def cases(n):
    x = torch.rand(n, n, device="cuda")
    y = torch.rand(n, n, device="cuda")
    row = torch.rand(n, device="cuda")
    e = float(n * n)
    return {
        "sgemm": (lambda: x @ y, 2.0 * n * n * n, 12.0 * n * n),
        "copy": (lambda: x * 1.0, e, 8 * e),
        "chain": (lambda: torch.relu(x * y + x) * 0.5, 4 * e, 12 * e),
        "softmax": (lambda: torch.softmax(x, dim=-1), 5 * e, 8 * e),
        "layer_norm": (lambda: torch.nn.functional.layer_norm(x, (n,), row, row), 8 * e, 8 * e),
        "rms_norm": (lambda: torch.nn.functional.rms_norm(x, (n,), row), 5 * e, 8 * e),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compile", action="store_true")
    parser.add_argument("--sizes", default="256,1024,4096")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("ops_torch.py: no CUDA GPU")
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"{'case':<12} {'n':>5} {'mode':<8} {'ms':>9} {'TFLOP/s':>9} {'GB/s':>9}")
    for n in (int(s) for s in args.sizes.split(",")):
        for name, (fn, flops, bytes_) in cases(n).items():
            modes = [("eager", fn)]
            if args.compile:
                modes.append(("compile", torch.compile(fn)))
            for mode, f in modes:
                ms = median_ms(f)
                print(f"{name:<12} {n:>5} {mode:<8} {ms:>9.4f} {flops / ms / 1e9:>9.2f} "
                      f"{bytes_ / ms / 1e6:>9.1f}")


if __name__ == "__main__":
    main()
