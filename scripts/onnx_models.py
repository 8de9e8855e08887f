#!/usr/bin/env python3
"""Real models exported from PyTorch, run by relaxc and compared with PyTorch.

  onnx_models.py --relaxc RELAXC --work DIR [--device D] [MODEL...]

MODEL is encoder (a small BERT-like encoder: embedding, two layers of multi-head
attention with a padding mask, LayerNorm and a GELU MLP; dynamic batch and sequence
length), resnet18 or mobilenet_v2 (torchvision, random weights, dynamic batch); default
all three. Each is exported with torch.onnx (opset 13), built ONCE with `relaxc build
model.onnx`, then run with `relaxc run` at two batch sizes (and, for the encoder, two
sequence lengths), each output compared with PyTorch's at rtol 1e-4, atol 1e-4.
Prints one line per run and exits 1 when any differs or fails.

Needs Debian's python3-torch (scripts/setup.sh installs it) and, for the CNNs,
python3-torchvision (run with /usr/bin/python3). On
lavapipe each CNN takes about a minute (export, build, two runs); the encoder takes
seconds, and the lit test tests/lit/onnx/models.py runs it in CI.
"""
import argparse
import inspect
import os
import subprocess
import sys

import numpy as np
import torch
from torch import nn


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, mask_bias):
        b, s, d = x.shape
        qkv = self.qkv(x).view(b, s, 3, self.heads, d // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)
        scores = q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5 + mask_bias
        attended = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, d)
        x = self.norm1(x + self.out(attended))
        return self.norm2(x + self.mlp(x))


class Encoder(nn.Module):
    """Token ids and a 0/1 attention mask in, one vector per token and a pooled one out."""

    def __init__(self, vocab=100, dim=32, heads=4, layers=2, max_len=64):
        super().__init__()
        self.tokens = nn.Embedding(vocab, dim)
        self.positions = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, heads) for _ in range(layers))

    def forward(self, ids, mask):
        positions = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
        x = self.tokens(ids) + self.positions(positions)
        mask_bias = (1.0 - mask[:, None, None, :].float()) * -1e4
        for layer in self.layers:
            x = layer(x, mask_bias)
        return x, x[:, 0].tanh()


def encoder_inputs(batch, seq):
    rng = np.random.default_rng(batch * 100 + seq)
    ids = rng.integers(0, 100, (batch, seq), dtype=np.int64)
    mask = np.ones((batch, seq), np.int64)
    mask[0, seq // 2:] = 0  # the first sequence is padded
    return [ids, mask]


def cnn_inputs(batch):
    return [np.random.default_rng(batch).standard_normal((batch, 3, 224, 224), np.float32)]


def torchvision_model(name):
    def make():
        import torchvision  # only the CNNs need it (Debian's python3-torchvision)
        return getattr(torchvision.models, name)(weights=None)
    return make


def models():
    return {
        "encoder": (Encoder, ["ids", "mask"], ["hidden", "pooled"],
                    {"ids": {0: "batch", 1: "seq"}, "mask": {0: "batch", 1: "seq"},
                     "hidden": {0: "batch", 1: "seq"}, "pooled": {0: "batch"}},
                    [encoder_inputs(b, s) for b in (1, 3) for s in (5, 12)]),
        "resnet18": (torchvision_model("resnet18"), ["x"], ["logits"],
                     {"x": {0: "batch"}, "logits": {0: "batch"}},
                     [cnn_inputs(1), cnn_inputs(2)]),
        "mobilenet_v2": (torchvision_model("mobilenet_v2"), ["x"],
                         ["logits"], {"x": {0: "batch"}, "logits": {0: "batch"}},
                         [cnn_inputs(1), cnn_inputs(2)]),
    }


def export(model, example, path, input_names, output_names, dynamic_axes):
    """torch.onnx.export at opset 13 with the TorchScript exporter, which PyTorch 2.9 and
    later reach only with dynamo=False (their default exporter writes another graph)."""
    extra = {}
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        extra["dynamo"] = False
    torch.onnx.export(model, example, path, input_names=input_names, output_names=output_names,
                      dynamic_axes=dynamic_axes, opset_version=13, **extra)


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}:\n"
                           f"{result.stdout}{result.stderr}")
    return result


def check(name, spec, args):
    make, input_names, output_names, dynamic_axes, runs = spec
    torch.manual_seed(0)
    model = make().eval()
    path = os.path.join(args.work, f"{name}.onnx")
    example = tuple(torch.from_numpy(a) for a in runs[0])
    export(model, example, path, input_names, output_names, dynamic_axes)
    executable = os.path.join(args.work, f"{name}.rxe")
    run([args.relaxc, "build", path, "--target", args.target, "-o", executable])
    print(f"ok: {name}: exported and built once")
    failed = 0
    for k, arrays in enumerate(runs):
        shape = "x".join(str(d) for d in arrays[0].shape)
        command = [args.relaxc, "run", executable, "--device", args.device, "--output-dir",
                   os.path.join(args.work, f"{name}_out{k}")]
        for i, array in enumerate(arrays):
            np.save(os.path.join(args.work, f"{name}_in{k}_{i}.npy"), array)
            command += ["--input", os.path.join(args.work, f"{name}_in{k}_{i}.npy")]
        try:
            run(command)
        except RuntimeError as e:
            print(f"FAIL: {name} {shape}: {e}")
            failed += 1
            continue
        with torch.no_grad():
            expected = model(*(torch.from_numpy(a) for a in arrays))
        if isinstance(expected, torch.Tensor):
            expected = (expected,)
        # Errors relative to each output's largest magnitude: randomly initialized
        # networks can end in tiny logits (MobileNetV2's are ~1e-9), where an absolute
        # tolerance would accept anything.
        worst = 0.0
        for i, want in enumerate(expected):
            got = np.load(os.path.join(args.work, f"{name}_out{k}", f"main_{i}.npy"))
            want = want.numpy()
            scale = max(float(np.abs(want).max()), np.finfo(np.float32).tiny)
            err = float(np.abs(got - want).max()) / scale if got.shape == want.shape else None
            if err is None or err > 1e-4:
                print(f"FAIL: {name} {shape}: output {i} differs from PyTorch "
                      f"({'shape' if err is None else f'relative error {err:.1e}'})")
                failed += 1
                break
            worst = max(worst, err)
        else:
            print(f"ok: {name} {shape}: matches PyTorch (max error {worst:.1e} of the "
                  f"largest magnitude)")
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relaxc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--target", default="vulkan")
    parser.add_argument("models", nargs="*")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    table = models()
    names = args.models or list(table)
    for name in names:
        if name not in table:
            sys.exit(f"onnx_models.py: error: unknown model '{name}' (models: {', '.join(table)})")
    failed = sum(check(name, table[name], args) for name in names)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
