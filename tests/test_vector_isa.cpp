// The contact loops compiled for AVX2 and for the baseline x86-64 must move grains identically.
//
// Both compute every contact with the same operations in the same order (four lanes at a time
// against two, and no fused multiply-add), so the motion must agree bit for bit: a difference
// would mean a law's vector code computes a different force from the one the physics tests check
// (the chute against LAMMPS, the Hertz impacts), which on this machine run the AVX2 loops.
#include <cstdlib>
#include <random>

#include <catch2/catch.hpp>

#include "grainlab/core/vector_isa.hpp"
#include "grainlab/io/scene_file.hpp"
#include "restart_scene.hpp"
#include "support.hpp"

using namespace grainlab;

namespace {

// One step with the baseline loops forced (the switch is read at every force evaluation and pass).
void baselineStep(Simulation& sim, bool another_follows = false) {
    setenv("GRAINLAB_VECTOR_ISA", "baseline", 1);
    sim.step(another_follows);
    unsetenv("GRAINLAB_VECTOR_ISA");
}

}  // namespace

TEST_CASE("AVX2 and baseline contact loops give the same motion", "[engine][vector]") {
    if (contactLoopIsa() != VectorIsa::Avx2) {
        WARN("this processor has no AVX2: only the baseline contact loops exist here");
        return;
    }
    // Spheres thrown into a rotating drum: grain and wall contacts that stick, slide and roll
    // (Hertz-Mindlin with rolling resistance), then the same with Hooke.
    for (const std::string model : {"hertz-mindlin", "hooke"}) {
        CAPTURE(model);
        const Scene scene = parseScene(test::restartSceneJson("velocity-verlet", model, 2), "drum.json", GRAINLAB_SOURCE_DIR);
        Simulation vector(scene, test::builtPlugins());
        Simulation baseline(scene, test::builtPlugins());
        std::size_t most_contacts = 0;
        for (int k = 0; k < 600; ++k) {
            vector.step();
            baselineStep(baseline);
            most_contacts = std::max(most_contacts, vector.energy().contacts);
        }
        const Bodies& a = vector.bodies();
        const Bodies& b = baseline.bodies();
        for (std::size_t i = 0; i < a.size(); ++i) {
            REQUIRE(a.position[i] == b.position[i]);
            REQUIRE(a.velocity[i] == b.velocity[i]);
            REQUIRE(a.angular_velocity[i] == b.angular_velocity[i]);
        }
        CHECK(vector.energy().dissipated == baseline.energy().dissipated);
        // The comparison means something only if the grains touched each other and the drum.
        CHECK(most_contacts > 50);
        CHECK(vector.energy().dissipated > 0.0);
    }
}

TEST_CASE("AVX2 and baseline passes over the bodies give the same motion in a periodic box", "[engine][vector]") {
    if (contactLoopIsa() != VectorIsa::Avx2) {
        WARN("this processor has no AVX2: only the baseline passes exist here");
        return;
    }
    // Spheres of mixed sizes blown through a box periodic in x and y over a frozen bottom layer, in
    // tilted gravity: the passes' vector code wraps positions, checks the Verlet displacement,
    // starts forces at the weight (frozen bodies at zero), kicks and drifts, four bodies at a time
    // with a remainder (301 bodies).
    Scene scene = test::emptyScene("hooke");
    scene.domain.min = Vec3(0.0, 0.0, 0.0);
    scene.domain.max = Vec3(8.0, 6.0, 40.0);
    scene.domain.periodic = {true, true, false};
    scene.gravity = Vec3(3.0, -1.0, -9.81);
    scene.time_step = 5e-5;
    scene.skin = 0.05;
    std::mt19937 random(17);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int k = 0; k < 301; ++k) {
        // On a lattice of 1 x 1 x 0.8 with a jitter: no two overlap.
        const Vec3 x(0.5 + (k % 8) + 0.2 * unit(random), 0.5 + (k / 8 % 6) + 0.2 * unit(random), 0.5 + 0.8 * (k / 48));
        BodySpec body = test::sphere(x, Vec3(120.0 * unit(random) - 60.0, 90.0 * unit(random) - 45.0, 0.0),
                                     0.2 + 0.05 * unit(random));
        body.frozen = k < 48;
        scene.bodies.push_back(body);
    }
    Simulation vector(scene, test::builtPlugins());
    Simulation baseline(scene, test::builtPlugins());
    for (int k = 0; k < 600; ++k) {
        vector.step(k + 1 < 600);
        baselineStep(baseline, k + 1 < 600);
    }
    vector.settle();
    baseline.settle();
    const Bodies& a = vector.bodies();
    const Bodies& b = baseline.bodies();
    int crossings = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        REQUIRE(a.position[i] == b.position[i]);
        REQUIRE(a.velocity[i] == b.velocity[i]);
        REQUIRE(a.image[i] == b.image[i]);
        crossings += std::abs(a.image[i][0]) + std::abs(a.image[i][1]);
    }
    CHECK(vector.energy().dissipated == baseline.energy().dissipated);
    // The displacement checks agreed step by step: the lists were rebuilt as often.
    CHECK(vector.state().pairs.builds == baseline.state().pairs.builds);
    // The comparison means something only if bodies crossed the box and met, and lists were rebuilt.
    CHECK(crossings > 20);
    CHECK(vector.state().pairs.builds > 5);
    CHECK(vector.energy().dissipated > 0.0);
}
