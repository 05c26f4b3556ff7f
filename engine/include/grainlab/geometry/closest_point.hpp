#pragma once
// Closest point on a triangle to a point: the core query of particle-wall contact.
#include "grainlab/core/math.hpp"

namespace grainlab {

// Which part of the triangle the closest point lies on. Contacts on an edge or vertex shared by
// several wall triangles must be counted once, so callers need to know.
enum class TriangleFeature { Face, Edge01, Edge12, Edge20, Vertex0, Vertex1, Vertex2 };

// Voronoi-region method (Ericson, Real-Time Collision Detection, 5.1.5). Degenerate triangles
// (collinear or coincident corners) are treated as their edges, so the result is never NaN for
// finite input.
Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                            TriangleFeature& feature);

}  // namespace grainlab
