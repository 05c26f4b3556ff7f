#pragma once
// How the engine's passes over the bodies cut them into chunks (one thread's piece of a pass) and
// blocks (what one loop runs on while it is in the cache), and when they run an explicit
// integrator's kicks in their own loops. Shared by the sweep before the pair loop and the closing pass.
#include <algorithm>
#include <cstddef>

#include "grainlab/core/parallel.hpp"
#include "grainlab/plugin/kicks.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

// Bodies per block of a pass: the integrator's update and the engine's work on a block share the
// cache (256 bodies' hot arrays are a few tens of kB). Blocks end at multiples of kPassBlock.
constexpr std::size_t kPassBlock = 256;

// fn(b, e) for the consecutive blocks of [begin, end), each ending at a multiple of kPassBlock (or at end).
template <class Fn>
void inBlocks(std::size_t begin, std::size_t end, Fn&& fn) {
    for (std::size_t b = begin; b < end;) {
        const std::size_t next = std::min(end, (b / kPassBlock + 1) * kPassBlock);
        fn(b, next);
        b = next;
    }
}

// Bodies per chunk of a pass (parallelOwnedChunks): whole blocks, some sixteen chunks a thread, at
// most 32 blocks. Each thread owns an equal range of whole chunks, the same every step (its bodies'
// lines stay in its core's cache from pass to pass; chunks taken by whichever thread came free first
// ran the 32,000-sphere chute's sweep 10% slower on two threads), and a thread the host slows for a
// while (at 1,024,000 spheres on two threads one took 16 ms and the other 25 for the same share,
// switching every few steps) leaves the end of its range to the other: ranges fitted to the last
// steps' times left 3-6% of the sweep's time waiting.
inline std::size_t passChunk(std::size_t n, int threads) { return blockChunk(n, threads, kPassBlock); }

// Bodies from which the passes run an integrator's kicks in one loop with their own jobs
// (kickAndFindRunaway, kickDriftAndStart): where the arrays come from memory one loop streams them
// faster (one thread at 128,000 and 1,024,000 spheres, the sweep 10-25% faster), but where they stay
// in the cache, on two threads, a loop a job took less (32,000 spheres, the kick and drift in one
// loop: the sweep 0.333-0.340 s of 2,000 steps against 0.298-0.318). docs/performance.md.
constexpr std::size_t kFusedFrom = 100000;

// The update as the kicks of kicks.hpp with or without a drift, on these bodies, where they are
// many enough to run it in one loop with a pass's own jobs; null otherwise (it then runs as given).
inline const KickDrift* fusedKickDrift(const BodyRangeUpdate& update, const Bodies& bodies, bool moves) {
    if (bodies.size() < kFusedFrom) return nullptr;
    const KickDrift* kick = update.target<KickDrift>();
    return kick && kick->bodies == &bodies && kick->moves == moves ? kick : nullptr;
}

}  // namespace grainlab
