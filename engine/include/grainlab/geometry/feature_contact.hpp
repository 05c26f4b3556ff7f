#pragma once
// Narrow phase between feature meshes (polyhedra, wall meshes) and spheres: the degenerate local
// contact problems of Gay Neto & Wriggers (seed 003, implementation note 6): vertex-face, edge-edge
// (parallel edges skipped), vertex-edge and vertex-vertex, each with its validity test. Redundant
// contacts (a vertex near a convex edge, concave corners) are filtered by the normal-cone test of the
// note (6.4): a vertex-edge or edge-edge contact needs its normal inside the edge's outward cone,
// which is empty at concave edges (the paper's rule 1), and a vertex-vertex contact needs it inside
// both vertex cones (rule 2).
#include <cstdint>
#include <vector>

#include "grainlab/geometry/polyhedron.hpp"

namespace grainlab {

// What a sub-region pair is: A's feature first. Mirrored kinds swap A and B.
enum class FeaturePair : std::uint8_t { VertexFace, FaceVertex, EdgeEdge, VertexEdge, EdgeVertex, VertexVertex };

// Sub-region keys: the kind in the top two bits, the index below. Faces are keyed by facet (all
// coplanar triangles of one flat side), so a vertex sliding across a split square keeps its key.
enum class FeatureKind : std::uint32_t { Vertex = 0, Edge = 1, Face = 2, Whole = 3 };
inline std::uint32_t featureKey(FeatureKind kind, std::uint32_t index) {
    return (static_cast<std::uint32_t>(kind) << 30) | (index & 0x3fffffffu);
}

// One contact between two surfaces, in world coordinates. Independent of the solver that uses it.
struct FeatureContact {
    FeaturePair type = FeaturePair::VertexVertex;
    std::uint32_t feature_a = 0, feature_b = 0;
    Vec3 point_a = Vec3::Zero(), point_b = Vec3::Zero();  // on A's and B's surfaces
    Vec3 normal = Vec3::UnitZ();  // unit, from B towards A
    double gap = 0.0;             // signed distance along normal: > 0 apart, < 0 interpenetrating
};

// A surface as the narrow phase sees it: a feature mesh, or a sphere (mesh == nullptr).
struct ContactSurface {
    const FeatureMesh* mesh = nullptr;
    Vec3 centre = Vec3::Zero();    // bounding-sphere centre (the sphere's centre)
    double bound = 0.0;            // bounding radius (the sphere's radius)
    double sphere_radius = 0.0;    // 0 for meshes
};

// Appends every valid contact of A and B with gap in (-range, range). `range` is the contact
// model's skin; parallel edges are those within `range` of parallel over their length.
void collideSurfaces(const ContactSurface& a, const ContactSurface& b, double range,
                     std::vector<FeatureContact>& out);

// True when any vertex (or the centre) of `a` lies inside the closed mesh of `b`: interpenetration,
// by the winding number (sum of solid angles, Van Oosterom & Strackee). For set-up checks.
bool surfacesInterpenetrate(const ContactSurface& a, const ContactSurface& b);

// Contacts of A with the plane through `point` with unit normal `normal` (pointing towards A).
void collidePlane(const ContactSurface& a, const Vec3& point, const Vec3& normal, double range,
                  std::vector<FeatureContact>& out);

}  // namespace grainlab
