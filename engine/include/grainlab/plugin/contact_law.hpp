#pragma once
// The engine's contact loops, instantiated inside a contact model plugin with its law inlined.
//
// A law is a functor with `void lanes(ContactLanes& lanes, std::size_t count) const`: for each of the
// first `count` lanes (contact_lanes.hpp) it sets the force, extra torque and energies from the
// kinematics and updates the history in place, as a loop of plain arithmetic over lanes so that it
// runs as vector code across contacts. Pair loop convention (as LAMMPS): n points from b to a, lever
// arms are -r_a n and +r_b n, and the relative velocity is that of a's surface point with respect to
// b's at the contact.
#include <algorithm>
#include <chrono>
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "grainlab/core/avx2_lanes.hpp"
#include "grainlab/core/parallel.hpp"
#include "grainlab/core/vector_isa.hpp"
#include "grainlab/plugin/contact_lanes.hpp"
#include "grainlab/plugin/entry_tests.hpp"
#include "grainlab/plugin/force_context.hpp"

namespace grainlab {

namespace detail {

// Energy summed in registers per energy block (kEnergyBlock bodies, by the contact's first body)
// and added to the block's slots once the contacts move on to another block: per contact, the
// threads' stores shared cache lines and made two threads slower than one. Within a block the
// sum runs in contact order, whichever thread's range holds the block.
struct RangeTally {
    double* blocks = nullptr;  // [2b] elastic, [2b + 1] dissipated
    std::size_t block = 0;     // the block the running sums belong to
    bool held = false;         // a contact was added since the last flush
    double elastic_energy = 0.0, dissipated = 0.0;
    std::size_t contacts = 0;
    [[gnu::always_inline]] void add(std::size_t body, double elastic, double lost) {
        const std::size_t b = body / kEnergyBlock;
        if (b != block) {
            flush();
            block = b;
        }
        elastic_energy += elastic;
        dissipated += lost;
        held = true;
    }
    // Only blocks with contacts are written: an empty range's starting block belongs to the next
    // thread's range, which may be writing it.
    void flush() {
        if (!held) return;
        blocks[2 * block] += elastic_energy;
        blocks[2 * block + 1] += dissipated;
        elastic_energy = dissipated = 0.0;
        held = false;
    }
    void storeInto(ThreadAccumulator& acc) {
        flush();
        acc.contacts += contacts;
    }
};

// Touching pairs found by the distance pass of a range, handed to the law in batches: the laws of
// consecutive contacts then overlap in the pipeline instead of each waiting behind the distance
// tests (86% of the chute's entries are apart) and their mispredicted branches.
struct TouchingBatch {
    static constexpr std::size_t kCapacity = ContactLanes::kCapacity;
    std::uint32_t body[kCapacity], partner[kCapacity];
    std::size_t slot[kCapacity];  // where each pair's history is, in `history`
    double sx[kCapacity], sy[kCapacity], sz[kCapacity];  // x_body - x_partner, nearest image
    double distance_squared[kCapacity];
    std::size_t size = 0;
    double* history = nullptr;  // the range's new history values (set before each call of the law)
};

// The two sides of each lane's contact, gathered for the vector loops: a's velocity, spin and
// lever-arm length, b's likewise (a wall: its surface velocity, no spin, no arm), inverse masses.
struct LaneSides {
    static constexpr std::size_t K = ContactLanes::kCapacity;
    double vax[K], vay[K], vaz[K], wax[K], way[K], waz[K];
    double vbx[K], vby[K], vbz[K], wbx[K], wby[K], wbz[K];
    double arm_a[K], arm_b[K];          // lever arms are -arm_a n and +arm_b n
    double inv_mass_a[K], inv_mass_b[K];
    double torque_ax[K], torque_ay[K], torque_az[K];  // on a: arm_a x F + T
    double torque_bx[K], torque_by[K], torque_bz[K];  // on b: -(arm_b x F + T)
};

inline void gatherSide(const Vec3& v, const Vec3& w, double* vx, double* vy, double* vz, double* wx, double* wy,
                       double* wz, std::size_t c) {
    vx[c] = v.x(), vy[c] = v.y(), vz[c] = v.z();
    wx[c] = w.x(), wy[c] = w.y(), wz[c] = w.z();
}

// Relative velocity at the contact, relative spin and effective mass of lanes [0, n), once the
// normals and both sides are in place; then the law; then each side's torque.
template <class Law>
[[gnu::always_inline]] inline void runLanes(const Law& law, ContactLanes& L, LaneSides& S, std::size_t n) {
    for (std::size_t c = 0; c < n; ++c) {
        const double nx = L.nx[c], ny = L.ny[c], nz = L.nz[c];
        // Arms: a at -arm_a n, b at +arm_b n; the velocity of each surface point is v + w x arm.
        const double ax = -S.arm_a[c] * nx, ay = -S.arm_a[c] * ny, az = -S.arm_a[c] * nz;
        const double bx = S.arm_b[c] * nx, by = S.arm_b[c] * ny, bz = S.arm_b[c] * nz;
        L.vx[c] = (S.vax[c] + (S.way[c] * az - S.waz[c] * ay)) - (S.vbx[c] + (S.wby[c] * bz - S.wbz[c] * by));
        L.vy[c] = (S.vay[c] + (S.waz[c] * ax - S.wax[c] * az)) - (S.vby[c] + (S.wbz[c] * bx - S.wbx[c] * bz));
        L.vz[c] = (S.vaz[c] + (S.wax[c] * ay - S.way[c] * ax)) - (S.vbz[c] + (S.wbx[c] * by - S.wby[c] * bx));
        L.wx[c] = S.wax[c] - S.wbx[c];
        L.wy[c] = S.way[c] - S.wby[c];
        L.wz[c] = S.waz[c] - S.wbz[c];
        L.effective_mass[c] = 1.0 / (S.inv_mass_a[c] + S.inv_mass_b[c]);
    }
    law.lanes(L, n);
    for (std::size_t c = 0; c < n; ++c) {
        const double nx = L.nx[c], ny = L.ny[c], nz = L.nz[c];
        const double fx = L.fx[c], fy = L.fy[c], fz = L.fz[c];
        // n x F, scaled by each arm.
        const double cx = ny * fz - nz * fy, cy = nz * fx - nx * fz, cz = nx * fy - ny * fx;
        S.torque_ax[c] = -S.arm_a[c] * cx + L.tx[c];
        S.torque_ay[c] = -S.arm_a[c] * cy + L.ty[c];
        S.torque_az[c] = -S.arm_a[c] * cz + L.tz[c];
        S.torque_bx[c] = -(S.arm_b[c] * cx + L.tx[c]);
        S.torque_by[c] = -(S.arm_b[c] * cy + L.ty[c]);
        S.torque_bz[c] = -(S.arm_b[c] * cz + L.tz[c]);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
// Four lanes of three columns.
[[gnu::target("avx2"), gnu::always_inline]] inline void putFour(double* x, double* y, double* z, __m256d vx,
                                                               __m256d vy, __m256d vz) {
    _mm256_storeu_pd(x, vx);
    _mm256_storeu_pd(y, vy);
    _mm256_storeu_pd(z, vz);
}

// Both sides of lanes [c, c + 4) and their histories, four lanes a vector: the bodies' Vec3s
// transposed in registers, where one lane at a time took a load and a store per double (a third
// of the Hertz chute's batches' samples). Only data moves, so the lanes hold the same bits.
[[gnu::target("avx2"), gnu::always_inline]] inline void gatherFour(const Bodies& bodies, const TouchingBatch& batch,
                                                                  ContactLanes& L, LaneSides& S, std::size_t c) {
    const double* const v = bodies.velocity.data()->data();
    const double* const w = bodies.angular_velocity.data()->data();
    __m256d x, y, z;
    avx2::positions(v, batch.body + c, x, y, z);
    putFour(S.vax + c, S.vay + c, S.vaz + c, x, y, z);
    avx2::positions(w, batch.body + c, x, y, z);
    putFour(S.wax + c, S.way + c, S.waz + c, x, y, z);
    avx2::positions(v, batch.partner + c, x, y, z);
    putFour(S.vbx + c, S.vby + c, S.vbz + c, x, y, z);
    avx2::positions(w, batch.partner + c, x, y, z);
    putFour(S.wbx + c, S.wby + c, S.wbz + c, x, y, z);
    _mm256_storeu_pd(S.arm_a + c, avx2::values(bodies.radius.data(), batch.body + c));
    _mm256_storeu_pd(S.arm_b + c, avx2::values(bodies.radius.data(), batch.partner + c));
    _mm256_storeu_pd(S.inv_mass_a + c, avx2::values(bodies.inv_mass.data(), batch.body + c));
    _mm256_storeu_pd(S.inv_mass_b + c, avx2::values(bodies.inv_mass.data(), batch.partner + c));
    static_assert(ContactLanes::kHistory == 3);
    avx2::fourVec3(batch.history + batch.slot[c], x, y, z);
    putFour(L.history[0] + c, L.history[1] + c, L.history[2] + c, x, y, z);
}

// gatherFour over the batch's lanes four at a time, while their histories are consecutive (as
// contactRange appends them); how many lanes it gathered.
[[gnu::target("avx2"), gnu::always_inline]] inline std::size_t gatherFours(const Bodies& bodies,
                                                                          const TouchingBatch& batch,
                                                                          ContactLanes& L, LaneSides& S) {
    std::size_t c = 0;
    for (; c + 4 <= batch.size; c += 4) {
        if (batch.slot[c + 3] != batch.slot[c] + 3 * ContactLanes::kHistory) break;
        gatherFour(bodies, batch, L, S, c);
    }
    return c;
}
#endif

// Lane c's sides and history, one double at a time.
inline void gatherOne(const Bodies& bodies, const TouchingBatch& batch, ContactLanes& L, LaneSides& S,
                      std::size_t c) {
    const std::uint32_t i = batch.body[c], j = batch.partner[c];
    gatherSide(bodies.velocity[i], bodies.angular_velocity[i], S.vax, S.vay, S.vaz, S.wax, S.way, S.waz, c);
    gatherSide(bodies.velocity[j], bodies.angular_velocity[j], S.vbx, S.vby, S.vbz, S.wbx, S.wby, S.wbz, c);
    S.arm_a[c] = bodies.radius[i];
    S.arm_b[c] = bodies.radius[j];
    S.inv_mass_a[c] = bodies.inv_mass[i];
    S.inv_mass_b[c] = bodies.inv_mass[j];
    const double* history = batch.history + batch.slot[c];
    for (std::size_t h = 0; h < ContactLanes::kHistory; ++h) L.history[h][c] = history[h];
}

// The law for every pair in `batch`; forces go to body (owned by this range) and partner. The
// first `gathered` lanes hold their sides and histories already (gatherFours).
template <class Law>
[[gnu::always_inline]] inline void applyToBatch(ForceContext& ctx, const Law& law, ThreadAccumulator& acc,
                                                RangeTally& tally, TouchingBatch& batch, ContactLanes& L,
                                                LaneSides& S, std::size_t gathered) {
    const Bodies& bodies = ctx.bodies;
    const std::uint32_t* material = bodies.material.data();
    double* const history_base = batch.history;
    constexpr std::size_t history_size = ContactLanes::kHistory;
    const std::size_t n = batch.size;
    L.dt = ctx.dt;
    for (std::size_t c = gathered; c < n; ++c) gatherOne(bodies, batch, L, S, c);
    for (std::size_t c = 0; c < n; ++c) L.properties[c] = &ctx.materials(material[batch.body[c]], material[batch.partner[c]]);
    for (std::size_t c = 0; c < n; ++c) {
        const double distance = std::sqrt(batch.distance_squared[c]);
        const double inv_distance = 1.0 / distance;
        const double rsum = S.arm_a[c] + S.arm_b[c];
        L.nx[c] = batch.sx[c] * inv_distance;
        L.ny[c] = batch.sy[c] * inv_distance;
        L.nz[c] = batch.sz[c] * inv_distance;
        L.overlap[c] = rsum - distance;
        L.effective_radius[c] = S.arm_a[c] * S.arm_b[c] / rsum;
    }
    runLanes(law, L, S, n);
    for (std::size_t c = 0; c < n; ++c) {
        const std::uint32_t i = batch.body[c], j = batch.partner[c];
        const Vec3 force(L.fx[c], L.fy[c], L.fz[c]);
        acc.own_force[i] += force;
        acc.own_torque[i] += Vec3(S.torque_ax[c], S.torque_ay[c], S.torque_az[c]);
        acc.add(j, -force, Vec3(S.torque_bx[c], S.torque_by[c], S.torque_bz[c]));
        tally.add(i, L.elastic_energy[c], L.dissipated[c]);
        double* history = history_base + batch.slot[c];
        for (std::size_t h = 0; h < history_size; ++h) history[h] = L.history[h][c];
        if (ctx.record) {
            const Vec3 normal(L.nx[c], L.ny[c], L.nz[c]);
            acc.records.push_back({i, j, bodies.position[i] - S.arm_a[c] * normal, normal, force, L.overlap[c]});
        }
    }
    tally.contacts += n;
    batch.size = 0;
}

// The wall contacts [first, last) of this range's bodies (contacts in body order), in batches of
// lanes: the lever arm on the body reaches the wall point; the wall takes no torque here.
template <class Law>
[[gnu::always_inline]] inline void applyToWalls(ForceContext& ctx, const Law& law, ThreadAccumulator& acc,
                                                RangeTally& tally, std::size_t first, std::size_t last,
                                                ContactLanes& L, LaneSides& S) {
    const Bodies& bodies = ctx.bodies;
    const std::vector<WallContact>& walls = ctx.wall_contacts;
    constexpr std::size_t history_size = ContactLanes::kHistory;
    L.dt = ctx.dt;
    for (std::size_t begin = first; begin < last; begin += ContactLanes::kCapacity) {
        const std::size_t n = std::min(ContactLanes::kCapacity, last - begin);
        for (std::size_t c = 0; c < n; ++c) {
            const WallContact& wc = walls[begin + c];
            const std::uint32_t i = wc.body;
            gatherSide(bodies.velocity[i], bodies.angular_velocity[i], S.vax, S.vay, S.vaz, S.wax, S.way, S.waz, c);
            gatherSide(wc.wall_velocity, Vec3::Zero(), S.vbx, S.vby, S.vbz, S.wbx, S.wby, S.wbz, c);
            S.arm_a[c] = bodies.radius[i];
            S.arm_b[c] = 0.0;
            S.inv_mass_a[c] = bodies.inv_mass[i];
            S.inv_mass_b[c] = 0.0;
            L.nx[c] = wc.normal.x(), L.ny[c] = wc.normal.y(), L.nz[c] = wc.normal.z();
            L.overlap[c] = wc.overlap;
            L.effective_radius[c] = bodies.radius[i];
            L.properties[c] = &ctx.materials(bodies.material[i], wc.material);
            const double* history = ctx.wall_history.data() + (begin + c) * history_size;
            for (std::size_t h = 0; h < history_size; ++h) L.history[h][c] = history[h];
        }
        runLanes(law, L, S, n);
        for (std::size_t c = 0; c < n; ++c) {
            const WallContact& wc = walls[begin + c];
            const std::uint32_t i = wc.body;
            const Vec3 force(L.fx[c], L.fy[c], L.fz[c]);
            acc.own_force[i] += force;
            acc.own_torque[i] += Vec3(S.torque_ax[c], S.torque_ay[c], S.torque_az[c]);
            tally.add(i, L.elastic_energy[c], L.dissipated[c]);
            double* history = ctx.wall_history.data() + (begin + c) * history_size;
            for (std::size_t h = 0; h < history_size; ++h) history[h] = L.history[h][c];
            if (ctx.record)
                acc.records.push_back({i, -1 - static_cast<std::int64_t>(wc.wall), wc.point, wc.normal, force,
                                       wc.overlap});
        }
        tally.contacts += n;
    }
}

// A full batch of pairs, or a range's wall contacts, through the law: a call per batch of up to 64
// contacts, not inlined into the distance pass, so that the pass keeps its registers (with the law
// inlined, its row pointers and bounds lived on the stack). Compiled for the baseline and for AVX2.
template <class Law>
struct BatchBaseline {
    [[gnu::always_inline]] static std::uint64_t classify(const EntryArrays& a, std::uint32_t chunk, std::uint32_t count) {
        return classifyBaseline(a, chunk, count);
    }
    [[gnu::noinline, gnu::flatten]] static void pairs(ForceContext& ctx, const Law& law, ThreadAccumulator& acc,
                                                      RangeTally& tally, TouchingBatch& batch, ContactLanes& L,
                                                      LaneSides& S) {
        applyToBatch(ctx, law, acc, tally, batch, L, S, 0);
    }
    [[gnu::noinline, gnu::flatten]] static void walls(ForceContext& ctx, const Law& law, ThreadAccumulator& acc,
                                                      RangeTally& tally, std::size_t first, std::size_t last,
                                                      ContactLanes& L, LaneSides& S) {
        applyToWalls(ctx, law, acc, tally, first, last, L, S);
    }
};

#if defined(__x86_64__) && defined(__GNUC__)
template <class Law>
struct BatchAvx2 {
    [[gnu::always_inline]] static std::uint64_t classify(const EntryArrays& a, std::uint32_t chunk, std::uint32_t count) {
        return classifyAvx2(a, chunk, count);
    }
    [[gnu::noinline, gnu::flatten, gnu::target("avx2,bmi,bmi2")]] static void pairs(
        ForceContext& ctx, const Law& law, ThreadAccumulator& acc, RangeTally& tally, TouchingBatch& batch,
        ContactLanes& L, LaneSides& S) {
        applyToBatch(ctx, law, acc, tally, batch, L, S, gatherFours(ctx.bodies, batch, L, S));
    }
    [[gnu::noinline, gnu::flatten, gnu::target("avx2,bmi,bmi2")]] static void walls(
        ForceContext& ctx, const Law& law, ThreadAccumulator& acc, RangeTally& tally, std::size_t first,
        std::size_t last, ContactLanes& L, LaneSides& S) {
        applyToWalls(ctx, law, acc, tally, first, last, L, S);
    }
};
#endif

// fn(b) for each set bit b of `bits`, lowest first.
template <class Fn>
[[gnu::always_inline]] inline void forEachBit(std::uint64_t bits, Fn&& fn) {
    for (; bits != 0; bits &= bits - 1) fn(static_cast<std::uint32_t>(std::countr_zero(bits)));
}

// Pair and wall contacts of the bodies [begin, end), a chunk of the pair loop, whose thread writes
// the forces on the bodies [own_begin, own_end) directly and lists the others (ThreadAccumulator).
// The touching pairs go to the law in batches (Batch: BatchBaseline or BatchAvx2); their histories,
// carried from the list's parts (the entries' histories before), go to `fresh`, which holds the
// touching pairs' after the pass: a pair that came apart is left out, its history back to zero.
template <class Law, class Batch>
void contactRange(ForceContext& ctx, const Law& law, ThreadAccumulator& acc, std::size_t begin, std::size_t end,
                  std::size_t own_begin, std::size_t own_end, PairHistoryPart& fresh, double* energy_blocks) {
    Bodies& bodies = ctx.bodies;
    NeighborList& pairs = ctx.pairs;
    constexpr std::size_t history_size = ContactLanes::kHistory;
    static constexpr double kNone[history_size] = {};
    const Vec3* x = bodies.position.data();
    const Vec3* v = bodies.velocity.data();
    const Vec3* w = bodies.angular_velocity.data();
    const double* radius = bodies.radius.data();
    const double* inv_mass = bodies.inv_mass.data();
    const std::uint32_t* material = bodies.material.data();
    acc.ownRange(own_begin, own_end);
    RangeTally tally;
    tally.blocks = energy_blocks;
    tally.block = begin / kEnergyBlock;
    TouchingBatch batch;
    ContactLanes lanes;
    LaneSides sides;
    // What a touching partner's law reads (velocities, inverse mass, material) or writes (force
    // slots) is fetched when it joins the batch, so it arrives before the law runs (one thread about
    // 20% faster at 128,000 spheres, docs/performance.md); the body's velocities and force slots
    // too, which at 1,024,000 spheres the law's first loads waited for (last touched by the sweep).
    // The list and the box in locals: read through `ctx`, they were reloaded at every entry, as the
    // history writes below might have changed them.
    const std::uint32_t* const row_start = pairs.row_start.data();
    const EntryArrays entries{pairs.owner.data(), pairs.partner.data(),
                              static_cast<std::uint32_t>(pairs.partner.size()), x, radius, NearestImage(ctx.box)};
    // The range's wall contacts first: a body's forces then run wall, own row, later rows (listed
    // ones from other threads' rows last), the order of one thread's pass.
    const std::vector<WallContact>& walls = ctx.wall_contacts;
    auto first = std::lower_bound(walls.begin(), walls.end(), begin,
                                  [](const WallContact& c, std::size_t body) { return c.body < body; });
    auto last = std::lower_bound(first, walls.end(), end,
                                 [](const WallContact& c, std::size_t body) { return c.body < body; });
    Batch::walls(ctx, law, acc, tally, static_cast<std::size_t>(first - walls.begin()),
                 static_cast<std::size_t>(last - walls.begin()), lanes, sides);
    // A block's wall energies are one sum and its pairs' another, added after: kept running, the
    // sums of the walls' last block and the pairs' first were one sum when those blocks were the
    // same (a range of one block) and two otherwise, so the energies depended on the split.
    tally.flush();
    // The range's entries in chunks of 64, each entry finding its body in `owner` (nested loops over
    // rows of 3.6 entries missed the branch at most rows' ends). A first loop over a chunk tests
    // every entry without a branch (Batch::classify), into a bit per entry that touches; a second
    // goes through the touching bits in order, appending to the batch: the touching test, true for
    // one entry in seven, was a branch the predictor missed (a quarter of the pass's samples on its
    // two targets, docs/performance.md). A chunk is a word of the histories' bits.
    const std::uint32_t entries_end = row_start[end];
    fresh.reset(row_start[begin], entries_end);
    HeldWindows<history_size> held(pairs.history, row_start[begin]);
    constexpr std::uint32_t kChunk = 64;
    for (std::uint32_t chunk = row_start[begin], word = 0; chunk < entries_end; chunk += kChunk, ++word) {
        const std::uint32_t count = std::min(kChunk, entries_end - chunk);
        const std::uint64_t touching = Batch::classify(entries, chunk, count);
        fresh.held[word] = touching;
        double* const carried_to = fresh.room(kChunk * history_size);
        const std::size_t chunk_slot = fresh.used;
        std::size_t slot = chunk_slot;
        // The entries that held a history, walked alongside the touching ones (a popcount per
        // contact is a library call in the baseline build).
        const double* held_values = nullptr;
        std::uint64_t had = held.next(count, held_values);
        // The touching entries' separations are computed again rather than kept from the first
        // loop, which would store them for the six entries in seven that do not touch.
        forEachBit(touching, [&](std::uint32_t e) {
            const std::uint32_t k = chunk + e;
            const std::uint32_t i = entries.owner[k], j = entries.partner[k];
            double ex, ey, ez;
            const double rsq = entrySeparation(entries, i, j, ex, ey, ez);
            for (; had != 0 && static_cast<std::uint32_t>(std::countr_zero(had)) < e; had &= had - 1)
                held_values += history_size;
            const bool carried = had != 0 && static_cast<std::uint32_t>(std::countr_zero(had)) == e;
            const double* const from = carried ? held_values : kNone;
            double* const to = carried_to + (slot - chunk_slot);
            for (std::size_t h = 0; h < history_size; ++h) to[h] = from[h];  // copy_n called memmove
            const std::size_t c = batch.size++;
            batch.body[c] = i;
            batch.partner[c] = j;
            batch.slot[c] = slot;
            slot += history_size;
            batch.sx[c] = entries.image.along<0>(ex);
            batch.sy[c] = entries.image.along<1>(ey);
            batch.sz[c] = entries.image.along<2>(ez);
            batch.distance_squared[c] = rsq;
            __builtin_prefetch(v + j);
            __builtin_prefetch(w + j);
            __builtin_prefetch(acc.own_force + j, 1);
            __builtin_prefetch(acc.own_torque + j, 1);
            __builtin_prefetch(inv_mass + j);
            __builtin_prefetch(material + j);
            __builtin_prefetch(v + i);
            __builtin_prefetch(w + i);
            __builtin_prefetch(acc.own_force + i, 1);
            __builtin_prefetch(acc.own_torque + i, 1);
            if (batch.size == TouchingBatch::kCapacity) {
                batch.history = fresh.values.data();
                Batch::pairs(ctx, law, acc, tally, batch, lanes, sides);
            }
        });
        fresh.used = slot;
    }
    batch.history = fresh.values.data();
    Batch::pairs(ctx, law, acc, tally, batch, lanes, sides);
    tally.storeInto(acc);
}

}  // namespace detail

// Bodies per chunk of the pair loop: whole energy blocks, some sixteen chunks a thread, at most 32
// blocks; a chunk another thread takes lists its forces on every body below it.
inline std::size_t pairChunk(std::size_t n, int threads) { return blockChunk(n, threads, kEnergyBlock); }

// Each thread takes a range of bodies with their rows of pairs and their wall contacts, the ranges
// holding the engine's shares of the list's work estimate (ForceContext::work_shares): bodies in
// spatial order put a bed's free surface, with short rows and few contacts, in the last range, and
// equal body counts left the others waiting. A range runs in chunks (parallelOwnedChunks): a thread
// done with its own takes chunks from the end of the others', which the host may be slowing for a
// while (at 1,024,000 spheres on two threads one took 16 ms a step and the other 25 for the same
// share, switching every few steps; ranges fitted to the last steps' times left 7% of the loop's
// time waiting). Each thread's time goes back in its accumulator. A body's force sums run in the
// same order however the chunks fall: its walls, its own row's pairs, then the later rows' in row
// order; a thread writes the bodies of its own stretch of rows (its range's chunks, or a chunk it
// took) and lists the rest, and the engine adds the lists in row order of their stretches after. The
// energies are summed per block, each in one chunk, so the split changes neither (one, two and three
// threads agree bit for bit). Each chunk's new histories go to a part of their own.
template <class Law>
void applyContactLaw(ForceContext& ctx, const Law& law) {
    NeighborList& pairs = ctx.pairs;
    const std::size_t n = ctx.bodies.size();
    if (pairs.owner.size() != pairs.partner.size()) indexOwners(pairs, ctx.threads);
    if (pairs.history.size != ContactLanes::kHistory)
        throw std::logic_error("the engine's pair loop carries " + std::to_string(ContactLanes::kHistory) +
                               " doubles of history per contact (the tangential spring); this contact model keeps " +
                               std::to_string(pairs.history.size));
    const std::vector<double>& work = pairs.work_before;
    const bool known = work.size() == n + 1;
    auto work_before = [&](std::size_t i) { return known ? work[i] : static_cast<double>(i); };
    std::vector<double> own_blocks;
    std::vector<double>& energy = ctx.energy_blocks ? *ctx.energy_blocks : own_blocks;
    energy.assign(2 * (n / kEnergyBlock + 1), 0.0);
    [[maybe_unused]] const bool avx2 = contactLoopIsa() == VectorIsa::Avx2;
    const int threads = std::max(1, ctx.threads);
    const std::vector<std::size_t> bounds = balancedBounds(n, threads, work_before, kEnergyBlock, ctx.work_shares);
    const std::size_t chunk = pairChunk(n, threads);
    // Each chunk writes its new histories into a spare part (the arrays of two passes ago, so no
    // allocation once they have grown), which become the list's after the pass.
    PairHistory& history = pairs.history;
    const std::size_t chunks = chunkCount(bounds, chunk);
    history.spare.resize(std::max<std::size_t>(1, chunks));
    // Each chunk resets its own part as it starts (contactRange), and a pass that stops is not
    // swapped in: resetting them all here cost the main thread 1.5 us a step between two regions
    // (32,000 spheres, two threads; docs/performance.md).
    if (chunks == 0) history.spare[0].reset(0, 0);
    if (ctx.sweep && !ctx.sweep->beforeLoop(bounds)) return;
    parallelOwnedChunks(bounds, chunk, [&](int t, std::size_t range, std::size_t index, std::size_t begin, std::size_t end) {
        // The engine's sweep, where it runs here: before the rows, every body they reach; once it
        // stopped, no more rows run (ChunkSweep). Its time is the engine's, not the range's.
        if (ctx.sweep && !ctx.sweep->sweepChunk(t, range, begin, end)) return;
        const auto started = std::chrono::steady_clock::now();
        ThreadAccumulator& acc = ctx.accumulators[static_cast<std::size_t>(t)];
        PairHistoryPart& fresh = history.spare[index];
        // The thread's own range's chunks come first, in order, and form one stretch.
        const bool own = range == static_cast<std::size_t>(t);
        const std::size_t own_begin = own ? bounds[range] : begin, own_end = own ? bounds[range + 1] : end;
        if (!own || acc.stretches.empty())
            acc.stretches.push_back({own_begin, acc.outside.size(), acc.outside.size(), acc.records.size(), acc.records.size()});
#if defined(__x86_64__) && defined(__GNUC__)
        if (avx2)
            detail::contactRange<Law, detail::BatchAvx2<Law>>(ctx, law, acc, begin, end, own_begin, own_end, fresh,
                                                              energy.data());
        else
#endif
            detail::contactRange<Law, detail::BatchBaseline<Law>>(ctx, law, acc, begin, end, own_begin, own_end, fresh,
                                                                  energy.data());
        acc.stretches.back().end_row = end;
        acc.stretches.back().outside_end = acc.outside.size();
        acc.stretches.back().records_end = acc.records.size();
        acc.range_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    });
    if (ctx.sweep && ctx.sweep->stopped()) return;  // the engine evaluates the forces again
    history.parts.swap(history.spare);
    if (!ctx.energy_blocks)
        for (std::size_t b = 0; b < energy.size(); b += 2) {
            ctx.accumulators[0].elastic_energy += energy[b];
            ctx.accumulators[0].dissipated += energy[b + 1];
        }
}

}  // namespace grainlab
