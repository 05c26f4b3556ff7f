#include "grainlab/sim/material_pairs.hpp"

#include <cmath>

namespace grainlab {

MaterialPairTable mixMaterials(const std::vector<Material>& materials) {
    MaterialPairTable table;
    table.count = materials.size();
    table.table.resize(table.count * table.count);
    for (std::size_t a = 0; a < table.count; ++a)
        for (std::size_t b = 0; b < table.count; ++b) {
            const Material& ma = materials[a];
            const Material& mb = materials[b];
            PairProperties& p = table.table[a * table.count + b];
            // Geometric means keep a pair of equal materials at that material's value.
            p.friction = std::sqrt(ma.friction * mb.friction);
            p.restitution = std::sqrt(ma.restitution * mb.restitution);
            p.rolling_friction = std::sqrt(ma.rolling_friction * mb.rolling_friction);
            // Hertz contact of two elastic bodies (Johnson, Contact Mechanics).
            p.effective_youngs = 1.0 / ((1.0 - ma.poisson_ratio * ma.poisson_ratio) / ma.youngs_modulus +
                                        (1.0 - mb.poisson_ratio * mb.poisson_ratio) / mb.youngs_modulus);
            p.effective_shear = 1.0 / (2.0 * (2.0 - ma.poisson_ratio) * (1.0 + ma.poisson_ratio) / ma.youngs_modulus +
                                       2.0 * (2.0 - mb.poisson_ratio) * (1.0 + mb.poisson_ratio) / mb.youngs_modulus);
        }
    return table;
}

}  // namespace grainlab
