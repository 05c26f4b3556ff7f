#include "grainlab/core/parallel.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "worker_pool.hpp"

namespace grainlab {

int hardwareThreads() {
    // The cores this process may run on (a container's or `taskset`'s share), not the machine's.
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) return std::max(1, CPU_COUNT(&allowed));
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

int automaticThreads(std::size_t bodies) {
    return static_cast<int>(std::clamp<std::size_t>(bodies / kBodiesPerThread, 1, static_cast<std::size_t>(hardwareThreads())));
}

namespace {

// A region started inside another runs on its thread alone (as nested OpenMP regions did).
thread_local bool in_region = false;
struct InRegion {
    InRegion() { in_region = true; }
    ~InRegion() { in_region = false; }
};

// One pool per thread that starts regions (the application's simulation thread, a test's
// threads), as OpenMP keeps a team per such thread; not a static of the template below, which
// would give each instantiation a pool of its own.
WorkerPool& threadsPool() {
    thread_local WorkerPool pool;
    return pool;
}

// Runs fn(thread, boundary(t), boundary(t + 1)) on every thread of one region, boundary(t, count)
// giving where thread t of `count` starts (boundary(count, count) = n).
template <class Boundary>
void inRegion(std::size_t n, int threads, Boundary boundary,
              const std::function<void(int, std::size_t, std::size_t)>& fn) {
    if (threads <= 1 || in_region) {
        fn(0, 0, n);
        return;
    }
    threadsPool().run(threads, [&](int t, int count) {  // count may be fewer than asked; ranges follow it
        const InRegion mark;
        fn(t, boundary(t, count), boundary(t + 1, count));
    });
}

}  // namespace

void parallelRanges(std::size_t n, int threads,
                    const std::function<void(int, std::size_t, std::size_t)>& fn) {
    inRegion(n, threads, [n](int t, int count) {
        return n * static_cast<std::size_t>(t) / static_cast<std::size_t>(count);
    }, fn);
}

void parallelGivenRanges(const std::vector<std::size_t>& bounds,
                         const std::function<void(int, std::size_t, std::size_t)>& fn) {
    const std::size_t n = bounds.empty() ? 0 : bounds.back();
    const int threads = bounds.size() < 2 ? 1 : static_cast<int>(bounds.size() - 1);
    inRegion(n, threads, [&](int t, int count) {
        const auto at = static_cast<std::size_t>(t);
        return count == threads ? bounds[at] : n * at / static_cast<std::size_t>(count);
    }, fn);
}

void parallelBalancedRanges(std::size_t n, int threads, const std::function<double(std::size_t)>& work_before,
                            std::size_t granule, const std::function<void(int, std::size_t, std::size_t)>& fn,
                            const std::vector<double>* shares) {
    if (threads <= 1) {
        fn(0, 0, n);
        return;
    }
    const double total = work_before(n);
    // The first index whose preceding work reaches the share of `t` of `count` threads.
    inRegion(n, threads, [&](int t, int count) -> std::size_t {
        if (t >= count) return n;
        const bool given = shares && shares->size() == static_cast<std::size_t>(count) + 1;
        const double target = given ? total * (*shares)[static_cast<std::size_t>(t)] : total * t / count;
        std::size_t lo = 0, hi = n;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (work_before(mid) < target) lo = mid + 1;
            else hi = mid;
        }
        const std::size_t g = std::max<std::size_t>(1, granule);
        return std::min(n, (lo + g / 2) / g * g);
    }, fn);
}

void parallelChunks(std::size_t n, std::size_t chunk, int threads,
                    const std::function<void(int, std::size_t, std::size_t, std::size_t)>& fn) {
    const std::size_t size = std::max<std::size_t>(1, chunk);
    const std::size_t count = (n + size - 1) / size;
    std::atomic<std::size_t> next{0};
    auto take = [&](int t) {
        for (std::size_t k = next.fetch_add(1, std::memory_order_relaxed); k < count;
             k = next.fetch_add(1, std::memory_order_relaxed))
            fn(t, k, k * size, std::min(n, (k + 1) * size));
    };
    if (threads <= 1 || in_region || count <= 1) {
        take(0);
        return;
    }
    threadsPool().run(threads, [&](int t, int) {
        const InRegion mark;
        take(t);
    });
}

}  // namespace grainlab
