#!/usr/bin/env python3
"""Writes the wall meshes shipped in resources/meshes/ (the outputs are committed).

  hopper.stl  binary STL  conical funnel along z: outlet radius 0.03 m at z = 0.1, widening to
                          0.15 m at z = 0.3, then a vertical section up to z = 0.5; open at the
                          top and at the outlet.
  drum.stl    ASCII STL   closed cylinder, radius 0.1 m, length 0.1 m along y, centred at the
                          origin, 48 segments, both end caps.
  box.obj     OBJ         open-top box 0.2 x 0.2 x 0.2 m (x, y in [-0.1, 0.1], z in [0, 0.2]),
                          written as quads so loading exercises triangulation.

Why: the example scenes need walls, and between them these files exercise every mesh path of
the loader (binary STL, ASCII STL, OBJ with polygons; open and closed surfaces).

Every surface is built from one shared vertex list, so coincident corners are bit-identical and
weld into a clean topology. Normals point away from the region the particles occupy (out of the
drum, away from the hopper axis, out of the box); the script checks this before writing.

Usage: python3 scripts/make_meshes.py   (standard library only)
"""

import math
import os
import struct

SEGMENTS = 48
OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "meshes")


def sub(u, v):
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def unit_normal(vertices, tri):
    a, b, c = (vertices[i] for i in tri)
    n = cross(sub(b, a), sub(c, a))
    length = math.sqrt(dot(n, n))
    return (n[0] / length, n[1] / length, n[2] / length)


def centroid(vertices, tri):
    a, b, c = (vertices[i] for i in tri)
    return tuple((a[k] + b[k] + c[k]) / 3.0 for k in range(3))


class Mesh:
    """Indexed triangles; add_face orients each face so its normal agrees with `away`."""

    def __init__(self):
        self.vertices = []
        self.faces = []  # polygons (triangles or quads), counter-clockwise seen from outside

    def vertex(self, x, y, z):
        self.vertices.append((x, y, z))
        return len(self.vertices) - 1

    def add_face(self, corners, away):
        n = cross(sub(self.vertices[corners[1]], self.vertices[corners[0]]),
                  sub(self.vertices[corners[2]], self.vertices[corners[0]]))
        self.faces.append(list(corners) if dot(n, away) > 0 else list(reversed(corners)))

    def triangles(self):
        for face in self.faces:
            for k in range(1, len(face) - 1):
                yield (face[0], face[k], face[k + 1])


def ring(mesh, radius, level, axis):
    """SEGMENTS vertices on a circle around the z axis (axis='z') or the y axis (axis='y')."""
    indices = []
    for k in range(SEGMENTS):
        angle = 2.0 * math.pi * k / SEGMENTS
        u, v = radius * math.cos(angle), radius * math.sin(angle)
        indices.append(mesh.vertex(u, v, level) if axis == "z" else mesh.vertex(u, level, v))
    return indices


def join_rings(mesh, lower, upper, radial):
    """Quads between two rings, split into triangles, facing along radial(angle_index)."""
    for k in range(SEGMENTS):
        k1 = (k + 1) % SEGMENTS
        mesh.add_face([lower[k], lower[k1], upper[k1]], radial(k))
        mesh.add_face([lower[k], upper[k1], upper[k]], radial(k))


def make_hopper():
    mesh = Mesh()
    outlet = ring(mesh, 0.03, 0.1, "z")
    shoulder = ring(mesh, 0.15, 0.3, "z")
    top = ring(mesh, 0.15, 0.5, "z")

    def radial(k):
        angle = 2.0 * math.pi * (k + 0.5) / SEGMENTS
        return (math.cos(angle), math.sin(angle), 0.0)

    join_rings(mesh, outlet, shoulder, radial)
    join_rings(mesh, shoulder, top, radial)
    return mesh


def make_drum():
    radius, length = 0.1, 0.1
    mesh = Mesh()
    back = ring(mesh, radius, -length / 2, "y")
    front = ring(mesh, radius, length / 2, "y")

    def radial(k):
        angle = 2.0 * math.pi * (k + 0.5) / SEGMENTS
        return (math.cos(angle), 0.0, math.sin(angle))

    join_rings(mesh, back, front, radial)
    for rim, level, outward in ((back, -length / 2, (0, -1, 0)), (front, length / 2, (0, 1, 0))):
        centre = mesh.vertex(0.0, level, 0.0)
        for k in range(SEGMENTS):
            mesh.add_face([centre, rim[k], rim[(k + 1) % SEGMENTS]], outward)
    return mesh


