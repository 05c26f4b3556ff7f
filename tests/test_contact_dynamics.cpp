// Rigid contact dynamics with the cone complementarity solvers (seed 004, Negrut, Serban, Tasora):
// the exact cone projection, a block on an incline against Coulomb's law, the relaxation's hover
// gap, and velocity uniqueness of the CCP across solvers.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "grainlab/core/error.hpp"
#include "grainlab/plugin/cone.hpp"
#include "rigid_support.hpp"

using namespace grainlab;

namespace {

struct InclineRun {
    double velocity = 0.0;      // down-slope speed at the end
    double acceleration = 0.0;  // mean over the second half
    double height = 0.0;        // of the bottom face above the plane at the end
};

// A unit box on a plane tilted by theta (gravity tilted instead), started at rest.
InclineRun incline(const std::string& solver_name, double theta, double mu, double dt, int steps,
                   std::map<std::string, double> parameters = {}) {
    const double g = 9.81;
    const Vec3 h(0.5, 0.5, 0.5);
    Bodies bodies;
    test::addBox(bodies, h, 1.0, Vec3(0, 0, h.z()));
    const Vec3 gravity = g * Vec3(std::sin(theta), 0, -std::cos(theta));
    auto solver = test::solver(solver_name, std::move(parameters));
    ContactDynamics dynamics;
    dynamics.settings = test::tightSettings();
    double v_half = 0.0;
    for (int k = 0; k < steps; ++k) {
        if (k == steps / 2) v_half = bodies.velocity[0].x();
        dynamics.step(bodies, test::boxFloorContacts(bodies, 0, h, mu, dynamics.settings.envelope), *solver, gravity, dt,
                      1);
    }
    InclineRun run;
    run.velocity = bodies.velocity[0].x();
    run.acceleration = (run.velocity - v_half) / (dt * (steps - steps / 2));
    run.height = bodies.position[0].z() - h.z();
    return run;
}

}  // namespace

TEST_CASE("Cone projection: Moreau decomposition against the polar cone", "[ccp][cone]") {
    // Convex analysis: x = P_K(x) + P_K°(x) with orthogonal parts, P_K idempotent; the polar cone of
    // K_mu is -K_{1/mu}, so P_K°(x) = -P_{K_{1/mu}}(-x).
    for (double mu : {0.0, 0.3, 1.0, 2.5}) {
        for (int k = 0; k < 200; ++k) {
            const Eigen::Vector3d x = Eigen::Vector3d::Random() * 3.0;
            const Eigen::Vector3d pk = projectOntoCone(x, mu);
            CHECK((projectOntoCone(pk, mu) - pk).norm() < 1e-12);
            CHECK(std::hypot(pk[1], pk[2]) <= mu * pk[0] + 1e-12);
            if (mu == 0.0) continue;
            const Eigen::Vector3d polar = -projectOntoCone(-x, 1.0 / mu);
            CHECK((pk + polar - x).norm() < 1e-12);
            CHECK(std::abs(pk.dot(polar)) < 1e-10);
        }
    }
}

TEST_CASE("Block on an incline sticks below the friction angle", "[ccp][incline]") {
    // Coulomb: a block stays at rest when tan(theta) < mu.
    const double theta = 20.0 * kPi / 180.0;  // tan = 0.36
    for (const std::string& name : test::ccpSolvers()) {
        INFO(name);
        const InclineRun run = incline(name, theta, 0.5, 1e-3, 300);
        CHECK(std::abs(run.velocity) < 1e-6);
    }
}

TEST_CASE("Block on an incline slides with a = g (sin - mu cos)", "[ccp][incline]") {
    // Coulomb sliding friction mu N with N = m g cos(theta).
    const double theta = 35.0 * kPi / 180.0, mu = 0.5, g = 9.81;
    const double a = g * (std::sin(theta) - mu * std::cos(theta));
    for (const std::string& name : test::ccpSolvers()) {
        INFO(name);
        const InclineRun run = incline(name, theta, mu, 1e-3, 400);
        CHECK(run.acceleration == Approx(a).epsilon(0.01));
        CHECK(run.velocity == Approx(a * 0.4).epsilon(0.02));
    }
}

TEST_CASE("Sliding rides at the relaxation gap mu dt v_t, none without friction", "[ccp][incline]") {
    // Seed 004, section 4: the relaxed non-penetration condition gives a normal velocity mu v_T per
    // step, i.e. a hover gap of about mu dt v_T; it vanishes for mu = 0.
    const double theta = 35.0 * kPi / 180.0, dt = 1e-3;
    const InclineRun with_friction = incline("ccp-apgd", theta, 0.3, dt, 200);
    CHECK(with_friction.height == Approx(0.3 * dt * with_friction.velocity).epsilon(0.1));
    const InclineRun frictionless = incline("ccp-apgd", theta, 0.0, dt, 200);
    CHECK(std::abs(frictionless.height) < 1e-9);
    CHECK(frictionless.velocity == Approx(9.81 * std::sin(theta) * 0.2).epsilon(1e-6));
}

