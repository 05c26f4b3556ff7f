#pragma once
// Velocity and position updates shared by the explicit integrators.
#include "grainlab/plugin/integrator.hpp"

namespace grainlab {

// The arrays a kick and a drift touch, in locals: through `Bodies&` every store to a vector's
// element could have changed the vectors themselves, so each body reloaded their data pointers.
struct KickArrays {
    Vec3* velocity;
    Vec3* angular_velocity;
    Vec3* position;
    const Vec3* force;
    const Vec3* torque;
    const double* inv_mass;
    const Vec3* inv_inertia;
    const Quat* orientation;
    explicit KickArrays(Bodies& b)
        : velocity(b.velocity.data()), angular_velocity(b.angular_velocity.data()), position(b.position.data()),
          force(b.force.data()), torque(b.torque.data()), inv_mass(b.inv_mass.data()),
          inv_inertia(b.inv_inertia.data()), orientation(b.orientation.data()) {}
};

// v += h F/m and w += h I^-1 T (world frame; isotropic bodies skip the rotation into the body frame).
[[gnu::always_inline]] inline void kickBody(const KickArrays& a, std::size_t i, double h) {
    a.velocity[i] += h * a.inv_mass[i] * a.force[i];
    const Vec3& inv_i = a.inv_inertia[i];
    if (inv_i[0] == inv_i[1] && inv_i[1] == inv_i[2]) {
        a.angular_velocity[i] += h * inv_i[0] * a.torque[i];
    } else {
        const Quat& q = a.orientation[i];
        a.angular_velocity[i] += h * (q * inv_i.cwiseProduct(q.conjugate() * a.torque[i]));
    }
}

// Kicks of a range of bodies by h, for StepContext::compute_forces_around.
inline BodyRangeUpdate kicks(Bodies& b, double h) {
    return [&b, h](std::size_t begin, std::size_t end) {
        const KickArrays a(b);
        for (std::size_t i = begin; i < end; ++i) kickBody(a, i, h);
    };
}

// A kick by h_kick then a drift by h_drift (x += h v, the orientation turned by w h unless the body
// keeps it) on a block of bodies: kick and move in one loop through the local pointers, then turn in
// a second over the same block, still in the cache (turnBody reads the shapes through `Bodies&`).
inline BodyRangeUpdate kickDrifts(Bodies& b, double h_kick, double h_drift) {
    return [&b, h_kick, h_drift](std::size_t begin, std::size_t end) {
        const KickArrays a(b);
        for (std::size_t i = begin; i < end; ++i) {
            kickBody(a, i, h_kick);
            a.position[i] += h_drift * a.velocity[i];
        }
        for (std::size_t i = begin; i < end; ++i) turnBody(b, i, b.angular_velocity[i], h_drift);
    };
}

}  // namespace grainlab
