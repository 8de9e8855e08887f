#!/usr/bin/env python3
"""Runs a command once for each Vulkan driver (ICD manifest) installed on this machine,
with the loader restricted to that driver, and fails when a run crashes or a sanitizer
reports anything (in the sanitizer build, LeakSanitizer checks every run at exit).

usage: each_vulkan_driver.py [--allow-exit N,N] -- COMMAND ARGS...
Prints one line per driver and ends with "ok: N drivers" when all runs were clean.
"""
import glob
import os
import subprocess
import sys

# Where the Vulkan loader looks for driver manifests on Linux (besides $XDG_* folders).
MANIFEST_DIRS = ["/usr/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d",
                 "/etc/vulkan/icd.d"]


def main():
    args = sys.argv[1:]
    allowed = {0}
    if args[:1] == ["--allow-exit"]:
        allowed = {int(code) for code in args[1].split(",")}
        args = args[2:]
    if args[:1] != ["--"] or len(args) < 2:
        sys.exit(__doc__)
    command = args[1:]
    manifests = sorted(m for d in MANIFEST_DIRS for m in glob.glob(os.path.join(d, "*.json")))
    if not manifests:
        sys.exit("each_vulkan_driver: error: no Vulkan driver manifest in " +
                 ", ".join(MANIFEST_DIRS))
    failures = 0
    for manifest in manifests:
        env = dict(os.environ)
        # VK_ICD_FILENAMES for loaders before 1.3.207, VK_DRIVER_FILES after.
        env["VK_ICD_FILENAMES"] = manifest
        env["VK_DRIVER_FILES"] = manifest
        run = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, errors="replace")
        reported = "Sanitizer" in run.stderr
        clean = run.returncode in allowed and not reported
        print(f"driver {os.path.basename(manifest)}: exit {run.returncode}"
              f"{'' if clean else ' FAILED'}")
        if not clean:
            failures += 1
            sys.stdout.write(run.stderr)
    if failures:
        print(f"each_vulkan_driver: {failures} of {len(manifests)} drivers failed")
        sys.exit(1)
    print(f"ok: {len(manifests)} drivers")


if __name__ == "__main__":
    main()
