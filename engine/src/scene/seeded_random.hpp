#pragma once
// Random numbers that are the same on every platform for a given seed. std::mt19937_64's output
// is fixed by the standard, but the <random> distributions are not, so the transforms are ours.
#include <cmath>
#include <cstdint>
#include <random>

#include "grainlab/core/math.hpp"

namespace grainlab::detail {

class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}

    // Uniform in [0, 1): the top 53 bits of one draw.
    double uniform() { return static_cast<double>(engine_() >> 11) * kInv2To53; }
    double uniform(double a, double b) { return a + (b - a) * uniform(); }

    // Standard normal by the Box-Muller transform, using both values of each pair.
    double normal() {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        const double u1 = 1.0 - uniform();  // (0, 1], so the log is finite
        const double u2 = uniform();
        const double r = std::sqrt(-2.0 * std::log(u1));
        spare_ = r * std::sin(2.0 * kPi * u2);
        has_spare_ = true;
        return r * std::cos(2.0 * kPi * u2);
    }

private:
    static constexpr double kInv2To53 = 1.0 / 9007199254740992.0;
    std::mt19937_64 engine_;
    double spare_ = 0.0;
    bool has_spare_ = false;
};

}  // namespace grainlab::detail
