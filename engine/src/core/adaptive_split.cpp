#include "grainlab/core/adaptive_split.hpp"

#include <algorithm>

namespace grainlab {

const std::vector<std::size_t>& AdaptiveSplit::bounds(std::size_t n, int threads) {
    const std::size_t count = static_cast<std::size_t>(std::max(1, threads));
    if (bounds_.size() != count + 1 || bounds_.back() != n) {
        bounds_.resize(count + 1);
        for (std::size_t t = 0; t <= count; ++t) bounds_[t] = n * t / count;
        times_.assign(count, Time{});
        per_body_.assign(count, 0.0);
    }
    return bounds_;
}

void AdaptiveSplit::update(std::size_t granule) {
    const std::size_t count = times_.size();
    if (count < 2) return;
    const std::size_t n = bounds_.back();
    for (std::size_t t = 0; t < count; ++t) {
        const double seconds = times_[t].seconds, done = times_[t].done;
        times_[t] = Time{};
        if (!(done > 0.0) || !(seconds > 0.0)) continue;  // none measured (a region of fewer threads)
        const double rate = seconds / done;
        per_body_[t] = per_body_[t] > 0.0 ? (1.0 - weight_) * per_body_[t] + weight_ * rate : rate;
    }
    double speed = 0.0;  // bodies per second, all threads together
    for (const double r : per_body_) {
        if (!(r > 0.0)) return;  // wait until every thread has been measured
        speed += 1.0 / r;
    }
    // Each range in proportion to its thread's speed, but no less than a quarter of an equal share:
    // a thread descheduled for a moment must not be left without work for many steps.
    const double floor_share = 0.25 / static_cast<double>(count);
    double start = 0.0;
    for (std::size_t t = 1; t < count; ++t) {
        const double share = std::max(floor_share, (1.0 / per_body_[t - 1]) / speed);
        start += share * static_cast<double>(n);
        const auto rounded = static_cast<std::size_t>(start / static_cast<double>(granule) + 0.5) * granule;
        const auto room = static_cast<std::size_t>(floor_share * static_cast<double>(n) * static_cast<double>(count - t));
        bounds_[t] = std::clamp(rounded, bounds_[t - 1], std::max(bounds_[t - 1], n - std::min(n, room)));
    }
}

}  // namespace grainlab
