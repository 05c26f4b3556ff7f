#include "grainlab/core/vector_isa.hpp"

#include <cstdlib>
#include <cstring>

namespace grainlab {

VectorIsa contactLoopIsa() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
    const char* forced = std::getenv("GRAINLAB_VECTOR_ISA");
    if (forced && std::strcmp(forced, "baseline") == 0) return VectorIsa::Baseline;
    return avx2 ? VectorIsa::Avx2 : VectorIsa::Baseline;
#else
    return VectorIsa::Baseline;
#endif
}

}  // namespace grainlab
