#!/usr/bin/env python3
"""Writes the polyhedral example scenes in resources/scenes/ (the outputs are committed).

  cubes564.json  Example 5 of Gay Neto & Wriggers (seed 003): 564 cubes of side 0.1 m with random
                 orientations on a lattice (23 layers of 5 x 5, pitch 0.18 m, more than the 0.173 m
                 bounding diameter, so none overlap) fall into a box with a 1.0 m square bottom; the
                 four side walls are removed at 2.5 s and the pack collapses on the ground.
  tetrapods.json 60 tetrapods (tips at 0.1 m) and 40 L blocks dropped on the ground in a box: the
                 non-convex shapes interlocking, a quick demonstration.

The barrier exponent is -2: its energy eps2 / g grows without bound as the gap closes, so a cube
falling from the top layer (about 9 m/s at impact) is stopped on one corner at a gap of ~0.025 gbb;
with -1 (energy eps2 ln(gbb / g)) it would need a gap of 1e-12 m.

Why a script: hundreds of bodies with seeded random orientations are easier to generate than to
write by hand, and the layout (pitch against bounding diameter) is checked here.

Usage: python3 scripts/make_polyhedra_scenes.py   (standard library only)
"""

import json
import math
import os
import random

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "scenes")


def random_quaternion(rng):
    """Uniform on the rotation group (Shoemake)."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    return [b * math.cos(2 * math.pi * u3), a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2),
            b * math.sin(2 * math.pi * u3)]


def lattice(count, per_row, pitch, z0, rng, shapes):
    bodies = []
    offset = (per_row - 1) / 2.0
    for k in range(count):
        layer, cell = divmod(k, per_row * per_row)
        i, j = divmod(cell, per_row)
        bodies.append({"shape": shapes[k % len(shapes)], "material": "rock",
                       "position": [round((i - offset) * pitch, 6), round((j - offset) * pitch, 6),
                                    round(z0 + layer * pitch, 6)],
                       "orientation": [round(c, 12) for c in random_quaternion(rng)]})
    return bodies


def box_walls(half, remove_at=None):
    walls = [{"type": "plane", "name": "ground", "point": [0, 0, 0], "normal": [0, 0, 1], "material": "rock"}]
    for name, point, normal in (("left", [-half, 0, 0], [1, 0, 0]), ("right", [half, 0, 0], [-1, 0, 0]),
                                ("front", [0, -half, 0], [0, 1, 0]), ("back", [0, half, 0], [0, -1, 0])):
        wall = {"type": "plane", "name": name, "point": point, "normal": normal, "material": "rock"}
        if remove_at is not None:
            wall["remove_at"] = remove_at
        walls.append(wall)
    return walls


def barrier(stiffness):
    return {"name": "polyhedral-barrier",
            "parameters": {"stiffness": stiffness, "skin": 0.001, "barrier_exponent": -2, "damping_ratio": 0.5,
                           "tangential_stiffness": 1e6, "tangential_damping_ratio": 0.3,
                           "static_friction": 0.5, "dynamic_friction": 0.5}}


def scene(name, description, shapes, bodies, walls, domain, stiffness, time, every):
    return {
        "format": "grainlab-scene", "version": 1, "name": name, "description": description,
        "materials": [{"name": "rock", "density": 2500, "friction": 0.5}],
        "shapes": shapes, "bodies": bodies, "walls": walls,
        "domain": domain, "gravity": [0, 0, -9.81],
        "plugins": {"integrator": {"name": "velocity-verlet", "parameters": {}}, "contact_model": barrier(stiffness)},
        "time_step": 1e-4, "skin": 0.02,
        "run": {"time": time},
        "output": {"directory": "output/" + os.path.splitext(name)[0], "every_steps": every, "contacts": True},
    }


def main():
    rng = random.Random(564)
    side, pitch = 0.1, 0.18
    assert pitch > side * math.sqrt(3.0)
    cube = [{"name": "cube", "kind": "polyhedron", "file": "../shapes/cube.stl", "scale": side}]
    cubes = lattice(564, 5, pitch, 0.1, rng, ["cube"])
    assert max(abs(b["position"][0]) for b in cubes) + side * math.sqrt(3.0) / 2 < 0.5
    doc = scene("cubes564", "564 cubes (side 0.1 m) fall into a box with a 1 m square bottom; the side walls are "
                "removed at 2.5 s (Gay Neto & Wriggers, example 5).", cube, cubes, box_walls(0.5, 2.5),
                {"min": [-3, -3, -0.5], "max": [3, 3, 5]}, 1e7, 4.0, 2000)
    with open(os.path.join(OUT_DIR, "cubes564.json"), "w", encoding="ascii", newline="\n") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")

    shapes = [{"name": "tetrapod", "kind": "polyhedron", "file": "../shapes/tetrapod.stl", "scale": 0.1},
              {"name": "lblock", "kind": "polyhedron", "file": "../shapes/lblock.ply", "scale": 0.15}]
    mixed = lattice(100, 4, 0.22, 0.15, rng, ["tetrapod", "tetrapod", "tetrapod", "lblock", "lblock"])
    doc = scene("tetrapods", "60 tetrapods and 40 L blocks, non-convex, dropped into a box.", shapes, mixed,
                box_walls(0.5), {"min": [-1, -1, -0.5], "max": [1, 1, 3]}, 1e7, 1.5, 1000)
    with open(os.path.join(OUT_DIR, "tetrapods.json"), "w", encoding="ascii", newline="\n") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote resources/scenes/cubes564.json and resources/scenes/tetrapods.json")


if __name__ == "__main__":
    main()
