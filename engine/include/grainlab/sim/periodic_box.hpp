#pragma once
// Periodic images: positions are kept wrapped into [min, max) along periodic axes and pair
// separations use the nearest image (valid because every periodic length exceeds twice the range).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "grainlab/core/math.hpp"

namespace grainlab {

struct PeriodicBox;

// Nearest-image separations for a box copied into a local, so hot loops keep its fields in
// registers (read through a reference, they were reloaded after every store the compiler could not
// rule out). Half the length is infinite along an axis that is not periodic, so the same two
// comparisons serve every axis.
struct NearestImage {
    double length[3], half[3];
    double period[3];  // the length along a periodic axis, infinite along the others
    explicit NearestImage(const PeriodicBox& box);
    template <int k>
    [[gnu::always_inline]] double along(double d) const {
        if (d > half[k]) return d - length[k];
        if (d < -half[k]) return d + length[k];
        return d;
    }
    [[gnu::always_inline]] Vec3 operator()(const Vec3& d) const { return {along<0>(d[0]), along<1>(d[1]), along<2>(d[2])}; }
    // |along<k>(d)| for |d| below the length, without a branch: the nearer of |d| and period - |d|
    // (the same bits, as rounding is symmetric: d - length is -(length - d)). For distance tests,
    // where the image's comparisons cost more than the arithmetic.
    template <int k>
    [[gnu::always_inline]] double separation(double d) const {
        const double a = std::fabs(d);
        return std::min(a, period[k] - a);
    }
    [[gnu::always_inline]] double squaredDistance(const Vec3& d) const {
        const double x = separation<0>(d[0]), y = separation<1>(d[1]), z = separation<2>(d[2]);
        return x * x + y * y + z * z;
    }
};

struct PeriodicBox {
    Vec3 min = Vec3::Zero();
    Vec3 length = Vec3::Ones();
    std::array<bool, 3> periodic{false, false, false};

    Vec3 nearestImage(const Vec3& d) const { return NearestImage(*this)(d); }
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

inline NearestImage::NearestImage(const PeriodicBox& box) {
    for (int k = 0; k < 3; ++k) {
        length[k] = box.length[k];
        period[k] = box.periodic[k] ? box.length[k] : std::numeric_limits<double>::infinity();
        half[k] = 0.5 * period[k];
    }
}

}  // namespace grainlab
