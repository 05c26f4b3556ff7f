#pragma once
// Velocity and position updates shared by the explicit integrators.
#include "grainlab/core/avx2_lanes.hpp"
#include "grainlab/core/vector_isa.hpp"
#include "grainlab/plugin/integrator.hpp"

namespace grainlab {

// The arrays a kick and a drift touch, in locals: through `Bodies&` every store to a vector's
// element could have changed the vectors themselves, so each body reloaded their data pointers.
struct KickArrays {
    Vec3* velocity;
    Vec3* angular_velocity;
    Vec3* position;
    const Vec3* force;
    const Vec3* torque;
    const double* inv_mass;
    const Vec3* inv_inertia;
    const double* isotropic_inv_inertia;  // null where the bodies lack it
    const Quat* orientation;
    explicit KickArrays(Bodies& b)
        : velocity(b.velocity.data()), angular_velocity(b.angular_velocity.data()), position(b.position.data()),
          force(b.force.data()), torque(b.torque.data()), inv_mass(b.inv_mass.data()),
          inv_inertia(b.inv_inertia.data()),
          isotropic_inv_inertia(b.isotropic_inv_inertia.size() == b.inv_inertia.size() ? b.isotropic_inv_inertia.data()
                                                                                      : nullptr),
          orientation(b.orientation.data()) {}
};

// v += h F/m and w += h I^-1 T (world frame; isotropic bodies skip the rotation into the body frame).
[[gnu::always_inline]] inline void kickBody(const KickArrays& a, std::size_t i, double h) {
    a.velocity[i] += h * a.inv_mass[i] * a.force[i];
    // NaN (the moments differ): rotated into the body frame and back.
    const double isotropic =
        a.isotropic_inv_inertia ? a.isotropic_inv_inertia[i] : Bodies::isotropicValue(a.inv_inertia[i]);
    if (isotropic == isotropic) {
        a.angular_velocity[i] += h * isotropic * a.torque[i];
    } else {
        const Quat& q = a.orientation[i];
        a.angular_velocity[i] += h * (q * a.inv_inertia[i].cwiseProduct(q.conjugate() * a.torque[i]));
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
// to[0..11] += scale * by[0..11] for four bodies' Vec3s, `scale` a value per body (lanes 0..3).
[[gnu::target("avx2"), gnu::always_inline]] inline void kickLanes(double* to, const double* by, __m256d scale) {
    __m256d s0, s1, s2;
    avx2::perBody(scale, s0, s1, s2);
    _mm256_storeu_pd(to, _mm256_add_pd(_mm256_loadu_pd(to), _mm256_mul_pd(s0, _mm256_loadu_pd(by))));
    _mm256_storeu_pd(to + 4, _mm256_add_pd(_mm256_loadu_pd(to + 4), _mm256_mul_pd(s1, _mm256_loadu_pd(by + 4))));
    _mm256_storeu_pd(to + 8, _mm256_add_pd(_mm256_loadu_pd(to + 8), _mm256_mul_pd(s2, _mm256_loadu_pd(by + 8))));
}

// kickBody on the four bodies from i: as lanes where the four have isotropic inertia, the same
// operations in the same order lane by lane (so the same bits); one by one otherwise. One body at a
// time the kick took about 15 instructions, on two doubles at most.
[[gnu::target("avx2"), gnu::always_inline]] inline void kickFour(const KickArrays& a, std::size_t i, double h) {
    __m256d w;
    int isotropic;
    if (a.isotropic_inv_inertia) {
        // NaN marks a body whose moments differ (or whose inverse is NaN): one by one.
        w = _mm256_loadu_pd(a.isotropic_inv_inertia + i);
        isotropic = _mm256_movemask_pd(_mm256_cmp_pd(w, w, _CMP_ORD_Q));
    } else {
        const double* const inv_i = a.inv_inertia[i].data();
        w = _mm256_setr_pd(inv_i[0], inv_i[3], inv_i[6], inv_i[9]);
        __m256d w0, w1, w2;
        avx2::perBody(w, w0, w1, w2);
        // Each body's three moments equal its first (NaN equals nothing: such a body goes one by one).
        isotropic = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(inv_i), w0, _CMP_EQ_OQ)) &
                    _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(inv_i + 4), w1, _CMP_EQ_OQ)) &
                    _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(inv_i + 8), w2, _CMP_EQ_OQ));
    }
    if (isotropic != 0xf) {
        for (std::size_t k = i; k < i + 4; ++k) kickBody(a, k, h);
        return;
    }
    const __m256d step = _mm256_set1_pd(h);
    kickLanes(a.velocity[i].data(), a.force[i].data(), _mm256_mul_pd(step, _mm256_loadu_pd(a.inv_mass + i)));
    kickLanes(a.angular_velocity[i].data(), a.torque[i].data(), _mm256_mul_pd(step, w));
}

