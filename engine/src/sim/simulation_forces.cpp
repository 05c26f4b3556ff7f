// A force evaluation of the penalty models: the passes over the bodies around the contact model,
// with an explicit integrator's per-body updates run inside them (StepContext::compute_forces_around).
#include <algorithm>
#include <cstdlib>

#include "grainlab/core/parallel.hpp"
#include "grainlab/core/vector_isa.hpp"
#include "grainlab/sim/simulation.hpp"
#include "body_passes.hpp"
#include "pass_chunks.hpp"

namespace grainlab {
namespace {

// The pair loop's work estimate in these units for its split between threads (pair_split_).
constexpr std::size_t kShareUnits = std::size_t{1} << 20;

}  // namespace

void Simulation::computeForces() { evaluateForces(step_dt_); }

// The estimate's work units do not cost the same everywhere (on two threads at 32,000 spheres the
// lower range took 5-10% longer, at 128,000 and 1,024,000 the upper one 4-8%), and a virtual core
// may run slower than the other for a while: the shares follow the threads' times per unit of work
// each did (pair_done_, its own range's part and the chunks it took of others').
void Simulation::sharePairWork() {
    const std::size_t count = static_cast<std::size_t>(threads_);
    // Equal shares for a new thread count; update() moves these bounds in place.
    const std::vector<std::size_t>& bounds = pair_split_.bounds(kShareUnits, threads_);
    // Each thread's pair-loop seconds since the shares last moved (the last pass), from the run's
    // running sums.
    // The sweep a thread ran inside the loop is part of its range's time there.
    auto at = [](const std::vector<double>& v, std::size_t t) { return t < v.size() ? v[t] : 0.0; };
    std::vector<double> per_thread(count);
    for (std::size_t t = 0; t < count; ++t) {
        per_thread[t] = at(phases_.pair_loop_per_thread, t) + at(loop_sweep_per_thread_, t);
        pair_split_.record(static_cast<int>(t), per_thread[t] - at(pair_loop_at_share_, t), at(pair_done_, t));
    }
    pair_split_.update(1);
    pair_loop_at_share_ = per_thread;
    pair_shares_.resize(bounds.size());
    for (std::size_t t = 0; t < bounds.size(); ++t) pair_shares_[t] = static_cast<double>(bounds[t]) / kShareUnits;
    // GRAINLAB_FIRST_PAIR_SHARE=f (0 < f < 1) fixes the first thread's share at f and the others'
    // equal: for tests and measurements of the threads taking chunks of each other's ranges.
    if (const char* fixed = std::getenv("GRAINLAB_FIRST_PAIR_SHARE")) {
        const double first = std::strtod(fixed, nullptr);
        if (first > 0.0 && first < 1.0)
            for (std::size_t t = 1; t < bounds.size(); ++t)
                pair_shares_[t] = first + (1.0 - first) * static_cast<double>(t - 1) / static_cast<double>(count - 1);
    }
}

// Each thread's part of the pair loop's work in the pass just run (its stretches of rows weighed by
// the list's estimate), in the split's units; zero for a model without the engine's pair loop.
void Simulation::measurePairWorkDone() {
    const std::vector<double>& work = state_.pairs.work_before;
    const std::size_t n = state_.bodies.size();
    const bool known = work.size() == n + 1 && work[n] > 0.0;
    auto share_before = [&](std::size_t row) {
        row = std::min(row, n);
        return known ? work[row] / work[n] : static_cast<double>(row) / static_cast<double>(std::max<std::size_t>(1, n));
    };
    pair_done_.assign(accumulators_.size(), 0.0);
    for (std::size_t t = 0; t < accumulators_.size(); ++t)
        for (const ThreadAccumulator::Stretch& s : accumulators_[t].stretches)
            pair_done_[t] += (share_before(s.end_row) - share_before(s.first_row)) * static_cast<double>(kShareUnits);
}

void Simulation::evaluateForces(double dt, const AroundForces* around) {
    if (around && sweepFitsPairLoop(around->before)) {
        evaluateWithSweepInPairLoop(dt, *around);
    } else {
        const bool feature_contacts = state_.polyhedral.range > 0.0;
        // Wall contacts are found in the sweep when they can be: a parallel region less per step.
        const bool walls_found =
            refreshNeighbours(true, around ? &around->before : nullptr, !feature_contacts && walls_.count() > 0);
        const PhaseTimer timer(phases_.forces);
        findContacts(walls_found);
        runContactModel(dt, nullptr);
    }
    {
        const PhaseTimer timer(phases_.forces);
        gatherForceResults();
    }
    if (around && may_defer_close_) {
        // step(true): the closing work waits for the next sweep or settle().
        close_pending_ = true;
        pending_after_ = around->after;
        motion_checked_ = true;
        runaway_ = state_.bodies.size();
    } else {
        finishForces(dt, around ? &around->after : nullptr);
    }
    forces_current_ = true;
}

// The step's wall or feature contacts, after the sweep (walls_found: the sweep found the walls' in
// wall_parts_).
void Simulation::findContacts(bool walls_found) {
    Bodies& bodies = state_.bodies;
    if (state_.polyhedral.range > 0.0) {
        feature_phase_.find(bodies, state_.pairs, walls_, threads_, state_.polyhedral);
        return;
    }
    // Last step's wall contacts move to reused buffers instead of fresh vectors each step.
    std::swap(previous_wall_contacts_, state_.wall_contacts);
    std::swap(previous_wall_history_, state_.wall_history);
    if (walls_found) {
        state_.wall_contacts.clear();
        for (const auto& part : wall_parts_) state_.wall_contacts.insert(state_.wall_contacts.end(), part.begin(), part.end());
    } else {
        walls_.findContacts(bodies, threads_, state_.wall_contacts);
    }
    carryWallHistory(previous_wall_contacts_, previous_wall_history_);
}

// The contact model's forces, with the accumulators set up for it; `sweep`: the sweep it runs
// before each chunk's rows (ForceContext::sweep).
void Simulation::runContactModel(double dt, ChunkSweep* sweep) {
    Bodies& bodies = state_.bodies;
    const std::size_t n = bodies.size();
    // One thread adds into the bodies' arrays (started at the weight by the sweep). Several
    // write the bodies they own there and list the rest (ThreadAccumulator::outside), or, in a loop
    // over contacts, write into their own arrays, kept zero between evaluations; both are summed in
    // thread order after.
    const bool shared = accumulators_.size() > 1;
    for (std::size_t t = 0; t < accumulators_.size(); ++t) {
        ThreadAccumulator& acc = accumulators_[t];
        acc.own_force = bodies.force.data();
        acc.own_torque = bodies.torque.data();
        acc.ownRange(0, shared ? 0 : n);
        acc.touched = false;
        if (shared) {
            auto& f = thread_buffers_[2 * t];
            auto& tq = thread_buffers_[2 * t + 1];
            if (f.size() != n) {
                f.resize(n);
                tq.resize(n);
            }
            acc.force = f.data();
            acc.torque = tq.data();
        } else {
            acc.force = bodies.force.data();
            acc.torque = bodies.torque.data();
        }
        acc.elastic_energy = acc.dissipated = 0.0;
        acc.range_seconds = 0.0;
        acc.contacts = 0;
        acc.records.clear();
        acc.outside.clear();
        acc.stretches.clear();
    }
    energy_blocks_.clear();  // left empty by a model without the engine's pair loop
    const bool feature_contacts = state_.polyhedral.range > 0.0;
    ForceContext ctx{bodies, state_.pairs, state_.wall_contacts, state_.wall_history, material_pairs_, box_,
                     accumulators_, dt, threads_, record_contacts_, feature_contacts ? &state_.polyhedral : nullptr,
                     &energy_blocks_, &pair_shares_, sweep};
    contact_model_->computeForces(ctx);
    std::vector<double>& per_thread = phases_.pair_loop_per_thread;
    if (per_thread.size() < accumulators_.size()) per_thread.resize(accumulators_.size(), 0.0);
    for (std::size_t t = 0; t < accumulators_.size(); ++t) per_thread[t] += accumulators_[t].range_seconds;
    measurePairWorkDone();
}

// The step's energies, contact count and records from the model's pass.
void Simulation::gatherForceResults() {
    // Block by block, in order: the same sums however the threads split the bodies.
    double elastic = 0.0, dissipated = 0.0;
    for (std::size_t b = 0; b < energy_blocks_.size(); b += 2) {
        elastic += energy_blocks_[b];
        dissipated += energy_blocks_[b + 1];
    }
    state_.elastic = elastic;
    state_.dissipated += dissipated;
    state_.contacts = 0;
    records_.clear();
    for (std::size_t t = 0; t < accumulators_.size(); ++t) {
        ThreadAccumulator& acc = accumulators_[t];
        state_.elastic += acc.elastic_energy;
        state_.dissipated += acc.dissipated;
        state_.contacts += acc.contacts;
    }
    for (const ListedStretch& s : orderStretches())
        records_.insert(records_.end(), s.acc->records.begin() + static_cast<std::ptrdiff_t>(s.records_begin),
                        s.acc->records.begin() + static_cast<std::ptrdiff_t>(s.records_end));
    // Each chunk of the pair loop lists its wall contacts, then its pairs': walls first, so the order
    // does not depend on the thread count or the chunks either.
    if (!records_.empty())
        std::stable_partition(records_.begin(), records_.end(), [](const ContactRecord& r) { return r.body_b < 0; });
}

void Simulation::settle() {
    if (!close_pending_) return;
    close_pending_ = false;
    const BodyRangeUpdate after = std::move(pending_after_);
    pending_after_ = nullptr;
    finishForces(step_dt_, &after);
    if (runaway_ < state_.bodies.size()) throwRunaway(runaway_);
}

std::vector<Simulation::ListedStretch> Simulation::orderStretches() const {
    std::vector<ListedStretch> order;
    for (const ThreadAccumulator& acc : accumulators_) {
        if (acc.stretches.empty()) {
            order.push_back({&acc, 0, 0, acc.outside.size(), 0, acc.records.size()});
            continue;
        }
        for (const ThreadAccumulator::Stretch& s : acc.stretches)
            order.push_back({&acc, s.first_row, s.outside_begin, s.outside_end, s.records_begin, s.records_end});
    }
    // Stable: a model without the pair loop's stretches keeps its threads' order.
    std::stable_sort(order.begin(), order.end(),
                     [](const ListedStretch& a, const ListedStretch& b) { return a.first_row < b.first_row; });
    return order;
}

void Simulation::groupListedForces(std::size_t chunk) {
    const std::vector<ListedStretch> order = orderStretches();
    std::vector<std::size_t>& start = listed_start_;
    start.assign((state_.bodies.size() + chunk - 1) / chunk + 1, 0);
    for (const ListedStretch& s : order)
        for (std::size_t k = s.outside_begin; k < s.outside_end; ++k) ++start[s.acc->outside[k].body / chunk + 1];
    for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
    listed_.resize(start.back());
    std::vector<std::size_t> at(start.begin(), start.end() - 1);
    for (const ListedStretch& s : order)
        for (std::size_t k = s.outside_begin; k < s.outside_end; ++k) {
            const OutsideForce& o = s.acc->outside[k];
            listed_[at[o.body / chunk]++] = &o;
        }
}

void Simulation::addListedForces(std::size_t index) {
    Bodies& bodies = state_.bodies;
    for (std::size_t k = listed_start_[index]; k < listed_start_[index + 1]; ++k) {
        const OutsideForce& o = *listed_[k];
        bodies.force[o.body] += o.force;
        bodies.torque[o.body] += o.torque;
    }
}

void Simulation::closeBlock(bool reduce, const BodyRangeUpdate* after, const KickDrift* fused, std::size_t begin,
                            std::size_t end, std::size_t& runaway, bool avx2) {
    Bodies& bodies = state_.bodies;
    if (reduce)
        for (const ThreadAccumulator& acc : accumulators_) {
            if (!acc.touched) continue;
            for (std::size_t i = begin; i < end; ++i) {
                bodies.force[i] += acc.force[i];
                bodies.torque[i] += acc.torque[i];
                acc.force[i] = Vec3::Zero();
                acc.torque[i] = Vec3::Zero();
            }
        }
    if (!after) return;
    if (fused) {
        const std::size_t i = kickAndFindRunaway(*fused, step_dt_, begin, end, runaway, avx2);
        if (i < end) runaway = i;
        return;
    }
    if (*after) (*after)(begin, end);
    // Below the first runaway this thread found: a chunk it takes from another's range may hold an
    // earlier one.
    if (begin < runaway) {
        const std::size_t below = std::min(end, runaway);
        const std::size_t i = firstRunaway(bodies, step_dt_, begin, below, avx2);
        if (i < below) runaway = i;
    }
}

// After the contact model: the threads' force arrays summed into the bodies' (several threads),
// then, for an integrator's step, its `after` update and the motion check, block by block in one
// parallel region. An external load sees the whole of the summed forces, so with one the update
// takes a pass of its own.
void Simulation::finishForces(double dt, const BodyRangeUpdate* after) {
    const PhaseTimer timer(phases_.integration);
    Bodies& bodies = state_.bodies;
    const std::size_t n = bodies.size();
    const bool shared = accumulators_.size() > 1;
    const bool avx2 = contactLoopIsa() == VectorIsa::Avx2;
    std::vector<std::size_t> first(static_cast<std::size_t>(std::max(1, threads_)), n);
    const std::size_t chunk = passChunk(n, threads_);
    const std::vector<std::size_t> ranges = equalChunkedRanges(n, threads_, chunk);
    auto pass = [&](bool reduce, const BodyRangeUpdate* update) {
        if (reduce) groupListedForces(chunk);
        const KickDrift* const fused = update ? fusedKickDrift(*update, bodies, false) : nullptr;
        parallelOwnedChunks(ranges, chunk, [&](int t, std::size_t, std::size_t index, std::size_t begin, std::size_t end) {
            // The forces listed for this chunk's bodies, in the row order of their stretches (a few
            // thousand a step at 1,024,000 spheres).
            if (reduce) addListedForces(index);
            std::size_t& runaway = first[static_cast<std::size_t>(t)];
            inBlocks(begin, end, [&](std::size_t block_begin, std::size_t block_end) {
                closeBlock(reduce, update, fused, block_begin, block_end, runaway, avx2);
            });
        });
    };
    if (external_load_) {
        if (shared) pass(true, nullptr);
        external_load_(state_.time + dt, bodies);
        if (after) pass(false, after);
    } else if (shared || after) {
        pass(shared, after);
    }
    motion_checked_ = after != nullptr;
    runaway_ = *std::min_element(first.begin(), first.end());
}

}  // namespace grainlab
