#!/usr/bin/env python3
"""Contact-dynamics solver benchmark: residual against iterations and time on settled piles.

Runs build/bin/grainlab-ccp-bench on the 1,000-sphere pile (resources/scenes/rigid_pile.json, settled
for 400 steps) and the 20,000-sphere pile (resources/scenes/rigid_pile_20k.json: poured once by
grainlab-cli on two threads, about 10 minutes, checkpointed to <out>/pile_20k_poured.glc and reused,
then settled 40 steps more), friction 0.5, each solver from a cold start, and writes per pile a CSV
(solver, iteration, seconds, residual) and a Markdown table of the iterations and seconds each solver
needs to reach given residuals. `--piles bed_20k` adds the 20,000-sphere hcp crystal
(resources/scenes/rigid_bed_20k.json), a harder, hyperstatic problem.

    python3 scripts/ccp_benchmark.py [--out output/ccp_benchmark] [--threads 1] [--siconos] [--warm-start]
                                     [--siconos-solvers nsgs ...] [--piles pile_1k pile_20k bed_20k]

With --siconos (grainlab-ccp-bench built with Debian's libsiconos-numerics-dev), each pile's problem
is also solved by Siconos fc3d (--siconos-solvers) at tolerances 1e-2..1e-8 and by our Coulomb
solvers (ccp-apgd with coulomb = 1, nbgs-maxdiss) with growing iteration limits, all scored by the
same Coulomb residual (<pile>_siconos.csv, summarised in report.md).

With --warm-start (needs the Siconos build too), each pile is settled and the last step's problem
solved from the engine's warm start of that step, by Siconos and by ours, both stopped at tolerances
on their own error and scored by the same Coulomb residual, in two interleaved rounds
(<pile>_warm_siconos.csv; the time to 1e-4 and 1e-8 in report.md). The two piles take about an hour.
"""
import argparse
import csv
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# name, scene, settling steps, iterations per CCP solver, Siconos iteration limit, our Coulomb limits
PILES = [
    ("pile_1k", "resources/scenes/rigid_pile.json", 400, 2000, 5000, [300, 1000, 2000, 3000, 5000]),
    ("pile_20k", "resources/scenes/rigid_pile_20k.json", 40, 1000, 3000, [1000, 3000]),
    ("bed_20k", "resources/scenes/rigid_bed_20k.json", 3, 500, 1000, [300, 1000]),
]
# Piles poured once from their scene (its run, checkpointed) and then settled by the benchmark with this
# solver: gentler stabilisation (penetration removed at 2 cm/s, a fifth per step) and 200 iterations
# let the 20 layers come to rest, where the pour's own 0.6 m/s recovery kept them bouncing.
POURED = {"pile_20k": "ccp-apgd:max_iterations=200,max_recovery_speed=0.02,error_reduction=0.2"}
SOLVERS = ["ccp-pgs", "ccp-jacobi", "ccp-apgd", "nbgs-maxdiss", "ccp-apgd:coulomb=1"]
COULOMB_SOLVERS = ["ccp-apgd:coulomb=1", "nbgs-maxdiss"]
THRESHOLDS = [1e-2, 1e-3, 1e-4, 1e-6]
# Warm-started comparison: name, scene, settling steps, Siconos tolerances, our tolerances, limit (both
# sides), our solvers. Siconos's tolerance 1e-4 stops NSGS just above 1e-4 in our formula (1.006e-4 on
# the pile), hence also 9e-5. On the bed neither side reaches 1e-4 within the limit, so one run per side
# and round gives the best residual (a run at 1e-8 would repeat the same iterates to the same limit).
WARM = [
    ("pile_1k", "resources/scenes/rigid_pile.json", 400, [1e-4, 9e-5, 1e-8], [1e-4, 1e-8], 10000,
     ["ccp-apgd:coulomb=1", "nbgs-maxdiss"]),
    ("pile_20k", "resources/scenes/rigid_pile_20k.json", 40, [1e-4], [1e-4], 10000, ["ccp-apgd:coulomb=1"]),
    ("bed_20k", "resources/scenes/rigid_bed_20k.json", 40, [1e-4], [1e-4], 3000, ["ccp-apgd:coulomb=1"]),
]


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


