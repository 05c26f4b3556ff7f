#pragma once
// Tangential spring with history and Coulomb limit, as in LAMMPS gran/*/history, for one lane of a
// batch of contacts.
#include <cmath>

#include "grainlab/plugin/contact_lanes.hpp"
#include "grainlab/plugin/parameters.hpp"

namespace grainlab {

// The spring and damping constants of a model with this spring, from its parameters: kt < 0 stands
// for 2/7 kn and gamma_t < 0 for gamma_n / 2, as LAMMPS's NULL does.
template <class Law>
void readSpringConstants(const ParameterValues& p, Law& law) {
    law.kn = p.get("kn");
    law.kt = p.get("kt") < 0.0 ? 2.0 / 7.0 * law.kn : p.get("kt");
    law.gamma_n = p.get("gamma_n");
    law.gamma_t = p.get("gamma_t") < 0.0 ? 0.5 * law.gamma_n : p.get("gamma_t");
}

// The tangential spring of one lane, as LAMMPS gran/*/history: the spring displacement (history
// 0..2) grows by v_t dt, is turned back onto the tangent plane, and when the force exceeds
// mu |F_n| both are scaled back to the cone (the energy the spring loses is dissipated by
// friction). With dt == 0 (the set-up evaluation before the first step) the history is read, not
// changed, as LAMMPS does at set-up. Adds the tangential force to the lane's force and its energies
// to the lane's; stiffness k_t and damping coefficient c_t (force per velocity) at this overlap.
[[gnu::always_inline]] inline void tangentialSpring(ContactLanes& L, std::size_t c, double normal_force,
                                                    double stiffness, double damping, double friction) {
    const bool advance = L.dt > 0.0;
    const double nx = L.nx[c], ny = L.ny[c], nz = L.nz[c];
    const double vn = L.vx[c] * nx + L.vy[c] * ny + L.vz[c] * nz;
    const double vtx = L.vx[c] - vn * nx, vty = L.vy[c] - vn * ny, vtz = L.vz[c] - vn * nz;
    double sx = L.history[0][c] + vtx * L.dt;
    double sy = L.history[1][c] + vty * L.dt;
    double sz = L.history[2][c] + vtz * L.dt;
    // Only whether the spring was stretched matters below: no square root needed.
    const bool stretched = sx * sx + sy * sy + sz * sz != 0.0;
    const double along = advance ? sx * nx + sy * ny + sz * nz : 0.0;
    sx -= along * nx;
    sy -= along * ny;
    sz -= along * nz;
    double ftx = -(stiffness * sx + damping * vtx);
    double fty = -(stiffness * sy + damping * vty);
    double ftz = -(stiffness * sz + damping * vtz);
    double dissipated = damping * (vtx * vtx + vty * vty + vtz * vtz) * L.dt;
    const double limit = friction * std::abs(normal_force);
    const double magnitude_squared = ftx * ftx + fty * fty + ftz * ftz;
    const bool slides = magnitude_squared > limit * limit;
    const double before = 0.5 * stiffness * (sx * sx + sy * sy + sz * sz);
    // Sliding: a stretched spring is scaled back to the cone; an unstretched one (or the set-up
    // evaluation) gives no force. The ratio is taken in every lane (inside a branch it kept the
    // loop from vectorising) and used in the sliding ones, where the magnitude is above zero.
    const bool rescale = slides & stretched & advance;
    const double ratio = limit / std::sqrt(magnitude_squared);
    const double scale = rescale ? ratio : (slides ? 0.0 : 1.0);
    const double viscous = damping / stiffness;
    sx = rescale ? scale * (sx + viscous * vtx) - viscous * vtx : sx;
    sy = rescale ? scale * (sy + viscous * vty) - viscous * vty : sy;
    sz = rescale ? scale * (sz + viscous * vtz) - viscous * vtz : sz;
    ftx *= scale;
    fty *= scale;
    ftz *= scale;
    const double after = 0.5 * stiffness * (sx * sx + sy * sy + sz * sz);
    const double lost = before - after;
    dissipated += slides & (lost > 0.0) ? lost : 0.0;
    L.fx[c] += ftx;
    L.fy[c] += fty;
    L.fz[c] += ftz;
    L.elastic_energy[c] += after;
    L.dissipated[c] += dissipated;
    // Stored in every lane (a conditional store kept the loop from vectorising): with dt == 0 the
    // spring is the history as read, neither projected nor rescaled.
    L.history[0][c] = sx;
    L.history[1][c] = sy;
    L.history[2][c] = sz;
}

// The spring displacement of a pair seen from the other body: b's surface moves against a's.
inline void reverseTangentialHistory(double* history) {
    for (int k = 0; k < 3; ++k) history[k] = -history[k];
}

}  // namespace grainlab
