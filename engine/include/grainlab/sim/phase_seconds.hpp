#pragma once
// Where a run's time goes, summed over its steps, as LAMMPS breaks down its loop time after a run
// (Pair, Neigh, Modify ...): a user sees which part to tune (the skin, the thread count).
#include <chrono>
#include <vector>

namespace grainlab {

struct PhaseSeconds {
    // The passes over the bodies: the integrator's updates, wrapping into the periodic box, the
    // Verlet and runaway checks, the threads' forces summed into the bodies'.
    double integration = 0.0;
    // Neighbour-list rebuilds, spatial sorts, the pair loop's work estimate, wall candidates.
    double neighbours = 0.0;
    // Contacts found and their forces: the contact model (pairs, walls, feature contacts) or a
    // contact-dynamics solve.
    double forces = 0.0;
    // The pair loop's seconds on each thread (the contact model's own loop; empty for models
    // without it): how evenly the threads share it.
    std::vector<double> pair_loop_per_thread;

    double total() const { return integration + neighbours + forces; }
    // The seconds spent between two readings (`earlier` taken first, as long as threads stayed).
    PhaseSeconds since(const PhaseSeconds& earlier) const;
};

// Adds the seconds from its construction to the end of its scope to `into`.
class PhaseTimer {
public:
    explicit PhaseTimer(double& into) : into_(into), start_(std::chrono::steady_clock::now()) {}
    ~PhaseTimer() { into_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
    PhaseTimer(const PhaseTimer&) = delete;
    PhaseTimer& operator=(const PhaseTimer&) = delete;

private:
    double& into_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace grainlab
