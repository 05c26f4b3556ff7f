#include "grainlab/sim/rigid_contacts.hpp"

#include <algorithm>

#include <cmath>

namespace grainlab {

void findSphereContacts(const Bodies& bodies, const NeighborList& pairs, const PeriodicBox& box,
                        const std::vector<WallContact>& walls, const MaterialPairTable& materials, double envelope,
                        std::vector<RigidContact>& out) {
    out.clear();
    for (std::size_t i = 0; i + 1 < pairs.row_start.size(); ++i)
        for (std::uint32_t k = pairs.row_start[i]; k < pairs.row_start[i + 1]; ++k) {
            const std::uint32_t j = pairs.partner[k];
            if (bodies.frozen[i] && bodies.frozen[j]) continue;
            const Vec3 d = box.nearestImage(bodies.position[i] - bodies.position[j]);
            const double distance = d.norm();
            const double gap = distance - bodies.radius[i] - bodies.radius[j];
            if (gap >= envelope || distance == 0.0) continue;
            RigidContact c;
            c.key = {static_cast<std::uint32_t>(i), static_cast<std::int64_t>(j), 0};
            c.normal = d / distance;
            c.gap = gap;
            c.point = bodies.position[i] - c.normal * (bodies.radius[i] + 0.5 * gap);
            c.b_image_shift = bodies.position[i] - d - bodies.position[j];
            const PairProperties& m = materials(bodies.material[i], bodies.material[j]);
            c.friction = m.friction;
            c.restitution = m.restitution;
            c.effective_youngs = m.effective_youngs;
            c.effective_radius = bodies.radius[i] * bodies.radius[j] / (bodies.radius[i] + bodies.radius[j]);
            out.push_back(c);
        }
    for (const WallContact& w : walls) {
        if (-w.overlap >= envelope) continue;
        RigidContact c;
        c.key = {w.body, -1 - static_cast<std::int64_t>(w.wall), w.feature};
        c.normal = w.normal;
        c.gap = -w.overlap;
        c.point = w.point;
        c.wall_velocity = w.wall_velocity;
        const PairProperties& m = materials(bodies.material[w.body], w.material);
        c.friction = m.friction;
        c.restitution = m.restitution;
        c.effective_youngs = m.effective_youngs;
        c.effective_radius = bodies.radius[w.body];
        out.push_back(c);
    }
}

void findFeatureContacts(const Bodies& bodies, const PolyhedralContactList& features,
                         const MaterialPairTable& materials, double envelope, std::vector<RigidContact>& out) {
    out.clear();
    // The feature narrow phase reports positive gaps only (behind a face of a non-convex body a
    // point may be outside it), so the solver keeps surfaces a shell of half its range apart.
    const double shell = 0.5 * features.range;
    for (const PolyhedralContact& f : features.contacts) {
        const FeatureContact& g = f.geometry;
        const double gap = g.gap - shell;
        if (gap >= envelope) continue;
        RigidContact c;
        // The sub-region pair tells contacts of one body pair apart (warm starts follow it).
        const auto feature = static_cast<std::uint32_t>(static_cast<std::uint32_t>(g.type) * 0x9E3779B1u ^
                                                        g.feature_a * 0x85EBCA77u ^ g.feature_b);
        c.key = {f.body_a, f.body_b, feature};
        c.normal = g.normal;
        c.gap = gap;
        c.point = 0.5 * (g.point_a + g.point_b);
        c.wall_velocity = f.wall_velocity;
        const PairProperties& m = materials(bodies.material[f.body_a], f.material_b);
        c.friction = m.friction;
        c.restitution = m.restitution;
        c.effective_youngs = m.effective_youngs;
        const double ra = bodies.radius[f.body_a];
        const double rb = f.wall() ? 0.0 : bodies.radius[static_cast<std::size_t>(f.body_b)];
        c.effective_radius = f.wall() ? ra : ra * rb / (ra + rb);
        out.push_back(c);
    }
}

}  // namespace grainlab
