// Two-particle impacts of De Klerk et al. (validation case 1) with the variational integrator.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>

#include "variational_support.hpp"

using namespace grainlab;
using namespace grainlab::test::deklerk;
using grainlab::test::builtPlugins;
using grainlab::test::sphere;

namespace {

// Equal spheres at (+-x0, +-dy/2, 0) closing at speed 2v along x.
Scene pairScene(Scene s, double x0, double dy, double v, double h) {
    s.bodies.push_back(sphere(Vec3(-x0, -0.5 * dy, 0), Vec3(v, 0, 0), kRadius));
    s.bodies.push_back(sphere(Vec3(x0, 0.5 * dy, 0), Vec3(-v, 0, 0), kRadius));
    s.time_step = h;
    return s;
}

struct Energies {
    double kinetic = 0.0, rotational = 0.0;
    Vec3 momentum = Vec3::Zero();
    Vec3 momentum_before = Vec3::Zero();
};

// Runs until `t_end` and reports the right particle's energies, as the paper does.
Energies runOffset(const Scene& s, double t_end) {
    Simulation sim(s, builtPlugins());
    Energies e;
    const Bodies& b = sim.bodies();
    e.momentum_before = b.mass[0] * b.velocity[0] + b.mass[1] * b.velocity[1];
    while (sim.state().time < t_end) sim.step();
    e.kinetic = kinetic(b, 1);
    e.rotational = rotational(b, 1);
    e.momentum = b.mass[0] * b.velocity[0] + b.mass[1] * b.velocity[1];
    return e;
}

}  // namespace

TEST_CASE("Variational head-on impact follows the analytic damped solution at h = t_c/160", "[physics][variational]") {
    // Analytic (notes, section 9): with m_eff = m/2 the right particle obeys m x'' = kn (d - 2x) - gamma_n m x',
    // so x(t) = d/2 - (v/w_d) e^(-beta t) sin(w_d t), beta = gamma_n/2, w_d = sqrt(2 kn/m - beta^2). Paper:
    // "at h ~ t_c/160 the second-order variant matches the analytic solution almost exactly". The spheres
    // start touching, so the dashpot's jump at contact onset falls on a step (notes, pitfall 16).
    const double gamma_n = 60.0, v = 1.0;  // beta = 30, e = 0.85977
    const double h = kPairContactTime / 160.0;
    const double beta = 0.5 * gamma_n, wd = std::sqrt(2.0 * kStiffness - beta * beta);
    const double max_overlap = 2.0 * v / wd;
    for (double alpha : {0.5, 0.0}) {
        Simulation sim(pairScene(scene("variational", gamma_n, alpha), kRadius, 0.0, v, h), builtPlugins());
        double worst_overlap = 0.0, worst_velocity = 0.0;
        long steps_in_contact = 0;
        while (sim.state().time + h < kPi / wd) {
            sim.step();
            const double t = sim.state().time;
            const double x = 0.5 - (v / wd) * std::exp(-beta * t) * std::sin(wd * t);
            const double xdot = v * std::exp(-beta * t) * (beta / wd * std::sin(wd * t) - std::cos(wd * t));
            const Bodies& b = sim.bodies();
            worst_overlap = std::max(worst_overlap, std::abs((b.position[1].x() - b.position[0].x()) - 2.0 * x));
            worst_velocity = std::max(worst_velocity, std::abs(b.velocity[1].x() - xdot));
            ++steps_in_contact;
        }
        INFO("alpha = " << alpha << ": overlap error " << worst_overlap / max_overlap << " of the largest overlap, "
                        "velocity error " << worst_velocity / v << " of v, " << steps_in_contact << " steps");
        // alpha = 1/2 (second order) within 1e-3; alpha = 0 is first order and lags (notes, pitfall 17).
        if (alpha == 0.5) {
            CHECK(worst_overlap < 1e-3 * max_overlap);
            CHECK(worst_velocity < 1e-3 * v);
        } else {
            CHECK(worst_overlap < 2e-2 * max_overlap);
            CHECK(worst_velocity < 2e-2 * v);
        }
    }
}

