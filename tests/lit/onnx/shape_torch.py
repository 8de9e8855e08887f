# A module exported by PyTorch with dynamic batch and sequence axes, doing only what the
# shape family imports (view into heads, permute, reshape(b, s, -1), arange(s).expand,
# x[:, 0], x[:, 1:s], gather, flatten): the export's Shape/Gather/Concat/Equal/Where
# chains become symbolic shapes, and the model, built once, matches PyTorch at two
# batch sizes and two sequence lengths.
#
# REQUIRES: torch
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK: ok: export
# CHECK: def main(x: R.Tensor(("batch", "seq", 32), dtype="float32"), ids: R.Tensor(("batch", "seq"), dtype="int64"))
# CHECK: R.reshape(x, R.shape([batch, seq, 4, 8]))
# CHECK: ok: every shape symbolic
# CHECK: ok: build once
# CHECK: ok: batch 1 seq 3
# CHECK: ok: batch 1 seq 6
# CHECK: ok: batch 3 seq 3
# CHECK: ok: batch 3 seq 6

import os

import numpy as np
import onnx_check
import torch


class Heads(torch.nn.Module):
    def forward(self, x, ids):
        b, s, d = x.shape
        heads = x.view(b, s, 4, d // 4).permute(0, 2, 1, 3)
        merged = heads.transpose(1, 2).reshape(b, s, -1)
        positions = torch.arange(s, dtype=torch.long).unsqueeze(0).expand(b, -1)
        return (merged, positions, x[:, 0], x[:, 1:s], torch.gather(ids, 1, positions),
                x.flatten(1))


work, relaxc = onnx_check.WORK, onnx_check.RELAXC
path = os.path.join(work, "heads.onnx")
dynamic = {0: "batch", 1: "seq"}
torch.onnx.export(Heads(), (torch.randn(2, 5, 32), torch.arange(10).view(2, 5)), path,
                  input_names=["x", "ids"], opset_version=13,
                  output_names=["merged", "positions", "first", "tail", "gathered", "flat"],
                  dynamic_axes={"x": dynamic, "ids": dynamic})
print("ok: export")
onnx_check.import_with_symbolic_shapes(path)
executable = os.path.join(work, "heads.rxe")
onnx_check.step("build once", [relaxc, "build", path, "--target", "vulkan", "-o", executable])
for batch in (1, 3):
    for seq in (3, 6):
        name = f"batch {batch} seq {seq}"
        x = torch.randn(batch, seq, 32)
        ids = torch.arange(batch * seq).view(batch, seq)
        command = [relaxc, "run", executable, "--device", onnx_check.DEVICE,
                   "--output-dir", os.path.join(work, f"out_{batch}_{seq}")]
        for input_name, value in (("x", x), ("ids", ids)):
            np.save(os.path.join(work, f"{input_name}_{batch}_{seq}.npy"), value.numpy())
            command += ["--input", os.path.join(work, f"{input_name}_{batch}_{seq}.npy")]
        if not onnx_check.step(f"run {name}", command):
            continue
        why = None
        for k, reference in enumerate(Heads()(x, ids)):
            actual = np.load(os.path.join(work, f"out_{batch}_{seq}", f"main_{k}.npy"))
            why = why or onnx_check._compare(name, k, actual, reference.numpy(), 1e-6, 1e-6)
        if why:
            onnx_check._fail(name, why)
        else:
            print(f"ok: {name}")
