#pragma once
// Verlet list of sphere pairs within r_i + r_j + skin, each pair stored once in the row of its higher
// body index, rows sorted by partner. The pairs that touched carry the contact model's history
// (pair_history.hpp), which survives a rebuild by merging old and new rows.
//
// Why the higher: the pair loop goes through the rows in body order, so a row's partners are bodies
// whose own rows it has just passed, their data still in the cache. With the partner after the
// row (as before 2026-11-26), one partner in seven lay more than 1,000 bodies ahead, not touched since
// the previous pass over all bodies: at 1,024,000 spheres those came from memory, and one thread ran
// 11-15% slower (docs/performance.md). Checkpoints written before keep the old rows; orientPairRows
// (spatial_sort.hpp) turns them round on restore.
#include <cstdint>
#include <vector>

#include "grainlab/core/math.hpp"
#include "grainlab/sim/pair_history.hpp"
#include "grainlab/sim/periodic_box.hpp"

namespace grainlab {

struct Bodies;

constexpr std::size_t kReachBlock = 256;

struct NeighborList {
    std::vector<std::uint32_t> row_start;  // size bodies + 1
    std::vector<std::uint32_t> partner;
    // The body whose row each entry is in, so the pair loop runs over entries without a loop per
    // row, whose exit the branch predictor misses at most rows (rows hold 3.6 entries on the chute).
    // Filled once the old list is gone, so it adds nothing to a rebuild's peak; empty until then
    // (indexOwners).
    std::vector<std::uint32_t> owner;
    PairHistory history;                   // of the pairs that hold one
    std::vector<Vec3> position_at_build;   // for the displacement check
    // Estimated pair-loop work of the rows below each body (bodies + 1 entries), for balancing the
    // threads' ranges (estimatePairWork). Empty or mis-sized when not estimated for this list.
    std::vector<double> work_before;
    // Per block of kReachBlock bodies, the highest row with an entry in the block (0: none), filled
    // with work_before: which bodies of a thread's range the rows of a higher range reach, swept
    // before a pair loop that sweeps the rest as it goes (force_context.hpp, ChunkSweep).
    std::vector<std::uint32_t> reach_by_block;
    long builds = 0;

    std::size_t entries() const { return partner.size(); }
};

// Rebuilds `list` around the current positions, keeping history of pairs present before and after.
// The list is the same whichever thread searched which bodies.
void buildNeighborList(NeighborList& list, const Bodies& bodies, const PeriodicBox& box, double skin,
                       std::size_t history_size, int threads);

// Fills list.owner from the rows.
void indexOwners(NeighborList& list, int threads);

// Fills list.work_before: a body costs 1, an entry apart 1 and an entry touching 8 (in the chute's
// profile the law of a contact cost about seven distance tests), the touching ones those holding a
// history where the list carries one, else those the positions at the build put in contact; and
// list.reach_by_block. The estimate only splits the pair loop between threads, which changes no
// motion (a body's forces are summed in the same order whatever thread holds its pairs).
void estimatePairWork(NeighborList& list, const Bodies& bodies, const PeriodicBox& box, int threads);

}  // namespace grainlab
