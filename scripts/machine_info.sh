#!/usr/bin/env bash
# Prints the machine a build or test run ran on: the system, the processor (model and the
# vector extensions that change the paths drivers such as lavapipe take), and every Vulkan
# device with its driver and version. Prints only; never fails.
set -u

cpu_model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
cpu_vectors=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | tr ' ' '\n' |
  grep -E '^(avx|avx2|avx512f|avx512bw|avx512vl|fma|neon|asimd)$' | sort -u | tr '\n' ' ')
memory_gib=$(awk '/^MemTotal:/ {printf "%.0f", $2 / 1048576}' /proc/meminfo 2>/dev/null)
echo "machine: $(uname -srm), $(nproc) cores, ${memory_gib:-?} GiB"
echo "processor: ${cpu_model:-unknown} (${cpu_vectors% })"

if ! command -v vulkaninfo >/dev/null 2>&1; then
  echo "vulkan: vulkaninfo not installed (Debian: vulkan-tools)"
  exit 0
fi
devices=$(vulkaninfo --summary 2>/dev/null | sed -n '/^Devices:/,$p' |
  awk -F' = ' '
    /^GPU[0-9]+:/ { if (name != "") print line; name = ""; gpu = $0; sub(":", "", gpu) }
    /deviceName/ { name = $2 }
    /driverName/ { driver = $2 }
    /driverInfo/ { info = $2 }
    /apiVersion/ { api = $2 }
    { line = gpu ": " name ", driver " driver " (" info "), Vulkan " api }
    END { if (name != "") print line }')
if [[ -z $devices ]]; then
  echo "vulkan: no device"
else
  while IFS= read -r device; do echo "vulkan: $device"; done <<<"$devices"
fi
exit 0
