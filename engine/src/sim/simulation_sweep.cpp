// The sweep over the bodies before a force evaluation's pairs (the integrator's update, the periodic
// wrap, the Verlet check, the forces started), the neighbour refresh after it, and the sweep run
// chunk by chunk inside the pair loop (ChunkSweep).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <chrono>
#include <limits>
#include <memory>
#include <thread>

#include "grainlab/core/cpu_relax.hpp"
#include "grainlab/core/parallel.hpp"
#include "grainlab/core/vector_isa.hpp"
#include "grainlab/sim/neighbor_list.hpp"
#include "grainlab/sim/simulation.hpp"
#include "body_passes.hpp"
#include "pass_chunks.hpp"

namespace grainlab {

// One sweep: what it was asked to do, found once, and what its chunks found, per thread. run() does
// one chunk; finish() the work after the last.
struct Simulation::SweepPass {
    // Per thread, each on its own cache line (written while the others read): whether a body of its
    // blocks moved far since the build, and its blocks' largest drift (DriftReach).
    struct alignas(64) ThreadPart {
        bool moved = false;
        double reach = 0.0;
    };

    Simulation& sim;
    Bodies& b;
    const std::size_t n;
    const bool start_forces;
    const BodyRangeUpdate* const before;
    const bool find_wall_contacts;
    const bool list_fits;
    const bool periodic;
    const double limit;  // (skin / 2)^2
    const NearestImage image;
    const bool avx2;
    const bool none_turn;  // no body's orientation changes
    const std::size_t chunk;
    // The last step's closing work, when step(true) left it: done block by block just before the
    // block's `before`, while the block's arrays are in the cache for both.
    const bool close;
    const bool reduce;
    std::vector<ThreadPart> parts;
    std::vector<std::size_t> first;  // per thread, the first runaway it found (n: none)
    const KickDrift* move = nullptr;
    const KickDrift* closing = nullptr;
    bool follows = false;
    double moved_before = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> ranges;

    // `in_pair_loop`: run block by block from inside the pair loop (PairLoopSweep), so the forces
    // other threads listed are grouped per block rather than per chunk.
    SweepPass(Simulation& s, bool start, const BodyRangeUpdate* update, bool walls, bool in_pair_loop = false)
        : sim(s), b(s.state_.bodies), n(b.size()), start_forces(start), before(update), find_wall_contacts(walls),
          list_fits(s.state_.pairs.position_at_build.size() == n && s.state_.pairs.row_start.size() == n + 1),
          periodic(s.box_.periodic[0] || s.box_.periodic[1] || s.box_.periodic[2]), limit(0.25 * s.skin_ * s.skin_),
          image(s.box_), avx2(contactLoopIsa() == VectorIsa::Avx2),
          none_turn(b.everyShapeKeepsOrientation(s.scene_.shapes.size())), chunk(passChunk(n, s.threads_)),
          close(s.close_pending_), reduce(close && s.accumulators_.size() > 1),
          parts(static_cast<std::size_t>(std::max(1, s.threads_))),
          first(static_cast<std::size_t>(std::max(1, s.threads_)), n) {
        if (start_forces && (b.force.size() != n || b.torque.size() != n)) b.resizeDynamics();
        if (reduce) sim.groupListedForces(in_pair_loop ? kPassBlock : chunk);
        move = before ? fusedKickDrift(*before, b, true) : nullptr;
        closing = close ? fusedKickDrift(sim.pending_after_, b, false) : nullptr;
        // The Verlet check's bound (moved_since_build_) follows the bodies only through sweeps that
        // run the last step's pending kick and this step's kick and drift: by the plugin interface
        // (StepContext::compute_forces_around) nothing else moves a body between two such sweeps.
        // Any other sweep leaves it unknown (infinite) until the next build.
        follows = move && closing && start_forces && list_fits;
        if (follows) moved_before = sim.moved_since_build_;
        sim.moved_since_build_ = std::numeric_limits<double>::infinity();
        // Each body's updates here do not depend on which thread makes them, so a thread done with
        // its range takes chunks from the end of the other's. The wall contacts are kept per chunk
        // and joined in chunk order, so they stay in body order.
        ranges = equalChunkedRanges(n, sim.threads_, chunk);
        if (find_wall_contacts) sim.wall_parts_.resize(chunkCount(ranges, chunk));
    }

