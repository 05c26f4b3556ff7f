#pragma once
// The engine's loop over feature contacts (ForceContext::polyhedral), instantiated inside a contact
// model plugin with its law inlined, as applyContactLaw does for sphere pairs.
//
// A law is a functor: void operator()(const FeatureKinematics&, double* history, FeatureOutput&) const
// The normal force acts on each body at its own contact point (the two lie on one line along n, so
// angular momentum is kept); the tangential force acts at their midpoint (implementation note 6.3).
#include "grainlab/core/parallel.hpp"
#include "grainlab/plugin/force_context.hpp"

namespace grainlab {

struct FeatureKinematics {
    const PolyhedralContact* contact;
    Vec3 normal;                 // unit, from b towards a
    double gap;                  // signed; > 0 apart
    double normal_rate;          // d(gap)/dt = n . (v_a(p_a) - v_b(p_b)); > 0 separating
    Vec3 slip_velocity;          // (v_a - v_b) at the midpoint, tangential part
    double effective_mass;       // m_a m_b / (m_a + m_b); m_a against a wall or a frozen body
    const PairProperties* properties;
    double dt;
};

struct FeatureOutput {
    double normal_force = 0.0;          // on a along +n (b gets the opposite)
    Vec3 tangential_force = Vec3::Zero();  // on a (b gets the opposite)
    double elastic_energy = 0.0;
    double dissipated = 0.0;            // during dt
};

template <class Law>
void applyFeatureContactLaw(ForceContext& ctx, const Law& law) {
    if (!ctx.polyhedral) return;
    PolyhedralContactList& list = *ctx.polyhedral;
    const Bodies& bodies = ctx.bodies;
    parallelRanges(list.contacts.size(), ctx.threads, [&](int t, std::size_t begin, std::size_t end) {
        ThreadAccumulator& acc = ctx.accumulators[static_cast<std::size_t>(t)];
        acc.touchAll();  // contacts reach any body: everything goes through acc.force
        double elastic = 0.0, dissipated = 0.0;
        for (std::size_t c = begin; c < end; ++c) {
            const PolyhedralContact& pc = list.contacts[c];
            const FeatureContact& g = pc.geometry;
            const std::uint32_t a = pc.body_a;
            const bool wall = pc.wall();
            const auto b = static_cast<std::size_t>(wall ? 0 : pc.body_b);
            const Vec3 mid = 0.5 * (g.point_a + g.point_b);
            auto velocity = [&](std::size_t i, const Vec3& p) {
                return Vec3(bodies.velocity[i] + bodies.angular_velocity[i].cross(p - bodies.position[i]));
            };
            const Vec3 vb_point = wall ? pc.wall_velocity : velocity(b, g.point_b);
            const Vec3 vb_mid = wall ? pc.wall_velocity : velocity(b, mid);
            const Vec3 v_mid = velocity(a, mid) - vb_mid;
            const double inv_b = wall ? 0.0 : bodies.inv_mass[b];
            const double inv_sum = bodies.inv_mass[a] + inv_b;
            FeatureKinematics kin{&pc,
                                  g.normal,
                                  g.gap,
                                  g.normal.dot(velocity(a, g.point_a) - vb_point),
                                  v_mid - v_mid.dot(g.normal) * g.normal,
                                  inv_sum > 0.0 ? 1.0 / inv_sum : bodies.mass[a],
                                  &ctx.materials(bodies.material[a], pc.material_b),
                                  ctx.dt};
            FeatureOutput out;
            law(kin, list.historyOf(c), out);
            const Vec3 fn = out.normal_force * g.normal;
            acc.force[a] += fn + out.tangential_force;
            acc.torque[a] += (g.point_a - bodies.position[a]).cross(fn) + (mid - bodies.position[a]).cross(out.tangential_force);
            if (!wall) {
                acc.force[b] -= fn + out.tangential_force;
                acc.torque[b] -= (g.point_b - bodies.position[b]).cross(fn) + (mid - bodies.position[b]).cross(out.tangential_force);
            }
            elastic += out.elastic_energy;
            dissipated += out.dissipated;
            if (out.normal_force != 0.0 || out.elastic_energy != 0.0) ++acc.contacts;
            if (ctx.record && out.normal_force != 0.0)
                acc.records.push_back({a, pc.body_b, mid, g.normal, fn + out.tangential_force, -g.gap});
        }
        acc.elastic_energy += elastic;
        acc.dissipated += dissipated;
    });
}

}  // namespace grainlab
