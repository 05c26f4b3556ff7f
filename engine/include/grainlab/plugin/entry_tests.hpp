#pragma once
// The distance tests of the Verlet list's entries: which pairs touch, a chunk of up to 64 entries
// at a time into a bit per entry. The pair loop's first pass (contact_law.hpp) and the engine's
// estimate of its work (estimatePairWork) both run them.
#include <cstdint>

#include "grainlab/core/avx2_lanes.hpp"
#include "grainlab/core/math.hpp"
#include "grainlab/sim/periodic_box.hpp"

namespace grainlab::detail {

// What the distance pass reads of each list entry: its body (`owner`), its partner, and their
// positions and radii.
struct EntryArrays {
    const std::uint32_t* owner;
    const std::uint32_t* partner;
    std::uint32_t partner_end;
    const Vec3* x;
    const double* radius;
    NearestImage image;
};

// Partners' positions are fetched this many entries ahead: partners are scattered through the
// body arrays, which at 128,000 bodies no longer fit in the cache.
constexpr std::uint32_t kPositionsAhead = 32;

// x_body - x_partner of entry k (nearest image along periodic axes, as magnitudes: their signs
// only matter for the pairs that touch) and its square.
[[gnu::always_inline]] inline double entrySeparation(const EntryArrays& a, std::uint32_t i, std::uint32_t j,
                                                     double& ex, double& ey, double& ez) {
    ex = a.x[i].x() - a.x[j].x();
    ey = a.x[i].y() - a.x[j].y();
    ez = a.x[i].z() - a.x[j].z();
    const double ax = a.image.separation<0>(ex), ay = a.image.separation<1>(ey), az = a.image.separation<2>(ez);
    return ax * ax + ay * ay + az * az;
}

// Entries [chunk + from, chunk + count) tested one by one, into bits `from` to `count` - 1 of the
// mask of those that touch.
[[gnu::always_inline]] inline void classifyEntries(const EntryArrays& a, std::uint32_t chunk, std::uint32_t from,
                                                   std::uint32_t count, std::uint64_t& touching) {
    for (std::uint32_t e = from; e < count; ++e) {
        const std::uint32_t k = chunk + e;
        const std::uint32_t i = a.owner[k], j = a.partner[k];
        if (k + kPositionsAhead < a.partner_end) {
            __builtin_prefetch(a.x + a.partner[k + kPositionsAhead]);
            __builtin_prefetch(a.radius + a.partner[k + kPositionsAhead]);
        }
        double ex, ey, ez;
        const double rsq = entrySeparation(a, i, j, ex, ey, ez);
        const double rsum = a.radius[i] + a.radius[j];
        touching |= std::uint64_t{rsq < rsum * rsum} << e;
    }
}

// The touching bits of entries [chunk, chunk + count), count <= 64, one entry at a time.
[[gnu::always_inline]] inline std::uint64_t classifyBaseline(const EntryArrays& a, std::uint32_t chunk, std::uint32_t count) {
    std::uint64_t touching = 0;
    classifyEntries(a, chunk, 0, count, touching);
    return touching;
}

#if defined(__x86_64__) && defined(__GNUC__)
// The distance pass's tests of a chunk, four entries at a time: the same operations in the same
// order as classifyEntries, lane by lane, so the same masks bit for bit. The scalar loop took
// about 55 instructions an entry, which kept few entries in flight.
[[gnu::target("avx2,bmi,bmi2")]] inline std::uint64_t classifyAvx2(const EntryArrays& a, std::uint32_t chunk,
                                                                 std::uint32_t count) {
    std::uint64_t touching = 0;
    const double* const xs = reinterpret_cast<const double*>(a.x);
    std::uint32_t e = 0;
    for (; e + 4 <= count; e += 4) {
        const std::uint32_t k = chunk + e;
        if (k + kPositionsAhead + 4 <= a.partner_end)
            for (std::uint32_t p = 0; p < 4; ++p) {
                __builtin_prefetch(a.x + a.partner[k + kPositionsAhead + p]);
                __builtin_prefetch(a.radius + a.partner[k + kPositionsAhead + p]);
            }
        const std::uint32_t* const i = a.owner + k;
        const std::uint32_t* const j = a.partner + k;
        __m256d xi, yi, zi, xj, yj, zj;
        avx2::positions(xs, i, xi, yi, zi);
        avx2::positions(xs, j, xj, yj, zj);
        const __m256d rsq = avx2::squaredDistance(_mm256_sub_pd(xi, xj), _mm256_sub_pd(yi, yj),
                                                  _mm256_sub_pd(zi, zj), a.image.period);
        const __m256d rsum = _mm256_add_pd(avx2::values(a.radius, i), avx2::values(a.radius, j));
        touching |= static_cast<std::uint64_t>(
                        _mm256_movemask_pd(_mm256_cmp_pd(rsq, _mm256_mul_pd(rsum, rsum), _CMP_LT_OQ)))
                    << e;
    }
    classifyEntries(a, chunk, e, count, touching);
    return touching;
}

#endif

// The touching bits of entries [chunk, chunk + count), count <= 64, with AVX2 where asked.
inline std::uint64_t classifyChunk(const EntryArrays& a, std::uint32_t chunk, std::uint32_t count, [[maybe_unused]] bool avx2) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) return classifyAvx2(a, chunk, count);
#endif
    return classifyBaseline(a, chunk, count);
}

}  // namespace grainlab::detail
