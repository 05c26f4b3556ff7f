#pragma once
// Contacts of polyhedral particles (and, in the same list, of spheres and walls when the contact
// model works on this list): bodies or wall, points, normal, signed gap and the sub-region pair,
// with per-contact history keyed by body pair and sub-region pair. Penalty contact models and
// contact-dynamics solvers read the same list.
#include <cstdint>
#include <vector>

#include "grainlab/geometry/feature_contact.hpp"

namespace grainlab {

struct PolyhedralContact {
    std::uint32_t body_a = 0;
    std::int64_t body_b = 0;        // >= 0 body index; < 0: wall -1 - body_b (planes, then meshes)
    std::uint32_t material_b = 0;   // b's material (the wall's for walls)
    FeatureContact geometry;        // points, normal (b -> a), signed gap, sub-region pair
    Vec3 wall_velocity = Vec3::Zero();  // velocity of the wall surface at point_b (walls only)
    bool wall() const { return body_b < 0; }
};

struct PolyhedralContactList {
    std::vector<PolyhedralContact> contacts;
    std::vector<double> history;    // history_size doubles per contact, carried across steps by key
    std::size_t history_size = 0;
    double range = 0.0;             // contacts are reported while gap < range (the model's skin)
    std::size_t flipped = 0;        // contacts whose normal turned over since the previous search, or
                                    // whose gap is not positive: the step went through a barrier
    double* historyOf(std::size_t c) { return history.data() + c * history_size; }
};

}  // namespace grainlab