// x += h v for the four bodies from i (twelve doubles), as the scalar loop rounds it.
[[gnu::target("avx2"), gnu::always_inline]] inline void driftFour(const KickArrays& a, std::size_t i, double h) {
    double* const x = a.position[i].data();
    const double* const v = a.velocity[i].data();
    const __m256d step = _mm256_set1_pd(h);
    for (int k = 0; k < 12; k += 4)
        _mm256_storeu_pd(x + k, _mm256_add_pd(_mm256_loadu_pd(x + k), _mm256_mul_pd(step, _mm256_loadu_pd(v + k))));
}

// kickBody on [begin, end), four bodies at a time.
[[gnu::target("avx2")]] inline void kickAvx2(const KickArrays& a, std::size_t begin, std::size_t end, double h) {
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) kickFour(a, i, h);
    for (; i < end; ++i) kickBody(a, i, h);
}

// x += h v on [begin, end), four bodies at a time.
[[gnu::target("avx2")]] inline void driftAvx2(const KickArrays& a, std::size_t begin, std::size_t end, double h) {
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) driftFour(a, i, h);
    for (; i < end; ++i) a.position[i] += h * a.velocity[i];
}
#endif

// kickBody on [begin, end), with AVX2 where asked.
inline void kickRange(const KickArrays& a, std::size_t begin, std::size_t end, double h, [[maybe_unused]] bool avx2) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) return kickAvx2(a, begin, end, h);
#endif
    for (std::size_t i = begin; i < end; ++i) kickBody(a, i, h);
}

// x += h v on [begin, end), with AVX2 where asked.
inline void driftRange(const KickArrays& a, std::size_t begin, std::size_t end, double h, [[maybe_unused]] bool avx2) {
#if defined(__x86_64__) && defined(__GNUC__)
    if (avx2) return driftAvx2(a, begin, end, h);
#endif
    for (std::size_t i = begin; i < end; ++i) a.position[i] += h * a.velocity[i];
}

// A kick by `kick` and, where `moves`, a drift by `drift` (x += drift v, the orientation turned by
// w drift unless the body keeps it) on a block of bodies: a loop each, over the block still in the
// cache (turnBody reads the shapes through `Bodies&`). A named type rather than a lambda, so that
// the engine can recognise it in a BodyRangeUpdate (std::function::target) and, from 100,000
// bodies, run it in one loop with its passes' own jobs (Simulation::sweepBodies): there the arrays
// come from memory, and one loop streams them faster (docs/performance.md). Any other update runs
// as given. The engine reads these fields: they are part of the plugin interface (abi.h).
struct KickDrift {
    Bodies* bodies = nullptr;
    double kick = 0.0;
    double drift = 0.0;
    bool moves = false;
    bool avx2 = false;

    void operator()(std::size_t begin, std::size_t end) const {
        const KickArrays a(*bodies);
        kickRange(a, begin, end, kick, avx2);
        if (!moves) return;
        driftRange(a, begin, end, drift, avx2);
        for (std::size_t i = begin; i < end; ++i) turnBody(*bodies, i, bodies->angular_velocity[i], drift);
    }
};

// Kicks of a range of bodies by h, for StepContext::compute_forces_around.
inline BodyRangeUpdate kicks(Bodies& b, double h) {
    return KickDrift{&b, h, 0.0, false, contactLoopIsa() == VectorIsa::Avx2};
}

// A kick by h_kick then a drift by h_drift.
inline BodyRangeUpdate kickDrifts(Bodies& b, double h_kick, double h_drift) {
    return KickDrift{&b, h_kick, h_drift, true, contactLoopIsa() == VectorIsa::Avx2};
}

}  // namespace grainlab
