#include "body_passes.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "grainlab/core/avx2_lanes.hpp"
#include "grainlab/plugin/kicks.hpp"

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

// The largest squared speed and the largest coordinate's magnitude on [begin, end), for the drift's
// reach (DriftReach). A NaN leaves both as they were, as the Verlet check's maximum leaves it.
void driftExtentScalar(const Bodies& b, std::size_t begin, std::size_t end, double& speed2, double& coordinate) {
    for (std::size_t i = begin; i < end; ++i) {
        speed2 = std::max(b.velocity[i].squaredNorm(), speed2);
        coordinate = std::max(b.position[i].cwiseAbs().maxCoeff(), coordinate);
    }
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

// The jobs on the four bodies from i, each used by its loop over a block below and by the fused
// loops that run several of them body by body.

// The box's faces per axis over four bodies' coordinates; infinitely far along an axis that is not
// periodic.
struct BoxLanes {
    __m256d lo0, lo1, lo2, hi0, hi1, hi2;
    [[gnu::target("avx2")]] explicit BoxLanes(const PeriodicBox& box) {
        double lo[3], hi[3];
        for (int k = 0; k < 3; ++k) {
            lo[k] = box.periodic[k] ? box.min[k] : -std::numeric_limits<double>::infinity();
            hi[k] = box.periodic[k] ? box.min[k] + box.length[k] : std::numeric_limits<double>::infinity();
        }
        perAxis(lo, lo0, lo1, lo2);
        perAxis(hi, hi0, hi1, hi2);
    }
};

// Only tests whether any coordinate left the box; the rare four that hold one are wrapped one by one.
[[gnu::target("avx2"), gnu::always_inline]] inline void wrapFour(const PeriodicBox& box, const BoxLanes& faces, Bodies& b,
                                                                std::size_t i) {
    const double* const x = b.position[i].data();
    const __m256d out = _mm256_or_pd(_mm256_or_pd(outside(_mm256_loadu_pd(x), faces.lo0, faces.hi0),
                                                  outside(_mm256_loadu_pd(x + 4), faces.lo1, faces.hi1)),
                                     outside(_mm256_loadu_pd(x + 8), faces.lo2, faces.hi2));
    if (_mm256_movemask_pd(out) != 0) wrapScalar(box, b, i, i + 4);
}

// The four bodies' squared displacements since the build (nearest image).
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d shiftFour(const NearestImage& image, const Bodies& b,
                                                                    const std::vector<Vec3>& at_build, std::size_t i) {
    __m256d x, y, z, x0, y0, z0;
    avx2::fourVec3(b.position[i].data(), x, y, z);
    avx2::fourVec3(at_build[i].data(), x0, y0, z0);
    return avx2::squaredDistance(_mm256_sub_pd(x, x0), _mm256_sub_pd(y, y0), _mm256_sub_pd(z, z0), image.period);
}

// The weight per axis over four bodies' coordinates.
struct WeightLanes {
    __m256d g0, g1, g2;
    [[gnu::target("avx2")]] explicit WeightLanes(const Vec3& g) {
        const double weight[3] = {g.x(), g.y(), g.z()};
        perAxis(weight, g0, g1, g2);
    }
};

[[gnu::target("avx2"), gnu::always_inline]] inline void startFour(Bodies& b, const Vec3& g, const WeightLanes& weight,
                                                                 std::size_t i) {
    std::uint32_t frozen;
    std::memcpy(&frozen, b.frozen.data() + i, sizeof frozen);
    if (frozen != 0) {
        startForcesScalar(b, g, i, i + 4);
        return;
    }
    __m256d m0, m1, m2;
    avx2::perBody(_mm256_loadu_pd(b.mass.data() + i), m0, m1, m2);
    double* const f = b.force[i].data();
    _mm256_storeu_pd(f, _mm256_mul_pd(m0, weight.g0));
    _mm256_storeu_pd(f + 4, _mm256_mul_pd(m1, weight.g1));
    _mm256_storeu_pd(f + 8, _mm256_mul_pd(m2, weight.g2));
    const __m256d zero = _mm256_setzero_pd();
    double* const t = b.torque[i].data();
    _mm256_storeu_pd(t, zero);
    _mm256_storeu_pd(t + 4, zero);
    _mm256_storeu_pd(t + 8, zero);
}

// True when none of the four is a runaway (firstRunawayScalar's test, lane by lane).
[[gnu::target("avx2"), gnu::always_inline]] inline bool steadyFour(const Bodies& b, double dt, std::size_t i) {
    const __m256d step = _mm256_set1_pd(dt), nothing = _mm256_setzero_pd();
    __m256d x, y, z, wx, wy, wz, vx, vy, vz;
    avx2::fourVec3(b.position[i].data(), x, y, z);
    avx2::fourVec3(b.angular_velocity[i].data(), wx, wy, wz);
    avx2::fourVec3(b.velocity[i].data(), vx, vy, vz);
    const __m256d sums = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(x, y), z), _mm256_add_pd(_mm256_add_pd(wx, wy), wz));
    const __m256d poison = _mm256_mul_pd(nothing, sums);
    const __m256d speed = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(vx, vx), _mm256_mul_pd(vy, vy)), _mm256_mul_pd(vz, vz));
    const __m256d travel = _mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(speed, step), step), poison);
    const __m256d r = _mm256_loadu_pd(b.radius.data() + i);
    return _mm256_movemask_pd(_mm256_cmp_pd(travel, _mm256_mul_pd(r, r), _CMP_LE_OQ)) == 0xf;
}

