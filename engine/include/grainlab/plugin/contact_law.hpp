#pragma once
// The engine's contact loops, instantiated inside a contact model plugin with its law inlined.
//
// A law is a functor: void operator()(const ContactKinematics&, double* history, ContactOutput&) const
// Pair loop convention (as LAMMPS): n points from b to a, lever arms are -r_a n and +r_b n, and the
// relative velocity is that of a's surface point with respect to b's at the contact.
#include <algorithm>
#include <cmath>

#include "grainlab/core/parallel.hpp"
#include "grainlab/plugin/force_context.hpp"

namespace grainlab {

struct ContactKinematics {
    Vec3 normal;            // unit, from b towards a
    double overlap;         // > 0 when touching
    double distance;        // centre distance (sphere pairs); radius - overlap for walls
    Vec3 relative_velocity; // (v_a + w_a x arm_a) - (v_b + w_b x arm_b)
    Vec3 relative_omega;    // w_a - w_b
    double effective_mass;  // m_a m_b / (m_a + m_b); m_a against a frozen body or a wall
    double effective_radius;
    const PairProperties* properties;
    double dt;
};

struct ContactOutput {
    Vec3 force = Vec3::Zero();          // on a (b gets -force)
    Vec3 torque = Vec3::Zero();         // extra torque on a beyond arm x force (rolling); b gets -torque
    double elastic_energy = 0.0;
    double dissipated = 0.0;            // energy dissipated by this contact during dt
};

namespace detail {

// Energy and contact count summed in registers and stored once per range: the accumulators of
// different threads share cache lines, and writing them per contact made two threads slower than one.
struct RangeTally {
    double elastic_energy = 0.0, dissipated = 0.0;
    std::size_t contacts = 0;
    void add(const ContactOutput& out) {
        elastic_energy += out.elastic_energy;
        dissipated += out.dissipated;
        ++contacts;
    }
    void storeInto(ThreadAccumulator& acc) const {
        acc.elastic_energy += elastic_energy;
        acc.dissipated += dissipated;
        acc.contacts += contacts;
    }
};

// Touching pairs found by the distance pass of a range, handed to the law in batches: the laws of
// consecutive contacts then overlap in the pipeline instead of each waiting behind the distance
// tests (86% of the chute's entries are apart) and their mispredicted branches.
struct TouchingBatch {
    static constexpr std::size_t kCapacity = 64;
    std::uint32_t body[kCapacity], partner[kCapacity], entry[kCapacity];
    Vec3 separation[kCapacity];         // x_body - x_partner, nearest image
    double distance_squared[kCapacity];
    std::size_t size = 0;
};

// The law for every pair in `batch`; forces go to body (owned by this range) and partner.
template <class Law>
[[gnu::always_inline]] inline void applyToBatch(ForceContext& ctx, const Law& law, ThreadAccumulator& acc,
                                                RangeTally& tally, TouchingBatch& batch) {
    const Bodies& bodies = ctx.bodies;
    const Vec3* v = bodies.velocity.data();
    const Vec3* w = bodies.angular_velocity.data();
    const double* radius = bodies.radius.data();
    const double* inv_mass = bodies.inv_mass.data();
    const std::uint32_t* material = bodies.material.data();
    double* const history_base = ctx.pairs.history.data();
    const std::size_t history_size = ctx.pairs.history_size;
    // Square roots and reciprocals as one vector loop ahead of the laws.
    double distance[TouchingBatch::kCapacity], inv_distance[TouchingBatch::kCapacity];
    for (std::size_t c = 0; c < batch.size; ++c) distance[c] = std::sqrt(batch.distance_squared[c]);
    for (std::size_t c = 0; c < batch.size; ++c) inv_distance[c] = 1.0 / distance[c];
    for (std::size_t c = 0; c < batch.size; ++c) {
        const std::uint32_t i = batch.body[c], j = batch.partner[c];
        const double ri = radius[i], rj = radius[j], rsum = ri + rj;
        const double r = distance[c];
        const Vec3 n = batch.separation[c] * inv_distance[c];
        const Vec3 arm_i = -ri * n;
        const Vec3 arm_j = rj * n;
        ContactKinematics kin{n,
                              rsum - r,
                              r,
                              (v[i] + w[i].cross(arm_i)) - (v[j] + w[j].cross(arm_j)),
                              w[i] - w[j],
                              1.0 / (inv_mass[i] + inv_mass[j]),
                              ri * rj / rsum,
                              &ctx.materials(material[i], material[j]),
                              ctx.dt};
        ContactOutput out;
        law(kin, history_base + std::size_t{batch.entry[c]} * history_size, out);
        acc.own_force[i] += out.force;
        acc.own_torque[i] += arm_i.cross(out.force) + out.torque;
        acc.add(j, -out.force, -(arm_j.cross(out.force) + out.torque));
        tally.add(out);
        if (ctx.record)
            acc.records.push_back({i, j, bodies.position[i] + arm_i, n, out.force, rsum - r});
    }
    batch.size = 0;
}

// Pair and wall contacts of the bodies [begin, end): the pair loop of one thread. Flattened so the
// law and the tangential spring are inlined into it (a call per contact cost a fifth of a step).
template <class Law>
[[gnu::flatten]] void contactRange(ForceContext& ctx, const Law& law, ThreadAccumulator& acc, std::size_t begin,
                                   std::size_t end) {
    Bodies& bodies = ctx.bodies;
    NeighborList& pairs = ctx.pairs;
    const std::size_t history_size = pairs.history_size;
    const Vec3* x = bodies.position.data();
    const Vec3* v = bodies.velocity.data();
    const Vec3* w = bodies.angular_velocity.data();
    const double* radius = bodies.radius.data();
    const double* inv_mass = bodies.inv_mass.data();
    const std::uint32_t* material = bodies.material.data();
    acc.ownRange(begin, end);
    RangeTally tally;
    double* const history_base = pairs.history.data();
    TouchingBatch batch;
    // Partners are scattered through the body arrays, which at 128,000 bodies no longer fit in the
    // cache: their positions are fetched 32 entries ahead, and a touching partner's velocities and
    // force slots when it joins the batch, so they arrive before its law runs (one thread about 20%
    // faster at 128,000 spheres, docs/performance.md).
    constexpr std::uint32_t kAhead = 32;
    // The list and the box in locals: read through `ctx`, they were reloaded at every entry, as the
    // history writes below might have changed them.
    const std::uint32_t* const row_start = pairs.row_start.data();
    const std::uint32_t* const partner = pairs.partner.data();
    const std::uint32_t partner_end = static_cast<std::uint32_t>(pairs.partner.size());
    const NearestImage image(ctx.box);
    for (std::size_t i = begin; i < end; ++i) {
        const double xi = x[i].x(), yi = x[i].y(), zi = x[i].z();
        const double ri = radius[i];
        const std::uint32_t row_end = row_start[i + 1];
        for (std::uint32_t k = row_start[i]; k < row_end; ++k) {
            const std::uint32_t j = partner[k];
            if (k + kAhead < partner_end) {
                __builtin_prefetch(x + partner[k + kAhead]);
                __builtin_prefetch(radius + partner[k + kAhead]);
            }
            const double dx = image.along<0>(xi - x[j].x());
            const double dy = image.along<1>(yi - x[j].y());
            const double dz = image.along<2>(zi - x[j].z());
            const double rsq = dx * dx + dy * dy + dz * dz;
            const double rsum = ri + radius[j];
            if (rsq < rsum * rsum) {
                const std::size_t c = batch.size++;
                batch.body[c] = static_cast<std::uint32_t>(i);
                batch.partner[c] = j;
                batch.entry[c] = k;
                batch.separation[c] = Vec3(dx, dy, dz);
                batch.distance_squared[c] = rsq;
                __builtin_prefetch(v + j);
                __builtin_prefetch(w + j);
                __builtin_prefetch(acc.force + j, 1);
                __builtin_prefetch(acc.torque + j, 1);
                if (batch.size == TouchingBatch::kCapacity) applyToBatch(ctx, law, acc, tally, batch);
                continue;
            }
            // Apart: the history starts again from zero. Written only when not zero already, so
            // the cache lines of pairs long apart stay clean; one branch for all of it.
            double* history = history_base + std::size_t{k} * history_size;
            bool any = false;
            for (std::size_t h = 0; h < history_size; ++h) any |= history[h] != 0.0;
            if (any) std::fill_n(history, history_size, 0.0);
        }
    }
    applyToBatch(ctx, law, acc, tally, batch);
    // Walls (contacts in body order): the lever arm on the body reaches the wall point; the wall
    // takes no torque here.
    const std::vector<WallContact>& walls = ctx.wall_contacts;
    auto first = std::lower_bound(walls.begin(), walls.end(), begin,
                                  [](const WallContact& c, std::size_t body) { return c.body < body; });
    for (std::size_t c = static_cast<std::size_t>(first - walls.begin()); c < walls.size() && walls[c].body < end; ++c) {
        const WallContact& wc = walls[c];
        const std::uint32_t i = wc.body;
        const Vec3 arm = -radius[i] * wc.normal;
        ContactKinematics kin{wc.normal,
                              wc.overlap,
                              radius[i] - wc.overlap,
                              (v[i] + w[i].cross(arm)) - wc.wall_velocity,
                              w[i],
                              1.0 / inv_mass[i],
                              radius[i],
                              &ctx.materials(material[i], wc.material),
                              ctx.dt};
        ContactOutput out;
        law(kin, ctx.wall_history.data() + c * history_size, out);
        acc.own_force[i] += out.force;
        acc.own_torque[i] += arm.cross(out.force) + out.torque;
        tally.add(out);
        if (ctx.record)
            acc.records.push_back({i, -1 - static_cast<std::int64_t>(wc.wall), wc.point, wc.normal, out.force,
                                   wc.overlap});
    }
    tally.storeInto(acc);
}

}  // namespace detail

// Each thread takes a range of bodies with their rows of pairs and their wall contacts, the ranges
// holding equal shares of the list's work estimate: bodies in spatial order put a bed's free
// surface, with short rows and few contacts, in the last range, and equal body counts left the
// others waiting.
template <class Law>
void applyContactLaw(ForceContext& ctx, const Law& law) {
    const std::vector<double>& work = ctx.pairs.work_before;
    const bool known = work.size() == ctx.bodies.size() + 1;
    auto work_before = [&](std::size_t i) { return known ? work[i] : static_cast<double>(i); };
    parallelBalancedRanges(ctx.bodies.size(), ctx.threads, work_before, [&](int t, std::size_t begin, std::size_t end) {
        detail::contactRange(ctx, law, ctx.accumulators[static_cast<std::size_t>(t)], begin, end);
    });
}

}  // namespace grainlab
