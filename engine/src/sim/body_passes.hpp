#pragma once
// The sweep's jobs on a block of bodies (Simulation::sweepBodies, finishForces): each a loop of its
// own over data the block keeps in the cache. Where `avx2` is set (contactLoopIsa), four bodies at
// a time with the same operations in the same order lane by lane, so the same bits; one body at a
// time they took 40-60 instructions a body, a quarter of a one-thread run of the chute.
#include <cstddef>
#include <vector>

#include "grainlab/core/math.hpp"
#include "grainlab/plugin/kicks.hpp"
#include "grainlab/sim/periodic_box.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

// Positions of [begin, end) wrapped into the periodic box, the crossings counted in the images.
void wrapInto(const PeriodicBox& box, Bodies& b, std::size_t begin, std::size_t end, bool avx2);

// Whether a body of [begin, end) moved more than sqrt(limit) from `at_build` (nearest image).
bool movedFar(const NearestImage& image, const Bodies& b, const std::vector<Vec3>& at_build, double limit,
              std::size_t begin, std::size_t end, bool avx2);

// Forces of [begin, end) started at the weight m g (frozen bodies at +0.0), torques at zero.
void startForces(Bodies& b, const Vec3& g, std::size_t begin, std::size_t end, bool avx2);

// The first body of [begin, end) that moved more than its radius in a step of dt or holds a
// non-finite position, velocity or angular velocity; `end` when none did.
std::size_t firstRunaway(const Bodies& b, double dt, std::size_t begin, std::size_t end, bool avx2);

// The loops that run an integrator's kicks (kicks.hpp) together with the sweep's own jobs, body by
// body, with the same bits as the separate loops. Where the arrays come from memory one loop streams
// them faster: one thread at 1,024,000 spheres, the sweep 1.55-1.87 s of 100 steps against
// 2.00-2.17 with a loop each (docs/performance.md).

// `kick` (a kick without a drift) on [begin, end), then firstRunaway over [begin, check_below) of it;
// `end` when no body below check_below is a runaway.
std::size_t kickAndFindRunaway(const KickDrift& kick, double dt, std::size_t begin, std::size_t end, std::size_t check_below,
                               bool avx2);

// `move` (a kick and a drift) on [begin, end), then wrapInto, movedFar against `at_build` (none
// when null: false) and startForces.
bool kickDriftAndStart(const KickDrift& move, const PeriodicBox& box, const NearestImage& image,
                       const std::vector<Vec3>* at_build, double limit, const Vec3& g, std::size_t begin, std::size_t end,
                       bool avx2);

}  // namespace grainlab
