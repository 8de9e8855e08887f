# Damages the first SPIR-V kernel of an executable the way a bad disk or a bad writer
# might: one OpTypeInt's width becomes 33 (the light scan of the loader passes it,
# spirv-val does not). With --restamp, the section's CRC-32C is recomputed, as if the
# damage came from whoever wrote the file; without, the checksum no longer matches.
#
#   python3 damage_kernel.py IN.rxe OUT.rxe [--restamp]
import struct
import sys


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def main():
    source, target = sys.argv[1], sys.argv[2]
    restamp = "--restamp" in sys.argv[3:]
    data = bytearray(open(source, "rb").read())
    tag = data.find(b"BKND")
    length = struct.unpack_from("<Q", data, tag + 4)[0]
    body = tag + 16
    op_type_int_32 = struct.pack("<II", (4 << 16) | 21, 0)[:4]
    at = data.find(op_type_int_32, body, body + length)
    while struct.unpack_from("<I", data, at + 8)[0] != 32:
        at = data.find(op_type_int_32, at + 4, body + length)
    struct.pack_into("<I", data, at + 8, 33)
    if restamp:
        struct.pack_into("<I", data, tag + 12, crc32c(data[body:body + length]))
    open(target, "wb").write(data)


main()
