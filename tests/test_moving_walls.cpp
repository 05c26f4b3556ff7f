// Walls with prescribed motion: a conveyor belt and a rotating STL drum.
#include <catch2/catch.hpp>
#include <cmath>

#include "support.hpp"

using namespace grainlab;

TEST_CASE("A sphere dropped on a conveyor ends up rolling at 2/7 of the belt speed", "[physics][walls]") {
    // Friction acts through the contact point, so angular momentum about it is conserved (zero from
    // rest); rolling without slip on a belt moving at U then gives v = 2U/7.
    Scene scene = test::emptyScene("hooke");
    const double kn = 1e6, g = 9.81, belt = 1.0;
    scene.materials[0].friction = 0.5;
    scene.contact_model.parameters = {{"kn", kn}, {"gamma_n", 200.0}, {"gamma_t", 100.0}};
    scene.gravity = Vec3(0, 0, -g);
    PlaneWall floor{"belt", Vec3::Zero(), Vec3::UnitZ(), "grain", {}};
    floor.motion.surface_velocity = Vec3(belt, 0, 0);
    scene.planes.push_back(floor);
    const double m = test::sphereMass(0.5, 1.0);
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.5 - m * g / kn), Vec3::Zero()));
    scene.time_step = 1e-5;
    Simulation sim(scene, test::builtPlugins());
    for (int k = 0; k < 100000; ++k) sim.step();  // slipping ends after 2U/(7 mu g) = 0.06 s
    CHECK(sim.bodies().velocity[0].x() == Approx(2.0 / 7.0 * belt).epsilon(0.01));
    CHECK(sim.bodies().angular_velocity[0].y() == Approx(-5.0 / 7.0 * belt / 0.5).epsilon(0.01));
}

TEST_CASE("A rotating STL drum drags a sphere along its surface velocity", "[physics][walls][mesh]") {
    // The drum (radius 0.1, axis y) turns at w = 2 rad/s; at its bottom the wall moves at
    // w x r = -0.2 m/s along x, so friction carries the sphere towards -x along the wall.
    Scene scene = test::emptyScene("hooke");
    scene.materials[0].friction = 0.8;
    scene.contact_model.parameters = {{"kn", 1e3}, {"gamma_n", 50.0}, {"gamma_t", 25.0}};
    scene.gravity = Vec3(0, 0, -9.81);
    MeshWall drum;
    drum.name = "drum";
    drum.file = std::string(GRAINLAB_SOURCE_DIR) + "/resources/meshes/drum.stl";
    drum.material = "grain";
    drum.motion.angular_velocity = Vec3(0, 2, 0);
    scene.meshes.push_back(drum);
    scene.materials[0].density = 2500;
    const double r = 0.01;
    scene.bodies.push_back(test::sphere(Vec3(0, 0, -0.1 + r + 1e-4), Vec3::Zero(), r));
    scene.time_step = 1e-5;
    Simulation sim(scene, test::builtPlugins());
    for (int k = 0; k < 20000; ++k) sim.step();
    const Vec3 x = sim.bodies().position[0];
    CHECK(x.x() < -0.005);
    // Still inside the drum, touching its wall: the rotating mesh holds it.
    CHECK(std::hypot(x.x(), x.z()) < 0.1 - r + 1e-3);
    CHECK(std::hypot(x.x(), x.z()) > 0.1 - r - 1e-3);
}
