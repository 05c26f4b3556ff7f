// The exact rotation of an orientation by an angular velocity, and what tracking it means.
//
// A sphere's orientation never enters its equations of motion: contact points, lever arms and
// inertia are the same whichever way it faces. So a run that does not track sphere orientations
// (scene field track_sphere_orientation: false) must follow the tracked run bit for bit in
// position, velocity and spin, while its spheres keep the orientation they started with. A
// polyhedron's orientation does change its contacts, and it is turned either way.
#include <catch2/catch.hpp>

#include "grainlab/core/error.hpp"
#include "grainlab/io/scene_file.hpp"
#include "grainlab/plugin/integrator.hpp"
#include "polyhedra_support.hpp"
#include "restart_scene.hpp"
#include "support.hpp"

using namespace grainlab;

namespace {

// Spheres thrown into a rotating drum with rolling resistance: they roll and spin.
Scene drum(bool track, const std::string& integrator) {
    Scene scene = parseScene(test::restartSceneJson(integrator, "hertz-mindlin", 2), "drum.json", GRAINLAB_SOURCE_DIR);
    scene.track_sphere_orientation = track;
    return scene;
}

}  // namespace

TEST_CASE("Spheres that keep their orientation move exactly as spheres that turn", "[engine][orientation]") {
    for (const std::string integrator : {"velocity-verlet", "semi-implicit-euler"}) {
        CAPTURE(integrator);
        Simulation tracked(drum(true, integrator), test::builtPlugins());
        Simulation kept(drum(false, integrator), test::builtPlugins());
        const std::vector<Quat> start = kept.bodies().orientation;
        for (int k = 0; k < 400; ++k) {
            tracked.step();
            kept.step();
        }
        const Bodies& a = tracked.bodies();
        const Bodies& b = kept.bodies();
        double largest_spin = 0.0, largest_turn = 0.0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            REQUIRE(a.position[i] == b.position[i]);
            REQUIRE(a.velocity[i] == b.velocity[i]);
            REQUIRE(a.angular_velocity[i] == b.angular_velocity[i]);
            REQUIRE(b.orientation[i].coeffs() == start[i].coeffs());
            largest_spin = std::max(largest_spin, a.angular_velocity[i].norm());
            largest_turn = std::max(largest_turn, a.orientation[i].angularDistance(start[i]));
            REQUIRE(a.orientation[i].norm() == Approx(1.0).epsilon(1e-14));
        }
        // The comparison means something only if the spheres spun and the tracked ones turned.
        CHECK(largest_spin > 1.0);
        CHECK(largest_turn > 0.01);
        CHECK(tracked.energy().dissipated == kept.energy().dissipated);
    }
}

TEST_CASE("A polyhedron turns whether or not sphere orientations are tracked", "[engine][orientation]") {
    test::CubeSceneSettings settings;
    Scene scene = test::polyhedronScene("cube.stl", settings.side, settings);
    scene.track_sphere_orientation = false;
    scene.gravity = Vec3::Zero();
    BodySpec cube = test::polyhedralBody(Vec3(0, 0, 1));
    cube.angular_velocity = Vec3(0, 0, 3);
    scene.bodies.push_back(cube);
    BodySpec ball = test::sphere(Vec3(1, 0, 1), Vec3::Zero(), 0.05);
    ball.angular_velocity = Vec3(3, 0, 0);
    scene.bodies.push_back(ball);
    Simulation sim(scene, test::builtPlugins());
    const Quat cube_start = sim.bodies().orientation[0], ball_start = sim.bodies().orientation[1];
    const int steps = 1000;
    for (int k = 0; k < steps; ++k) sim.step();
    // Free rotation about a principal axis: the turn is |w| t exactly.
    CHECK(sim.bodies().orientation[0].angularDistance(cube_start) == Approx(3.0 * steps * settings.dt).epsilon(1e-9));
    CHECK(sim.bodies().orientation[1].coeffs() == ball_start.coeffs());
}

TEST_CASE("track_sphere_orientation must be true or false", "[scene][orientation]") {
    nlohmann::json doc = test::restartSceneJson();
    doc["track_sphere_orientation"] = "no";
    try {
        parseScene(doc, "drum.json", GRAINLAB_SOURCE_DIR);
        FAIL("a string was accepted");
    } catch (const InputError& e) {
        CHECK(e.field() == "/track_sphere_orientation");
        CHECK(std::string(e.what()).find("true or false") != std::string::npos);
    }
    doc["track_sphere_orientation"] = false;
    CHECK_FALSE(parseScene(doc, "drum.json", GRAINLAB_SOURCE_DIR).track_sphere_orientation);
}

TEST_CASE("An orientation turns by the exact rotation of w dt in every range of angles", "[engine][orientation]") {
    // Analytic: the quaternion of a turn by |w| dt about w/|w|. The step's series are exact to
    // round-off in their ranges (x^2 = (|w| dt / 2)^2 below 1e-5, below 1e-3) and sincos beyond.
    const Quat start = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())).normalized();
    const Vec3 axis = Vec3(-2, 1, 0.5).normalized();
    const double dt = 1e-3;
    for (const double x2 : {1e-14, 1e-8, 9.9e-6, 1.1e-5, 5e-4, 9.9e-4, 1.1e-3, 0.2}) {
        CAPTURE(x2);
        const double speed = 2.0 * std::sqrt(x2) / dt;
        const Quat turned = rotated(start, speed * axis, dt);
        const Quat exact = (Quat(Eigen::AngleAxisd(speed * dt, axis)) * start).normalized();
        CHECK((turned.coeffs() - exact.coeffs()).norm() < 4e-16);
        CHECK(turned.norm() == Approx(1.0).epsilon(1e-15));
    }
}
