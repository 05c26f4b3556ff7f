#pragma once
// The dimensionless set-up of De Klerk et al.'s tests: d = m = g = 1, kn d/(m g) = 195000, gamma_t =
// gamma_n/2, no tangential spring, friction large enough never to cap the tangential dashpot (the
// paper's tests apply no Coulomb limit), so velocity Verlet with 'hooke' runs the same law.
#include <cmath>
#include <string>

#include "support.hpp"

namespace grainlab::test::deklerk {

inline constexpr double kDiameter = 1.0;
inline constexpr double kRadius = 0.5;
inline constexpr double kStiffness = 1.95e5;
inline const double kDensity = 6.0 / kPi;  // unit mass for unit diameter
// Undamped contact times: pair (m_eff = m/2) and particle-wall (m_eff = m).
inline const double kPairContactTime = kPi * std::sqrt(0.5 / kStiffness);
inline const double kWallContactTime = kPi * std::sqrt(1.0 / kStiffness);

inline Scene scene(const std::string& integrator, double gamma_n, double alpha = 0.5) {
    Scene s = emptyScene("hooke");
    s.materials[0].density = kDensity;
    s.materials[0].friction = 1e9;
    s.contact_model.parameters = {{"kn", kStiffness}, {"kt", 0.0}, {"gamma_n", gamma_n}, {"gamma_t", 0.5 * gamma_n}};
    s.integrator.name = integrator;
    if (integrator == "variational") s.integrator.parameters = {{"alpha", alpha}};
    return s;
}

inline double kinetic(const Bodies& b, std::size_t i) { return 0.5 * b.mass[i] * b.velocity[i].squaredNorm(); }
inline double rotational(const Bodies& b, std::size_t i) {
    return 0.5 * b.angular_velocity[i].dot(b.inertia[i].cwiseProduct(b.angular_velocity[i]));
}

}  // namespace grainlab::test::deklerk
