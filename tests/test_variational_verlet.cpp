// With alpha = 0 and no dashpots the variational integrator is the Stoermer-Verlet recursion.
#include <catch2/catch.hpp>
#include <cmath>

#include "variational_support.hpp"

using namespace grainlab;
using namespace grainlab::test::deklerk;
using grainlab::test::builtPlugins;
using grainlab::test::sphere;

TEST_CASE("Variational alpha = 0 without damping reproduces velocity Verlet positions", "[physics][variational]") {
    // Notes, section 3: with Q = 0 and alpha = 0 the discrete Euler-Lagrange equations are exactly
    // M (q_k+1 - 2 q_k + q_k-1)/h^2 = -grad V(q_k), the recursion velocity Verlet's positions follow. The
    // two start from the same positions when the variational momentum starts half a kick back,
    // P_0 = M v_0 - (h/2) F_0 (notes, suggested test 2). A pre-compressed pair springs apart, so the
    // contact force acts, switches off at separation and the spheres fly apart.
    const double overlap0 = 1e-3;
    const double h = kPairContactTime / 50.0;
    const double force0 = kStiffness * overlap0;  // on the right sphere, along +x; mass 1
    auto pair = [&](const std::string& integrator, double v) {
        Scene s = scene(integrator, 0.0, 0.0);
        s.bodies.push_back(sphere(Vec3(-kRadius + 0.5 * overlap0, 0, 0), Vec3(-v, 0, 0), kRadius));
        s.bodies.push_back(sphere(Vec3(kRadius - 0.5 * overlap0, 0, 0), Vec3(v, 0, 0), kRadius));
        s.time_step = h;
        return s;
    };
    Simulation implicit(pair("variational", -0.5 * h * force0), builtPlugins());
    Simulation verlet(pair("velocity-verlet", 0.0), builtPlugins());
    double worst = 0.0;
    for (int k = 0; k < 300; ++k) {
        implicit.step();
        verlet.step();
        for (std::size_t i = 0; i < 2; ++i)
            worst = std::max(worst, (implicit.bodies().position[i] - verlet.bodies().position[i]).norm());
    }
    INFO("largest position difference " << worst << "; final speed " << verlet.bodies().velocity[1].x());
    REQUIRE(verlet.bodies().velocity[1].x() > 0.1);  // the spheres did spring apart
    CHECK(worst < 1e-12);
}
