#pragma once
// The sweep's jobs on a block of bodies (Simulation::sweepBodies, finishForces): each a loop of its
// own over data the block keeps in the cache. Where `avx2` is set (contactLoopIsa), four bodies at
// a time with the same operations in the same order lane by lane, so the same bits; one body at a
// time they took 40-60 instructions a body, a quarter of a one-thread run of the chute.
#include <cstddef>
#include <vector>

#include "grainlab/core/math.hpp"
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

}  // namespace grainlab
