#include "grainlab/geometry/feature_contact.hpp"

#include <algorithm>
#include <cmath>

namespace grainlab {
namespace {

// The points a surface offers as "vertices": a mesh's corners, or a sphere's centre.
template <class Visit>
void forEachVertex(const ContactSurface& s, Visit&& visit) {
    if (!s.mesh) {
        visit(featureKey(FeatureKind::Whole, 0), s.centre, -1);
        return;
    }
    const FeatureMesh& m = *s.mesh;
    for (std::uint32_t v = 0; v < m.vertices.size(); ++v)
        if (m.corner[v]) visit(featureKey(FeatureKind::Vertex, v), m.vertices[v], static_cast<int>(v));
}

// The cone tests allow the neighbouring features to come up to `range` (the skin) closer than the
// feature itself: a face resting flat on a face has its normal exactly on the cone boundary, and an
// exact test would switch such contacts on and off with round-off.

// True when the vertex is the farthest point of its mesh along `outward` locally (its normal cone).
bool inVertexCone(const ContactSurface& s, int vertex, const Vec3& outward, double range) {
    if (!s.mesh || vertex < 0) return true;
    const FeatureMesh& m = *s.mesh;
    const Vec3& p = m.vertices[static_cast<std::size_t>(vertex)];
    for (std::uint32_t k = m.neighbor_start[vertex]; k < m.neighbor_start[vertex + 1]; ++k)
        if ((m.vertices[m.neighbors[k]] - p).dot(outward) > range) return false;
    return true;
}

bool inEdgeCone(const PolyhedronEdge& e, double length, const Vec3& outward, double range) {
    const double tolerance = range / length;
    return e.convex && outward.dot(e.inward0) <= tolerance && outward.dot(e.inward1) <= tolerance;
}

// An edge crossing over a concave crease meets the faces beside it there: the pair is valid when
// its normal is one that either face, alone, would present at this boundary (its wedge).
bool edgeValidFor(const PolyhedronEdge& e, double length, const Vec3& outward, double range) {
    if (e.convex) return inEdgeCone(e, length, outward, range);
    const double tolerance = range / length;
    return (outward.dot(e.normal0) >= -tolerance && outward.dot(e.inward0) <= tolerance) ||
           (outward.dot(e.normal1) >= -tolerance && outward.dot(e.inward1) <= tolerance);
}

FeatureContact mirrored(const FeatureContact& c) {
    FeatureContact m = c;
    std::swap(m.feature_a, m.feature_b);
    std::swap(m.point_a, m.point_b);
    m.normal = -c.normal;
    switch (c.type) {
        case FeaturePair::VertexFace: m.type = FeaturePair::FaceVertex; break;
        case FeaturePair::FaceVertex: m.type = FeaturePair::VertexFace; break;
        case FeaturePair::VertexEdge: m.type = FeaturePair::EdgeVertex; break;
        case FeaturePair::EdgeVertex: m.type = FeaturePair::VertexEdge; break;
        default: break;
    }
    return m;
}

// A's vertices against B's faces: the point's projection must fall inside the triangle (the valid
// region s, t >= 0, s + t <= 1 of the face parameterisation).
void vertexFace(const ContactSurface& a, const ContactSurface& b, double range, bool mirror,
                std::vector<FeatureContact>& out) {
    const FeatureMesh& fb = *b.mesh;
    const double ra = a.sphere_radius;
    forEachVertex(a, [&](std::uint32_t key, const Vec3& p, int) {
        if ((p - b.centre).squaredNorm() > std::pow(b.bound + ra + range, 2)) return;
        const std::size_t first = out.size();
        for (std::uint32_t t = 0; t < fb.triangles.size(); ++t) {
            if ((p - fb.face_centre[t]).squaredNorm() > std::pow(fb.face_radius[t] + ra + range, 2)) continue;
            const Vec3& n = fb.face_normals[t];
            const auto& tri = fb.triangles[t];
            const Vec3 d = p - fb.vertices[tri[0]];
            const double dist = d.dot(n);
            const double gap = dist - ra;
            // Behind the plane is no contact (note 6.2: d . n_F > 0): on a non-convex body such a
            // point may well be outside, in front of another face.
            if (gap >= range || gap <= -range || dist <= 0.0) continue;
            const Vec3 e1 = fb.vertices[tri[1]] - fb.vertices[tri[0]];
            const Vec3 e2 = fb.vertices[tri[2]] - fb.vertices[tri[0]];
            const double a11 = e1.dot(e1), a12 = e1.dot(e2), a22 = e2.dot(e2);
            const double b1 = e1.dot(d), b2 = e2.dot(d), det = a11 * a22 - a12 * a12;
            const double s = (a22 * b1 - a12 * b2) / det, u = (a11 * b2 - a12 * b1) / det;
            if (!(s >= 0.0 && u >= 0.0 && s + u <= 1.0)) continue;
            const std::uint32_t face_key = featureKey(FeatureKind::Face, fb.facet[t]);
            // A point on the diagonal of a split flat face projects into both halves: count it once.
            bool seen = false;
            for (std::size_t k = first; k < out.size(); ++k) seen |= out[k].feature_b == face_key;
            if (seen) continue;
            FeatureContact c{FeaturePair::VertexFace, key, face_key, p - ra * n, p - dist * n, n, gap};
            out.push_back(c);
        }
        if (mirror)
            for (std::size_t k = first; k < out.size(); ++k) out[k] = mirrored(out[k]);
    });
}

// A's vertices against B's crease edges (interior of the edge; the ends are vertex-vertex).
void vertexEdge(const ContactSurface& a, const ContactSurface& b, double range, bool mirror,
                std::vector<FeatureContact>& out) {
    const FeatureMesh& fb = *b.mesh;
    const double ra = a.sphere_radius;
    forEachVertex(a, [&](std::uint32_t key, const Vec3& p, int) {
        if ((p - b.centre).squaredNorm() > std::pow(b.bound + ra + range, 2)) return;
        for (std::uint32_t k = 0; k < fb.edges.size(); ++k) {
            const PolyhedronEdge& e = fb.edges[k];
            if (!e.convex) continue;
            const Vec3& b0 = fb.vertices[e.v0];
            const Vec3 dir = fb.vertices[e.v1] - b0;
            const double u = dir.dot(p - b0) / dir.squaredNorm();
            if (!(u > 0.0 && u < 1.0)) continue;
            const Vec3 q = b0 + u * dir;
            const Vec3 g = p - q;
            const double dist = g.norm();
            const double gap = dist - ra;
            if (gap >= range || dist == 0.0) continue;
            const Vec3 n = g / dist;
            if (!inEdgeCone(e, dir.norm(), n, range)) continue;
            FeatureContact c{FeaturePair::VertexEdge, key, featureKey(FeatureKind::Edge, k), p - ra * n, q, n, gap};
            out.push_back(mirror ? mirrored(c) : c);
        }
    });
}

void edgeEdge(const ContactSurface& a, const ContactSurface& b, double range, std::vector<FeatureContact>& out) {
    const FeatureMesh& fa = *a.mesh;
    const FeatureMesh& fb = *b.mesh;
    for (std::uint32_t i = 0; i < fa.edges.size(); ++i) {
        const PolyhedronEdge& ea = fa.edges[i];
        const Vec3& a0 = fa.vertices[ea.v0];
        const Vec3 da = fa.vertices[ea.v1] - a0;
        const Vec3 mid_a = a0 + 0.5 * da;
        const double half_a = 0.5 * da.norm();
        if ((mid_a - b.centre).norm() > b.bound + half_a + range) continue;
        for (std::uint32_t j = 0; j < fb.edges.size(); ++j) {
            const PolyhedronEdge& eb = fb.edges[j];
            const Vec3& b0 = fb.vertices[eb.v0];
            const Vec3 db = fb.vertices[eb.v1] - b0;
            if ((mid_a - (b0 + 0.5 * db)).norm() > half_a + 0.5 * db.norm() + range) continue;
            const Vec3 c = da.cross(db);
            const double c_norm = c.norm();
            // Parallel: the closest points are not unique; vertex-edge contacts at the ends carry it.
            if (c_norm * std::max(da.norm(), db.norm()) <= range * da.norm() * db.norm()) continue;
            const Vec3 w = a0 - b0;
            const double A = da.dot(da), B = da.dot(db), C = db.dot(db), D = da.dot(w), E = db.dot(w);
            const double den = A * C - B * B;
            const double s = (B * E - C * D) / den, u = (A * E - B * D) / den;
            if (!(s > 0.0 && s < 1.0 && u > 0.0 && u < 1.0)) continue;
            const Vec3 pa = a0 + s * da, pb = b0 + u * db;
            Vec3 n = c / c_norm;
            if (n.dot(eb.normal0 + eb.normal1) < 0.0) n = -n;
            const double gap = (pa - pb).dot(n);
            if (gap >= range || gap <= 0.0) continue;
            if (!edgeValidFor(eb, db.norm(), n, range) || !edgeValidFor(ea, da.norm(), -n, range)) continue;
            out.push_back({FeaturePair::EdgeEdge, featureKey(FeatureKind::Edge, i), featureKey(FeatureKind::Edge, j), pa, pb,
                           n, gap});
        }
    }
}

void vertexVertex(const ContactSurface& a, const ContactSurface& b, double range, std::vector<FeatureContact>& out) {
    const double ra = a.sphere_radius, rb = b.sphere_radius;
    forEachVertex(a, [&](std::uint32_t key_a, const Vec3& p, int va) {
        if ((p - b.centre).squaredNorm() > std::pow(b.bound + ra + range, 2)) return;
        forEachVertex(b, [&](std::uint32_t key_b, const Vec3& q, int vb) {
            const Vec3 g = p - q;
            const double dist = g.norm();
            const double gap = dist - ra - rb;
            if (gap >= range || dist == 0.0) return;
            const Vec3 n = g / dist;
            if (!inVertexCone(b, vb, n, range) || !inVertexCone(a, va, -n, range)) return;
            out.push_back({FeaturePair::VertexVertex, key_a, key_b, p - ra * n, q + rb * n, n, gap});
        });
    });
}

// True when a hull face of `b` has every point of `a` at least `range` in front of its plane: no
// contact can be closer (a cheap separating-plane test before the feature pairs).
bool separatedByFaceOf(const ContactSurface& a, const FeatureMesh& fb, double range) {
    for (std::size_t t = 0; t < fb.triangles.size(); ++t) {
        if (!fb.supporting[t]) continue;
        const Vec3& n = fb.face_normals[t];
        const Vec3& y = fb.vertices[fb.triangles[t][0]];
        double nearest = (a.centre - y).dot(n) - a.sphere_radius;
        if (a.mesh)
            for (const Vec3& p : a.mesh->vertices) {
                nearest = std::min(nearest, (p - y).dot(n));
                if (nearest < range) break;
            }
        if (nearest >= range) return true;
    }
    return false;
}

}  // namespace

void collideSurfaces(const ContactSurface& a, const ContactSurface& b, double range, std::vector<FeatureContact>& out) {
    if ((a.centre - b.centre).norm() >= a.bound + b.bound + range) return;
    if ((b.mesh && separatedByFaceOf(a, *b.mesh, range)) || (a.mesh && separatedByFaceOf(b, *a.mesh, range))) return;
    if (b.mesh) {
        vertexFace(a, b, range, false, out);
        vertexEdge(a, b, range, false, out);
    }
    if (a.mesh) {
        vertexFace(b, a, range, true, out);
        vertexEdge(b, a, range, true, out);
    }
    if (a.mesh && b.mesh) edgeEdge(a, b, range, out);
    vertexVertex(a, b, range, out);
}

bool surfacesInterpenetrate(const ContactSurface& a, const ContactSurface& b) {
    if ((a.centre - b.centre).norm() >= a.bound + b.bound) return false;
    auto inside = [](const FeatureMesh& m, const Vec3& p) {
        double solid = 0.0;
        for (const auto& t : m.triangles) {
            const Vec3 r1 = m.vertices[t[0]] - p, r2 = m.vertices[t[1]] - p, r3 = m.vertices[t[2]] - p;
            const double l1 = r1.norm(), l2 = r2.norm(), l3 = r3.norm();
            const double den = l1 * l2 * l3 + r1.dot(r2) * l3 + r2.dot(r3) * l1 + r3.dot(r1) * l2;
            solid += 2.0 * std::atan2(r1.dot(r2.cross(r3)), den);
        }
        return solid > 2.0 * kPi;  // winding number above 1/2
    };
    auto anyInside = [&](const ContactSurface& s, const ContactSurface& body) {
        if (!body.mesh) {
            bool found = false;
            forEachVertex(s, [&](std::uint32_t, const Vec3& p, int) { found |= (p - body.centre).norm() < body.sphere_radius + s.sphere_radius; });
            return found;
        }
        bool found = false;
        forEachVertex(s, [&](std::uint32_t, const Vec3& p, int) { found |= inside(*body.mesh, p); });
        if (!s.mesh) found |= inside(*body.mesh, s.centre);
        return found;
    };
    return anyInside(a, b) || anyInside(b, a);
}

void collidePlane(const ContactSurface& a, const Vec3& point, const Vec3& normal, double range,
                  std::vector<FeatureContact>& out) {
    if ((a.centre - point).dot(normal) >= a.bound + range) return;
    const double ra = a.sphere_radius;
    forEachVertex(a, [&](std::uint32_t key, const Vec3& p, int) {
        const double dist = (p - point).dot(normal);
        const double gap = dist - ra;
        if (gap >= range || gap <= -range) return;
        out.push_back({FeaturePair::VertexFace, key, featureKey(FeatureKind::Whole, 0), p - ra * normal, p - dist * normal,
                       normal, gap});
    });
}

}  // namespace grainlab
