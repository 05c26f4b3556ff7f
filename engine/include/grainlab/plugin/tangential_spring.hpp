#pragma once
// Tangential spring with history and Coulomb limit, as in LAMMPS gran/*/history: the spring
// displacement grows by v_t dt, is turned back onto the tangent plane, and when the force exceeds
// mu |F_n| both are scaled back to the cone (the energy the spring loses is dissipated by friction).
#include <cmath>

#include "grainlab/plugin/contact_law.hpp"

namespace grainlab {

struct TangentialResult {
    Vec3 force = Vec3::Zero();
    double elastic_energy = 0.0;
    double dissipated = 0.0;
};

// stiffness k_t and damping coefficient c_t (force per velocity) at this overlap; history: 3 doubles.
// With kin.dt == 0 (the set-up evaluation before the first step) the history is read, not changed,
// as LAMMPS does at set-up.
// Always inlined: called once per touching pair from the force loop, where a call costs 12% of a step.
[[gnu::always_inline]] inline TangentialResult tangentialSpring(const ContactKinematics& kin, double normal_force, double stiffness,
                                         double damping, double* history) {
    const Vec3& n = kin.normal;
    const Vec3 vt = kin.relative_velocity - kin.relative_velocity.dot(n) * n;
    Eigen::Map<Vec3> stored(history);
    Vec3 shear = stored + vt * kin.dt;
    // Only whether the spring was stretched matters below: no square root needed.
    const bool stretched = shear.squaredNorm() != 0.0;
    if (kin.dt > 0.0) shear -= shear.dot(n) * n;
    TangentialResult out;
    out.force = -(stiffness * shear + damping * vt);
    out.dissipated = damping * vt.squaredNorm() * kin.dt;
    const double limit = kin.properties->friction * std::abs(normal_force);
    // Compared squared: the square root is only needed for the contacts that slide.
    const double magnitude_squared = out.force.squaredNorm();
    if (magnitude_squared > limit * limit) {
        const double before = 0.5 * stiffness * shear.squaredNorm();
        if (stretched && kin.dt > 0.0) {
            const double scale = limit / std::sqrt(magnitude_squared);
            const Vec3 viscous = (damping / stiffness) * vt;
            shear = scale * (shear + viscous) - viscous;
            out.force *= scale;
        } else {
            out.force.setZero();
        }
        out.dissipated += std::max(0.0, before - 0.5 * stiffness * shear.squaredNorm());
    }
    out.elastic_energy = 0.5 * stiffness * shear.squaredNorm();
    if (kin.dt > 0.0) stored = shear;
    return out;
}

// The spring displacement of a pair seen from the other body: b's surface moves against a's.
inline void reverseTangentialHistory(double* history) {
    for (int k = 0; k < 3; ++k) history[k] = -history[k];
}

}  // namespace grainlab
