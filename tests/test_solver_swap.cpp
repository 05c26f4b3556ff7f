// Switching between soft contacts and contact dynamics during a run (the window's Solver menu).
#include <catch2/catch.hpp>

#include "grainlab/core/error.hpp"
#include "support.hpp"

using namespace grainlab;
using namespace grainlab::test;

namespace {

Scene droppedSphere() {
    Scene scene = emptyScene("hooke");
    scene.contact_model.parameters = {{"kn", 1e5}, {"gamma_n", 0.0}};
    scene.gravity = Vec3(0, 0, -9.81);
    scene.domain.min = Vec3::Constant(-10.0);
    scene.domain.max = Vec3::Constant(10.0);
    scene.bodies.push_back(sphere(Vec3(0, 0, 5), Vec3::Zero()));
    scene.time_step = 1e-4;
    return scene;
}

}  // namespace

// Free fall (analytic): v = g t whichever scheme each step uses, so switching keeps it exact.
TEST_CASE("free fall stays exact across solver switches", "[solver-swap]") {
    Simulation simulation(droppedSphere(), builtPlugins());
    for (int k = 0; k < 50; ++k) simulation.step();
    simulation.setSolver(PluginChoice{"ccp-pgs", {}});
    REQUIRE(simulation.usesSolver());
    REQUIRE(simulation.scene().solver->name == "ccp-pgs");
    for (int k = 0; k < 50; ++k) simulation.step();
    simulation.setSolver(std::nullopt);
    REQUIRE_FALSE(simulation.usesSolver());
    for (int k = 0; k < 50; ++k) simulation.step();
    CHECK(simulation.bodies().velocity[0].z() == Approx(-9.81 * 150 * 1e-4).epsilon(1e-12));
}

TEST_CASE("leaving contact dynamics is refused when the step is too large for the contact model", "[solver-swap]") {
    Scene scene = droppedSphere();
    scene.time_step = 1e-2;  // far above hooke's t_c / 10 for kn = 1e5 and m = 0.52
    scene.solver = PluginChoice{"ccp-apgd", {}};
    Simulation simulation(scene, builtPlugins());
    simulation.step();
    try {
        simulation.setSolver(std::nullopt);
        FAIL("soft contacts were accepted with an unstable step");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("/plugins/solver") && Catch::Contains("time step"));
    }
    CHECK(simulation.usesSolver());
    simulation.step();  // still contact dynamics
}
