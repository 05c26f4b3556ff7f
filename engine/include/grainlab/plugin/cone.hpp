#pragma once
// The Coulomb friction cone K = {(g_n, g_t): ||g_t|| <= mu g_n}, its exact projection, and the one
// accuracy measure every solver reports (and the benchmarks compare).
#include <cmath>

#include <Eigen/Core>

#include "grainlab/plugin/solver.hpp"

namespace grainlab {

// Euclidean projection onto K (Negrut, Serban, Tasora, section 7); (n, u, w) order.
inline Eigen::Vector3d projectOntoCone(const Eigen::Vector3d& g, double mu) {
    if (mu <= 0.0) return {std::max(g[0], 0.0), 0.0, 0.0};
    const double t = std::hypot(g[1], g[2]);
    if (t <= mu * g[0]) return g;                  // inside the cone
    if (mu * t <= -g[0]) return Eigen::Vector3d::Zero();  // inside the polar cone
    const double n = (g[0] + mu * t) / (1.0 + mu * mu);  // onto the nearest generator
    return {n, mu * n * g[1] / t, mu * n * g[2] / t};
}

// One projected block step of PGS / Jacobi (Tasora and Anitescu): Proj(g - omega eta d), blended
// with the old value by the sharpness lambda in (0, 1].
inline Eigen::Vector3d projectedStep(const Eigen::Vector3d& g, const Eigen::Vector3d& d, double mu, double eta,
                                     double omega, double sharpness) {
    return sharpness * projectOntoCone(g - omega * eta * d, mu) + (1.0 - sharpness) * g;
}

// d = D^T velocities + p for every contact (velocities = M^-1 D gamma gives d = N gamma + p).
void contactVelocities(const ContactProblem& problem, const Eigen::VectorXd& velocities, Eigen::VectorXd& d);

// Per-contact step size eta_i = 3 / trace(N_ii) (impulse per velocity), the scale of the residual.
double coneStepSize(const ContactProblem& problem, std::size_t contact);

// Relative natural-map residual ||F|| / max(||p||, tiny) with, per contact,
// F_i = (gamma_i - Proj_K(gamma_i - eta_i d_i)) / eta_i, d = N gamma + p (given as `velocity`).
// Zero exactly at a solution of the cone complementarity problem. With `coulomb`, d_i is replaced by
// De Saxce's (d_n + mu ||d_t||, d_t), whose zeros are Coulomb's law without the CCP relaxation.
double coneResidual(const ContactProblem& problem, const Eigen::VectorXd& impulses, const Eigen::VectorXd& velocity,
                    bool coulomb = false);

}  // namespace grainlab
