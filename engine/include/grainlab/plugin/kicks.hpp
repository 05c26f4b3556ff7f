#pragma once
// Velocity and position updates shared by the explicit integrators.
#include "grainlab/plugin/integrator.hpp"

namespace grainlab {

// v += h F/m and w += h I^-1 T (world frame; isotropic bodies skip the rotation into the body frame).
[[gnu::always_inline]] inline void kickBody(Bodies& b, std::size_t i, double h) {
    b.velocity[i] += h * b.inv_mass[i] * b.force[i];
    const Vec3& inv_i = b.inv_inertia[i];
    if (inv_i[0] == inv_i[1] && inv_i[1] == inv_i[2]) {
        b.angular_velocity[i] += h * inv_i[0] * b.torque[i];
    } else {
        const Quat& q = b.orientation[i];
        b.angular_velocity[i] += h * (q * inv_i.cwiseProduct(q.conjugate() * b.torque[i]));
    }
}

// x += h v and the orientation turned by w h (unless the body keeps its orientation).
[[gnu::always_inline]] inline void driftBody(Bodies& b, std::size_t i, double h) {
    b.position[i] += h * b.velocity[i];
    turnBody(b, i, b.angular_velocity[i], h);
}

// Kicks of a range of bodies by h, for StepContext::compute_forces_around.
inline BodyRangeUpdate kicks(Bodies& b, double h) {
    return [&b, h](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) kickBody(b, i, h);
    };
}

// A kick by h_kick then a drift by h_drift, each body's in one go (one sweep through memory).
inline BodyRangeUpdate kickDrifts(Bodies& b, double h_kick, double h_drift) {
    return [&b, h_kick, h_drift](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            kickBody(b, i, h_kick);
            driftBody(b, i, h_drift);
        }
    };
}

}  // namespace grainlab
