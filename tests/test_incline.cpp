// A sphere on an incline: rolling without slip or sliding, against rigid-body mechanics.
#include <catch2/catch.hpp>
#include <cmath>

#include "support.hpp"

using namespace grainlab;

namespace {

// Mean acceleration down a slope of angle theta (gravity tilted onto a horizontal floor), measured
// from the velocity change over a window after the start-up transient.
double slopeAcceleration(double theta, double mu) {
    Scene scene = test::emptyScene("hooke");
    const double g = 9.81, kn = 1e6;
    scene.materials[0].friction = mu;
    scene.contact_model.parameters = {{"kn", kn}, {"gamma_n", 200.0}, {"gamma_t", 0.0}};
    scene.gravity = g * Vec3(std::sin(theta), 0, -std::cos(theta));
    scene.planes.push_back({"slope", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
    const double m = test::sphereMass(0.5, 1.0);
    const double rest_overlap = m * g * std::cos(theta) / kn;
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.5 - rest_overlap), Vec3::Zero()));
    scene.time_step = 1e-5;
    Simulation sim(scene, test::builtPlugins());
    for (int k = 0; k < 20000; ++k) sim.step();
    const double t0 = sim.state().time, v0 = sim.bodies().velocity[0].x();
    for (int k = 0; k < 50000; ++k) sim.step();
    REQUIRE(sim.state().contacts == 1);
    return (sim.bodies().velocity[0].x() - v0) / (sim.state().time - t0);
}

}  // namespace

TEST_CASE("Sphere on an incline rolls without slip when friction suffices", "[physics][incline]") {
    // Rolling without slip needs mu >= 2/7 tan(theta); then a = 5/7 g sin(theta).
    const double theta = 20.0 * kPi / 180.0;
    CHECK(slopeAcceleration(theta, 0.5) == Approx(5.0 / 7.0 * 9.81 * std::sin(theta)).epsilon(0.01));
}

TEST_CASE("Sphere on an incline slides when friction is too small", "[physics][incline]") {
    // mu < 2/7 tan(theta): kinetic friction mu N, a = g (sin(theta) - mu cos(theta)).
    const double theta = 30.0 * kPi / 180.0, mu = 0.1;
    CHECK(slopeAcceleration(theta, mu) == Approx(9.81 * (std::sin(theta) - mu * std::cos(theta))).epsilon(0.01));
}
