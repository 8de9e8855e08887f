#!/usr/bin/env python3
"""Inputs and the reference check of examples/mlp.py, without numpy (struct only).

  mlp_data.py inputs DIR [--batch N]   writes DIR/images.npy (N, 8, 8), DIR/w.npy
                                       (64, 32) and DIR/b.npy (32,), float32
  mlp_data.py check DIR OUTPUT.npy     compares OUTPUT.npy with relu(flatten(images) @ w
                                       + b), flattened, computed here in float64

The values are small exact binary fractions, so the reference needs no randomness and
float32 sums stay close to it.
"""
import struct
import sys


def npy_bytes(shape, values):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % dims
    total = (10 + len(header) + 1 + 63) // 64 * 64
    header += " " * (total - 10 - len(header) - 1) + "\n"
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") +
            struct.pack("<%df" % len(values), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x93NUMPY\x01\x00":
        sys.exit("%s: not a version 1.0 .npy file" % path)
    (length,) = struct.unpack("<H", data[8:10])
    header = data[10:10 + length].decode("latin1")
    if "'<f4'" not in header or "'fortran_order': False" not in header:
        sys.exit("%s: expected C-order float32, got %s" % (path, header.strip()))
    shape_text = header[header.index("(") + 1:header.index(")")]
    shape = tuple(int(d) for d in shape_text.split(",") if d.strip())
    body = data[10 + length:]
    return shape, list(struct.unpack("<%df" % (len(body) // 4), body))


def example_inputs(batch):
    images = [((i * 37) % 17 - 8) / 8.0 for i in range(batch * 64)]
    w = [((k * 13 + j * 7) % 11 - 5) / 16.0 for k in range(64) for j in range(32)]
    b = [(j % 5 - 2) / 4.0 for j in range(32)]
    return images, w, b


def reference(batch, images, w, b):
    out = []
    for i in range(batch):
        for j in range(32):
            acc = sum(images[i * 64 + k] * w[k * 32 + j] for k in range(64))
            out.append(max(acc + b[j], 0.0))
    return out


def main(argv):
    if len(argv) >= 2 and argv[0] == "inputs":
        batch = int(argv[3]) if len(argv) == 4 and argv[2] == "--batch" else 4
        images, w, b = example_inputs(batch)
        for name, shape, values in (("images", (batch, 8, 8), images), ("w", (64, 32), w),
                                    ("b", (32,), b)):
            with open("%s/%s.npy" % (argv[1], name), "wb") as f:
                f.write(npy_bytes(shape, values))
        return 0
    if len(argv) == 3 and argv[0] == "check":
        images_shape, images = read_npy(argv[1] + "/images.npy")
        _, w = read_npy(argv[1] + "/w.npy")
        _, b = read_npy(argv[1] + "/b.npy")
        batch = images_shape[0]
        shape, got = read_npy(argv[2])
        if shape != (batch * 32,):
            print("error: output shape %s, expected %s" % (shape, (batch * 32,)))
            return 1
        want = reference(batch, images, w, b)
        bad = [i for i in range(len(want)) if abs(got[i] - want[i]) > 1e-4 + 1e-4 * abs(want[i])]
        if bad:
            i = bad[0]
            print("error: %d of %d values differ; element %d is %g, expected %g" %
                  (len(bad), len(want), i, got[i], want[i]))
            return 1
        print("ok: output matches the reference (%d values, batch %d)" % (len(want), batch))
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
