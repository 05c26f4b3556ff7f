#pragma once
// Whether the engine's idle threads should spin or sleep between parallel regions. Spinning
// threads start the next region at once; waking a sleeping one costs about 85 us on a 2-core VM, a
// third of the two-thread gain on the 32,000-sphere chute (docs/performance.md). But a spinning
// thread takes a core from any other work: two threads ran 14 times slower than sleeping ones next
// to one other busy process. So threads spin only while the machine has a core for each of them
// besides everything else that is runnable.
#include <atomic>
#include <chrono>

namespace grainlab {

enum class WaitPolicy { Adaptive, Spin, Sleep };

// OMP_WAIT_POLICY=ACTIVE spins and PASSIVE sleeps, as in OpenMP, whose threads these replace;
// anything else (or unset) gives the process's default: adapting to the load unless
// preferSleepingThreads (parallel.hpp) was called.
WaitPolicy waitPolicy();

// Samples the machine's load at most every kSampleInterval and says whether spinning is safe.
class WaitAdvice {
public:
    static constexpr std::chrono::milliseconds kSampleInterval{20};
    // Threads stop spinning when this many samples in a row found no free core; one with a free
    // core starts them again. On the idle 2-core VM 8 of 200 samples during the chute saw some
    // other task (kernel threads), none two in a row; next to a busy process every sample did.
    static constexpr int kCrowdedSamplesToSleep = 2;

    WaitAdvice(WaitPolicy policy, int cores);
    // Called by the thread starting a region: `threads` take part, `ours_running` of them are
    // running right now (the caller and the workers that are spinning, counted in the kernel's figure).
    void update(int threads, int ours_running);
    bool spin() const { return spin_.load(std::memory_order_relaxed); }

private:
    WaitPolicy policy_;
    int cores_;
    int crowded_samples_ = 0;
    std::chrono::steady_clock::time_point next_sample_{};
    std::atomic<bool> spin_;
};

}  // namespace grainlab
