#!/usr/bin/env python3
"""Contact-dynamics solver benchmark: residual against iterations and time on settled piles.

Runs build/bin/grainlab-ccp-bench on the 1,000-sphere pile (resources/scenes/rigid_pile.json, settled
for 400 steps) and the 20,000-sphere bed (resources/scenes/rigid_bed_20k.json), friction 0.5, each
solver from a cold start, and writes per pile a CSV (solver, iteration, seconds, residual) and a
Markdown table of the iterations and seconds each solver needs to reach given residuals.

    python3 scripts/ccp_benchmark.py [--out output/ccp_benchmark] [--threads 1] [--siconos]

With --siconos (grainlab-ccp-bench built with Debian's libsiconos-numerics-dev), the 1,000 pile's
problem is also solved by Siconos fc3d NSGS, NSN-AC and ADMM at tolerances 1e-2..1e-8 and by
nbgs-maxdiss with growing iteration limits, all scored by the same Coulomb residual
(pile_1k_siconos.csv).
"""
import argparse
import csv
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PILES = [
    ("pile_1k", "resources/scenes/rigid_pile.json", 400, 2000),
    ("bed_20k", "resources/scenes/rigid_bed_20k.json", 3, 500),
]
THRESHOLDS = [1e-2, 1e-3, 1e-4, 1e-6]


def first_below(rows, threshold):
    for row in rows:
        if row["residual"] <= threshold:
            return row
    return None


def table(csv_path):
    by_solver = {}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            by_solver.setdefault(row["solver"], []).append(
                {"iteration": int(row["iteration"]), "seconds": float(row["seconds"]), "residual": float(row["residual"])})
    header = "| solver | " + " | ".join(f"to {t:g}: iterations, s" for t in THRESHOLDS) + " | final residual |"
    lines = [header, "|" + "---|" * (len(THRESHOLDS) + 2)]
    for solver, rows in by_solver.items():
        cells = []
        for t in THRESHOLDS:
            hit = first_below(rows, t)
            cells.append(f"{hit['iteration']}, {hit['seconds']:.3g}" if hit else "not reached")
        lines.append(f"| {solver} | " + " | ".join(cells) + f" | {rows[-1]['residual']:.2e} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "output" / "ccp_benchmark"))
    parser.add_argument("--threads", default="1")
    parser.add_argument("--siconos", action="store_true", help="also compare with Siconos on the 1,000 pile")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bench = ROOT / "build" / "bin" / "grainlab-ccp-bench"
    report = []
    for name, scene, settle, iterations in PILES:
        csv_path = out / f"{name}.csv"
        command = [str(bench), str(ROOT / scene), "--settle", str(settle), "--iterations", str(iterations),
                   "--threads", args.threads, "--csv", str(csv_path)]
        if args.siconos and name == "pile_1k":
            command += ["--siconos", str(out / f"{name}_siconos.csv")]
        print("running:", " ".join(command), flush=True)
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"ccp_benchmark: {name} failed: {result.stderr.strip()}")
        report.append(f"## {name}\n\n```\n{result.stdout.strip()}\n```\n\n{table(csv_path)}\n")
    (out / "report.md").write_text("\n".join(report))
    print("\n".join(report))


if __name__ == "__main__":
    main()
