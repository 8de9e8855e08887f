#!/usr/bin/env python3
"""PyTorch eager and torch.compile timed next to `relaxc bench` on one NVIDIA GPU.

  compare_torch.py --relaxc RELAXC --work DIR [--warmup N] [--repeat N] [MODEL...]

MODEL is one of scripts/onnx_models.py's models (encoder, resnet18, mobilenet_v2;
default: encoder), exported to ONNX the way that script does. Each is timed at its first
input shape: PyTorch eager and torch.compile on CUDA (the median of --repeat calls, each
followed by torch.cuda.synchronize), and `relaxc bench MODEL.onnx` on --device cuda and
--device vulkan (the median latency of its JSON), which run on the same GPU where its
Vulkan driver is installed. Prints one table, in milliseconds per call; a column that
fails shows its error below the table.

Skips (exit status 0, one line starting 'skip:') where PyTorch is not installed or sees
no CUDA GPU. Run with /usr/bin/python3 (Debian's python3-torch).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def torch_median_ms(fn, inputs, warmup, repeat):
    import torch
    for _ in range(warmup):
        fn(*inputs)
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*inputs)
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def relaxc_median_ms(args, onnx_path, input_paths, device, json_path):
    command = [args.relaxc, "bench", onnx_path, "--device", device, "--warmup",
               str(args.warmup), "--repeat", str(args.repeat), "--json", json_path]
    for path in input_paths:
        command += ["--input", path]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(result.stderr.strip() or f"exit status {result.returncode}")
    with open(json_path) as f:
        entry = json.load(f)["benchmarks"][0]
    return entry["real_time"] / 1e3  # time_unit is us


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relaxc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("models", nargs="*", default=["encoder"])
    args = parser.parse_args()
    try:
        import numpy as np
        import torch
    except ImportError as e:
        print(f"skip: PyTorch is not installed ({e})")
        return 0
    if not torch.cuda.is_available():
        print("skip: PyTorch sees no CUDA GPU")
        return 0
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
    import onnx_models

    os.makedirs(args.work, exist_ok=True)
    columns = ["torch eager", "torch.compile", "relaxc cuda", "relaxc vulkan"]
    rows, errors = [], []
    for name in args.models:
        make, input_names, output_names, dynamic_axes, runs = onnx_models.models()[name]
        torch.manual_seed(0)
        model = make().eval()
        arrays = runs[0]
        onnx_path = os.path.join(args.work, f"{name}.onnx")
        example = tuple(torch.from_numpy(a) for a in arrays)
        onnx_models.export(model, example, onnx_path, input_names, output_names,
                           dynamic_axes)
        input_paths = []
        for i, array in enumerate(arrays):
            input_paths.append(os.path.join(args.work, f"{name}_in{i}.npy"))
            np.save(input_paths[-1], array)
        model = model.cuda()
        inputs = [torch.from_numpy(a).cuda() for a in arrays]
        times = {}
        with torch.no_grad():
            for column, fn in (("torch eager", model), ("torch.compile", None)):
                try:
                    fn = fn or torch.compile(model)
                    times[column] = torch_median_ms(fn, inputs, args.warmup, args.repeat)
                except Exception as e:  # report the column's failure, go on with the rest
                    errors.append(f"{name}, {column}: {e}")
        for device in ("cuda", "vulkan"):
            column = f"relaxc {device}"
            try:
                times[column] = relaxc_median_ms(args, onnx_path, input_paths, device,
                                                 os.path.join(args.work, f"{name}_{device}.json"))
            except RuntimeError as e:
                errors.append(f"{name}, {column}: {e}")
        shape = "x".join(str(d) for d in arrays[0].shape)
        rows.append([f"{name} {shape}"] + [f"{times[c]:.3f}" if c in times else "error"
                                           for c in columns])

    print(f"{torch.cuda.get_device_name(0)}: median ms per call")
    header = ["model"] + columns
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)))
    for error in errors:
        print(f"error: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
