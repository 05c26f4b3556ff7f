// The sweep over the bodies before a force evaluation's pairs (the integrator's update, the periodic
// wrap, the Verlet check, the forces started), the neighbour refresh after it, and the sweep run
// chunk by chunk inside the pair loop (ChunkSweep).
#include <algorithm>
#include <chrono>
#include <limits>

#include "grainlab/core/parallel.hpp"
#include "grainlab/core/vector_isa.hpp"
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

    SweepPass(Simulation& s, bool start, const BodyRangeUpdate* update, bool walls)
        : sim(s), b(s.state_.bodies), n(b.size()), start_forces(start), before(update), find_wall_contacts(walls),
          list_fits(s.state_.pairs.position_at_build.size() == n && s.state_.pairs.row_start.size() == n + 1),
          periodic(s.box_.periodic[0] || s.box_.periodic[1] || s.box_.periodic[2]), limit(0.25 * s.skin_ * s.skin_),
          image(s.box_), avx2(contactLoopIsa() == VectorIsa::Avx2), chunk(passChunk(n, s.threads_)),
          close(s.close_pending_), reduce(close && s.accumulators_.size() > 1),
          parts(static_cast<std::size_t>(std::max(1, s.threads_))),
          first(static_cast<std::size_t>(std::max(1, s.threads_)), n) {
        if (start_forces && (b.force.size() != n || b.torque.size() != n)) b.resizeDynamics();
        if (reduce) sim.groupListedForces(chunk);
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
                                         moved_before, g, block_begin, block_end, avx2, block_reach);
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

    bool ranAway() const { return std::any_of(first.begin(), first.end(), [&](std::size_t i) { return i != n; }); }
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

// The sweep run by a one-thread pair loop before each chunk's rows: the bodies in order, as
// far as the rows need, until one finds the list stale or a body ran away.
class Simulation::PairLoopSweep final : public ChunkSweep {
public:
    explicit PairLoopSweep(SweepPass& pass) : pass_(pass) {}

    bool sweepBelow(std::size_t end) override {
        if (stopped_) return false;
        const auto started = std::chrono::steady_clock::now();
        sweepTo(std::min(end, pass_.n));
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return !stopped_;
    }
    bool stopped() const override { return stopped_; }

    // The bodies the pair loop left, after it stopped.
    void sweepRest() { sweepTo(pass_.n); }
    double seconds() const { return seconds_; }

private:
    // The bodies [next_, end) in one run: the pass's own chunks each hold a part of the wall
    // contacts and listed forces, which a sweep run here has none of (no walls, one thread).
    void sweepTo(std::size_t end) {
        if (next_ >= end) return;
        pass_.run(0, 0, next_, end);
        next_ = end;
        stopped_ = pass_.stale() || pass_.ranAway();
    }

    SweepPass& pass_;
    std::size_t next_ = 0;  // the first body not swept
    bool stopped_ = false;
    double seconds_ = 0.0;
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

// The sweep runs inside the pair loop where one thread runs both, the model's loop runs it, the
// sweep carries the Verlet check's bound, and no wall or feature contact needs finding after it;
// and the bound says the list will likely hold: a stop costs the rows run before it (they are run
// again after the rebuild), so a step the bound expects to rebuild sweeps first.
bool Simulation::sweepFitsPairLoop(const BodyRangeUpdate& before) const {
    const Bodies& b = state_.bodies;
    const std::size_t n = b.size();
    const NeighborList& list = state_.pairs;
    if (threads_ != 1 || accumulators_.size() != 1 || !contact_model_->sweepsInPairLoop()) return false;
    if (state_.polyhedral.range > 0.0 || walls_.count() > 0) return false;
    if (!close_pending_ || !fusedKickDrift(pending_after_, b, false) || !fusedKickDrift(before, b, true)) return false;
    if (list.position_at_build.size() != n || list.row_start.size() != n + 1 || list.owner.size() != list.partner.size())
        return false;
    // Twice the last step's drift: room for the kicks to speed the fastest body up.
    return moved_since_build_ + 2.0 * last_drift_ < 0.5 * skin_;
}

// The sweep run chunk by chunk inside the pair loop (PairLoopSweep). Where it stops, the rest of
// the bodies are swept, the list rebuilt and the forces evaluated again: the same steps, forces and
// motion as the sweep run before the loop.
void Simulation::evaluateWithSweepInPairLoop(double dt, const AroundForces& around) {
    SweepPass pass(*this, true, &around.before, false);
    PairLoopSweep sweep(pass);
    {
        const PhaseTimer timer(phases_.forces);
        findContacts(false);  // none: there are no walls
        runContactModel(dt, &sweep);
    }
    // The sweep's seconds are the integration's, not the forces' (the pair loop's range times
    // leave them out already).
    phases_.forces -= sweep.seconds();
    phases_.integration += sweep.seconds();
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
