// The LAMMPS chute benchmark: the same scene must give LAMMPS's energies (Debian LAMMPS,
// bench/in.chute, numbers in shared/bench/lammps-chute-thermo.txt).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>
#include <utility>

#include "grainlab/io/scene_file.hpp"
#include "support.hpp"

using namespace grainlab;

TEST_CASE("Chute matches LAMMPS kinetic and rotational energy", "[physics][lammps][chute]") {
    Scene scene = readSceneFile(std::string(GRAINLAB_SOURCE_DIR) + "/resources/scenes/chute/chute.json");
    scene.threads = 2;
    Simulation sim(scene, test::builtPlugins());
    REQUIRE(sim.bodies().size() == 32000);
    const long builds_before = sim.state().pairs.builds;
    // Step 0: LAMMPS thermo 784139.13 and 1601.1263 (the data file's state).
    CHECK(sim.energy().kinetic == Approx(784139.13).epsilon(1e-7));
    CHECK(sim.energy().rotational == Approx(1601.1263).epsilon(1e-7));
    for (int k = 0; k < 100; ++k) sim.step();
    CHECK(sim.energy().kinetic == Approx(784292.08).epsilon(1e-5));
    CHECK(sim.energy().rotational == Approx(1571.0968).epsilon(1e-5));
    for (int k = 100; k < 2000; ++k) sim.step();
    CHECK(sim.energy().kinetic == Approx(786433.32).epsilon(1e-3));
    CHECK(sim.energy().rotational == Approx(1618.8585).epsilon(1e-3));
    // The same skin checked every step rebuilds the list as often: Debian's LAMMPS reports
    // "Neighbor list builds = 58" over the 2,000 steps (`lmp -in in.chute` as scripts/bench-chute
    // writes it). One either way allows a build whose trigger distance falls within rounding of
    // the skin.
    const long builds = sim.state().pairs.builds - builds_before;
    CHECK(builds >= 57);
    CHECK(builds <= 59);
}

TEST_CASE("One and two threads give the same run, bit for bit", "[engine][threads]") {
    // A body's force sums run in the same order whatever thread holds its pairs (its own row, later
    // rows in order, listed forces after), and the pair loop's energies are summed per block of
    // bodies, so runs agree bit for bit across thread counts and repeats, energies included. Also
    // with the first thread given nine tenths of the pair loop's work: the second then takes chunks
    // from the end of the first's range.
    const bool lopsided = GENERATE(false, true);
    CAPTURE(lopsided);
    if (lopsided) setenv("GRAINLAB_FIRST_PAIR_SHARE", "0.9", 1);
    struct Unset {
        ~Unset() { unsetenv("GRAINLAB_FIRST_PAIR_SHARE"); }
    } unset;
    Scene scene = readSceneFile(std::string(GRAINLAB_SOURCE_DIR) + "/resources/scenes/chute/chute.json");
    scene.threads = 2;
    Simulation a(scene, test::builtPlugins()), b(scene, test::builtPlugins());
    for (int k = 0; k < 50; ++k) {
        a.step();
        b.step();
    }
    CHECK(a.bodies().position == b.bodies().position);
    CHECK(a.bodies().angular_velocity == b.bodies().angular_velocity);
    scene.threads = 1;
    Simulation c(scene, test::builtPlugins());
    for (int k = 0; k < 50; ++k) c.step();
    CHECK(c.bodies().position == a.bodies().position);
    CHECK(c.bodies().velocity == a.bodies().velocity);
    CHECK(c.bodies().angular_velocity == a.bodies().angular_velocity);
    CHECK(c.energy().elastic == a.energy().elastic);
    CHECK(c.energy().dissipated == a.energy().dissipated);
    CHECK(c.energy().contacts == a.energy().contacts);
}

TEST_CASE("A drum with mesh walls runs the same bit for bit on one, two and three threads", "[engine][threads]") {
    // Each chunk of the pair loop takes its wall contacts before its pairs, as one thread's pass
    // does, so a body touching the wall and pairs of another thread's rows sums its forces in the
    // same order; a block's wall energies and pair energies are two sums whether or not its range
    // holds other blocks (900 bodies on three threads: ranges of one block of 256). The contacts'
    // records come in the same order too, also where the first thread is given nine tenths of the
    // pair loop's work and the others take chunks from the end of its range.
    Scene scene = readSceneFile(std::string(GRAINLAB_SOURCE_DIR) + "/resources/scenes/drum.json");
    struct Unset {
        ~Unset() { unsetenv("GRAINLAB_FIRST_PAIR_SHARE"); }
    } unset;
    auto run = [&](int threads, bool lopsided = false) {
        if (lopsided) setenv("GRAINLAB_FIRST_PAIR_SHARE", "0.9", 1);
        else unsetenv("GRAINLAB_FIRST_PAIR_SHARE");
        scene.threads = threads;
        auto sim = std::make_unique<Simulation>(scene, test::builtPlugins());
        for (int k = 0; k < 2999; ++k) sim->step();
        sim->setRecordContacts(true);
        sim->step();
        return sim;
    };
    const auto one = run(1);
    const Frame a = one->frame();
    REQUIRE(one->energy().contacts > 500);  // grains on the drum's wall and on each other
    for (const auto& [threads, lopsided] : {std::pair{2, false}, std::pair{3, false}, std::pair{2, true}, std::pair{3, true}}) {
        CAPTURE(threads, lopsided);
        const auto many = run(threads, lopsided);
        const Frame b = many->frame();
        CHECK(a.position == b.position);
        CHECK(a.angular_velocity == b.angular_velocity);
        CHECK(one->energy().elastic == many->energy().elastic);
        CHECK(one->energy().dissipated == many->energy().dissipated);
        REQUIRE(a.contacts.size() == b.contacts.size());
        bool walls = false;
        for (std::size_t c = 0; c < a.contacts.size(); ++c) {
            CHECK(a.contacts[c].force == b.contacts[c].force);
            walls = walls || a.contacts[c].body_b < 0;
        }
        CHECK(walls);
    }
}
