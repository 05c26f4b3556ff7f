// The part of a step during which a contact touches, over which the variational integrator applies the
// dashpots: analytic intersections of a straight path with a sphere (pairs) and a half-space (walls).
#include <catch2/catch.hpp>
#include <cmath>

#include "../plugins/variational/contact_terms.hpp"

using namespace grainlab;
using namespace grainlab::variational;

namespace {

ContactTerm pair(const Vec3& offset) {
    ContactTerm c;
    c.radius_a = c.radius_b = 0.5;
    c.offset = offset;
    return c;
}

ContactTerm wall(double height) {
    ContactTerm c;
    c.wall = true;
    c.radius_a = 0.5;
    c.normal = Vec3::UnitZ();
    c.offset = Vec3(0.3, -0.2, height);  // centre less the wall point
    return c;
}

}  // namespace

TEST_CASE("Variational touching part of a step: straight path against sphere and plane", "[variational]") {
    SECTION("pair closing head-on touches from the crossing of the contact distance on") {
        // |1.01 - 0.04 s| < 1 for s > 0.25
        const ActiveInterval part = pairActiveInterval(pair(Vec3(1.01, 0, 0)), Vec3(-0.04, 0, 0));
        CHECK(part.start == Approx(0.25));
        CHECK(part.length == Approx(0.75));
        CHECK(part.at(0.5) == Approx(0.625));
    }
    SECTION("pair separating touches until it crosses the contact distance") {
        const ActiveInterval part = pairActiveInterval(pair(Vec3(0, 0.99, 0)), Vec3(0, 0.04, 0));
        CHECK(part.start == 0.0);
        CHECK(part.length == Approx(0.25));
    }
    SECTION("pair passing through within one step touches between the two roots") {
        // A grazing pass at height 0.8 from x = -1 to x = 1: |(2 s - 1, 0.8)| < 1 for 0.2 < s < 0.8.
        const ActiveInterval part = pairActiveInterval(pair(Vec3(-1.0, 0.8, 0)), Vec3(2.0, 0, 0));
        CHECK(part.start == Approx(0.2));
        CHECK(part.length == Approx(0.6));
    }
    SECTION("pair that stays apart or stays in contact") {
        CHECK(pairActiveInterval(pair(Vec3(1.2, 0, 0)), Vec3(-0.1, 0, 0)).length == 0.0);
        CHECK(pairActiveInterval(pair(Vec3(-1.0, 1.1, 0)), Vec3(2.0, 0, 0)).length == 0.0);  // misses
        const ActiveInterval inside = pairActiveInterval(pair(Vec3(0.99, 0, 0)), Vec3(0.005, 0.001, 0));
        CHECK(inside.start == 0.0);
        CHECK(inside.length == 1.0);
        CHECK(pairActiveInterval(pair(Vec3(0.99, 0, 0)), Vec3::Zero()).length == 1.0);
        CHECK(pairActiveInterval(pair(Vec3(1.01, 0, 0)), Vec3::Zero()).length == 0.0);
    }
    SECTION("wall: the overlap is linear along the path") {
        // Centre height 0.51 falling by 0.04: overlap 0.5 - (0.51 - 0.04 s) > 0 for s > 0.25.
        const ActiveInterval landing = wallActiveInterval(wall(0.51), Vec3(0.01, 0, -0.04));
        CHECK(landing.start == Approx(0.25));
        CHECK(landing.length == Approx(0.75));
        const ActiveInterval leaving = wallActiveInterval(wall(0.49), Vec3(0, 0, 0.04));
        CHECK(leaving.start == 0.0);
        CHECK(leaving.length == Approx(0.25));
        CHECK(wallActiveInterval(wall(0.49), Vec3(0.1, 0, 0)).length == 1.0);  // sliding along it
        CHECK(wallActiveInterval(wall(0.6), Vec3(0, 0, -0.05)).length == 0.0);
    }
}
