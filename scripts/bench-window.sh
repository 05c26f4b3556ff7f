#!/usr/bin/env bash
# Window benchmark: engine steps/s with the window open and refreshing against the same scene
# headless, and input latency meanwhile (the dense 50,653-bead column by default). Uses Xvfb when there is no display.
# Usage: bash scripts/bench-window.sh [SCENE] [WARMUP_STEPS] [STEPS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
bench=build/bin/grainlab-window-bench
if [[ -n "${DISPLAY:-}" ]]; then
  "$bench" "$@"
else
  xvfb-run -a -s "-screen 0 1600x1000x24" "$bench" "$@"
fi