    // Chunk `index`, the bodies [begin, end), by thread t.
    void run(int t, std::size_t index, std::size_t begin, std::size_t end) {
        const NeighborList& list = sim.state_.pairs;
        const Vec3 g = sim.scene_.gravity;
        std::vector<WallContact>* walls = find_wall_contacts ? &sim.wall_parts_[index] : nullptr;
        if (walls) walls->clear();
        std::size_t& runaway = first[static_cast<std::size_t>(t)];
        // A thread moves no body on once it found a runaway: the body reported, the first of all
        // the threads found, is as its step left it. Chunks above one found are left alone.
        if (close && runaway < begin) return;
        if (reduce) sim.addListedForces(index);
        ThreadPart& part = parts[static_cast<std::size_t>(t)];
        bool far = false;
        inBlocks(begin, end, [&](std::size_t block_begin, std::size_t block_end) {
            if (close) {
                sim.closeBlock(reduce, &sim.pending_after_, closing, block_begin, block_end, runaway, avx2);
                if (runaway != n) return;
            }
            if (move && start_forces) {
                double block_reach = 0.0;
                far |= kickDriftAndStart(*move, sim.box_, image, list_fits ? &list.position_at_build : nullptr, limit,
                                         moved_before, g, block_begin, block_end, avx2, block_reach, none_turn);
                part.reach = std::max(part.reach, block_reach);
            } else {
                if (before && *before) (*before)(block_begin, block_end);
                if (periodic) wrapInto(sim.box_, b, block_begin, block_end, avx2);
                if (list_fits) far |= movedFar(image, b, list.position_at_build, limit, block_begin, block_end, avx2);
                if (start_forces) startForces(b, g, block_begin, block_end, avx2);
            }
            if (walls)
                for (std::size_t i = block_begin; i < block_end; ++i) sim.walls_.appendContacts(b, i, *walls);
        });
        if (far) part.moved = true;
    }

    bool stale() const {
        return !list_fits || std::any_of(parts.begin(), parts.end(), [](const ThreadPart& p) { return p.moved; });
    }

    // After the last chunk: the runaway reported (throws), the bound carried on. True when the list is stale.
    bool finish() {
        if (close) {
            sim.close_pending_ = false;
            sim.pending_after_ = nullptr;
            sim.runaway_ = *std::min_element(first.begin(), first.end());
            if (sim.runaway_ < n) sim.throwRunaway(sim.runaway_);  // the step left pending is still state_.step
        }
        sim.last_drift_ = std::numeric_limits<double>::infinity();
        if (follows) {
            double largest = 0.0;
            for (const ThreadPart& p : parts) largest = std::max(largest, p.reach);
            sim.moved_since_build_ = moved_before + largest;  // still infinite when it was not known
            sim.last_drift_ = largest;
        }
        return stale();
    }
};

// The sweep run by the pair loop before each chunk's rows (ChunkSweep), on any number of threads:
// whole blocks, each claimed and swept once, by the thread that runs the rows of its chunk, or before
// the loop where a higher range's rows reach it (NeighborList::reach_by_block). A thread that took a
// chunk from the end of another's range sweeps the blocks below it that are still free itself, so
// that a range whose owner the host stalls is not waited for. The stop (a stale list, a runaway) is
// shared: no thread runs more rows once one finds it.
class Simulation::PairLoopSweep final : public ChunkSweep {
public:
    PairLoopSweep(SweepPass& pass, int threads)
        : pass_(pass), threads_(std::max(1, threads)), blocks_((pass.n + kPassBlock - 1) / kPassBlock),
          state_(new std::atomic<std::uint8_t>[blocks_]), thread_seconds_(static_cast<std::size_t>(threads_)) {
        static_assert(kReachBlock == kPassBlock);
        for (std::size_t b = 0; b < blocks_; ++b) state_[b].store(kFree, std::memory_order_relaxed);
    }

