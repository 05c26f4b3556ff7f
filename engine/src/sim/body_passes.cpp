#include "body_passes.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "grainlab/core/avx2_lanes.hpp"

namespace grainlab {
namespace {

// The jobs one body at a time, with what they read in locals: in one loop with the wall search's
// call, the box and the displacement flag were reloaded and stored again at every body.
void wrapScalar(const PeriodicBox& box, Bodies& b, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) box.wrap(b.position[i], b.image[i]);
}

// The largest squared displacement as a running maximum, the images without branches
// (NearestImage's two comparisons per axis and an or-chain of tests took half the sweep's time).
double largestShiftScalar(const NearestImage& image, const Bodies& b, const std::vector<Vec3>& at_build,
                          std::size_t begin, std::size_t end) {
    double largest = 0.0;
    for (std::size_t i = begin; i < end; ++i) largest = std::max(largest, image.squaredDistance(b.position[i] - at_build[i]));
    return largest;
}

// Frozen bodies at +0.0 as a select, not a branch; component by component through local pointers
// (the weight as a Vec3 went through the stack at every body).
void startForcesScalar(Bodies& b, const Vec3& g, std::size_t begin, std::size_t end) {
    Vec3* const force = b.force.data();
    Vec3* const torque = b.torque.data();
    const double* const mass = b.mass.data();
    const std::uint8_t* const frozen = b.frozen.data();
    const double gx = g.x(), gy = g.y(), gz = g.z();
    for (std::size_t i = begin; i < end; ++i) {
        const bool still = frozen[i] != 0;
        const double m = mass[i];
        force[i].x() = still ? 0.0 : m * gx;
        force[i].y() = still ? 0.0 : m * gy;
        force[i].z() = still ? 0.0 : m * gz;
        torque[i].setZero();
    }
}

std::size_t firstRunawayScalar(const Bodies& b, double dt, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        // One comparison per body: a non-finite position or angular velocity turns the sum into NaN
        // (0 * inf is NaN too), and NaN compares false. Squared, to spare a square root.
        const double poison = 0.0 * (b.position[i].sum() + b.angular_velocity[i].sum());
        if (!(b.velocity[i].squaredNorm() * dt * dt + poison <= b.radius[i] * b.radius[i])) return i;
    }
    return end;
}

#if defined(__x86_64__) && defined(__GNUC__)
// (a b c) repeated over four bodies' twelve doubles: (a b c a), (b c a b), (c a b c).
[[gnu::target("avx2"), gnu::always_inline]] inline void perAxis(const double (&v)[3], __m256d& first, __m256d& second,
                                                               __m256d& third) {
    first = _mm256_setr_pd(v[0], v[1], v[2], v[0]);
    second = _mm256_setr_pd(v[1], v[2], v[0], v[1]);
    third = _mm256_setr_pd(v[2], v[0], v[1], v[2]);
}

// Lanes at or above `high` or below `low` (a NaN is neither, as in PeriodicBox::wrap).
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d outside(__m256d x, __m256d low, __m256d high) {
    return _mm256_or_pd(_mm256_cmp_pd(x, high, _CMP_GE_OQ), _mm256_cmp_pd(x, low, _CMP_LT_OQ));
}

// Four bodies at a time only test whether any coordinate left the box; the rare four that hold one
// are wrapped one by one.
[[gnu::target("avx2")]] void wrapAvx2(const PeriodicBox& box, Bodies& b, std::size_t begin, std::size_t end) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        lo[k] = box.periodic[k] ? box.min[k] : -std::numeric_limits<double>::infinity();
        hi[k] = box.periodic[k] ? box.min[k] + box.length[k] : std::numeric_limits<double>::infinity();
    }
    __m256d lo0, lo1, lo2, hi0, hi1, hi2;
    perAxis(lo, lo0, lo1, lo2);
    perAxis(hi, hi0, hi1, hi2);
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
        const double* const x = b.position[i].data();
        const __m256d out = _mm256_or_pd(_mm256_or_pd(outside(_mm256_loadu_pd(x), lo0, hi0),
                                                      outside(_mm256_loadu_pd(x + 4), lo1, hi1)),
                                         outside(_mm256_loadu_pd(x + 8), lo2, hi2));
        if (_mm256_movemask_pd(out) != 0) wrapScalar(box, b, i, i + 4);
    }
    wrapScalar(box, b, i, end);
}

