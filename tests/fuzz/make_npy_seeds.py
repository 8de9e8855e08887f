#!/usr/bin/env python3
"""Writes the seed .npy files of fuzz_npy into a directory (scripts/fuzz.sh calls it).

Written by hand rather than with numpy, so that the fuzz build needs no numpy: every
format version, each supported dtype, scalars, empty and multi-dimensional shapes, and
a few files the reader must refuse (big-endian, Fortran order, an unknown dtype).
"""
import struct
import sys
from pathlib import Path


def npy(descr, shape, data, version=(1, 0), fortran=False):
    shape_text = f"({shape[0]},)" if len(shape) == 1 else str(tuple(shape))
    header = (f"{{'descr': '{descr}', 'fortran_order': {fortran}, "
              f"'shape': {shape_text}, }}")
    length_format = "<H" if version[0] == 1 else "<I"
    prefix = 6 + 2 + struct.calcsize(length_format)
    padding = -(prefix + len(header) + 1) % 64
    header = header + " " * padding + "\n"
    encoding = "utf-8" if version[0] == 3 else "latin1"
    return (b"\x93NUMPY" + bytes(version) + struct.pack(length_format, len(header)) +
            header.encode(encoding) + data)


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    seeds = {
        "f4_2x3": npy("<f4", (2, 3), struct.pack("<6f", 0, 1, -2, 3.5, 1e30, -0.0)),
        "f2_4": npy("<f2", (4,), struct.pack("<4e", 0, 1, -2, 65504)),
        "f8_scalar": npy("<f8", (), struct.pack("<d", 3.25)),
        "i8_2x2x2": npy("<i8", (2, 2, 2), struct.pack("<8q", *range(-4, 4))),
        "i4_empty": npy("<i4", (0, 5), b""),
        "i2_3": npy("<i2", (3,), struct.pack("<3h", -1, 0, 1)),
        "i1_4": npy("|i1", (4,), bytes([0, 127, 128, 255])),
        "u1_2x2": npy("|u1", (2, 2), bytes([1, 2, 3, 4])),
        "u2_2": npy("<u2", (2,), struct.pack("<2H", 1, 65535)),
        "u4_1": npy("<u4", (1,), struct.pack("<I", 4000000000)),
        "u8_1": npy("<u8", (1,), struct.pack("<Q", 2**64 - 1)),
        "b1_3": npy("|b1", (3,), bytes([0, 1, 1])),
        "v2_f4": npy("<f4", (2,), struct.pack("<2f", 1, 2), version=(2, 0)),
        "v3_i4": npy("<i4", (1, 1), struct.pack("<i", 7), version=(3, 0)),
        "big_endian": npy(">f4", (1,), struct.pack(">f", 1)),
        "fortran": npy("<f4", (2, 2), struct.pack("<4f", 1, 2, 3, 4), fortran=True),
        "complex": npy("<c8", (1,), struct.pack("<2f", 1, 2)),
    }
    for name, data in seeds.items():
        (out / f"{name}.npy").write_bytes(data)


if __name__ == "__main__":
    main()
