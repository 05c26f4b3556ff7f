// Bad scenes and runaway runs are refused with messages that name the file and the field or body.
#include <catch2/catch.hpp>
#include <cmath>

#include "grainlab/core/error.hpp"
#include "support.hpp"

using namespace grainlab;
using Catch::Matchers::Contains;

TEST_CASE("Overlapping initial particles: the largest overlap is reported", "[input]") {
    Scene scene = test::emptyScene();
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0), Vec3::Zero()));
    scene.bodies.push_back(test::sphere(Vec3(0.95, 0, 0), Vec3::Zero()));   // 5% of r: allowed alone
    scene.bodies.push_back(test::sphere(Vec3(0, 0.7, 0), Vec3::Zero()));    // 0.3 deep: 60% of r
    scene.bodies[2].id = 17;
    CHECK_THROWS_WITH(Simulation(scene, test::builtPlugins()),
                      Contains("test-scene") && Contains("17") && Contains("overlap by 0.3") && Contains("60%"));
}

TEST_CASE("A time step above the stability limit names the limit and how it was computed", "[input]") {
    Scene scene = test::emptyScene();
    scene.contact_model.parameters = {{"kn", 2e5}};
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0), Vec3::Zero()));
    // t_c = pi sqrt(m_eff / kn) with m_eff = m/2 for the lightest pair.
    const double tc = kPi * std::sqrt(0.5 * test::sphereMass(0.5, 1.0) / 2e5);
    scene.time_step = tc / 5.0;
    CHECK_THROWS_WITH(Simulation(scene, test::builtPlugins()),
                      Contains("/time_step") && Contains("stability limit") && Contains("pi sqrt(m_eff/kn)") &&
                          Contains("recommended"));
    scene.time_step = tc / 20.0;
    CHECK_NOTHROW(Simulation(scene, test::builtPlugins()));
}

TEST_CASE("A runaway velocity stops the run naming body and step", "[input][runaway]") {
    Scene scene = test::emptyScene();
    scene.time_step = 1e-4;
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0), Vec3(1e4, 0, 0)));  // 1 m per step: twice its radius
    scene.bodies[0].id = 42;
    Simulation sim(scene, test::builtPlugins());
    CHECK_THROWS_WITH(sim.step(), Contains("body 42") && Contains("step 1") && Contains("runaway"));
}

TEST_CASE("A non-finite velocity stops the run naming the body", "[input][runaway]") {
    Scene scene = test::emptyScene();
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0), Vec3(std::nan(""), 0, 0)));
    Simulation sim(scene, test::builtPlugins());
    CHECK_THROWS_WITH(sim.step(), Contains("body 1") && Contains("non-finite"));
}

TEST_CASE("A periodic box shorter than twice the interaction range is refused", "[input]") {
    Scene scene = test::emptyScene();
    scene.domain.min = Vec3(0, 0, 0);
    scene.domain.max = Vec3(1.5, 10, 10);
    scene.domain.periodic = {true, false, false};
    scene.bodies.push_back(test::sphere(Vec3(0.5, 5, 5), Vec3::Zero()));
    CHECK_THROWS_WITH(Simulation(scene, test::builtPlugins()), Contains("/domain") && Contains("periodic length along x"));
}
