#pragma once
// OpenMP threads that wait for work sleep instead of spinning. libgomp reads OMP_WAIT_POLICY when
// it loads, before main, so setting it in main does nothing: the program starts itself again with
// it set. On a machine shared with other work (or with the window's rendering) spinning threads
// take the cores from the ones with work (2 threads ran 14x slower than sleeping ones on a loaded
// 2-core machine, docs/performance.md). An explicit OMP_WAIT_POLICY or GOMP_SPINCOUNT is kept.
#include <cstdlib>

#include <unistd.h>

namespace grainlab {

// Call first thing in main; returns only when the policy is already set (or the restart failed,
// in which case the program runs on with the default policy).
inline void restartWithSleepingThreads(char** argv) {
    if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    execv("/proc/self/exe", argv);
}

}  // namespace grainlab
