#!/usr/bin/env python3
"""Writes the particle shapes shipped in resources/shapes/ (the outputs are committed).

  cube.stl       binary STL  unit cube centred at the origin, each square face two triangles
                             (the geometry of Gay Neto & Wriggers' examples 1-3, scaled per scene)
  box.obj        OBJ (quads) elongated box 1 x 1 x 3 along z, centred at the origin
  tetrapod.stl   ASCII STL   non-convex tetrapod: four pointed legs along the directions of a regular
                             tetrahedron, tips at radius 1, one tip along +z; the other three rest on
                             a plane at z = -1/3 with equal reactions (example 4 of the paper)
  lblock.ply     ASCII PLY   non-convex L-shaped block: the L (outer 1 x 1, arm width 0.4) in the xy
                             plane, extruded 0.4 along z
  cross.obj      OBJ         non-convex plus-shaped plate: arms of width 1/3 reaching +-0.5 in x and
                             y, thickness 1/3

Why these: the cube, tetrapod and elongated box are the paper's shapes and test cases; the L block
and the cross have concave edges, which exercise the normal-cone validity tests of the narrow phase.

Every shape is built from one shared vertex list and every face is oriented away from an interior
point, then checked for a positive volume before writing. Usage: python3 scripts/make_shapes.py
"""

import math
import os

from make_meshes import Mesh, cross, dot, signed_volume, sub, unit_normal, write_ascii_stl, write_binary_stl, write_obj

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "shapes")


def make_box(hx, hy, hz):
    mesh = Mesh()
    c = {}
    for x in (-hx, hx):
        for y in (-hy, hy):
            for z in (-hz, hz):
                c[(x, y, z)] = mesh.vertex(x, y, z)
    for axis in range(3):
        for sign in (-1, 1):
            corners = [k for k in c if k[axis] * sign > 0]
            # order the four corners around the face
            others = [a for a in range(3) if a != axis]
            corners.sort(key=lambda k: math.atan2(k[others[1]], k[others[0]]))
            away = tuple(sign if a == axis else 0 for a in range(3))
            mesh.add_face([c[k] for k in corners], away)
    return mesh


def make_tetrapod(valley=0.15):
    """A cube whose alternate corners are pulled out to the tips (radius 1) and pushed in to the
    valleys (radius `valley` < 1/3, inside the tips' convex hull, which makes it non-convex); each
    cube face is split along its valley-valley diagonal so every tip is a three-sided pyramid."""
    s = 1.0 / math.sqrt(3.0)
    # Rotation taking the cube diagonal (1,1,1) to +z, so one tip points up.
    def rotate(p):
        ax = (1.0 / math.sqrt(2.0), -1.0 / math.sqrt(2.0), 0.0)  # (1,1,1) x z, normalised
        angle = math.acos(s)
        c, sn = math.cos(angle), math.sin(angle)
        d = dot(ax, p)
        k = cross(ax, p)
        return tuple(p[i] * c + k[i] * sn + ax[i] * d * (1 - c) for i in range(3))

    mesh = Mesh()
    index = {}
    for x in (-1, 1):
        for y in (-1, 1):
            for z in (-1, 1):
                radius = 1.0 if x * y * z > 0 else valley
                index[(x, y, z)] = mesh.vertex(*rotate((x * s * radius, y * s * radius, z * s * radius)))
    for axis in range(3):
        for sign in (-1, 1):
            face = [k for k in index if k[axis] == sign]
            tips = [k for k in face if k[0] * k[1] * k[2] > 0]
            valleys = [k for k in face if k[0] * k[1] * k[2] < 0]
            for tip in tips:
                tri = [index[tip], index[valleys[0]], index[valleys[1]]]
                centre = tuple(sum(mesh.vertices[i][j] for i in tri) / 3.0 for j in range(3))
                mesh.add_face(tri, centre)  # away from the centre of the body
    return mesh


def extrude(outline, height):
    """Prism over a simple polygon given counter-clockwise in xy; caps fanned from outline[0], which
    must see every other corner (true for the L and the cross from a reflex corner)."""
    mesh = Mesh()
    bottom = [mesh.vertex(x, y, -height / 2) for x, y in outline]
    top = [mesh.vertex(x, y, height / 2) for x, y in outline]
    n = len(outline)
    for k in range(1, n - 1):
        mesh.faces.append([top[0], top[k], top[k + 1]])
        mesh.faces.append([bottom[0], bottom[k + 1], bottom[k]])
    for k in range(n):
        k1 = (k + 1) % n
        mesh.faces.append([bottom[k], bottom[k1], top[k1], top[k]])
    return mesh


