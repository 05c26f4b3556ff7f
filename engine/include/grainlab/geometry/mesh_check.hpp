#pragma once
// Topology checks and repairs for triangle meshes: what loadMesh reports about a wall file, and
// what particle shapes will need before their volume and inertia can be trusted.
#include <cstddef>
#include <string>
#include <vector>

#include "grainlab/geometry/triangle_mesh.hpp"

namespace grainlab {

// Tolerances are relative to the mesh's bounding-box diagonal, so they work at any scale.
inline constexpr double kMeshRelativeTolerance = 1e-9;

// The vertices' bounding box (both corners at the origin for no vertices).
struct VertexBox {
    Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();
    double diagonal() const { return (hi - lo).norm(); }
};
VertexBox boundingBox(const std::vector<Vec3>& vertices);

// The diagonal of the vertices' bounding box, the scale of those tolerances (0 for no vertices;
// not finite where the coordinates span too large a range).
inline double boundingDiagonal(const std::vector<Vec3>& vertices) { return boundingBox(vertices).diagonal(); }

struct MeshReport {
    std::size_t welded_vertices = 0;       // duplicates merged while loading (0 from checkMesh)
    std::size_t degenerate_triangles = 0;  // zero/near-zero area (removed by loadMesh)
    std::size_t open_edges = 0;            // edges used by exactly one triangle
    std::size_t non_manifold_edges = 0;    // edges used by more than two triangles
    std::size_t flipped_faces = 0;  // minority orientation within each connected component
    std::size_t non_orientable_components = 0;  // e.g. a Moebius strip: no flip set can fix it

    // Every edge is shared by exactly two triangles, so the mesh bounds a volume.
    bool closed() const { return open_edges == 0 && non_manifold_edges == 0; }
    // Neighbours across every manifold edge traverse it in opposite directions.
    bool consistentlyOriented() const {
        return flipped_faces == 0 && non_orientable_components == 0;
    }
    // "3 open edges, 1 zero-area triangle" or "closed, consistently oriented".
    std::string describe() const;
};

// Analyses the mesh as given (no welding): open, non-manifold and degenerate parts, orientation.
MeshReport checkMesh(const TriangleMesh& mesh);

// Flips the minority triangles of each connected component (connected across manifold edges) so
// that neighbours agree. It does not decide inside from outside: check the signed volume for that.
void orientConsistently(TriangleMesh& mesh);

// Merges vertices closer than relative_tolerance * bounding-box diagonal and renumbers the
// triangles; returns how many vertices were merged away. Expected-linear time (spatial hash).
std::size_t weldVertices(TriangleMesh& mesh, double relative_tolerance = kMeshRelativeTolerance);

// Removes triangles whose smallest height is at most relative_tolerance * bounding-box diagonal
// (repeated corners included); returns how many were removed.
std::size_t removeDegenerateTriangles(TriangleMesh& mesh,
                                      double relative_tolerance = kMeshRelativeTolerance);

// Drops vertices no triangle uses and renumbers the triangles; returns how many were dropped.
std::size_t removeUnusedVertices(TriangleMesh& mesh);

}  // namespace grainlab
