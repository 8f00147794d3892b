#!/usr/bin/env bash
# Re-runs the sweeps of docs/studies/ and copies each chart the sweep made
# (sweep.html) to docs/studies/<study>.html; prints each results table.
# Usage: scripts/run-studies.sh [accel-vp] [work dir]   (defaults: build/accel-vp, build/studies)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
avp=${1:-$root/build/accel-vp}
work=${2:-$root/build/studies}
mkdir -p "$work"
study() {  # name, then the sweep's arguments
  local name=$1
  shift
  rm -rf "${work:?}/$name"
  "$avp" --no-progress -o "$work/$name" sweep "$@" > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; exit 1; }
  cp "$work/$name/sweep.html" "$root/docs/studies/$name.html"
  echo "== $name"
  cat "$work/$name/results.csv"
}
study vecadd-harts --workload vecadd --param platform.harts_per_core=1,2,4,8 --param platform.cores=1,2 \
  --metrics simulated_time_ns,cmp.kernel_latency.mean,harts.instructions.value
study matmul-harts --workload matmul --param platform.harts_per_core=1,2,4,8 --param platform.cores=1,2 \
  --metrics simulated_time_ns,cmp.kernel_latency.mean,harts.instructions.value
study dma-double-buffering --workload stream-direct,stream-dma --param dram.read_latency=25ns,50ns,100ns,200ns,400ns \
  --metrics simulated_time_ns,cmp.kernel_latency.mean,dma.bytes.value,harts.hart0.dcache_misses.value
study vecadd-link --workload vecadd --param link.generation=1,2,3,4,5 \
  --metrics simulated_time_ns,link.read_latency.mean,link.down.busy.fraction
study acceldev-link --workload acceldev --param link.generation=1,2,3,4,5 --param link.lanes=4,16 \
  --metrics simulated_time_ns,link.up.busy.fraction