TEST_CASE("APGD in Coulomb mode: sticks, slides at a = g (sin - mu cos), without the relaxation's gap",
          "[ccp][incline][coulomb]") {
    // De Saxce's fixed point solves Coulomb's law itself (Acary et al. 2011): the block sticks for
    // tan(theta) < mu, slides with Coulomb's acceleration, and the normal velocity mu v_T of the CCP
    // relaxation (seed 004, section 4) is gone: the block stays on the plane.
    const std::map<std::string, double> coulomb{{"coulomb", 1.0}};
    const InclineRun sticking = incline("ccp-apgd", 20.0 * kPi / 180.0, 0.5, 1e-3, 300, coulomb);
    CHECK(std::abs(sticking.velocity) < 1e-6);
    const double theta = 35.0 * kPi / 180.0, mu = 0.3, dt = 1e-3;
    const InclineRun sliding = incline("ccp-apgd", theta, mu, dt, 200, coulomb);
    CHECK(sliding.acceleration == Approx(9.81 * (std::sin(theta) - mu * std::cos(theta))).epsilon(0.01));
    CHECK(std::abs(sliding.height) < 1e-3 * mu * dt * sliding.velocity);
}

TEST_CASE("Box on a plane: every solver gives the same velocities", "[ccp][uniqueness]") {
    // Seed 004, section 5: N is singular for a box on four corners, the impulses are not unique, but
    // the velocity update M^-1 D gamma is the same for every solution. The box slides and spins.
    const Vec3 h(0.6, 0.4, 0.3);
    std::vector<Vec3> v, w;
    std::vector<double> normal_sum;
    for (const std::string& name : test::ccpSolvers()) {
        Bodies bodies;
        test::addBox(bodies, h, 2.0, Vec3(0, 0, h.z()), Vec3(0.3, -0.1, 0));
        bodies.angular_velocity[0] = Vec3(0, 0, 0.7);
        auto solver = test::solver(name);
        ContactDynamics dynamics;
        dynamics.settings = test::tightSettings();
        dynamics.step(bodies, test::boxFloorContacts(bodies, 0, h, 0.4, 0.01), *solver, Vec3(0, 0, -9.81), 1e-3, 1);
        v.push_back(bodies.velocity[0]);
        w.push_back(bodies.angular_velocity[0]);
        double sum = 0.0;
        for (std::size_t i = 0; i < dynamics.system().contacts(); ++i) sum += dynamics.impulses()[3 * i];
        normal_sum.push_back(sum);
    }
    for (std::size_t s = 1; s < v.size(); ++s) {
        INFO(test::ccpSolvers()[s]);
        CHECK((v[s] - v[0]).norm() < 1e-6);
        CHECK((w[s] - w[0]).norm() < 1e-6);
        // Only the total normal impulse is determined: about m g dt (plus the relaxation's share).
        CHECK(normal_sum[s] == Approx(normal_sum[0]).epsilon(1e-5));
    }
    // Momentum balance along z: the normal impulses give m (v_z' + g dt) (v_z' > 0 is the
    // relaxation's lift, about mu v_T).
    CHECK(normal_sum[0] == Approx(2.0 * (v[0].z() + 9.81 * 1e-3)).epsilon(1e-9));
}

TEST_CASE("Stack of spheres: every solver gives the same velocities", "[ccp][uniqueness]") {
    // Velocity uniqueness of the CCP (seed 004, section 5) on a column of spheres in a corner of
    // two walls and a floor, with sideways velocities, through the engine's sphere narrow phase.
    std::vector<std::vector<Vec3>> velocities;
    for (const std::string& name : test::ccpSolvers()) {
        Scene scene = test::emptyScene();
        scene.gravity = Vec3(0, 0, -9.81);
        scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
        scene.planes.push_back({"side", Vec3(-0.5, 0, 0), Vec3::UnitX(), "grain", {}});
        for (int k = 0; k < 4; ++k)
            scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.5 + k), Vec3(-0.2 * k, 0.1 * k, -0.1)));
        scene.time_step = 1e-3;
        scene.solver = PluginChoice{name, {{"max_iterations", 20000}, {"tolerance", 1e-11}}};
        Simulation sim(scene, test::builtPlugins());
        for (int k = 0; k < 3; ++k) sim.step();
        CHECK(sim.solverReport().converged);
        velocities.push_back(sim.bodies().velocity);
    }
    for (std::size_t s = 1; s < velocities.size(); ++s)
        for (std::size_t i = 0; i < velocities[s].size(); ++i) CHECK((velocities[s][i] - velocities[0][i]).norm() < 1e-6);
}

