// Example 2 of Gay Neto & Wriggers (seed 003): a pile of 10 cubes brought to rest by strong damping.
// Statics: at rest the ground reaction equals the total weight (the paper's Fig. 18).
#include <catch2/catch.hpp>

#include "polyhedra_support.hpp"

using namespace grainlab;

namespace {

// Four on the ground, two bridging them, two more, then two on top: (x, y, layer).
constexpr double kLayout[10][3] = {{-0.055, -0.055, 0}, {0.055, -0.055, 0}, {-0.055, 0.055, 0}, {0.055, 0.055, 0},
                                   {0, -0.055, 1},      {0, 0.055, 1},      {-0.06, 0, 2},     {0.06, 0, 2},
                                   {0, 0, 3},           {0.02, 0.01, 4}};

Vec3 layoutPosition(int n) { return Vec3(kLayout[n][0], kLayout[n][1], 0.06 + 0.11 * kLayout[n][2]); }

}  // namespace

TEST_CASE("Pile of 10 cubes at rest: ground reaction equals the total weight", "[polyhedra][physics]") {
    test::CubeSceneSettings settings;
    settings.damping_ratio = 1.0;
    settings.tangential_damping_ratio = 0.3;  // explicit viscous friction chatters at zeta_t = 1 with this step
    settings.mu_s = settings.mu_d = 0.5;
    settings.dt = 5e-5;
    Scene scene = test::polyhedronScene("cube.stl", settings.side, settings);
    // Each a little turned.
    for (int n = 0; n < 10; ++n) {
        const Quat q = Quat(Eigen::AngleAxisd(0.1 * (n % 3) - 0.1, Vec3::UnitZ())) *
                       Quat(Eigen::AngleAxisd(0.02 * (n % 2), Vec3::UnitX()));
        scene.bodies.push_back(test::polyhedralBody(layoutPosition(n), q));
    }
    Simulation sim(scene, test::builtPlugins());
    sim.setRecordContacts(true);
    const double weight = 10.0 * sim.bodies().mass[0] * 9.81;
    for (int k = 0; k < 10000; ++k) sim.step();
    // At rest: kinetic energy negligible against one cube lifted by 1 mm, every cube touching.
    CHECK(sim.energy().kinetic + sim.energy().rotational < 1e-4 * sim.bodies().mass[0] * 9.81 * 1e-3);
    CHECK(sim.state().contacts > 20);
    double mean = 0.0, worst = 0.0;
    const int samples = 1000;
    for (int k = 0; k < samples; ++k) {
        sim.step();
        const double r = test::wallReaction(sim).z();
        mean += r / samples;
        worst = std::max(worst, std::abs(r - weight) / weight);
    }
    CHECK(mean == Approx(weight).epsilon(0.005));
    CHECK(worst < 0.005);
    // The top cube rests on the pile, not on the ground.
    CHECK(sim.bodies().position[9].z() > 0.25);
}

// The same pile settled by contact dynamics (seed 004's CCP with APGD) from the feature contacts:
// statics again, the ground reaction (impulse / dt) equals the total weight.
TEST_CASE("Pile of 10 cubes settled by a contact-dynamics solver: ground reaction equals the weight",
          "[polyhedra][contact-dynamics][physics]") {
    test::CubeSceneSettings settings;
    settings.mu_s = settings.mu_d = 0.5;
    settings.dt = 1e-3;
    Scene scene = test::polyhedronScene("cube.stl", settings.side, settings);
    for (int n = 0; n < 10; ++n)
        scene.bodies.push_back(test::polyhedralBody(layoutPosition(n), Quat(Eigen::AngleAxisd(0.1 * (n % 3) - 0.1, Vec3::UnitZ()))));
    scene.solver = PluginChoice{"ccp-apgd", {{"max_iterations", 500}}};
    Simulation sim(scene, test::builtPlugins());
    sim.setRecordContacts(true);
    const double weight = 10.0 * sim.bodies().mass[0] * 9.81;
    for (int k = 0; k < 1500; ++k) sim.step();
    double mean = 0.0;
    const int samples = 100;
    for (int k = 0; k < samples; ++k) {
        sim.step();
        mean += test::wallReaction(sim).z() / samples;
    }
    CHECK(sim.energy().kinetic + sim.energy().rotational < 1e-3 * sim.bodies().mass[0] * 9.81 * 1e-3);
    CHECK(mean == Approx(weight).epsilon(0.005));
    CHECK(sim.bodies().position[9].z() > 0.25);
}
