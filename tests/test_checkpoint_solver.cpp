// Checkpoints of contact-dynamics runs: the solver's warm start is part of the state, so a restart
// repeats the uninterrupted run bit for bit (an iterative solver started cold ends elsewhere).

#include <catch2/catch.hpp>
#include <filesystem>

#include "grainlab/io/checkpoint.hpp"
#include "support.hpp"
#include "temp_dir.hpp"

using namespace grainlab;
using namespace grainlab::test;

namespace {

// A 4 x 4 x 3 stack of spheres resting on a floor, settled by projected Gauss-Seidel with few
// iterations, so the warm start decides where each solve ends.
Scene restingStack() {
    Scene scene = emptyScene("hooke");
    scene.gravity = Vec3(0, 0, -9.81);
    scene.domain.min = Vec3(-5, -5, -1);
    scene.domain.max = Vec3(5, 5, 10);
    scene.planes.push_back(PlaneWall{"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 3; ++k) scene.bodies.push_back(sphere(Vec3(1.0 * i, 1.0 * j, 0.5 + 1.0 * k), Vec3::Zero()));
    scene.solver = PluginChoice{"ccp-pgs", {{"max_iterations", 20}}};
    scene.time_step = 1e-3;
    scene.threads = 2;
    return scene;
}

}  // namespace

TEST_CASE("A contact-dynamics run restarted from a checkpoint repeats the uninterrupted run bit for bit",
          "[checkpoint][contact-dynamics]") {
    const test::TempDir dir("solver-checkpoint");
    const std::filesystem::path path = dir.path / "c.glc";
    Simulation uninterrupted(restingStack(), builtPlugins());
    for (int k = 0; k < 50; ++k) uninterrupted.step();
    REQUIRE(uninterrupted.state().contacts > 0);
    REQUIRE_FALSE(uninterrupted.contactDynamics().warmStartKeys().empty());
    writeCheckpoint(uninterrupted, path);
    for (int k = 0; k < 50; ++k) uninterrupted.step();

    Simulation restarted = Simulation::fromCheckpoint(readCheckpoint(path), builtPlugins());
    REQUIRE(restarted.usesSolver());
    for (int k = 0; k < 50; ++k) restarted.step();
    for (std::size_t i = 0; i < uninterrupted.bodies().size(); ++i) {
        CHECK(restarted.bodies().position[i] == uninterrupted.bodies().position[i]);
        CHECK(restarted.bodies().velocity[i] == uninterrupted.bodies().velocity[i]);
    }
    CHECK(restarted.solverReport().residual == uninterrupted.solverReport().residual);
}