    bool beforeLoop(const std::vector<std::size_t>& bounds) override {
        const std::size_t ranges = bounds.size() < 2 ? 0 : bounds.size() - 1;
        ready_.reset(new std::atomic<std::size_t>[std::max<std::size_t>(1, ranges)]);
        for (std::size_t r = 0; r < ranges; ++r) ready_[r].store(bounds[r] / kPassBlock, std::memory_order_relaxed);
        if (stopped() || ranges < 2) return !stopped();
        const auto started = std::chrono::steady_clock::now();
        const std::vector<std::uint32_t>& reach = pass_.sim.state_.pairs.reach_by_block;
        std::vector<std::size_t> reached;
        for (std::size_t r = 0; r + 1 < ranges; ++r)
            for (std::size_t b = bounds[r] / kPassBlock; b * kPassBlock < bounds[r + 1]; ++b)
                if (reach[b] >= bounds[r + 1]) reached.push_back(b);
        // Where the higher ranges reach too many blocks the loop finds too few left to sweep, and
        // every block is swept here instead, as the sweep before the loop would.
        if (reached.size() > blocks_ * kMostReached) {
            reached.resize(blocks_);
            for (std::size_t b = 0; b < blocks_; ++b) reached[b] = b;
        }
        // Chunks of blocks a thread may take from the end of another's range, as the sweep before
        // the loop runs (pass_chunks.hpp).
        parallelOwnedChunks(equalChunkedRanges(reached.size(), threads_, kReachedChunk), kReachedChunk, [&](int t, std::size_t, std::size_t, std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) sweepFree(t, reached[k], reached[k] + 1);
        });
        before_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return !stopped();
    }

    bool sweepChunk(int thread, std::size_t range, std::size_t begin, std::size_t end) override {
        if (stopped()) return false;
        const auto started = std::chrono::steady_clock::now();
        const std::size_t first = begin / kPassBlock, last = (end + kPassBlock - 1) / kPassBlock;
        sweepFree(thread, first, last);
        // The range's blocks below: ready_ says how far they are known swept. The owner, taking its
        // chunks in order, finds them all swept; a thread that took a chunk from the end sweeps the
        // free ones and waits for those another is sweeping.
        std::atomic<std::size_t>& ready = ready_[range];
        std::size_t b = ready.load(std::memory_order_acquire);
        sweepFree(thread, b, first);
        for (std::size_t waits = 0; b < last && !stopped();) {
            if (state_[b].load(std::memory_order_acquire) == kSwept)
                ++b;
            else
                pause(++waits);
        }
        if (std::min(b, first) > ready.load(std::memory_order_relaxed))
            ready.store(std::min(b, first), std::memory_order_release);
        thread_seconds_[static_cast<std::size_t>(thread)].value +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return !stopped();
    }

    bool stopped() const override { return stop_.load(std::memory_order_acquire); }

    // The bodies the pair loop left, after it stopped (one thread, every claim finished).
    void sweepRest() { sweepFree(0, 0, blocks_, false); }
    // Wall time of the sweep inside the loop: before it, and the threads' parts inside it on average.
    double seconds() const {
        double inside = 0.0;
        for (const ThreadSeconds& s : thread_seconds_) inside += s.value;
        return before_seconds_ + inside / threads_;
    }
    double threadSeconds(int t) const { return thread_seconds_[static_cast<std::size_t>(t)].value; }

private:
    static constexpr std::uint8_t kFree = 0, kClaimed = 1, kSwept = 2;
    // The share of the blocks that higher ranges may reach before the loop is not worth running
    // the sweep inside it: at 1,024,000 spheres on two threads 13% of the chute's blocks are
    // reached and the runs were 0-11% faster than with the sweep before the loop; at 128,000, 30%
    // (60% of the first range), 3-8% slower (docs/performance.md).
    static constexpr double kMostReached = 0.2;
    static constexpr std::size_t kReachedChunk = 16;  // blocks