def siconos_table(csv_path, targets=(1e-3, 1e-4, 1e-6, 1e-8)):
    """Per solver, the fastest run whose Coulomb residual is at or below each target, every round (';')."""
    rows = list(csv.DictReader(open(csv_path)))
    lines = ["| solver | " + " | ".join(f"to {t:g}: s (iterations)" for t in targets)
             + " | best residual: value (iterations, s) |", "|" + "---|" * (len(targets) + 2)]
    for solver in dict.fromkeys(row["solver"] for row in rows):
        runs = [r for r in rows if r["solver"] == solver]
        rounds = list(dict.fromkeys(r.get("round", "1") for r in runs))
        cells = []
        for t in targets:
            times = []
            for n in rounds:
                hits = [r for r in runs if r.get("round", "1") == n and float(r["coulomb_residual"]) <= t]
                best = min(hits, key=lambda r: float(r["seconds"])) if hits else None
                times.append(f"{float(best['seconds']):.3g} ({best['iterations']})" if best else "not reached")
            cells.append("; ".join(times))
        best = min(runs, key=lambda r: float(r["coulomb_residual"]))
        lines.append(f"| {solver} | " + " | ".join(cells)
                     + f" | {float(best['coulomb_residual']):.2e} ({best['iterations']}, {float(best['seconds']):.3g}) |")
    return "\n".join(lines)


def start_point(out, name, scene):
    """The bench's scene argument: the scene itself, or for a poured pile the checkpoint of its pour (run
    once by grainlab-cli on two threads, reused by the later runs) and the gentler settling solver."""
    if name not in POURED:
        return [str(ROOT / scene)]
    checkpoint = out / f"{name}_poured.glc"
    if not checkpoint.exists():
        with open(ROOT / scene) as f:
            settings = json.load(f)
        run_length = settings["run"]
        steps = run_length.get("steps") or round(run_length["time"] / settings["time_step"])
        run([str(ROOT / "build" / "bin" / "grainlab-cli"), "run", str(ROOT / scene), "--threads", "2",
             "--output", str(out / f"{name}_pour"), "--checkpoint-every", str(steps), "--checkpoint", str(checkpoint)],
            f"{name} pour")
    return [str(checkpoint), "--settle-solver", POURED[name]]


def run(command, name):
    print("running:", " ".join(command), flush=True)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"ccp_benchmark: {name} failed: {result.stderr.strip()}")
    return result.stdout.strip()


def warm_section(bench, out, threads, name, scene, settle, siconos_tolerances, tolerances, limit, solvers):
    """Siconos NSGS and ours from the engine's warm start of the benchmarked step, two interleaved rounds."""
    siconos_csv = out / f"{name}_warm_siconos.csv"
    command = [str(bench), *start_point(out, name, scene), "--settle", str(settle), "--warm-start", "--iterations", "1",
               "--solvers", "ccp-apgd", "--threads", threads, "--csv", str(out / f"{name}_warm.csv"),
               "--siconos", str(siconos_csv), "--siconos-solvers", "nsgs",
               "--siconos-tolerances", *map(str, siconos_tolerances), "--siconos-limit", str(limit),
               "--coulomb-solvers", *solvers, "--coulomb-limits", "0", "--coulomb-tolerances", *map(str, tolerances),
               "--rounds", "2"]
    stdout = run(command, name)
    return (f"## {name}, warm start\n\n```\n{stdout}\n```\n\nCoulomb residual, Siconos and ours (rounds 1; 2):\n\n"
            f"{siconos_table(siconos_csv, targets=(1e-4, 1e-8))}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "output" / "ccp_benchmark"))
    parser.add_argument("--threads", default="1")
    parser.add_argument("--siconos", action="store_true", help="also compare with Siconos")
    parser.add_argument("--siconos-solvers", nargs="+", default=["nsgs"], help="Siconos fc3d solvers")
    parser.add_argument("--warm-start", action="store_true",
                        help="also the warm-started comparison with Siconos (about an hour for both piles)")
    parser.add_argument("--piles", nargs="+", default=["pile_1k", "pile_20k"],
                        help="which piles: pile_1k, pile_20k, bed_20k (the hcp crystal)")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bench = ROOT / "build" / "bin" / "grainlab-ccp-bench"
    report = []
    for name, scene, settle, iterations, siconos_limit, coulomb_limits in PILES:
        if name not in args.piles:
            continue
        csv_path = out / f"{name}.csv"
        siconos_csv = out / f"{name}_siconos.csv"
        command = [str(bench), *start_point(out, name, scene), "--settle", str(settle), "--iterations", str(iterations),
                   "--threads", args.threads, "--csv", str(csv_path), "--solvers", *SOLVERS]
        if args.siconos:
            command += ["--siconos", str(siconos_csv), "--siconos-solvers", *args.siconos_solvers,
                        "--siconos-limit", str(siconos_limit), "--coulomb-solvers", *COULOMB_SOLVERS,
                        "--coulomb-limits", *map(str, coulomb_limits)]
        section = f"## {name}\n\n```\n{run(command, name)}\n```\n\n{table(csv_path)}\n"
        if args.siconos:
            section += f"\nCoulomb residual, Siconos and ours:\n\n{siconos_table(siconos_csv)}\n"
        report.append(section)
    if args.warm_start:
        for name, *rest in WARM:
            if name in args.piles:
                report.append(warm_section(bench, out, args.threads, name, *rest))
    (out / "report.md").write_text("\n".join(report))
    print("\n".join(report))


if __name__ == "__main__":
    main()
