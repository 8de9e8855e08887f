"""Checks relaxc bench's JSON: check_bench_json.py FILE REPEAT PEAK KERNEL...

The first entry is the function's, with `iterations` == REPEAT, the Google Benchmark
fields, min <= median <= p90, a positive host time, one launch per KERNEL (some of them
replayed, perhaps), and peak_device_bytes == PEAK ('-': any positive number) <=
reserved_device_bytes; then one entry per KERNEL, in order,
named main/KERNEL, launched once per call, with a positive device time. Prints
'ok: N entries' or the first thing wrong (exit status 1).
"""
import json
import sys


def main(path, repeat, peak, *kernels):
    with open(path) as f:
        entries = json.load(f)["benchmarks"]
    fn = entries[0]
    assert fn["name"] == "main" and fn["iterations"] == int(repeat), fn
    assert fn["time_unit"] == "us", fn
    assert 0 < fn["min_us"] <= fn["real_time"] <= fn["p90_us"], fn
    assert 0 < fn["host_us_per_call"] == fn["cpu_time"], fn
    if peak == "-":
        assert fn["peak_device_bytes"] > 0, fn
    else:
        assert fn["peak_device_bytes"] == int(peak), fn
    assert fn["reserved_device_bytes"] >= fn["peak_device_bytes"], fn
    assert fn["launches_per_call"] == len(kernels), fn
    assert 0 <= fn["replayed_launches_per_call"] <= fn["launches_per_call"], fn
    assert [e["name"] for e in entries[1:]] == ["main/" + k for k in kernels], entries
    for e in entries[1:]:
        assert e["iterations"] == int(repeat) and e["time_unit"] == "us", e
        assert e["real_time"] > 0 and e["launches_per_call"] == 1, e
    print(f"ok: {len(entries)} entries")


if __name__ == "__main__":
    try:
        main(*sys.argv[1:])
    except AssertionError as e:
        print(f"wrong: {e}")
        sys.exit(1)