    struct alignas(64) ThreadSeconds {
        double value = 0.0;
    };

    // Spins a while, then gives the core up: the thread waited for may not be running.
    static void pause(std::size_t waits) {
        if (waits > 4096)
            std::this_thread::yield();
        else
            cpuRelax();
    }

    bool claim(std::size_t b) {
        std::uint8_t free = kFree;
        return state_[b].load(std::memory_order_relaxed) == kFree &&
               state_[b].compare_exchange_strong(free, kClaimed, std::memory_order_acquire, std::memory_order_relaxed);
    }

    // The free blocks of [first, last), claimed and swept in runs; then whether this thread found
    // the stop. Inside the loop (`in_loop`) no more once the stop is found: the engine sweeps the
    // rest after it.
    void sweepFree(int t, std::size_t first, std::size_t last, bool in_loop = true) {
        const std::size_t n = pass_.n;
        for (std::size_t b = first; b < last && !(in_loop && stopped());) {
            if (!claim(b)) {
                ++b;
                continue;
            }
            std::size_t e = b + 1;
            while (e < last && claim(e)) ++e;
            // Listed forces are grouped per block (SweepPass, in_pair_loop); one thread lists none.
            if (pass_.reduce)
                for (std::size_t k = b; k < e; ++k) pass_.run(t, k, k * kPassBlock, std::min(n, (k + 1) * kPassBlock));
            else
                pass_.run(t, 0, b * kPassBlock, std::min(n, e * kPassBlock));
            for (std::size_t k = b; k < e; ++k) state_[k].store(kSwept, std::memory_order_release);
            const SweepPass::ThreadPart& part = pass_.parts[static_cast<std::size_t>(t)];
            if (part.moved || pass_.first[static_cast<std::size_t>(t)] != n) stop_.store(true, std::memory_order_release);
            b = e;
        }
    }

    SweepPass& pass_;
    const int threads_;
    const std::size_t blocks_;
    std::unique_ptr<std::atomic<std::uint8_t>[]> state_;  // per block: kFree, kClaimed, kSwept
    std::unique_ptr<std::atomic<std::size_t>[]> ready_;  // per range: its blocks below this are swept
    std::atomic<bool> stop_{false};
    std::vector<ThreadSeconds> thread_seconds_;
    double before_seconds_ = 0.0;
};

// One pass over the bodies, in one parallel region, before the neighbours are refreshed: the
// integrator's update before the forces, positions wrapped into the periodic box, the Verlet list's
// displacement check (true when some body moved more than half the skin since the build, or the
// list does not fit the bodies), for a force evaluation the forces started at the weight (contact
// models add to them) and, when asked, the wall contacts, each chunk's in wall_parts_.
bool Simulation::sweepBodies(bool start_forces, const BodyRangeUpdate* before, bool find_wall_contacts) {
    SweepPass pass(*this, start_forces, before, find_wall_contacts);
    parallelOwnedChunks(pass.ranges, pass.chunk,
                        [&](int t, std::size_t, std::size_t index, std::size_t begin, std::size_t end) {
                            pass.run(t, index, begin, end);
                        });
    return pass.finish();
}

bool Simulation::refreshNeighbours(bool start_forces, const BodyRangeUpdate* before, bool find_wall_contacts) {
    walls_.moveTo(state_.time);
    bool stale = false;
    {
        const PhaseTimer timer(phases_.integration);
        stale = sweepBodies(start_forces, before, find_wall_contacts);
    }
    return afterSweep(stale, find_wall_contacts);
}

bool Simulation::afterSweep(bool stale, bool find_wall_contacts) {
    Bodies& bodies = state_.bodies;
    const PhaseTimer timer(phases_.neighbours);
    if (stale) {
        if (sortDue()) sortBodies();
        buildNeighborList(state_.pairs, bodies, box_, listReach(), contact_model_->historySize(), threads_);
        moved_since_build_ = 0.0;
    }
    // Only several threads' ranges need them (one thread takes every body).
    if (threads_ > 1) {
        if (state_.pairs.work_before.size() != bodies.size() + 1) estimatePairWork(state_.pairs, bodies, box_, threads_);
        sharePairWork();
    }
    const bool refreshed = stale || walls_.candidatesStale(skin_);
    if (refreshed) walls_.refreshCandidates(bodies, skin_, threads_);
    // A rebuild may have renumbered the bodies, and new candidates find other mesh contacts.
    return find_wall_contacts && !refreshed;
}

