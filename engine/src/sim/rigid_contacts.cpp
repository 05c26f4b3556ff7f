#include "grainlab/sim/rigid_contacts.hpp"

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

}  // namespace grainlab