def centre(mesh):
    """Shift so the mean vertex is the origin (the engine recentres on the centre of mass anyway)."""
    m = [sum(v[i] for v in mesh.vertices) / len(mesh.vertices) for i in range(3)]
    mesh.vertices = [tuple(v[i] - m[i] for i in range(3)) for v in mesh.vertices]
    return mesh


def write_ply(path, mesh, comment):
    triangles = list(mesh.triangles())
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write("ply\nformat ascii 1.0\n")
        f.write(f"comment {comment}\n")
        f.write(f"element vertex {len(mesh.vertices)}\nproperty float x\nproperty float y\nproperty float z\n")
        f.write(f"element face {len(triangles)}\nproperty list uchar int vertex_indices\nend_header\n")
        for v in mesh.vertices:
            f.write(f"{v[0]!r} {v[1]!r} {v[2]!r}\n")
        for t in triangles:
            f.write(f"3 {t[0]} {t[1]} {t[2]}\n")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    cube = make_box(0.5, 0.5, 0.5)
    assert abs(signed_volume(cube) - 1.0) < 1e-12
    write_binary_stl(os.path.join(OUT_DIR, "cube.stl"), cube, "GrainLab unit cube centred at the origin")

    box = make_box(0.5, 0.5, 1.5)
    assert abs(signed_volume(box) - 3.0) < 1e-12
    write_obj(os.path.join(OUT_DIR, "box.obj"), box, "GrainLab elongated box 1 x 1 x 3 centred at the origin")

    tetrapod = make_tetrapod()
    assert signed_volume(tetrapod) > 0
    write_ascii_stl(os.path.join(OUT_DIR, "tetrapod.stl"), tetrapod, "grainlab_tetrapod")

    a = 0.4
    lblock = centre(extrude([(a, a), (a, 1.0), (0.0, 1.0), (0.0, 0.0), (1.0, 0.0), (1.0, a)], a))
    assert abs(signed_volume(lblock) - (2 * a - a * a) * a) < 1e-12
    write_ply(os.path.join(OUT_DIR, "lblock.ply"), lblock, "GrainLab L block, outer 1 x 1, arm 0.4, thickness 0.4")

    h, w = 0.5, 1.0 / 6.0
    cross_plate = make_cross(h, w, 1.0 / 3.0)
    assert abs(signed_volume(cross_plate) - (4 * h * 2 * w - 4 * w * w) * (1.0 / 3.0)) < 1e-12
    write_obj(os.path.join(OUT_DIR, "cross.obj"), cross_plate, "GrainLab plus-shaped plate, arms +-0.5, width 1/3, thickness 1/3")

    for name in ("cube.stl", "box.obj", "tetrapod.stl", "lblock.ply", "cross.obj"):
        path = os.path.join(OUT_DIR, name)
        print(f"wrote {os.path.normpath(path)} ({os.path.getsize(path)} bytes)")


def make_cross(h, w, t):
    """Plus sign extruded by t: each cap is the centre square plus four arm rectangles, which share
    whole edges with it, so the caps are conforming (a single fan cannot cover a plus sign)."""
    mesh = Mesh()
    grid = {}
    coords = (-h, -w, w, h)
    for z in (-t / 2, t / 2):
        for x in coords:
            for y in coords:
                if abs(x) == h and abs(y) == h:
                    continue
                if (abs(x) == h and abs(y) == w) or (abs(y) == h and abs(x) == w) or (abs(x) == w and abs(y) == w):
                    grid[(x, y, z)] = mesh.vertex(x, y, z)
    cells = [(-w, w, -w, w), (w, h, -w, w), (-h, -w, -w, w), (-w, w, w, h), (-w, w, -h, -w)]
    for x0, x1, y0, y1 in cells:
        for z, sign in ((t / 2, 1), (-t / 2, -1)):
            ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            corners = [grid[(x, y, z)] for x, y in ring]
            mesh.add_face(corners, (0, 0, sign))
    # Side walls: the outline of the plus.
    outline = [(w, w), (w, h), (-w, h), (-w, w), (-h, w), (-h, -w), (-w, -w), (-w, -h), (w, -h), (w, -w), (h, -w), (h, w)]
    for k in range(len(outline)):
        (xa, ya), (xb, yb) = outline[k], outline[(k + 1) % len(outline)]
        # outward: perpendicular to the side, pointing to the right of the counter-clockwise walk
        away = (yb - ya, -(xb - xa), 0.0)
        quad = [grid[(xa, ya, -t / 2)], grid[(xb, yb, -t / 2)], grid[(xb, yb, t / 2)], grid[(xa, ya, t / 2)]]
        mesh.add_face(quad, away)
    return mesh


if __name__ == "__main__":
    main()
