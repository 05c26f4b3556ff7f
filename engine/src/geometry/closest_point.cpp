#include "grainlab/geometry/closest_point.hpp"

#include <algorithm>

namespace grainlab {
namespace {

// Closest point on segment [from, to]; a zero-length segment gives `from`.
Vec3 closestOnSegment(const Vec3& p, const Vec3& from, const Vec3& to, double& t) {
    const Vec3 d = to - from;
    const double length2 = d.squaredNorm();
    t = length2 > 0.0 ? std::clamp((p - from).dot(d) / length2, 0.0, 1.0) : 0.0;
    return from + t * d;
}

// A triangle with no usable area is the union of its three edges.
Vec3 closestOnEdges(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                    TriangleFeature& feature) {
    struct Edge {
        const Vec3& from;
        const Vec3& to;
        TriangleFeature edge, start, end;
    };
    const Edge edges[] = {
        {a, b, TriangleFeature::Edge01, TriangleFeature::Vertex0, TriangleFeature::Vertex1},
        {b, c, TriangleFeature::Edge12, TriangleFeature::Vertex1, TriangleFeature::Vertex2},
        {c, a, TriangleFeature::Edge20, TriangleFeature::Vertex2, TriangleFeature::Vertex0}};
    Vec3 best = a;
    double best_distance2 = -1.0;
    for (const Edge& e : edges) {
        double t = 0.0;
        const Vec3 q = closestOnSegment(p, e.from, e.to, t);
        const double distance2 = (p - q).squaredNorm();
        if (best_distance2 < 0.0 || distance2 < best_distance2) {
            best = q;
            best_distance2 = distance2;
            feature = t <= 0.0 ? e.start : (t >= 1.0 ? e.end : e.edge);
        }
    }
    return best;
}

// Division for edge parameters whose denominator is a squared edge length in exact arithmetic.
double ratio(double numerator, double denominator) {
    return denominator > 0.0 ? std::clamp(numerator / denominator, 0.0, 1.0) : 0.0;
}

}  // namespace

Vec3 closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                            TriangleFeature& feature) {
    const Vec3 ab = b - a;
    const Vec3 ac = c - a;
    // Relative area test: below this the face-region barycentrics lose all precision.
    const double longest2 = std::max({ab.squaredNorm(), ac.squaredNorm(), (c - b).squaredNorm()});
    const double area2 = ab.cross(ac).squaredNorm();  // (2 * area)^2
    if (!(area2 > 1e-24 * longest2 * longest2)) return closestOnEdges(p, a, b, c, feature);

    const Vec3 ap = p - a;
    const double d1 = ab.dot(ap);
    const double d2 = ac.dot(ap);
    if (d1 <= 0.0 && d2 <= 0.0) {
        feature = TriangleFeature::Vertex0;
        return a;
    }
    const Vec3 bp = p - b;
    const double d3 = ab.dot(bp);
    const double d4 = ac.dot(bp);
    if (d3 >= 0.0 && d4 <= d3) {
        feature = TriangleFeature::Vertex1;
        return b;
    }
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
        feature = TriangleFeature::Edge01;
        return a + ratio(d1, d1 - d3) * ab;
    }
    const Vec3 cp = p - c;
    const double d5 = ab.dot(cp);
    const double d6 = ac.dot(cp);
    if (d6 >= 0.0 && d5 <= d6) {
        feature = TriangleFeature::Vertex2;
        return c;
    }
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
        feature = TriangleFeature::Edge20;
        return a + ratio(d2, d2 - d6) * ac;
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
        feature = TriangleFeature::Edge12;
        return b + ratio(d4 - d3, (d4 - d3) + (d5 - d6)) * (c - b);
    }
    const double sum = va + vb + vc;  // |ab x ac|^2 in exact arithmetic
    if (!(sum > 0.0)) return closestOnEdges(p, a, b, c, feature);
    feature = TriangleFeature::Face;
    return a + (vb / sum) * ab + (vc / sum) * ac;
}

}  // namespace grainlab
