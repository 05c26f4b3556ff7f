#!/usr/bin/env python3
"""Variational integrator against velocity Verlet: accuracy per time step, cost per step and per
particle, and the largest step each keeps stable (docs/variational-benchmark.md reports a run).

Dimensionless set-up of De Klerk et al.: d = m = g = 1, kn = 195000, gamma_t = gamma_n/2, kt = 0, no
Coulomb cap. t_c = pi sqrt(m/(2 kn)) is the pair contact time.

  python3 scripts/benchmark_variational.py [--cli build/bin/grainlab-cli] [--threads 1] [--quick]
                                           [--accuracy-only]

Accuracy: the offset impact (dy/d = 0.1, gamma_n = 30) is deterministic, so the error of the total
translational and rotational kinetic energy after the collision against a converged solution of the same
law (scripts/offset_impact_reference.py: RK4 with the contact's end located, independent of both
integrators; velocity Verlet at t_c/30000 is printed against it as a check) measures each integrator's
accuracy at each step. Where contact starts within a step matters, so each step size runs five onset
phases (0, 0.2, ..., 0.8 of a step) and the worst error is reported. Cost: wall time per step of the 218-sphere settling
box (resources/scenes/variational_box.json) and of a 10,000-sphere column (simple cubic lattice in a
box, settling under its weight). Stability: every run is checked for a completed status; the engine
refuses steps above the contact model's limit t_c/10, so larger steps cannot be tried.
"""
import argparse
import copy
import json
import math
import pathlib
import resource
import subprocess
import sys
import tempfile

import offset_impact_reference

ROOT = pathlib.Path(__file__).resolve().parent.parent
KN = 195000.0
TC = math.pi * math.sqrt(0.5 / KN)
DENSITY = 6.0 / math.pi


def base_scene(integrator, gamma_n, h):
    return {
        "format": "grainlab-scene", "version": 1, "name": "benchmark",
        "materials": [{"name": "grain", "density": DENSITY, "friction": 1e9}],
        "gravity": [0, 0, 0],
        "plugins": {
            "integrator": {"name": integrator, "parameters": {}},
            "contact_model": {"name": "hooke",
                              "parameters": {"kn": KN, "kt": 0, "gamma_n": gamma_n, "gamma_t": 0.5 * gamma_n}},
        },
        "time_step": h,
        "output": {"every_steps": 0},
    }


def box_walls(side_x, side_y):
    def plane(name, point, normal):
        return {"type": "plane", "name": name, "point": point, "normal": normal, "material": "grain"}
    return [plane("floor", [0, 0, 0], [0, 0, 1]), plane("x0", [0, 0, 0], [1, 0, 0]),
            plane("x1", [side_x, 0, 0], [-1, 0, 0]), plane("y0", [0, 0, 0], [0, 1, 0]),
            plane("y1", [0, side_y, 0], [0, -1, 0])]


