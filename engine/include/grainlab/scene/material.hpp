#pragma once
#include <string>

namespace grainlab {

// Physical properties of a material. Contact models read what their law needs; pair values are
// mixed by the engine (see MaterialPairTable).
struct Material {
    std::string name;
    double density = 1.0;            // mass per volume
    double youngs_modulus = 1e7;     // E, pressure
    double poisson_ratio = 0.3;      // nu
    double restitution = 0.5;        // normal coefficient of restitution e in (0, 1]
    double friction = 0.5;           // Coulomb coefficient mu
    double rolling_friction = 0.0;   // rolling resistance coefficient mu_r (dimensionless)
};

}  // namespace grainlab
