#pragma once
// The narrow phase's output for contact dynamics, whatever the shapes: bodies (or a wall), point,
// normal and signed gap. Polyhedra feed the same list through `feature` (their sub-region pair).
#include <cstdint>
#include <tuple>
#include <vector>

#include "grainlab/core/math.hpp"
#include "grainlab/plugin/force_context.hpp"
#include "grainlab/sim/polyhedral_contacts.hpp"

namespace grainlab {

// Identifies a contact across steps (warm starts): bodies, and wall or feature.
struct ContactKey {
    std::uint32_t a = 0;
    std::int64_t b = 0;          // body index, or -1 - wall index
    std::uint32_t feature = 0;   // wall triangle or polyhedron sub-region pair
    bool operator<(const ContactKey& o) const { return std::tie(a, b, feature) < std::tie(o.a, o.b, o.feature); }
    bool operator==(const ContactKey& o) const { return a == o.a && b == o.b && feature == o.feature; }
};

struct RigidContact {
    ContactKey key;               // key.b < 0: b is a static (or prescribed-motion) wall
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::UnitZ();  // unit, from b to a
    double gap = 0.0;             // signed distance, negative when penetrating
    Vec3 wall_velocity = Vec3::Zero();  // surface velocity of the wall at `point` (walls only)
    Vec3 b_image_shift = Vec3::Zero();  // periodic boxes: b's position + this is the image touching a
    double friction = 0.0;
    double restitution = 0.0;
    double effective_youngs = 1.0;      // E* of the pair (relative stiffness for post-steps)
    double effective_radius = 1.0;      // R* of the pair
};

// Sphere-sphere contacts from the neighbour list and sphere-wall contacts from the wall narrow
// phase, with gap below `envelope`; friction and restitution from the material pair table.
void findSphereContacts(const Bodies& bodies, const NeighborList& pairs, const PeriodicBox& box,
                        const std::vector<WallContact>& walls, const MaterialPairTable& materials, double envelope,
                        std::vector<RigidContact>& out);

// Contacts of polyhedra (and of spheres with them) from the feature narrow phase, with gap below
// `envelope`: the point halfway between the two surface points, the feature pair as key. The gap
// is measured to a shell of half the feature range around each contact (the narrow phase sees
// positive gaps only), so resting polyhedra sit that far apart.
void findFeatureContacts(const Bodies& bodies, const PolyhedralContactList& features,
                         const MaterialPairTable& materials, double envelope, std::vector<RigidContact>& out);

}  // namespace grainlab
