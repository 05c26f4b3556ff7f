#pragma once
// Ranges that follow the threads' measured speed, for the pair loop's shares of its work estimate
// (Simulation::sharePairWork): there which thread adds a force decides the order of a body's sums,
// so the threads cannot split it by measured speed alone (parallelOwnedChunks takes up the rest). In
// stretches of this VM one virtual core streams the bodies' arrays far slower than the other
// (docs/performance.md), and equal halves then leave the faster thread waiting at the region's end.
#include <cstddef>
#include <vector>

namespace grainlab {

class AdaptiveSplit {
public:
    // weight: of the latest times against those before (0.2: smoothed over about five updates).
    explicit AdaptiveSplit(double weight = 0.2) : weight_(weight) {}
    // Contiguous ranges in thread order covering [0, n): thread t takes [b[t], b[t + 1]). Equal
    // lengths for a new body or thread count.
    const std::vector<std::size_t>& bounds(std::size_t n, int threads);
    // Thread t's time in the region just run and how much it did there, in the ranges' units: its
    // own range's part and what it took of others' (each thread writes its own slot). Per unit done,
    // not per unit of its range: a thread that took the end of another's range would seem slow,
    // get less of its own next time, take more, and so on, down to the floor share (the 32,000-
    // sphere chute's first thread ended with an eighth of the pair loop's range).
    void record(int thread, double seconds, double done) {
        times_[static_cast<std::size_t>(thread)] = Time{seconds, done};
    }
    // After the region: each thread's seconds per body, smoothed over steps, and the next ranges
    // sized to take equal times, in whole blocks of `granule` bodies.
    void update(std::size_t granule);

private:
    struct alignas(64) Time { double seconds = -1.0, done = 0.0; };  // a line each: written while the others work
    std::vector<std::size_t> bounds_;
    std::vector<Time> times_;
    std::vector<double> per_body_;  // smoothed seconds per body, per thread (0: none yet)
    double weight_;
};

}  // namespace grainlab
