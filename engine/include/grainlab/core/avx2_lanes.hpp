#pragma once
// AVX2 building blocks of the pair loop (its distance tests, its batches' gathering) and of the
// passes over the bodies: four bodies' values loaded into the lanes of a vector, one by one or
// transposed from consecutive Vec3s, and the nearest image's squared distance. Each function is
// compiled for AVX2 only (gnu::target) and called from code that checked contactLoopIsa(). Loads,
// not AVX2's gathers: gathers made the distance pass slower than the scalar loop it replaced.
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

namespace grainlab::avx2 {

// values[index[0..3]] in the four lanes.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d values(const double* values, const std::uint32_t* index) {
    const __m128d low = _mm_loadh_pd(_mm_load_sd(values + index[0]), values + index[1]);
    const __m128d high = _mm_loadh_pd(_mm_load_sd(values + index[2]), values + index[3]);
    return _mm256_insertf128_pd(_mm256_castpd128_pd256(low), high, 1);
}

// The positions of bodies index[0..3] (xs: the Vec3 array's doubles), transposed into x, y and z.
[[gnu::target("avx2"), gnu::always_inline]] inline void positions(const double* xs, const std::uint32_t* index,
                                                                 __m256d& x, __m256d& y, __m256d& z) {
    const double* const p0 = xs + 3 * std::size_t{index[0]};
    const double* const p1 = xs + 3 * std::size_t{index[1]};
    const double* const p2 = xs + 3 * std::size_t{index[2]};
    const double* const p3 = xs + 3 * std::size_t{index[3]};
    const __m256d xy02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p0)), _mm_loadu_pd(p2), 1);
    const __m256d xy13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p1)), _mm_loadu_pd(p3), 1);
    x = _mm256_unpacklo_pd(xy02, xy13);
    y = _mm256_unpackhi_pd(xy02, xy13);
    const __m128d z01 = _mm_loadh_pd(_mm_load_sd(p0 + 2), p1 + 2);
    const __m128d z23 = _mm_loadh_pd(_mm_load_sd(p2 + 2), p3 + 2);
    z = _mm256_insertf128_pd(_mm256_castpd128_pd256(z01), z23, 1);
}

// Four consecutive Vec3s (twelve doubles from p on) transposed into x, y and z.
[[gnu::target("avx2"), gnu::always_inline]] inline void fourVec3(const double* p, __m256d& x, __m256d& y, __m256d& z) {
    const __m256d a = _mm256_loadu_pd(p);      // x0 y0 z0 x1
    const __m256d b = _mm256_loadu_pd(p + 4);  // y1 z1 x2 y2
    const __m256d c = _mm256_loadu_pd(p + 8);  // z2 x3 y3 z3
    // Lanes gathered by blends of the three, then put in place by a permutation.
    x = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a, b, 0x4), c, 0x2), 0x6c);  // x0 x3 x2 x1 -> 0 3 2 1
    y = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a, b, 0x9), c, 0x4), 0xb1);  // y1 y0 y3 y2 -> 1 0 3 2
    z = _mm256_permute4x64_pd(_mm256_blend_pd(_mm256_blend_pd(a, b, 0x2), c, 0x9), 0xc6);  // z2 z1 z0 z3 -> 2 1 0 3
}

// |d| folded to the nearer image, min(|d|, period - |d|), as NearestImage::separation (the same
// operations, so the same bits).
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d foldedSeparation(__m256d d, __m256d period) {
    const __m256d m = _mm256_and_pd(d, _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL)));
    return _mm256_min_pd(_mm256_sub_pd(period, m), m);
}

// Squared nearest-image distance of the lanes' separations, summed as NearestImage::squaredDistance.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d squaredDistance(__m256d dx, __m256d dy, __m256d dz,
                                                                          const double* period) {
    const __m256d ax = foldedSeparation(dx, _mm256_set1_pd(period[0]));
    const __m256d ay = foldedSeparation(dy, _mm256_set1_pd(period[1]));
    const __m256d az = foldedSeparation(dz, _mm256_set1_pd(period[2]));
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ax, ax), _mm256_mul_pd(ay, ay)), _mm256_mul_pd(az, az));
}

// Four consecutive bodies' Vec3s are twelve consecutive doubles, three vectors: a value per body
// (lanes s0..s3) spread over them as (s0 s0 s0 s1), (s1 s1 s2 s2), (s2 s3 s3 s3).
[[gnu::target("avx2"), gnu::always_inline]] inline void perBody(__m256d s, __m256d& first, __m256d& second,
                                                               __m256d& third) {
    first = _mm256_permute4x64_pd(s, 0x40);   // lanes 0 0 0 1
    second = _mm256_permute4x64_pd(s, 0xa5);  // 1 1 2 2
    third = _mm256_permute4x64_pd(s, 0xfe);   // 2 3 3 3
}

}  // namespace grainlab::avx2
#endif
