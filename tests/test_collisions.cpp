// Binary collisions against analytic solutions.
#include <catch2/catch.hpp>
#include <cmath>

#include "support.hpp"

using namespace grainlab;
using grainlab::test::builtPlugins;

namespace {

struct CollisionResult {
    double contact_time = 0.0;   // from first touch to separation, interpolated at the crossings
    double restitution = 0.0;    // |v_rel after| / |v_rel before|
    double energy_error = 0.0;   // |E_total(end) - E_total(0)| / E_total(0)
};

// Two equal spheres approach head-on along x at relative speed `speed`, starting just apart.
CollisionResult collide(Scene scene, double speed, double dt) {
    const double r = 0.5;
    scene.bodies.push_back(test::sphere(Vec3(-r - 1e-3, 0, 0), Vec3(0.5 * speed, 0, 0), r));
    scene.bodies.push_back(test::sphere(Vec3(r + 1e-3, 0, 0), Vec3(-0.5 * speed, 0, 0), r));
    scene.time_step = dt;
    Simulation sim(scene, builtPlugins());
    const double e0 = sim.energy().total();
    auto overlap = [&] { return 2 * r - (sim.bodies().position[1] - sim.bodies().position[0]).norm(); };
    double previous = overlap(), start = -1.0, end = -1.0;
    for (long k = 0; k < 10000000 && end < 0.0; ++k) {
        sim.step();
        const double now = overlap();
        const double t = sim.state().time;
        if (previous <= 0.0 && now > 0.0) start = t - dt * now / (now - previous);
        if (previous > 0.0 && now <= 0.0) end = t - dt * now / (now - previous);
        previous = now;
    }
    REQUIRE(end > start);
    REQUIRE(start >= 0.0);
    sim.step();  // separated: velocities are final
    CollisionResult result;
    result.contact_time = end - start;
    result.restitution = (sim.bodies().velocity[1] - sim.bodies().velocity[0]).norm() / speed;
    result.energy_error = std::abs(sim.energy().total() - e0) / e0;
    return result;
}

}  // namespace

TEST_CASE("Hooke head-on collision: restitution and contact time of the damped oscillator", "[physics][hooke]") {
    // Analytic: the overlap obeys d'' + gamma_n d' + (kn/m_eff) d = 0, so the contact lasts
    // t_c = pi / sqrt(kn/m_eff - gamma_n^2/4) and e = exp(-gamma_n t_c / 2).
    const double kn = 2e5, gamma_n = 50.0;
    Scene scene = test::emptyScene("hooke");
    scene.contact_model.parameters = {{"kn", kn}, {"gamma_n", gamma_n}};
    const double meff = 0.5 * test::sphereMass(0.5, 1.0);
    const double omega = std::sqrt(kn / meff - 0.25 * gamma_n * gamma_n);
    const double tc = kPi / omega;
    const double e = std::exp(-0.5 * gamma_n * tc);
    const CollisionResult r = collide(scene, 1.0, tc / 500.0);
    CHECK(r.contact_time == Approx(tc).epsilon(0.01));
    CHECK(r.restitution == Approx(e).epsilon(0.01));
    // Conservation: kinetic + elastic + dissipated stays at the initial kinetic energy.
    CHECK(r.energy_error < 0.005);
}

TEST_CASE("Hertz collision: contact time of Hertz theory", "[physics][hertz]") {
    // Elastic Hertz impact (Johnson, Contact Mechanics 11.2): t_c = 2.9432 d_max / v with
    // d_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5).
    Scene scene = test::emptyScene("hertz-mindlin");
    scene.materials[0].youngs_modulus = 1e6;
    scene.materials[0].poisson_ratio = 0.3;
    scene.materials[0].restitution = 1.0;
    const double estar = 1.0 / (2.0 * (1.0 - 0.09) / 1e6);
    const double mstar = 0.5 * test::sphereMass(0.5, 1.0);
    const double rstar = 0.25;
    for (double v : {0.5, 2.0}) {
        const double dmax = std::pow(15.0 * mstar * v * v / (16.0 * estar * std::sqrt(rstar)), 0.4);
        const double tc = 2.9432 * dmax / v;
        const CollisionResult r = collide(scene, v, tc / 1000.0);
        CHECK(r.contact_time == Approx(tc).epsilon(0.02));
        CHECK(r.restitution == Approx(1.0).epsilon(0.005));
    }
}

TEST_CASE("Undamped bouncing with velocity Verlet: energy drift bounded and shrinking with dt", "[physics][integrator]") {
    // Conservation of kinetic + gravitational + elastic energy for an elastic ball on a floor; velocity
    // Verlet's energy error is O(dt^2), so halving dt must shrink it.
    auto drift = [](double dt) {
        Scene scene = test::emptyScene("hooke");
        scene.contact_model.parameters = {{"kn", 1e5}, {"gamma_n", 0.0}};
        scene.gravity = Vec3(0, 0, -9.81);
        scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
        scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.8), Vec3::Zero()));
        scene.time_step = dt;
        Simulation sim(scene, builtPlugins());
        const double e0 = sim.energy().total();
        double worst = 0.0;
        const long steps = static_cast<long>(std::lround(3.0 / dt));  // about 6 bounces
        int bounces = 0;
        bool touching = false;
        for (long k = 0; k < steps; ++k) {
            sim.step();
            worst = std::max(worst, std::abs(sim.energy().total() - e0) / std::abs(e0));
            const bool now = sim.state().contacts > 0;
            if (now && !touching) ++bounces;
            touching = now;
        }
        CHECK(bounces >= 5);
        return worst;
    };
    const double coarse = drift(2e-4), fine = drift(1e-4);
    CHECK(coarse < 5e-3);
    CHECK(fine < 0.5 * coarse);
}
