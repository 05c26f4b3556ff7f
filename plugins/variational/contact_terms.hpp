#pragma once
// One linear spring-dashpot contact in the generalised coordinates of the variational integrator
// (per body: 3 translations, then 3 rotation angles), after De Klerk et al., Eqs. 20-27, with the
// engine's lever arms (unequal radii allowed). A contact touches blocks of up to two bodies; its
// velocity map is B = [E, r_a [n]x, -E, r_b [n]x] on (v_a, w_a, v_b, w_b), so the relative velocity of
// the contact points is B qdot and the generalised damping force is B^T F.
#include <algorithm>
#include <array>
#include <cmath>

#include "grainlab/core/math.hpp"
#include "grainlab/plugin/contact_model.hpp"

namespace grainlab::variational {

inline Mat3 crossMatrix(const Vec3& a) {
    Mat3 m;
    m << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
    return m;
}

// A candidate contact of the frozen set. For a wall, b is absent and the partner is the wall's
// tangent plane through `point` (at the start of the step), moving with `wall_velocity`. Geometry
// during the step is the offset at its start plus displacements, so round-off stays relative to the
// (small) displacements rather than to the positions.
struct ContactTerm {
    std::uint32_t a = 0, b = 0;
    bool wall = false;
    double radius_a = 0.0, radius_b = 0.0;
    double effective_mass = 0.0;
    const LinearSpringDashpot* law = nullptr;
    Vec3 point = Vec3::Zero(), normal = Vec3::UnitZ(), wall_velocity = Vec3::Zero();
    Vec3 offset = Vec3::Zero();  // at the step's start: x_a - x_b (nearest image), or x_a - point
};

// Geometry of a contact at one configuration; `touching` false when the spheres are apart (overlap
// then negative: the gap).
struct ContactGeometry {
    bool touching = false;
    Vec3 n = Vec3::UnitZ();   // from b (or the wall) towards a
    double overlap = 0.0;
    double distance = 1.0;    // centre distance (pairs)
};

// Sphere pair: separation d = x_a - x_b.
inline ContactGeometry pairGeometry(const ContactTerm& c, const Vec3& d) {
    ContactGeometry g;
    const double r = d.norm();
    g.overlap = c.radius_a + c.radius_b - r;
    g.touching = g.overlap > 0.0 && r > 0.0;
    if (r > 0.0) { g.n = d / r; g.distance = r; }
    return g;
}

// Wall: `moved` is the body's displacement since the start of the step less the wall's.
inline ContactGeometry wallGeometry(const ContactTerm& c, const Vec3& moved) {
    ContactGeometry g;
    g.n = c.normal;
    g.overlap = c.radius_a - (c.offset + moved).dot(c.normal);
    g.touching = g.overlap > 0.0;
    g.distance = c.radius_a - g.overlap;
    return g;
}

// Velocity-map blocks B_k (k = v_a, w_a, v_b, w_b); walls use the first two.
inline std::array<Mat3, 4> velocityMap(const ContactTerm& c, const ContactGeometry& g) {
    const Mat3 nx = crossMatrix(g.n);
    return {Mat3::Identity(), c.radius_a * nx, -Mat3::Identity(), c.radius_b * nx};
}

// Damping matrix of the contact point: m_eff (gamma_n n n^T + gamma_t (E - n n^T)).
inline Mat3 dampingMatrix(const ContactTerm& c, const ContactGeometry& g) {
    const Mat3 nn = g.n * g.n.transpose();
    return c.effective_mass * (c.law->gamma_n * nn + c.law->gamma_t * (Mat3::Identity() - nn));
}

// The part [start, start + length] of the step (as fractions of it) during which a contact touches,
// along the straight path q_k + s (q_k+1 - q_k). The dashpot acts only there: its force jumps where
// contact starts or ends, so sampling it at the step's midpoint alone would count it for the whole
// step or not at all, an O(h) error in every impulse (notes, pitfall 16).
struct ActiveInterval {
    double start = 0.0, length = 0.0;
    double at(double fraction) const { return start + fraction * length; }
};

inline ActiveInterval clippedInterval(double low, double high) {
    low = std::max(low, 0.0);
    high = std::min(high, 1.0);
    return high > low ? ActiveInterval{low, high - low} : ActiveInterval{};
}

// Sphere pair whose separation goes from `offset` to offset + `moved`: |offset + s moved| < r_a + r_b
// between the roots of a quadratic in s.
inline ActiveInterval pairActiveInterval(const ContactTerm& c, const Vec3& moved) {
    const double reach = c.radius_a + c.radius_b;
    const double a = moved.squaredNorm(), b = 2.0 * c.offset.dot(moved);
    const double gap = (c.offset.norm() - reach) * (c.offset.norm() + reach);  // |offset|^2 - reach^2
    if (a == 0.0) return gap < 0.0 ? ActiveInterval{0.0, 1.0} : ActiveInterval{};
    const double discriminant = b * b - 4.0 * a * gap;
    if (discriminant <= 0.0) return {};
    // The root without cancellation, then the other from their product gap / a.
    const double q = -0.5 * (b + std::copysign(std::sqrt(discriminant), b));
    const double r1 = q / a, r2 = q != 0.0 ? gap / q : -r1;
    return clippedInterval(std::min(r1, r2), std::max(r1, r2));
}

// Wall: the overlap radius - (offset + s moved) . n is linear in s.
inline ActiveInterval wallActiveInterval(const ContactTerm& c, const Vec3& moved) {
    const double start = c.radius_a - c.offset.dot(c.normal), change = -moved.dot(c.normal);
    if (change == 0.0) return start > 0.0 ? ActiveInterval{0.0, 1.0} : ActiveInterval{};
    const double root = -start / change;  // overlap is zero there
    return change > 0.0 ? clippedInterval(root, 1.0) : clippedInterval(0.0, root);
}

// Whether the spring acts: while touching at the sampled configuration, unless the Newton iteration
// has locked the contact's state (lock > 0 on, < 0 off). The spring force has a kink at contact
// onset; locking the active set after a few iterations makes the residual smooth there.
inline bool springActive(const ContactGeometry& g, std::int8_t lock) { return lock == 0 ? g.touching : lock > 0; }

// Hessian of V = kn overlap^2 / 2 with respect to x_a (the x_b blocks are +-the same): the spring along
// n plus, for pairs, the geometric part from the turning normal. A plane has no geometric part.
inline Mat3 springHessian(const ContactTerm& c, const ContactGeometry& g) {
    const Mat3 nn = g.n * g.n.transpose();
    Mat3 h = c.law->kn * nn;
    if (!c.wall) h -= c.law->kn * (g.overlap / g.distance) * (Mat3::Identity() - nn);
    return h;
}

}  // namespace grainlab::variational
