#pragma once
// The threads of the engine's parallel regions: a caller thread and workers that wait for the
// next region spinning or sleeping as WaitAdvice says (OpenMP's runtime offers only one policy
// fixed at start-up, and spinning is right on an idle machine and ruinous on a busy one).
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "wait_advice.hpp"

namespace grainlab {

class WorkerPool {
public:
    WorkerPool();
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Calls fn(t, count) for t in [0, count) on `count` threads, t = 0 on the calling one, and
    // returns when all have finished. count is `threads` unless the system refused to start a
    // thread. An exception thrown by any of them is rethrown here, after all have finished.
    void run(int threads, const std::function<void(int t, int count)>& fn);

private:
    void work(int t, std::uint32_t seen);  // seen: the generation of the last region before it started
    void startWorkers(int count);
    void capture();
    // Spins while spinning is advised and then sleeps until `word` no longer holds `old`.
    void waitWhileEqual(const std::atomic<std::uint32_t>& word, std::uint32_t old, std::atomic<int>& sleepers);

    std::vector<std::thread> workers_;  // worker k is thread k + 1
    WaitAdvice advice_;

    // The current region, written before `generation_` moves on.
    const std::function<void(int, int)>* job_ = nullptr;
    int count_ = 1;
    bool stop_ = false;

    std::atomic<std::uint32_t> generation_{0};  // one more for every region
    std::atomic<std::uint32_t> remaining_{0};   // workers yet to be done with the region
    std::atomic<int> sleeping_workers_{0};      // asleep on generation_
    std::atomic<int> sleeping_caller_{0};       // the caller asleep on remaining_

    std::mutex error_mutex_;
    std::exception_ptr error_;
};

}  // namespace grainlab
