#pragma once
// A hint to the core inside a spin-wait: on x86 PAUSE (the loop's exit does not flush the pipeline,
// and a sibling hardware thread gets the core's resources meanwhile); elsewhere only a compiler barrier.
#include <atomic>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace grainlab {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace grainlab
