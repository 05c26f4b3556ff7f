// The LAMMPS chute benchmark: the same scene must give LAMMPS's energies (Debian LAMMPS,
// bench/in.chute, numbers in shared/bench/lammps-chute-thermo.txt).
#include <catch2/catch.hpp>

#include "grainlab/io/scene_file.hpp"
#include "support.hpp"

using namespace grainlab;

TEST_CASE("Chute matches LAMMPS kinetic and rotational energy", "[physics][lammps][chute]") {
    Scene scene = readSceneFile(std::string(GRAINLAB_SOURCE_DIR) + "/resources/scenes/chute/chute.json");
    scene.threads = 2;
    Simulation sim(scene, test::builtPlugins());
    REQUIRE(sim.bodies().size() == 32000);
    // Step 0: LAMMPS thermo 784139.13 and 1601.1263 (the data file's state).
    CHECK(sim.energy().kinetic == Approx(784139.13).epsilon(1e-7));
    CHECK(sim.energy().rotational == Approx(1601.1263).epsilon(1e-7));
    for (int k = 0; k < 100; ++k) sim.step();
    CHECK(sim.energy().kinetic == Approx(784292.08).epsilon(1e-5));
    CHECK(sim.energy().rotational == Approx(1571.0968).epsilon(1e-5));
    for (int k = 100; k < 2000; ++k) sim.step();
    CHECK(sim.energy().kinetic == Approx(786433.32).epsilon(1e-3));
    CHECK(sim.energy().rotational == Approx(1618.8585).epsilon(1e-3));
}

TEST_CASE("Runs with a given thread count are deterministic", "[engine][threads]") {
    // Per-thread accumulation with static ranges: the same thread count gives the same bits.
    Scene scene = readSceneFile(std::string(GRAINLAB_SOURCE_DIR) + "/resources/scenes/chute/chute.json");
    scene.threads = 2;
    Simulation a(scene, test::builtPlugins()), b(scene, test::builtPlugins());
    for (int k = 0; k < 50; ++k) {
        a.step();
        b.step();
    }
    CHECK(a.bodies().position == b.bodies().position);
    CHECK(a.bodies().angular_velocity == b.bodies().angular_velocity);
    // One thread differs from two only by the order of additions (round-off).
    scene.threads = 1;
    Simulation c(scene, test::builtPlugins());
    for (int k = 0; k < 50; ++k) c.step();
    double worst = 0.0;
    for (std::size_t i = 0; i < c.bodies().size(); ++i)
        worst = std::max(worst, (c.bodies().velocity[i] - a.bodies().velocity[i]).norm());
    CHECK(worst < 1e-8);
}
