#include "near_candidates.hpp"

#include <array>
#include <bit>

#include "grainlab/core/avx2_lanes.hpp"

namespace grainlab {
namespace {

// Every candidate is written and the count advanced only for kept ones: about half the candidates
// fail j < i and most of the rest the distance, in no predictable order, and a branch per test cost
// more than the tests.
std::size_t keepScalar(const CandidateBodies& b, std::uint32_t i, const std::uint32_t* candidates, std::size_t count,
                       std::uint32_t* kept) {
    const Vec3 xi = b.position[i];
    const double ri = b.radius[i];
    const bool frozen_i = b.frozen[i] != 0;
    std::size_t n = 0;
    for (std::size_t s = 0; s < count; ++s) {
        const std::uint32_t j = candidates[s];
        const double range = ri + b.radius[j] + b.skin;
        const bool near = b.image.squaredDistance(xi - b.position[j]) < range * range;
        kept[n] = j;
        n += static_cast<std::size_t>(near & (j < i) & !(frozen_i & (b.frozen[j] != 0)));
    }
    return n;
}

#if defined(__x86_64__) && defined(__GNUC__)
// For each 4-bit mask of lanes, the byte shuffle that moves those lanes' 32-bit indices to the front.
constexpr std::array<std::array<std::uint8_t, 16>, 16> compressions() {
    std::array<std::array<std::uint8_t, 16>, 16> table{};
    for (unsigned mask = 0; mask < 16; ++mask) {
        unsigned to = 0;
        for (unsigned lane = 0; lane < 4; ++lane)
            if (mask & (1u << lane)) {
                for (unsigned byte = 0; byte < 4; ++byte) table[mask][4 * to + byte] = static_cast<std::uint8_t>(4 * lane + byte);
                ++to;
            }
        for (; to < 4; ++to)
            for (unsigned byte = 0; byte < 4; ++byte) table[mask][4 * to + byte] = 0x80;  // zero
    }
    return table;
}
alignas(16) constexpr auto kCompress = compressions();

// Four candidates at a time, the same operations in the same order as keepScalar lane by lane, so
// the same pairs to the last bit; kept lanes packed to the front by a byte shuffle. For a body that
// is not frozen (a frozen one takes the scalar loop, which also tests its partners' flags). The
// scalar loop took about 25 instructions a candidate.
[[gnu::target("avx2,popcnt")]] std::size_t keepAvx2(const CandidateBodies& b, std::uint32_t i,
                                                     const std::uint32_t* candidates, std::size_t count,
                                                     std::uint32_t* kept) {
    const double* const xs = reinterpret_cast<const double*>(b.position);
    const __m256d xi = _mm256_set1_pd(b.position[i].x());
    const __m256d yi = _mm256_set1_pd(b.position[i].y());
    const __m256d zi = _mm256_set1_pd(b.position[i].z());
    const __m256d ri = _mm256_set1_pd(b.radius[i]);
    const __m256d skin = _mm256_set1_pd(b.skin);
    const __m128i self = _mm_set1_epi32(static_cast<int>(i));
    std::size_t n = 0;
    // Past `count`, the padding's copies of i fail j < i.
    for (std::size_t s = 0; s < count; s += 4) {
        const std::uint32_t* const j = candidates + s;
        __m256d xj, yj, zj;
        avx2::positions(xs, j, xj, yj, zj);
        const __m256d rsq = avx2::squaredDistance(_mm256_sub_pd(xi, xj), _mm256_sub_pd(yi, yj), _mm256_sub_pd(zi, zj),
                                                  b.image.period);
        const __m256d range = _mm256_add_pd(_mm256_add_pd(ri, avx2::values(b.radius, j)), skin);
        const int near = _mm256_movemask_pd(_mm256_cmp_pd(rsq, _mm256_mul_pd(range, range), _CMP_LT_OQ));
        const __m128i index = _mm_loadu_si128(reinterpret_cast<const __m128i*>(j));
        const int below = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(self, index)));
        const unsigned keep = static_cast<unsigned>(near & below);
        const __m128i shuffle = _mm_load_si128(reinterpret_cast<const __m128i*>(kCompress[keep].data()));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(kept + n), _mm_shuffle_epi8(index, shuffle));
        n += static_cast<std::size_t>(std::popcount(keep));
    }
    return n;
}
#endif

}  // namespace

std::size_t keepNearCandidates(const CandidateBodies& bodies, std::uint32_t i, const std::uint32_t* candidates,
                               std::size_t count, std::uint32_t* kept) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (bodies.avx2 && bodies.frozen[i] == 0) return keepAvx2(bodies, i, candidates, count, kept);
#endif
    return keepScalar(bodies, i, candidates, count, kept);
}

}  // namespace grainlab
