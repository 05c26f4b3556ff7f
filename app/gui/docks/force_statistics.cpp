#include "force_statistics.hpp"

#include <algorithm>
#include <cmath>

namespace grainlab::gui {

ForceComponents splitContactForces(const Frame& frame) {
    ForceComponents out;
    out.normal.reserve(frame.contacts.size());
    out.tangential.reserve(frame.contacts.size());
    for (const FrameContact& c : frame.contacts) {
        const Vec3 line = c.point_a - c.point_b;
        const double length = line.norm();
        if (length == 0.0) continue;
        const Vec3 n = line / length;
        const double fn = c.force.dot(n);
        out.normal.push_back(std::abs(fn));
        out.tangential.push_back((c.force - fn * n).norm());
    }
    return out;
}

Histogram binForces(const ForceComponents& forces, int bins) {
    Histogram h;
    h.normal.assign(static_cast<std::size_t>(bins), 0);
    h.tangential.assign(static_cast<std::size_t>(bins), 0);
    for (double f : forces.normal) h.largest = std::max(h.largest, f);
    for (double f : forces.tangential) h.largest = std::max(h.largest, f);
    h.bin_width = h.largest > 0.0 ? h.largest / bins : 1.0;
    auto add = [&](std::vector<int>& counts, double f) {
        const auto bin = std::min<std::size_t>(static_cast<std::size_t>(f / h.bin_width), counts.size() - 1);
        ++counts[bin];
    };
    for (double f : forces.normal) add(h.normal, f);
    for (double f : forces.tangential) add(h.tangential, f);
    return h;
}

}  // namespace grainlab::gui