// The largest of the four lanes and `rest` (a NaN lane leaves the maximum as it was, as std::max).
[[gnu::target("avx2"), gnu::always_inline]] inline double largestOf(__m256d lanes_max, double rest) {
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, lanes_max);
    return std::max({lanes[0], lanes[1], lanes[2], lanes[3], rest});
}

// The four bodies' squared speeds.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d speedSquaredFour(const Bodies& b, std::size_t i) {
    __m256d vx, vy, vz;
    avx2::fourVec3(b.velocity[i].data(), vx, vy, vz);
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(vx, vx), _mm256_mul_pd(vy, vy)), _mm256_mul_pd(vz, vz));
}

// The largest magnitude among the four bodies' twelve coordinates, in some lane.
[[gnu::target("avx2"), gnu::always_inline]] inline __m256d extentFour(const Bodies& b, std::size_t i) {
    const double* const x = b.position[i].data();
    const __m256d sign = _mm256_set1_pd(-0.0);
    const __m256d a = _mm256_andnot_pd(sign, _mm256_loadu_pd(x));
    const __m256d c = _mm256_andnot_pd(sign, _mm256_loadu_pd(x + 4));
    const __m256d d = _mm256_andnot_pd(sign, _mm256_loadu_pd(x + 8));
    return _mm256_max_pd(_mm256_max_pd(a, c), d);
}

[[gnu::target("avx2")]] void wrapAvx2(const PeriodicBox& box, Bodies& b, std::size_t begin, std::size_t end) {
    const BoxLanes faces(box);
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) wrapFour(box, faces, b, i);
    wrapScalar(box, b, i, end);
}

[[gnu::target("avx2")]] double largestShiftAvx2(const NearestImage& image, const Bodies& b,
                                                const std::vector<Vec3>& at_build, std::size_t begin, std::size_t end) {
    __m256d largest = _mm256_setzero_pd();
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) largest = _mm256_max_pd(shiftFour(image, b, at_build, i), largest);
    return largestOf(largest, largestShiftScalar(image, b, at_build, i, end));
}

[[gnu::target("avx2")]] void startForcesAvx2(Bodies& b, const Vec3& g, std::size_t begin, std::size_t end) {
    const WeightLanes weight(g);
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) startFour(b, g, weight, i);
    startForcesScalar(b, g, i, end);
}

[[gnu::target("avx2")]] std::size_t firstRunawayAvx2(const Bodies& b, double dt, std::size_t begin, std::size_t end) {
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4)
        if (!steadyFour(b, dt, i)) {
            const std::size_t first = firstRunawayScalar(b, dt, i, i + 4);
            if (first < i + 4) return first;
        }
    return firstRunawayScalar(b, dt, i, end);
}