// The sweep runs inside the pair loop where each thread can sweep its own range there (one thread:
// all the bodies; several: given the work estimate that splits the loop and the blocks a higher
// range reaches, NeighborList::reach_by_block), the model's loop runs it, the sweep carries the
// Verlet check's bound, and no wall or feature contact needs finding after it; and the bound says
// the list will likely hold: a stop costs the rows run before it (they are run again after the
// rebuild), so a step the bound expects to rebuild sweeps first.
bool Simulation::sweepFitsPairLoop(const BodyRangeUpdate& before) const {
    const Bodies& b = state_.bodies;
    const std::size_t n = b.size();
    const NeighborList& list = state_.pairs;
    if (accumulators_.size() != static_cast<std::size_t>(std::max(1, threads_)) || !contact_model_->sweepsInPairLoop())
        return false;
    if (state_.polyhedral.range > 0.0 || walls_.count() > 0) return false;
    if (!close_pending_ || !fusedKickDrift(pending_after_, b, false) || !fusedKickDrift(before, b, true)) return false;
    if (list.position_at_build.size() != n || list.row_start.size() != n + 1 || list.owner.size() != list.partner.size())
        return false;
    if (threads_ > 1 && (list.work_before.size() != n + 1 || list.reach_by_block.size() != n / kReachBlock + 1))
        return false;
    // Twice the last step's drift: room for the kicks to speed the fastest body up.
    return moved_since_build_ + 2.0 * last_drift_ < 0.5 * skin_;
}

// The sweep run chunk by chunk inside the pair loop (PairLoopSweep). Where it stops, the rest of
// the bodies are swept, the list rebuilt and the forces evaluated again: the same steps, forces and
// motion as the sweep run before the loop.
void Simulation::evaluateWithSweepInPairLoop(double dt, const AroundForces& around) {
    SweepPass pass(*this, true, &around.before, false, true);
    PairLoopSweep sweep(pass, threads_);
    // The last pass's listed forces, grouped by the pass (pointers into the threads' lists), are
    // added as the sweep goes, while this pass's pair loop lists its own: the threads list into
    // other vectors this time.
    if (pass.reduce) {
        listed_before_.resize(accumulators_.size());
        for (std::size_t t = 0; t < accumulators_.size(); ++t) std::swap(accumulators_[t].outside, listed_before_[t]);
    }
    if (threads_ > 1) {
        const PhaseTimer timer(phases_.neighbours);
        sharePairWork();
    }
    {
        const PhaseTimer timer(phases_.forces);
        findContacts(false);  // none: there are no walls
        runContactModel(dt, &sweep);
    }
    // The sweep's seconds are the integration's, not the forces' (the pair loop's range times
    // leave them out already); each thread's count with its range's for the split (sharePairWork).
    phases_.forces -= sweep.seconds();
    phases_.integration += sweep.seconds();
    loop_sweep_per_thread_.resize(accumulators_.size(), 0.0);
    for (std::size_t t = 0; t < accumulators_.size(); ++t) loop_sweep_per_thread_[t] += sweep.threadSeconds(static_cast<int>(t));
    bool stale = false;
    {
        const PhaseTimer timer(phases_.integration);
        sweep.sweepRest();
        stale = pass.finish();  // the runaway reported
    }
    if (!stale) return;
    afterSweep(true, false);
    {
        // The rows run before the stop added to the forces.
        const PhaseTimer timer(phases_.integration);
        startForces(state_.bodies, scene_.gravity, 0, state_.bodies.size(), contactLoopIsa() == VectorIsa::Avx2);
    }
    const PhaseTimer timer(phases_.forces);
    runContactModel(dt, nullptr);
}

}  // namespace grainlab
