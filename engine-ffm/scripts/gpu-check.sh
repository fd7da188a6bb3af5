#!/usr/bin/env bash
# GPU check for the cuda backend of engine-ffm, for a machine with an NVIDIA GPU.
#
# Builds what it needs with the JDK alone (javac: no Maven, no network), then runs
# io.kvfleet.engine.cuda.GpuCheck, which allocates VRAM with cudaMalloc, registers KV buffers and
# state tensors through the cuda backend, imports a buffer from a second process by CUDA IPC
# handle, runs device-to-device and staged (VRAM -> pinned host -> ucx -> host -> VRAM) transfers
# with byte-for-byte verification, and prints each path's bandwidth beside a plain cudaMemcpy of
# the same size, as a ratio. The whole run stays under 5 minutes.
#
# Usage:  engine-ffm/scripts/gpu-check.sh [MiB per transfer, default 1024]
# Finds:  a JDK 25 (JAVA_HOME, /usr/lib/jvm, PATH) and libcudart.so.13 or .so.12 (the loader path,
#         /usr/local/cuda*, the nvidia-cuda-runtime Python wheel, or KVFLEET_CUDA_LIBRARY).
# Exit:   0 every check passed; 1 a check failed; 2 it cannot run here (no GPU, driver, CUDA
#         runtime or JDK 25; the reason is printed); 124 it ran out of time.
set -euo pipefail

MODULE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SIZE_MIB="${1:-1024}"
BUDGET_S=285
OUT="$MODULE/target/gpu-check"

say() { printf 'gpu-check: %s\n' "$*"; }
cannot_run() {
  say "SKIPPED: $*"
  exit 2
}

case "$SIZE_MIB" in
  '' | *[!0-9]*) say "the size must be a number of MiB, got '$SIZE_MIB'"; exit 1 ;;
esac

# 1. The GPU and driver, as an operator would look first.
driver_state=""
if command -v nvidia-smi >/dev/null 2>&1 \
    && gpus="$(nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1)"; then
  while IFS= read -r line; do say "nvidia-smi: $line"; done <<<"$gpus"
else
  driver_state="no NVIDIA GPU or driver is visible:"
  if [ -r /proc/driver/nvidia/version ]; then
    driver_state="$driver_state the kernel module is loaded but nvidia-smi fails"
  else
    driver_state="$driver_state /proc/driver/nvidia/version is absent (no NVIDIA kernel driver)"
  fi
  command -v nvidia-smi >/dev/null 2>&1 || driver_state="$driver_state; nvidia-smi is not installed"
  say "$driver_state"
fi

# 2. A JDK 25 or newer.
find_jdk() {
  local candidates=("${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk-arm64)
  local jdk
  for jdk in /usr/lib/jvm/*25* /usr/lib/jvm/*-2[6-9]* /opt/java/openjdk; do candidates+=("$jdk"); done
  if command -v javac >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")")
  fi
  for jdk in "${candidates[@]}"; do
    [ -n "$jdk" ] && [ -x "$jdk/bin/javac" ] && [ -x "$jdk/bin/java" ] || continue
    local major
    major="$("$jdk/bin/javac" -version 2>&1 | awk '{print $2}' | cut -d. -f1)"
    if [[ "$major" =~ ^[0-9]+$ ]] && [ "$major" -ge 25 ]; then
      echo "$jdk"
      return 0
    fi
  done
  return 1
}
if ! JDK="$(find_jdk)"; then
  cannot_run "no JDK 25 or newer found (set JAVA_HOME)${driver_state:+; $driver_state}"
fi
say "jdk: $JDK ($("$JDK/bin/java" -version 2>&1 | head -1))"

# 3. The CUDA runtime: the engine loads libcudart.so.13, then .so.12, from the loader path unless
#    KVFLEET_CUDA_LIBRARY names one; look in the usual places when the loader does not know it.
if [ -z "${KVFLEET_CUDA_LIBRARY:-}" ] \
    && ! ldconfig -p 2>/dev/null | grep -qE 'libcudart\.so\.1[23] '; then
  sites=""
  if command -v python3 >/dev/null 2>&1; then
    sites="$(python3 -c 'import site; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null || true)"
  fi
  found=""
  for candidate in /usr/local/cuda*/lib64/libcudart.so.1[23] /usr/local/cuda*/targets/*/lib/libcudart.so.1[23] \
      $(for s in $sites; do echo "$s"/nvidia/cuda_runtime/lib/libcudart.so.1[23] "$s"/nvidia/cu13/lib/libcudart.so.13; done); do
    if [ -e "$candidate" ]; then found="$candidate"; break; fi
  done
  if [ -n "$found" ]; then
    export KVFLEET_CUDA_LIBRARY="$found"
  fi
fi
say "cuda runtime: ${KVFLEET_CUDA_LIBRARY:-libcudart.so.13 or libcudart.so.12 from the loader path}"

# 4. Build: the engine's sources and the check's four files, nothing else.
rm -rf "$OUT/classes"
mkdir -p "$OUT/classes"
find "$MODULE/src/main/java" -name '*.java' >"$OUT/sources.txt"
for file in GpuCheck IpcExporterMain Patterns ClassPaths; do
  echo "$MODULE/src/test/java/io/kvfleet/engine/cuda/$file.java" >>"$OUT/sources.txt"
done
"$JDK/bin/javac" --release 25 -nowarn -Xlint:none -d "$OUT/classes" @"$OUT/sources.txt"
cp -R "$MODULE/src/main/resources/." "$OUT/classes/"
say "built in ${SECONDS}s"

# 5. Run, within what is left of the budget.
left=$((BUDGET_S - SECONDS))
set +e
timeout --kill-after=10 "$left" "$JDK/bin/java" --enable-native-access=ALL-UNNAMED -Xmx2g \
  -cp "$OUT/classes" io.kvfleet.engine.cuda.GpuCheck "$SIZE_MIB"
status=$?
set -e
case "$status" in
  0) say "PASS in ${SECONDS}s" ;;
  2) say "SKIPPED: nothing could run here; the reason and the remedy are printed above" ;;
  124 | 137) say "FAIL: did not finish within ${left}s"; status=124 ;;
  *) say "FAIL (exit $status) in ${SECONDS}s" ;;
esac
exit "$status"
