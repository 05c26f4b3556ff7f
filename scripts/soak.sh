#!/usr/bin/env bash
# Soak test: a sped-up one-hour-equivalent run, sampling the resident memory of grainlab-cli.
#   bash scripts/soak.sh [STEPS]
# "One hour" is measured first: the steps per second of the drum scene (900 spheres, the README's
# example) times 3600 s. The soak then runs that many steps, with the drum scene's frame interval
# (2000 steps) and a checkpoint every 20000 steps, on the same drum with 100 spheres, so the same
# number of steps, frames, rows and checkpoints pass in a fraction of the time. Memory is sampled
# every second into output/soak/rss.csv; the script prints the figures docs/robustness.md reports.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/bin/grainlab-cli
[[ -x $cli ]] || bash scripts/setup.sh
out=$(pwd)/output/soak
rm -rf "$out"
mkdir -p "$out"
mesh=$(pwd)/resources/meshes/drum.stl

if [[ $# -ge 1 ]]; then
  steps=$1
else
  "$cli" run resources/scenes/drum.json --steps 2000 --output "$out/rate" --summary "$out/rate.json" >/dev/null
  rate=$(sed -n 's/.*"wall_seconds": \([0-9.e+-]*\).*/\1/p' "$out/rate.json")
  steps=$(awk -v s="$rate" 'BEGIN { printf "%d", 2000 / s * 3600 }')
  echo "soak: the drum scene runs $(awk -v s="$rate" 'BEGIN { printf "%.0f", 2000 / s }') steps/s here; one hour = $steps steps"
fi

sed -e 's/"count": 900/"count": 100/' -e "s|\"../meshes/drum.stl\"|\"$mesh\"|" \
    -e 's/"run": {"time": 2.0}/"run": {"steps": '"$steps"'}/' resources/scenes/drum.json >"$out/scene.json"

"$cli" run "$out/scene.json" --output "$out/run" --checkpoint-every "${SOAK_CHECKPOINT_EVERY:-20000}" --threads 1 >"$out/cli.log" 2>&1 &
pid=$!
start=$(date +%s)
echo "seconds,rss_kib" >"$out/rss.csv"
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
  [[ -n $rss ]] && echo "$(($(date +%s) - start)),$rss" >>"$out/rss.csv"
  sleep 1
done
wait "$pid"
elapsed=$(($(date +%s) - start))

# RSS after the first 10% of the samples (start-up done) against the last sample and the peak.
awk -F, -v steps="$steps" -v elapsed="$elapsed" 'NR > 1 { t[++n] = $1; r[n] = $2; if ($2 > peak) peak = $2 }
  END {
    early = int(n / 10) + 1
    printf "soak: %d steps in %d s; RSS %.1f MiB at %d s, %.1f MiB at the end (%d s), peak %.1f MiB; growth after start-up %+.1f MiB\n",
      steps, elapsed, r[early] / 1024, t[early], r[n] / 1024, t[n], peak / 1024, (r[n] - r[early]) / 1024
    for (q = 1; q <= 10; ++q) { k = int(n * q / 10); if (k < 1) k = 1; printf "  %3d%%  %6d s  %8.1f MiB\n", q * 10, t[k], r[k] / 1024 }
  }' "$out/rss.csv"
echo "soak: frames $(grep -c '<DataSet' "$out/run/particles.pvd"), energy rows $(($(wc -l <"$out/run/energy.csv") - 1)); samples in $out/rss.csv"
