#pragma once
// A rigid polyhedral particle shape (Gay Neto & Wriggers, seed 003): a closed, consistently oriented
// triangle mesh in its body frame (origin at the centre of mass, axes along the principal axes of
// inertia), split into the sub-regions the narrow phase tests: faces, crease edges and vertices.
#include <cstdint>
#include <string>
#include <vector>

#include "grainlab/core/math.hpp"
#include "grainlab/geometry/triangle_mesh.hpp"

namespace grainlab {

// Volume, centre of mass and inertia tensor (about the centre of mass, unit density) of a closed,
// outward-wound triangle mesh, from signed tetrahedra (implementation note, section 3).
struct MassProperties {
    double volume = 0.0;
    Vec3 centroid = Vec3::Zero();
    Mat3 inertia = Mat3::Zero();  // per unit density, in the mesh's own axes
};
MassProperties massProperties(const TriangleMesh& mesh);

// A crease: an edge between two triangles that are not coplanar. Open boundary edges (wall meshes)
// have face1 = face0 and a virtual second normal lying in face0's plane, pointing away from it.
struct PolyhedronEdge {
    std::uint32_t v0 = 0, v1 = 0;
    std::uint32_t face0 = 0, face1 = 0;
    Vec3 normal0 = Vec3::UnitZ(), normal1 = Vec3::UnitZ();  // outward normals of the two sides
    // Unit directions from the edge into each side, perpendicular to the edge. A direction n is in
    // the edge's outward normal cone when n . inward0 <= 0 and n . inward1 <= 0 (empty if concave).
    Vec3 inward0 = Vec3::UnitX(), inward1 = Vec3::UnitX();
    bool convex = true;
};

// Faces, crease edges, vertices and the bounding spheres of each, all in one frame.
struct FeatureMesh {
    std::vector<Vec3> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;
    std::vector<Vec3> face_normals;          // unit, outward
    std::vector<std::uint32_t> facet;        // coplanar, edge-connected triangles share a facet id
    std::vector<PolyhedronEdge> edges;       // creases only: flat edges are not sub-regions
    std::vector<std::uint32_t> neighbor_start, neighbors;  // vertex adjacency (CSR), all edges
    std::vector<std::uint8_t> corner;        // vertex touches a crease (others lie inside a flat facet)
    std::vector<std::uint8_t> supporting;    // the whole mesh lies behind this triangle's plane
    std::vector<Vec3> face_centre;           // bounding sphere of each triangle
    std::vector<double> face_radius;
    double bounding_radius = 0.0;            // about the frame origin

    // Recomputes normals, facets, creases, adjacency and bounds from vertices and triangles.
    // Edges used by one triangle become boundary creases; edges used by more are not allowed.
    void build(double flat_tolerance = 1e-6);
    // Moves the vertices (same topology) and refreshes normals, edge normals and bounds.
    void place(const std::vector<Vec3>& new_vertices);
    // Writes this mesh rotated by q and moved by x into `out` (topology copied when it differs).
    void transformInto(const Quat& q, const Vec3& x, FeatureMesh& out) const;
};

struct Polyhedron {
    FeatureMesh features;       // body frame
    double volume = 0.0;
    Vec3 principal_inertia = Vec3::Zero();  // per unit density, body frame
    Vec3 mesh_centroid = Vec3::Zero();      // centre of mass in the (scaled) file's coordinates
    Quat body_to_mesh = Quat::Identity();   // rotates body-frame vectors into the file's axes
};

// Builds the shape from a loaded mesh scaled by `scale`. With repair_orientation, minority-flipped
// triangles are turned and an inside-out mesh is inverted; otherwise an inconsistently oriented or
// inside-out mesh is refused. Open, non-manifold or degenerate meshes are refused naming the
// defects and their counts. Errors are InputError(file, "", ...).
Polyhedron makePolyhedron(TriangleMesh mesh, double scale, bool repair_orientation,
                          const std::string& file);

// loadMesh (weld, drop zero-area triangles, check) followed by makePolyhedron.
Polyhedron loadPolyhedron(const std::string& path, double scale, bool repair_orientation);

}  // namespace grainlab
