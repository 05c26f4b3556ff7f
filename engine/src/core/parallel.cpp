#include "grainlab/core/parallel.hpp"

#include <omp.h>

#include <algorithm>

namespace grainlab {

int hardwareThreads() { return std::max(1, omp_get_num_procs()); }

void parallelRanges(std::size_t n, int threads,
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
        const std::size_t begin = n * static_cast<std::size_t>(t) / static_cast<std::size_t>(count);
        const std::size_t end = n * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(count);
        fn(t, begin, end);
    }
}

}  // namespace grainlab
