#pragma once
// The sweep's jobs on a block of bodies (Simulation::sweepBodies, finishForces): each a loop of its
// own over data the block keeps in the cache. Where `avx2` is set (contactLoopIsa), four bodies at
// a time with the same operations in the same order lane by lane, so the same bits; one body at a
// time they took 40-60 instructions a body, a quarter of a one-thread run of the chute.
#include <cmath>
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

// How far a drift x += h v can have moved a block's bodies, from the block's largest squared speed
// and largest coordinate magnitude: |h| |v| with room for rounding (the product's and the sum's,
// the wrap's, of the order of the coordinates' last bits). `surelyWithin` is true only where a body
// that had moved at most `moved_before` since the build (nearest image) and then this drift is
// certainly within sqrt(limit) of its place at the build, with room for the Verlet check's own
// rounding: where it holds, movedFar on the block would return false.
struct DriftReach {
    double reach;
    double coordinate;
    DriftReach(double h, double speed2, double largest_coordinate)
        : reach(std::abs(h) * std::sqrt(speed2) * (1.0 + 1e-12) + 1e-15 * largest_coordinate),
          coordinate(largest_coordinate) {}
    bool surelyWithin(double moved_before, double limit) const {
        return (moved_before + reach) * (1.0 + 1e-9) + 4e-15 * coordinate < std::sqrt(limit);
    }
};

// `move` (a kick and a drift) on [begin, end), then wrapInto, movedFar against `at_build` (none
// when null: false) and startForces. `moved_before` bounds how far any body had moved since the
// build before this drift (infinity when not known): movedFar runs only where DriftReach cannot
// settle it. `reach` is set to the block's DriftReach::reach. `none_turn`: every body keeps its
// orientation (Bodies::everyShapeKeepsOrientation), so the drift skips the orientations.
bool kickDriftAndStart(const KickDrift& move, const PeriodicBox& box, const NearestImage& image,
                       const std::vector<Vec3>* at_build, double limit, double moved_before, const Vec3& g,
                       std::size_t begin, std::size_t end, bool avx2, double& reach, bool none_turn = false);

}  // namespace grainlab
