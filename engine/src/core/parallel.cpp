#include "grainlab/core/parallel.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
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

namespace {

// The first index whose preceding work reaches the share of `t` of `count` threads, at a multiple of
// `granule` (or n).
std::size_t balancedBoundary(std::size_t n, int t, int count, const std::function<double(std::size_t)>& work_before,
                             double total, std::size_t granule, const std::vector<double>* shares) {
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
}

}  // namespace

void parallelBalancedRanges(std::size_t n, int threads, const std::function<double(std::size_t)>& work_before,
                            std::size_t granule, const std::function<void(int, std::size_t, std::size_t)>& fn,
                            const std::vector<double>* shares) {
    if (threads <= 1) {
        fn(0, 0, n);
        return;
    }
    const double total = work_before(n);
    inRegion(n, threads, [&](int t, int count) {
        return balancedBoundary(n, t, count, work_before, total, granule, shares);
    }, fn);
}

std::vector<std::size_t> balancedBounds(std::size_t n, int threads, const std::function<double(std::size_t)>& work_before,
                                        std::size_t granule, const std::vector<double>* shares) {
    const int count = std::max(1, threads);
    const double total = work_before(n);
    std::vector<std::size_t> bounds(static_cast<std::size_t>(count) + 1, n);
    bounds[0] = 0;
    for (int t = 1; t < count; ++t)
        bounds[static_cast<std::size_t>(t)] =
            std::max(bounds[static_cast<std::size_t>(t) - 1], balancedBoundary(n, t, count, work_before, total, granule, shares));
    return bounds;
}

std::size_t blockChunk(std::size_t n, int threads, std::size_t block) {
    const std::size_t size = std::max<std::size_t>(1, block);
    const std::size_t per_thread = n / (16 * size * static_cast<std::size_t>(std::max(1, threads)));
    return size * std::clamp<std::size_t>(per_thread, 1, 32);
}

std::vector<std::size_t> equalChunkedRanges(std::size_t n, int threads, std::size_t chunk) {
    const std::size_t count = static_cast<std::size_t>(std::max(1, threads)), size = std::max<std::size_t>(1, chunk);
    std::vector<std::size_t> bounds(count + 1, n);
    for (std::size_t t = 0; t < count; ++t) bounds[t] = std::min(n, (n * t / count + size / 2) / size * size);
    return bounds;
}

std::size_t chunkCount(const std::vector<std::size_t>& bounds, std::size_t chunk) {
    const std::size_t size = std::max<std::size_t>(1, chunk);
    std::size_t count = 0;
    for (std::size_t r = 0; r + 1 < bounds.size(); ++r) count += (bounds[r + 1] - bounds[r] + size - 1) / size;
    return count;
}

void parallelOwnedChunks(const std::vector<std::size_t>& bounds, std::size_t chunk,
                         const std::function<void(int, std::size_t, std::size_t, std::size_t, std::size_t)>& fn) {
    const std::size_t ranges = bounds.size() < 2 ? 0 : bounds.size() - 1;
    if (ranges == 0) return;
    const std::size_t size = std::max<std::size_t>(1, chunk);
    // Per range: the chunks not yet taken, [front, back), in one word so that the owner taking the
    // front and another thread the back never both take the last; a line each.
    struct alignas(64) Left {
        std::atomic<std::uint64_t> ends{0};
    };
    const std::unique_ptr<Left[]> left(new Left[ranges]);
    std::vector<std::size_t> first_index(ranges, 0);
    for (std::size_t r = 0; r < ranges; ++r) {
        const std::uint64_t chunks = (bounds[r + 1] - bounds[r] + size - 1) / size;
        left[r].ends.store(chunks << 32);
        if (r + 1 < ranges) first_index[r + 1] = first_index[r] + chunks;
    }
    // The chunk taken from the front or the back of range r; false when none is left.
    auto take = [&](std::size_t r, bool front, std::uint64_t& k) {
        std::uint64_t ends = left[r].ends.load(std::memory_order_relaxed);
        for (;;) {
            const std::uint64_t f = ends & 0xffffffffu, b = ends >> 32;
            if (f >= b) return false;
            const std::uint64_t next = front ? (b << 32) | (f + 1) : ((b - 1) << 32) | f;
            if (left[r].ends.compare_exchange_weak(ends, next, std::memory_order_acq_rel, std::memory_order_relaxed)) {
                k = front ? f : b - 1;
                return true;
            }
        }
    };
    auto work = [&](int t) {
        auto run = [&](std::size_t r, std::uint64_t k) {
            const std::size_t begin = bounds[r] + static_cast<std::size_t>(k) * size;
            fn(t, r, first_index[r] + static_cast<std::size_t>(k), begin, std::min(bounds[r + 1], begin + size));
        };
        const auto own = static_cast<std::size_t>(t);
        std::uint64_t k = 0;
        if (own < ranges)
            while (take(own, true, k)) run(own, k);
        for (std::size_t step = 1; step <= ranges; ++step) {
            const std::size_t r = (own + step) % ranges;
            while (take(r, false, k)) run(r, k);
        }
    };
    if (ranges == 1 || in_region) {
        work(0);
        return;
    }
    // A thread the pool could not start leaves its range to the others, who take all of it.
    threadsPool().run(static_cast<int>(ranges), [&](int t, int) {
        const InRegion mark;
        work(t);
    });
}

}  // namespace grainlab