TEST_CASE("Resting sphere: normal impulse m g dt and no drift", "[ccp]") {
    // Seed 004, suggested test 4: a sphere at rest on the floor takes gamma_n = m g dt, no friction
    // impulse, and does not move.
    for (const std::string& name : test::ccpSolvers()) {
        INFO(name);
        Scene scene = test::emptyScene();
        scene.gravity = Vec3(0, 0, -9.81);
        scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
        scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.5), Vec3::Zero()));
        scene.time_step = 1e-3;
        scene.solver = PluginChoice{name, {{"tolerance", 1e-10}, {"max_iterations", 1000}}};
        Simulation sim(scene, test::builtPlugins());
        for (int k = 0; k < 100; ++k) sim.step();
        const double m = test::sphereMass(0.5, 1.0);
        REQUIRE(sim.contactDynamics().impulses().size() == 3);
        CHECK(sim.contactDynamics().impulses()[0] == Approx(m * 9.81 * 1e-3).epsilon(1e-8));
        CHECK(sim.contactDynamics().impulses().tail<2>().norm() < 1e-12);
        CHECK(std::abs(sim.bodies().position[0].z() - 0.5) < 1e-9);
        CHECK(sim.bodies().velocity[0].norm() < 1e-9);
    }
}

TEST_CASE("Contact dynamics does not depend on the thread count", "[ccp][determinism]") {
    // The Delassus products gather per body in contact order, so 1 and 3 threads add the same
    // numbers in the same order: identical trajectories (the engine's determinism rule).
    std::vector<std::vector<Vec3>> positions;
    for (int threads : {1, 3}) {
        Scene scene = test::emptyScene();
        scene.gravity = Vec3(0, 0, -9.81);
        scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
        Lattice lattice;
        lattice.material = "grain";
        lattice.kind = Lattice::Kind::SimpleCubic;
        lattice.origin = Vec3(0, 0, 0.6);
        lattice.counts = {5, 5, 4};
        lattice.radius = 0.5;
        lattice.spacing = 1.05;
        scene.lattices.push_back(lattice);
        scene.time_step = 1e-2;
        scene.threads = threads;
        for (const std::string name : {"ccp-jacobi", "ccp-apgd"}) {
            scene.solver = PluginChoice{name, {{"max_iterations", 50}}};
            Simulation sim(scene, test::builtPlugins());
            for (int k = 0; k < 40; ++k) sim.step();
            REQUIRE(sim.state().contacts > 50);
            positions.push_back(sim.bodies().position);
        }
    }
    for (std::size_t s = 0; s < 2; ++s)
        for (std::size_t i = 0; i < positions[s].size(); ++i) CHECK(positions[s][i] == positions[s + 2][i]);
}

TEST_CASE("Newton restitution: a sphere hitting the floor leaves at e times its approach speed", "[ccp][restitution]") {
    // Seed 000 (Newton restitution, errata of Olsen and Kamrin): v_n+ = -e v_n- for a single impact;
    // off by default: perfectly inelastic, the sphere stays down (seed 004).
    for (double restitution : {0.0, 1.0}) {
        Scene scene = test::emptyScene();
        scene.materials[0].restitution = 0.5;
        scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
        scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.5), Vec3(0.2, 0, -1.0)));
        scene.time_step = 1e-3;
        scene.solver = PluginChoice{"ccp-apgd", {{"restitution", restitution}, {"tolerance", 1e-12}, {"max_iterations", 2000}}};
        Simulation sim(scene, test::builtPlugins());
        sim.step();
        INFO("restitution flag " << restitution);
        CHECK(sim.bodies().velocity[0].z() == Approx(restitution > 0 ? 0.5 : 0.0).margin(1e-9));
    }
}

TEST_CASE("Contact-dynamics settings that cannot work are refused with the field named", "[ccp][input]") {
    // Input checks: an envelope beyond the neighbour candidates, a post-step without a solver, an
    // unknown solver.
    auto message = [](Scene scene) -> std::string {
        try {
            Simulation sim(scene, test::builtPlugins());
        } catch (const InputError& e) {
            return e.what();
        }
        return "";
    };
    Scene scene = test::emptyScene();
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.5), Vec3::Zero()));
    scene.skin = 0.1;
    scene.solver = PluginChoice{"ccp-pgs", {{"envelope", 0.2}}};
    const std::string envelope = message(scene);
    CHECK(envelope.find("/plugins/solver/parameters/envelope") != std::string::npos);
    CHECK(envelope.find("skin") != std::string::npos);
    scene.solver.reset();
    scene.post_step = PluginChoice{"compatibility", {}};
    CHECK(message(scene).find("names no solver") != std::string::npos);
    scene.post_step.reset();
    scene.solver = PluginChoice{"ccp-sor", {}};
    const std::string unknown = message(scene);
    CHECK(unknown.find("ccp-sor") != std::string::npos);
    CHECK(unknown.find("ccp-apgd") != std::string::npos);  // the list of available solvers
}