[[gnu::target("avx2")]] double largestShiftAvx2(const NearestImage& image, const Bodies& b,
                                                const std::vector<Vec3>& at_build, std::size_t begin, std::size_t end) {
    const double* const now = reinterpret_cast<const double*>(b.position.data());
    const double* const then = reinterpret_cast<const double*>(at_build.data());
    __m256d largest = _mm256_setzero_pd();
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
        __m256d x, y, z, x0, y0, z0;
        avx2::fourVec3(now + 3 * i, x, y, z);
        avx2::fourVec3(then + 3 * i, x0, y0, z0);
        const __m256d shift = avx2::squaredDistance(_mm256_sub_pd(x, x0), _mm256_sub_pd(y, y0), _mm256_sub_pd(z, z0),
                                                    image.period);
        largest = _mm256_max_pd(shift, largest);  // a NaN shift leaves the maximum as it was, as std::max
    }
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, largest);
    const double rest = largestShiftScalar(image, b, at_build, i, end);
    return std::max({lanes[0], lanes[1], lanes[2], lanes[3], rest});
}

[[gnu::target("avx2")]] void startForcesAvx2(Bodies& b, const Vec3& g, std::size_t begin, std::size_t end) {
    const double weight[3] = {g.x(), g.y(), g.z()};
    __m256d g0, g1, g2;
    perAxis(weight, g0, g1, g2);
    const __m256d zero = _mm256_setzero_pd();
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
        std::uint32_t frozen;
        std::memcpy(&frozen, b.frozen.data() + i, sizeof frozen);
        if (frozen != 0) {
            startForcesScalar(b, g, i, i + 4);
            continue;
        }
        __m256d m0, m1, m2;
        avx2::perBody(_mm256_loadu_pd(b.mass.data() + i), m0, m1, m2);
        double* const f = b.force[i].data();
        _mm256_storeu_pd(f, _mm256_mul_pd(m0, g0));
        _mm256_storeu_pd(f + 4, _mm256_mul_pd(m1, g1));
        _mm256_storeu_pd(f + 8, _mm256_mul_pd(m2, g2));
        double* const t = b.torque[i].data();
        _mm256_storeu_pd(t, zero);
        _mm256_storeu_pd(t + 4, zero);
        _mm256_storeu_pd(t + 8, zero);
    }
    startForcesScalar(b, g, i, end);
}

[[gnu::target("avx2")]] std::size_t firstRunawayAvx2(const Bodies& b, double dt, std::size_t begin, std::size_t end) {
    const __m256d step = _mm256_set1_pd(dt), nothing = _mm256_setzero_pd();
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
        __m256d x, y, z, wx, wy, wz, vx, vy, vz;
        avx2::fourVec3(reinterpret_cast<const double*>(b.position.data()) + 3 * i, x, y, z);
        avx2::fourVec3(reinterpret_cast<const double*>(b.angular_velocity.data()) + 3 * i, wx, wy, wz);
        avx2::fourVec3(reinterpret_cast<const double*>(b.velocity.data()) + 3 * i, vx, vy, vz);
        const __m256d sums = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(x, y), z), _mm256_add_pd(_mm256_add_pd(wx, wy), wz));
        const __m256d poison = _mm256_mul_pd(nothing, sums);
        const __m256d speed = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(vx, vx), _mm256_mul_pd(vy, vy)), _mm256_mul_pd(vz, vz));
        const __m256d travel = _mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(speed, step), step), poison);
        const __m256d r = _mm256_loadu_pd(b.radius.data() + i);
        if (_mm256_movemask_pd(_mm256_cmp_pd(travel, _mm256_mul_pd(r, r), _CMP_LE_OQ)) != 0xf) {
            const std::size_t first = firstRunawayScalar(b, dt, i, i + 4);
            if (first < i + 4) return first;
        }
    }
    return firstRunawayScalar(b, dt, i, end);
}
#endif

}  // namespace

void wrapInto(const PeriodicBox& shared_box, Bodies& b, std::size_t begin, std::size_t end, [[maybe_unused]] bool avx2) {
    const PeriodicBox box = shared_box;  // a copy, which the position stores cannot change
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) return wrapAvx2(box, b, begin, end);
#endif
    wrapScalar(box, b, begin, end);
}

bool movedFar(const NearestImage& image, const Bodies& b, const std::vector<Vec3>& at_build, double limit,
              std::size_t begin, std::size_t end, [[maybe_unused]] bool avx2) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) return largestShiftAvx2(image, b, at_build, begin, end) > limit;
#endif
    return largestShiftScalar(image, b, at_build, begin, end) > limit;
}

void startForces(Bodies& b, const Vec3& g, std::size_t begin, std::size_t end, [[maybe_unused]] bool avx2) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) return startForcesAvx2(b, g, begin, end);
#endif
    startForcesScalar(b, g, begin, end);
}

std::size_t firstRunaway(const Bodies& b, double dt, std::size_t begin, std::size_t end, [[maybe_unused]] bool avx2) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) return firstRunawayAvx2(b, dt, begin, end);
#endif
    return firstRunawayScalar(b, dt, begin, end);
}

}  // namespace grainlab
