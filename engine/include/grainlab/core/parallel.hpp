#pragma once
// Static, deterministic work splitting: thread t of T always gets the same index range, so a run
// with a given thread count adds forces in the same order every time.
#include <cstddef>
#include <functional>

namespace grainlab {

// Number of threads used when a scene or command line says 0.
int hardwareThreads();

// Calls fn(thread, begin, end) for `threads` contiguous ranges covering [0, n), in parallel.
void parallelRanges(std::size_t n, int threads,
                    const std::function<void(int thread, std::size_t begin, std::size_t end)>& fn);

}  // namespace grainlab
