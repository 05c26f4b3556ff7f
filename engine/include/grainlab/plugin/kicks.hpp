#pragma once
// Velocity and position updates shared by the explicit integrators.
#include "grainlab/core/parallel.hpp"
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

// x += h v and the orientation turned by w h.
[[gnu::always_inline]] inline void driftBody(Bodies& b, std::size_t i, double h) {
    b.position[i] += h * b.velocity[i];
    b.orientation[i] = rotated(b.orientation[i], b.angular_velocity[i], h);
}

inline void kick(Bodies& b, double h, int threads) {
    parallelRanges(b.size(), threads, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) kickBody(b, i, h);
    });
}

// kick(h_kick) then drift(h_drift) in one pass over the bodies (the same arithmetic, one sweep
// through memory instead of two).
inline void kickDrift(Bodies& b, double h_kick, double h_drift, int threads) {
    parallelRanges(b.size(), threads, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            kickBody(b, i, h_kick);
            driftBody(b, i, h_drift);
        }
    });
}

}  // namespace grainlab
