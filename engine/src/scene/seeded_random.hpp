#pragma once
// Random numbers that depend only on the seed, not on the standard library: std::mt19937_64's
// output is fixed by the standard, but the <random> distributions are not, so the transforms are
// ours.
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>

namespace grainlab::detail {

class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed) : engine_(seed) {}

    // Uniform in [0, 1): the top 53 bits of one draw.
    double uniform() { return static_cast<double>(engine_() >> 11) * kInv2To53; }
    double uniform(double a, double b) { return a + (b - a) * uniform(); }

    // Standard normal by Marsaglia's polar method, using both values of each pair.
    double normal() {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        double u, v, s;
        do {
            u = uniform(-1.0, 1.0);
            v = uniform(-1.0, 1.0);
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double scale = std::sqrt(-2.0 * std::log(s) / s);
        spare_ = v * scale;
        has_spare_ = true;
        return u * scale;
    }

    // Uniform over the unit disk, by rejection from the square (no trigonometry).
    std::pair<double, double> inUnitDisk() {
        for (;;) {
            const double x = uniform(-1.0, 1.0), y = uniform(-1.0, 1.0);
            if (x * x + y * y <= 1.0) return {x, y};
        }
    }

private:
    static constexpr double kInv2To53 = 1.0 / 9007199254740992.0;
    std::mt19937_64 engine_;
    double spare_ = 0.0;
    bool has_spare_ = false;
};

}  // namespace grainlab::detail