def make_box():
    h = 0.1
    mesh = Mesh()
    corner = {}
    for x in (-h, h):
        for y in (-h, h):
            for z in (0.0, 2 * h):
                corner[(x, y, z)] = mesh.vertex(x, y, z)
    c = lambda x, y, z: corner[(x, y, z)]  # noqa: E731
    top = 2 * h
    mesh.add_face([c(-h, -h, 0), c(h, -h, 0), c(h, h, 0), c(-h, h, 0)], (0, 0, -1))
    mesh.add_face([c(-h, -h, 0), c(h, -h, 0), c(h, -h, top), c(-h, -h, top)], (0, -1, 0))
    mesh.add_face([c(-h, h, 0), c(h, h, 0), c(h, h, top), c(-h, h, top)], (0, 1, 0))
    mesh.add_face([c(-h, -h, 0), c(-h, h, 0), c(-h, h, top), c(-h, -h, top)], (-1, 0, 0))
    mesh.add_face([c(h, -h, 0), c(h, h, 0), c(h, h, top), c(h, -h, top)], (1, 0, 0))
    return mesh


def signed_volume(mesh):
    return sum(dot(mesh.vertices[a], cross(mesh.vertices[b], mesh.vertices[c])) / 6.0
               for a, b, c in mesh.triangles())


def check_away_from(mesh, inside):
    """Every triangle faces away from the point `inside(centroid)` that particles occupy."""
    for tri in mesh.triangles():
        centre = centroid(mesh.vertices, tri)
        assert dot(unit_normal(mesh.vertices, tri), sub(centre, inside(centre))) > 0, tri


def write_binary_stl(path, mesh, header):
    triangles = list(mesh.triangles())
    with open(path, "wb") as f:
        f.write(header.encode("ascii").ljust(80, b" ")[:80])
        f.write(struct.pack("<I", len(triangles)))
        for tri in triangles:
            f.write(struct.pack("<3f", *unit_normal(mesh.vertices, tri)))
            for i in tri:
                f.write(struct.pack("<3f", *mesh.vertices[i]))
            f.write(struct.pack("<H", 0))


def write_ascii_stl(path, mesh, name):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(f"solid {name}\n")
        for tri in mesh.triangles():
            n = unit_normal(mesh.vertices, tri)
            f.write(f"  facet normal {n[0]!r} {n[1]!r} {n[2]!r}\n    outer loop\n")
            for i in tri:
                v = mesh.vertices[i]
                f.write(f"      vertex {v[0]!r} {v[1]!r} {v[2]!r}\n")
            f.write("    endloop\n  endfacet\n")
        f.write(f"endsolid {name}\n")


def write_obj(path, mesh, comment):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(f"# {comment}\n")
        for v in mesh.vertices:
            f.write(f"v {v[0]!r} {v[1]!r} {v[2]!r}\n")
        for face in mesh.faces:
            f.write("f " + " ".join(str(i + 1) for i in face) + "\n")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)

    hopper = make_hopper()
    check_away_from(hopper, lambda p: (0.0, 0.0, p[2]))
    write_binary_stl(os.path.join(OUT_DIR, "hopper.stl"), hopper,
                     "GrainLab hopper: funnel r 0.03-0.15 m, z 0.1-0.5 m, open ends")

    drum = make_drum()
    check_away_from(drum, lambda p: (0.0, 0.0, 0.0))
    polygon_area = 0.5 * SEGMENTS * 0.1 ** 2 * math.sin(2.0 * math.pi / SEGMENTS)
    assert abs(signed_volume(drum) - polygon_area * 0.1) < 1e-12, signed_volume(drum)
    write_ascii_stl(os.path.join(OUT_DIR, "drum.stl"), drum, "grainlab_drum")

    box = make_box()
    check_away_from(box, lambda p: (0.0, 0.0, 0.1))
    write_obj(os.path.join(OUT_DIR, "box.obj"), box,
              "GrainLab open-top box, 0.2 m cube, x,y in [-0.1,0.1], z in [0,0.2]")

    for name in ("hopper.stl", "drum.stl", "box.obj"):
        path = os.path.join(OUT_DIR, name)
        print(f"wrote {os.path.normpath(path)} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
