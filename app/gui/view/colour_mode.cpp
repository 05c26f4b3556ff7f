#include "colour_mode.hpp"

#include <unordered_map>

namespace grainlab::gui {

std::string colourModeTitle(ColourMode mode) {
    switch (mode) {
        case ColourMode::Speed: return "speed [m/s]";
        case ColourMode::ContactForce: return "contact force [N]";
        case ColourMode::Coordination: return "contacts";
        case ColourMode::BodyId: return "body id";
    }
    return {};
}

std::vector<double> bodyValues(const Snapshot& snapshot, ColourMode mode) {
    const Frame& f = snapshot.frame;
    std::vector<double> values(f.position.size(), 0.0);
    if (mode == ColourMode::Speed) {
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = f.velocity[i].norm();
    } else if (mode == ColourMode::BodyId) {
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(f.id[i]);
    } else {
        std::unordered_map<std::int64_t, std::size_t> index;
        index.reserve(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) index.emplace(f.id[i], i);
        const bool count = mode == ColourMode::Coordination;
        for (const FrameContact& c : f.contacts) {
            const double add = count ? 1.0 : c.force.norm();
            if (auto a = index.find(c.body_a); a != index.end()) values[a->second] += add;
            if (c.body_b < 0) continue;
            if (auto b = index.find(c.body_b); b != index.end()) values[b->second] += add;
        }
    }
    return values;
}

}  // namespace grainlab::gui
