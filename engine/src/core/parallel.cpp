#include "grainlab/core/parallel.hpp"

#include <omp.h>

#include <algorithm>

namespace grainlab {

int hardwareThreads() { return std::max(1, omp_get_num_procs()); }

int automaticThreads(std::size_t bodies) {
    return static_cast<int>(std::clamp<std::size_t>(bodies / kBodiesPerThread, 1, static_cast<std::size_t>(hardwareThreads())));
}

namespace {

// Runs fn(thread, boundary(t), boundary(t + 1)) on every thread of one region, boundary(t, count)
// giving where thread t of `count` starts (boundary(count, count) = n).
template <class Boundary>
void inRegion(std::size_t n, int threads, Boundary boundary,
              const std::function<void(int, std::size_t, std::size_t)>& fn) {
    threads = std::max(1, threads);
    if (threads == 1) {
        fn(0, 0, n);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num();
        const int count = omp_get_num_threads();  // may be fewer than asked; ranges follow it
        fn(t, boundary(t, count), boundary(t + 1, count));
    }
}

}  // namespace

void parallelRanges(std::size_t n, int threads,
                    const std::function<void(int, std::size_t, std::size_t)>& fn) {
    inRegion(n, threads, [n](int t, int count) {
        return n * static_cast<std::size_t>(t) / static_cast<std::size_t>(count);
    }, fn);
}

void parallelBalancedRanges(std::size_t n, int threads, const std::function<double(std::size_t)>& work_before,
                            const std::function<void(int, std::size_t, std::size_t)>& fn) {
    if (threads <= 1) {
        fn(0, 0, n);
        return;
    }
    const double total = work_before(n);
    // The first index whose preceding work reaches the share of `t` of `count` threads.
    inRegion(n, threads, [&](int t, int count) -> std::size_t {
        if (t >= count) return n;
        const double target = total * t / count;
        std::size_t lo = 0, hi = n;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (work_before(mid) < target) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }, fn);
}

}  // namespace grainlab