def run(cli, scene, threads, work, label):
    folder = pathlib.Path(work) / label
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "scene.json"
    path.write_text(json.dumps(scene))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([cli, "run", str(path), "--threads", str(threads), "--output", str(folder / "out")],
                          capture_output=True, text=True)
    if done.returncode not in (0, 3):
        sys.exit(f"{label}: grainlab-cli failed ({done.returncode}): {done.stderr.strip()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = json.loads((folder / "out" / "summary.json").read_text())
    # CPU time of the run (set-up included): on a shared machine wall time mostly measures the wait.
    summary["cpu_seconds"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return summary


PHASES = (0.0, 0.2, 0.4, 0.6, 0.8)


def offset_impact(integrator, h, end_time, phase=0.4):
    dy, v = 0.1, 1.0
    x0 = 0.5 * math.sqrt(1.0 - dy * dy) + 0.002 + phase * h * v
    s = base_scene(integrator, 30.0, h)
    s["bodies"] = [
        {"material": "grain", "radius": 0.5, "position": [-x0, -0.5 * dy, 0], "velocity": [v, 0, 0]},
        {"material": "grain", "radius": 0.5, "position": [x0, 0.5 * dy, 0], "velocity": [-v, 0, 0]},
    ]
    s["run"] = {"time": end_time}
    return s


def settling_box(integrator, h, time):
    s = json.loads((ROOT / "resources/scenes/variational_box.json").read_text())
    s["plugins"]["integrator"] = {"name": integrator, "parameters": {}}
    s["time_step"] = h
    s["run"] = {"time": time}
    s["output"] = {"every_steps": 0}
    return s


def column(integrator, h, steps, n_side=20, layers=25):
    s = base_scene(integrator, 100.0, h)
    s["gravity"] = [0, 0, -1]
    s["generators"] = [{"type": "lattice", "kind": "simple_cubic", "material": "grain", "origin": [0.5, 0.5, 0.5],
                        "counts": [n_side, n_side, layers], "radius": 0.5, "spacing": 1.0}]
    s["walls"] = box_walls(float(n_side), float(n_side))
    s["domain"] = {"min": [-1, -1, -1], "max": [n_side + 1, n_side + 1, layers + 5]}
    s["run"] = {"steps": steps}
    return s


def stats(summary):
    st = summary.get("integrator_statistics", {})
    return st.get("newton_iterations_per_step_mean", 0.0), st.get("cg_iterations_per_step_mean", 0.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=str(ROOT / "build/bin/grainlab-cli"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="fewer steps (a smoke test of the script)")
    parser.add_argument("--accuracy-only", action="store_true", help="the offset-impact accuracy table only")
    args = parser.parse_args()
    integrators = ["variational", "velocity-verlet"]
    divisions = [10, 16.1, 20, 32, 40, 80, 160, 320, 1000]
    with tempfile.TemporaryDirectory() as work:
        print(f"t_c = {TC:.6g}; threads = {args.threads}\n")
        print("## Accuracy: offset impact, error of kinetic energies after the collision\n")
        end = 0.004 + 2 * TC
        # Both spheres end with the same energies (the set-up is symmetric under a half turn about z).
        ref_k, ref_r = (2 * e for e in offset_impact_reference.right_sphere_energies(kn=KN))
        print(f"reference (RK4, contact end located): kinetic {ref_k:.10g}, rotational {ref_r:.10g}")
        fine = run(args.cli, offset_impact("velocity-verlet", TC / 30000, end), args.threads, work, "fine")
        fine_k, fine_r = fine["final_energy"]["kinetic"], fine["final_energy"]["rotational"]
        print(f"velocity Verlet at t_c/30000 against it: kinetic {fine_k / ref_k - 1:+.2e}, "
              f"rotational {fine_r / ref_r - 1:+.2e}\n")
        print("| h | integrator | kinetic error | rotational error | Newton/step | CG/step |")
        print("|---|---|---|---|---|---|")
        for div in divisions:
            for name in integrators:
                errors_k, errors_r, newton, cg = [], [], 0.0, 0.0
                for phase in PHASES:
                    s = run(args.cli, offset_impact(name, TC / div, end, phase), args.threads, work,
                            f"impact-{name}-{div}-{phase}")
                    errors_k.append(abs(s["final_energy"]["kinetic"] / ref_k - 1))
                    errors_r.append(abs(s["final_energy"]["rotational"] / ref_r - 1))
                    newton, cg = (a + b / len(PHASES) for a, b in zip((newton, cg), stats(s)))
                print(f"| t_c/{div:g} | {name} | {max(errors_k):.2e} | {max(errors_r):.2e} | "
                      f"{newton:.2f} | {cg:.1f} |")
        if args.accuracy_only:
            return

        print("\n## Cost: wall time per step and per particle-step\n")
        print("CPU time per step: the run's CPU time less that of a one-step run of the same scene (set-up).\n")
        print("| case | h | integrator | steps | status | wall s/step | CPU s/step | CPU us/particle-step | "
              "Newton/step | CG/step |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        box_time = 0.5 if args.quick else 4.0
        column_steps = 20 if args.quick else 200
        for div in (10, 20):
            for name in integrators:
                cases = [("settling box, 218", settling_box(name, TC / div, box_time)),
                         ("column, 10,000", column(name, TC / div, column_steps))]
                for case, scene in cases:
                    s = run(args.cli, scene, args.threads, work, f"cost-{case[:4]}-{name}-{div}")
                    # The same scene for one step: its CPU time is the set-up's, taken off the run's.
                    one = copy.deepcopy(scene)
                    one["run"] = {"steps": 1}
                    setup = run(args.cli, one, args.threads, work, f"setup-{case[:4]}-{name}-{div}")
                    steps = max(s["steps"] - 1, 1)
                    wall = s["wall_seconds"] / max(s["steps"], 1)
                    cpu = max(s["cpu_seconds"] - setup["cpu_seconds"], 0.0) / steps
                    newton, cg = stats(s)
                    print(f"| {case} | t_c/{div:g} | {name} | {s['steps']} | {s['status']} | {wall:.3g} | {cpu:.3g} | "
                          f"{1e6 * cpu / s['bodies']:.3g} | {newton:.2f} | {cg:.1f} |")


if __name__ == "__main__":
    main()