TEST_CASE("Variational offset impact agrees with velocity Verlet at h = t_c/16.1", "[physics][variational]") {
    // Paper, Fig. 7: dy/d = 0.1, damping 30, h ~ t_c/16.1, LAMMPS (velocity Verlet) at the same step:
    // "the second-order integrator compares well with LAMMPS". Issue 6 makes that a number: the right
    // particle's translational and rotational kinetic energy after the collision agree within 1%.
    // Damping 30 read as gamma_n = 30 (restitution 0.93); the tangential dashpot gamma_t = gamma_n/2
    // makes the spin. The paper gives no impact speed or start; where contact begins and ends within a
    // step matters for every integrator (dashpots jump there, notes pitfall 16), so five onset phases
    // are run and each must agree. Both integrators run the same law ('hooke', kt = 0, no Coulomb cap).
    // Total linear momentum is conserved to round-off (no external force).
    const double gamma_n = 30.0, v = 1.0, dy = 0.1;
    const double h = kPairContactTime / 16.1;
    const double x0 = 0.5 * std::sqrt(kDiameter * kDiameter - dy * dy) + 0.002;  // touch after a few steps
    const double t_end = 0.004 / v + 2.0 * kPairContactTime;
    for (double phase : {0.0, 0.2, 0.4, 0.6, 0.8}) {
        const double x = x0 + phase * h * v;
        const Energies implicit = runOffset(pairScene(scene("variational", gamma_n), x, dy, v, h), t_end);
        const Energies verlet = runOffset(pairScene(scene("velocity-verlet", gamma_n), x, dy, v, h), t_end);
        INFO("phase " << phase << ": kinetic " << implicit.kinetic << " against Verlet " << verlet.kinetic
                      << ", rotational " << implicit.rotational << " against " << verlet.rotational);
        REQUIRE(verlet.rotational > 1e-5 * verlet.kinetic);  // the offset impact does spin the particles
        CHECK((implicit.momentum - implicit.momentum_before).norm() < 1e-12);
        CHECK(implicit.kinetic == Approx(verlet.kinetic).epsilon(0.01));
        CHECK(implicit.rotational == Approx(verlet.rotational).epsilon(0.01));
    }
}

TEST_CASE("Variational offset impact converges at second order through contact start and end", "[physics][variational]") {
    // The implicit midpoint rule is second order (notes, section 3). Contact start and end inside a step
    // make the dashpots jump; integrating the dashpot over the touching part of the step keeps the
    // order (sampled at the midpoint only, the error was O(h) and scattered with where contact starts
    // in a step: successive differences from t_c/16.1 shrank by 7700, not 4). Order check without a
    // reference: for a second-order scheme the differences between successive halvings of h shrink
    // by 4. The tangential dashpot, which alone makes the spin, acts from the first touch to the
    // last, so the rotational energy after the collision measures it.
    const double gamma_n = 30.0, v = 1.0, dy = 0.1;
    const double x0 = 0.5 * std::sqrt(kDiameter * kDiameter - dy * dy) + 0.002;
    const double t_end = 0.004 / v + 2.0 * kPairContactTime;
    double rotational[3];
    for (int k = 0; k < 3; ++k) {
        const double h = kPairContactTime / (16.1 * (1 << k));
        rotational[k] = runOffset(pairScene(scene("variational", gamma_n), x0, dy, v, h), t_end).rotational;
    }
    const double ratio = (rotational[0] - rotational[1]) / (rotational[1] - rotational[2]);
    INFO("rotational energy at t_c/16.1, /32.2, /64.4: " << rotational[0] << ", " << rotational[1] << ", " << rotational[2]
                                                   << "; ratio of successive differences " << ratio);
    CHECK(ratio > 3.0);
    CHECK(ratio < 5.0);
}
