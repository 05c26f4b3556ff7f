#pragma once
// Periodic images: positions are kept wrapped into [min, max) along periodic axes and pair
// separations use the nearest image (valid because every periodic length exceeds twice the range).
#include <array>

#include "grainlab/core/math.hpp"

namespace grainlab {

struct PeriodicBox {
    Vec3 min = Vec3::Zero();
    Vec3 length = Vec3::Ones();
    std::array<bool, 3> periodic{false, false, false};

    Vec3 nearestImage(Vec3 d) const {
        for (int k = 0; k < 3; ++k) {
            if (!periodic[k]) continue;
            const double half = 0.5 * length[k];
            if (d[k] > half) d[k] -= length[k];
            else if (d[k] < -half) d[k] += length[k];
        }
        return d;
    }
    // Into [min, max) along periodic axes, counting the crossings in `image`.
    void wrap(Vec3& x, std::array<int, 3>& image) const {
        for (int k = 0; k < 3; ++k) {
            if (!periodic[k]) continue;
            if (x[k] >= min[k] + length[k]) { x[k] -= length[k]; ++image[k]; }
            else if (x[k] < min[k]) { x[k] += length[k]; --image[k]; }
        }
    }
    void wrap(Vec3& x) const {
        std::array<int, 3> ignored{};
        wrap(x, ignored);
    }
};

}  // namespace grainlab