[[gnu::target("avx2")]] std::size_t kickAndFindRunawayAvx2(const KickDrift& kick, double dt, std::size_t begin,
                                                            std::size_t end, std::size_t check_below) {
    const Bodies& b = *kick.bodies;
    const KickArrays a(*kick.bodies);
    const std::size_t below = std::clamp(check_below, begin, end);
    std::size_t found = end;
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
        kickFour(a, i, kick.kick);
        if (found == end && i + 4 <= below && !steadyFour(b, dt, i)) {
            const std::size_t first = firstRunawayScalar(b, dt, i, i + 4);
            if (first < i + 4) found = first;
        }
    }
    for (std::size_t k = i; k < end; ++k) kickBody(a, k, kick.kick);
    // What the loop did not test below the limit (the four that straddle it, the block's
    // remainder), one by one.
    const std::size_t tested = begin + (std::min(below, i) - begin) / 4 * 4;
    if (found == end && tested < below) {
        const std::size_t first = firstRunawayScalar(b, dt, tested, below);
        if (first < below) found = first;
    }
    return found;
}

[[gnu::target("avx2")]] bool kickDriftAndStartAvx2(const KickDrift& move, const PeriodicBox& box, bool periodic,
                                                   const NearestImage& image, const std::vector<Vec3>* at_build,
                                                   double limit, double moved_before, const Vec3& g,
                                                   std::size_t begin, std::size_t end, double& reach, bool none_turn) {
    Bodies& b = *move.bodies;
    const KickArrays a(b);
    const BoxLanes faces(box);
    const WeightLanes weight(g);
    // (speed, NaN) keeps the speed: a NaN lane leaves the maximum as it was (largestOf).
    __m256d speed2 = _mm256_setzero_pd(), extent = _mm256_setzero_pd();
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
        kickFour(a, i, move.kick);
        speed2 = _mm256_max_pd(speedSquaredFour(b, i), speed2);
        driftFour(a, i, move.drift);
        extent = _mm256_max_pd(extentFour(b, i), extent);
        if (periodic) wrapFour(box, faces, b, i);
        startFour(b, g, weight, i);
    }
    kickRange(a, i, end, move.kick, false);
    driftRange(a, i, end, move.drift, false);
    // Before the wrap, as in the loop: the drift's rounding is that of the coordinates it made.
    double speed2_rest = 0.0, extent_rest = 0.0;
    driftExtentScalar(b, i, end, speed2_rest, extent_rest);
    if (periodic) wrapScalar(box, b, i, end);
    startForcesScalar(b, g, i, end);
    const DriftReach drift(move.drift, largestOf(speed2, speed2_rest), largestOf(extent, extent_rest));
    reach = drift.reach;
    // The displacements since the build only where the bound cannot settle it: the block is still
    // in the cache for them.
    const bool far = at_build && !drift.surelyWithin(moved_before, limit) &&
                     largestShiftAvx2(image, b, *at_build, begin, end) > limit;
    // The orientations last: nothing above reads them.
    if (!none_turn)
        for (std::size_t k = begin; k < end; ++k) turnBody(b, k, b.angular_velocity[k], move.drift);
    return far;
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

std::size_t kickAndFindRunaway(const KickDrift& kick, double dt, std::size_t begin, std::size_t end, std::size_t check_below,
                               [[maybe_unused]] bool avx2) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) return kickAndFindRunawayAvx2(kick, dt, begin, end, check_below);
#endif
    kick(begin, end);
    const std::size_t below = std::clamp(check_below, begin, end);
    const std::size_t first = firstRunawayScalar(*kick.bodies, dt, begin, below);
    return first < below ? first : end;
}

bool kickDriftAndStart(const KickDrift& move, const PeriodicBox& shared_box, const NearestImage& image,
                       const std::vector<Vec3>* at_build, double limit, double moved_before, const Vec3& g,
                       std::size_t begin, std::size_t end, [[maybe_unused]] bool avx2, double& reach, bool none_turn) {
    const PeriodicBox box = shared_box;  // a copy, which the position stores cannot change
    const bool periodic = box.periodic[0] || box.periodic[1] || box.periodic[2];
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2)
        return kickDriftAndStartAvx2(move, box, periodic, image, at_build, limit, moved_before, g, begin, end, reach,
                                     none_turn);
#endif
    Bodies& b = *move.bodies;
    move(begin, end);
    double speed2 = 0.0, coordinate = 0.0;
    driftExtentScalar(b, begin, end, speed2, coordinate);  // before the wrap
    if (periodic) wrapScalar(box, b, begin, end);
    const DriftReach drift(move.drift, speed2, coordinate);
    reach = drift.reach;
    const bool far = at_build && !drift.surelyWithin(moved_before, limit) &&
                     largestShiftScalar(image, b, *at_build, begin, end) > limit;
    startForcesScalar(b, g, begin, end);
    return far;
}

}  // namespace grainlab
