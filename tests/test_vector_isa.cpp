// The contact loops compiled for AVX2 and for the baseline x86-64 must move grains identically.
//
// Both compute every contact with the same operations in the same order (four lanes at a time
// against two, and no fused multiply-add), so the motion must agree bit for bit: a difference
// would mean a law's vector code computes a different force from the one the physics tests check
// (the chute against LAMMPS, the Hertz impacts), which on this machine run the AVX2 loops.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "grainlab/core/vector_isa.hpp"
#include "grainlab/io/scene_file.hpp"
#include "restart_scene.hpp"
#include "support.hpp"

using namespace grainlab;

namespace {

// One step with the baseline loops forced (the switch is read at every force evaluation).
void baselineStep(Simulation& sim) {
    setenv("GRAINLAB_VECTOR_ISA", "baseline", 1);
    sim.step();
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
