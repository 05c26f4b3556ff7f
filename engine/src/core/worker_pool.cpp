#include "worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <system_error>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "grainlab/core/cpu_relax.hpp"
#include "grainlab/core/parallel.hpp"

namespace grainlab {

namespace {

// How long a thread spins for the next region before it sleeps: longer than the serial stretches
// between a step's regions and between steps (the neighbour list's merge, an output frame of the
// chute), short enough that an application that stops stepping gives its cores back at once.
constexpr std::chrono::microseconds kSpinLimit{2000};

// Sleeping on and waking a word directly with the kernel's futex: std::atomic::wait in libstdc++ 12
// first calls sched_yield a dozen times, and on a machine with other runnable work each yield hands
// the core away for a time slice (the chute ran 3 times slower next to two busy processes).
void sleepWhileEqual(const std::atomic<std::uint32_t>& word, std::uint32_t old) {
#if defined(__linux__)
    static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
    syscall(SYS_futex, reinterpret_cast<const std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, old, nullptr, nullptr, 0);
#else
    word.wait(old);
#endif
}

void wakeAll(std::atomic<std::uint32_t>& word) {
#if defined(__linux__)
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
#else
    word.notify_all();
#endif
}

}  // namespace

WorkerPool::WorkerPool() : advice_(waitPolicy(), hardwareThreads()) {}

WorkerPool::~WorkerPool() {
    stop_ = true;
    generation_.fetch_add(1);
    wakeAll(generation_);
    for (std::thread& worker : workers_) worker.join();
}

void WorkerPool::waitWhileEqual(const std::atomic<std::uint32_t>& word, std::uint32_t old, std::atomic<int>& sleepers) {
    if (advice_.spin()) {
        const auto until = std::chrono::steady_clock::now() + kSpinLimit;
        for (unsigned round = 1;; ++round) {
            if (word.load(std::memory_order_acquire) != old) return;
            cpuRelax();
            if (round % 64 == 0 && (!advice_.spin() || std::chrono::steady_clock::now() > until)) break;
        }
    }
    // Announced before the last look (both sequentially consistent): either the thread that moves
    // `word` on sees a sleeper and wakes it, or this thread sees the new value and does not sleep.
    sleepers.fetch_add(1);
    while (word.load() == old) sleepWhileEqual(word, old);
    sleepers.fetch_sub(1);
}

void WorkerPool::capture() {
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::current_exception();
}

void WorkerPool::work(int t, std::uint32_t seen) {
    for (;;) {
        waitWhileEqual(generation_, seen, sleeping_workers_);
        seen = generation_.load(std::memory_order_acquire);
        if (stop_) return;
        if (t < count_) {  // else a region with fewer threads than the pool has
            try {
                (*job_)(t, count_);
            } catch (...) {
                capture();
            }
        }
        // Every worker reports, taking part or not, so none still reads this region's job when
        // the caller writes the next.
        if (remaining_.fetch_sub(1) == 1 && sleeping_caller_.load() > 0) wakeAll(remaining_);
    }
}

void WorkerPool::startWorkers(int count) {
    while (static_cast<int>(workers_.size()) + 1 < count) {
        const int t = static_cast<int>(workers_.size()) + 1;
        // A worker started after earlier regions waits for the next one, not for any change from 0
        // (it would take the last region's job, long gone, for its own).
        const std::uint32_t current = generation_.load();
        try {
            workers_.emplace_back([this, t, current] { work(t, current); });
        } catch (const std::system_error&) {
            return;  // the system has no more threads to give: the regions run on those started
        }
    }
}

void WorkerPool::run(int threads, const std::function<void(int, int)>& fn) {
    startWorkers(threads);
    const int count = std::clamp(threads, 1, static_cast<int>(workers_.size()) + 1);
    const int workers_asleep = sleeping_workers_.load(std::memory_order_relaxed);
    advice_.update(count, 1 + static_cast<int>(workers_.size()) - workers_asleep);
    job_ = &fn;
    count_ = count;
    error_ = nullptr;
    remaining_.store(static_cast<std::uint32_t>(workers_.size()));
    generation_.fetch_add(1);
    if (sleeping_workers_.load() > 0) wakeAll(generation_);
    try {
        fn(0, count);
    } catch (...) {
        capture();
    }
    for (std::uint32_t left = remaining_.load(std::memory_order_acquire); left != 0;
         left = remaining_.load(std::memory_order_acquire)) {
        waitWhileEqual(remaining_, left, sleeping_caller_);
    }
    if (error_) std::rethrow_exception(error_);
}

}  // namespace grainlab
