#!/usr/bin/env bash
# Builds (Release) and runs the GPU tests on a machine with an NVIDIA GPU: the CUDA device
# tests (cuda_device_test, and cuda_replay_test: CUDA graphs on the NVIDIA driver), and the device conformance suite and the kernel suite on every
# device present, CUDA and Vulkan (device_conformance_test, kernel_suite_test), then prints one table: kernel, device, result, time; then reruns the operator checks of tests/lit/ops on CUDA and on Vulkan (tests/gpu/op_checks.py). Without an NVIDIA GPU it says so and exits 0.
#
# Usage: tests/gpu/run.sh [--build-dir DIR] [--no-build] [--filter GTEST_FILTER]
#   --build-dir DIR  the build folder (default: build-gpu in the repository)
#   --no-build       run the test binaries already in DIR/tests (built elsewhere, e.g. on
#                    a machine with the build dependencies, packed by tests/gpu/pack.sh
#                    and carried here)
#   --filter F       a GoogleTest filter for every binary (default: all tests)
# Environment: RELAXC_JOBS (build jobs, default: the number of cores); RELAXC_CUDA_DEVICE
# and RELAXC_VULKAN_DEVICE choose the devices; a Vulkan loader from a carried folder is
# found through LD_LIBRARY_PATH, and its driver through VK_DRIVER_FILES or
# VK_ICD_FILENAMES, as the caller sets them.
# A test can name its row with GoogleTest properties (RecordProperty): "kernel", "device",
# "time_ms" (the kernel's own time) and "note" (e.g. GFLOP/s); otherwise the row is named
# after the test, and the device after the binary or the test's name.
# Exit status: 0 when every test passed or skipped, 1 when one failed, 2 on a usage or
# build error.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir="$root/build-gpu"
build=1
filter='*'
binaries=(cuda_device_test cuda_replay_test device_conformance_test kernel_suite_test)

usage() { sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; build_dir=$(realpath -m "$2"); shift 2 ;;
    --no-build) build=0; shift ;;
    --filter) [[ $# -ge 2 ]] || { usage >&2; exit 2; }; filter=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "tests/gpu/run.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

# An NVIDIA GPU: nvidia-smi lists one, or (without nvidia-smi) a device node and the
# driver's libcuda are present.
has_nvidia_gpu() {
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi -L 2>/dev/null | grep -q '^GPU '
    return
  fi
  [[ -e /dev/nvidia0 ]] && ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'
}

if ! has_nvidia_gpu; then
  echo "tests/gpu/run.sh: no NVIDIA GPU here (nvidia-smi lists none): skipping the GPU tests"
  exit 0
fi
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L

# The NVIDIA Vulkan driver of a container image whose driver files are mounted under
# /usr/local/nvidia is not where the loader looks: point the loader at it, unless the
# caller chose a driver.
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [[ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" && -f "$nvidia_icd" ]] &&
   ! ls /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json >/dev/null 2>&1; then
  export VK_DRIVER_FILES="$nvidia_icd"
  echo "tests/gpu/run.sh: using the Vulkan driver $nvidia_icd"
fi

if [[ $build -eq 1 ]]; then
  jobs=${RELAXC_JOBS:-$(nproc)}
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRELAXC_BENCH=OFF ||
    { echo "tests/gpu/run.sh: configuring failed (build elsewhere and use --no-build?)" >&2; exit 2; }
  known_targets=$(ninja -C "$build_dir" -t targets all | sed 's/:.*//')
  targets=()
  for name in "${binaries[@]}"; do
    if grep -qx "$name" <<<"$known_targets"; then
      targets+=("$name")
    else
      echo "tests/gpu/run.sh: no target $name in this tree: not built"
    fi
  done
  ninja -C "$build_dir" -j "$jobs" "${targets[@]}" relaxc ||
    { echo "tests/gpu/run.sh: the build failed" >&2; exit 2; }
fi

results="$build_dir/gpu-results"
rm -rf "$results"
mkdir -p "$results"
failed=0
ran=()
for name in "${binaries[@]}"; do
  binary="$build_dir/tests/$name"
  if [[ ! -x "$binary" ]]; then
    echo "tests/gpu/run.sh: $binary is missing: skipped"
    continue
  fi
  echo "== $name"
  # A failing binary does not stop the others; its log is kept beside the results.
  if "$binary" --gtest_filter="$filter" --gtest_output="json:$results/$name.json" \
      >"$results/$name.log" 2>&1; then
    status=0
  else
    status=$?
    failed=1
  fi
  tail -n 3 "$results/$name.log"
  if [[ ! -f "$results/$name.json" ]]; then
    echo "tests/gpu/run.sh: $name exited with status $status and wrote no results; see $results/$name.log"
    continue
  fi
  ran+=("$results/$name.json")
done

if [[ ${#ran[@]} -eq 0 ]]; then
  echo "tests/gpu/run.sh: no GPU test binary ran" >&2
  exit 2
fi

python3 - "${ran[@]}" <<'EOF' || failed=1
# One row per test: kernel, device, result, time, note; then the totals.
import json, os, re, sys

def device_of(binary, test, props):
    if "device" in props:
        return props["device"]
    for word, name in (("cuda", "CUDA"), ("vulkan", "Vulkan")):
        if re.search(word, test, re.IGNORECASE):
            return name
    return {"cuda_device_test": "CUDA", "cuda_replay_test": "CUDA"}.get(binary, "-")

rows, counts = [], {"passed": 0, "FAILED": 0, "skipped": 0}
for path in sys.argv[1:]:
    binary = os.path.basename(path)[: -len(".json")]
    with open(path) as f:
        report = json.load(f)
    for suite in report.get("testsuites", []):
        for case in suite.get("testsuite", []):
            if case.get("status") == "NOTRUN":
                continue
            test = suite["name"] + "." + case["name"]
            props = {k: str(v) for k, v in case.items()
                     if k in ("kernel", "device", "time_ms", "note")}
            if case.get("failures"):
                result = "FAILED"
            elif case.get("result") == "SKIPPED":
                result = "skipped"
            else:
                result = "passed"
            counts[result] += 1
            kernel = props.get("kernel") or case.get("value_param") or test
            time = props["time_ms"] + " ms" if "time_ms" in props else case.get("time", "-")
            rows.append((kernel, device_of(binary, test, props), result, time,
                         props.get("note", "")))

header = ("kernel", "device", "result", "time", "note")
widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
line = "  ".join("-" * w for w in widths)
print(line)
print("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
print(line)
for row in rows:
    print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)).rstrip())
print(line)
print(f"{counts['passed']} passed, {counts['FAILED']} failed, {counts['skipped']} skipped")
sys.exit(1 if counts["FAILED"] else 0)
EOF

# The operator checks of tests/lit/ops, on each GPU device: built with the build's relaxc,
# run there, compared with NumPy.
if [[ -x "$build_dir/relaxc" ]]; then
  for device in cuda vulkan; do
    echo "== operator checks on $device"
    python3 "$root/tests/gpu/op_checks.py" --relaxc "$build_dir/relaxc" --device "$device" \
      >"$results/op_checks_$device.log" 2>&1 || failed=1
    grep -v '^ok' "$results/op_checks_$device.log" | tail -n 20
  done
fi

if [[ $failed -ne 0 ]]; then
  echo "tests/gpu/run.sh: some GPU tests failed; logs in $results"
  exit 1
fi
