#include "wait_advice.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "grainlab/core/parallel.hpp"

namespace grainlab {

namespace {

std::atomic<bool> prefer_sleeping{false};

// Runnable tasks on the whole machine, from the kernel's load figures (/proc/loadavg's running
// count, which includes the reader); -1 where that cannot be read.
int runnableTasks() {
    // "0.50 1.60 1.87 2/345 12345": the fourth field is runnable/total scheduling entities.
    const int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[128];
    const ssize_t length = read(fd, text, sizeof text - 1);
    close(fd);
    if (length <= 0) return -1;
    text[length] = '\0';
    const char* field = text;
    for (int skipped = 0; skipped < 3; ++skipped) {
        field = std::strchr(field, ' ');
        if (!field) return -1;
        ++field;
    }
    char* end = nullptr;
    const long running = std::strtol(field, &end, 10);
    return end != field && *end == '/' ? static_cast<int>(running) : -1;
}

}  // namespace

void preferSleepingThreads() { prefer_sleeping = true; }

WaitPolicy waitPolicy() {
    const char* value = std::getenv("OMP_WAIT_POLICY");
    if (value && strcasecmp(value, "ACTIVE") == 0) return WaitPolicy::Spin;
    if (value && strcasecmp(value, "PASSIVE") == 0) return WaitPolicy::Sleep;
    return prefer_sleeping ? WaitPolicy::Sleep : WaitPolicy::Adaptive;
}

WaitAdvice::WaitAdvice(WaitPolicy policy, int cores)
    : policy_(policy), cores_(cores), spin_(policy == WaitPolicy::Spin) {}

void WaitAdvice::update(int threads, int ours_running) {
    if (policy_ != WaitPolicy::Adaptive) return;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_sample_) return;
    next_sample_ = now + kSampleInterval;
    const int runnable = runnableTasks();
    const int others = runnable - ours_running;
    const bool room = runnable >= 0 && others + threads <= cores_;
    crowded_samples_ = room ? 0 : crowded_samples_ + 1;
    // A task seen once (a kernel thread, a shell command) is gone by the next sample; one that is
    // still there wants the core for longer.
    if (room) spin_.store(true, std::memory_order_relaxed);
    else if (crowded_samples_ >= kCrowdedSamplesToSleep) spin_.store(false, std::memory_order_relaxed);
}

}  // namespace grainlab
