// Examples 3 and 4 of Gay Neto & Wriggers (seed 003), checked against statics (note 12):
// a cube pushed by a ramped horizontal force (friction plateau mu_s m g then mu_d m g; tipping at
// F = m g / 2 when pushed at the top with mu > 1/2) and a tetrapod on three tips under a ramped
// torque (friction moment follows the load, then stays at mu m g r while the body twists).
#include <catch2/catch.hpp>

#include <cmath>

#include "polyhedra_support.hpp"

using namespace grainlab;

namespace {

constexpr double kG = 9.81;

test::CubeSceneSettings frictionSettings(double mu_s, double mu_d) {
    test::CubeSceneSettings s;
    s.mu_s = mu_s;
    s.mu_d = mu_d;
    s.damping_ratio = 0.5;
    s.tangential_damping_ratio = 0.3;
    s.dt = 2e-5;
    return s;
}

// Horizontal force ramping from t0 along +x, applied at the material point that starts at `arm`
// from the centre (world frame) and turns with the body.
ExternalLoad rampedPush(double t0, double rate, const Vec3& arm, const Quat& start) {
    const Vec3 arm_body = start.conjugate() * arm;
    return [=](double t, Bodies& b) {
        const Vec3 f(std::max(0.0, t - t0) * rate, 0, 0);
        b.force[0] += f;
        b.torque[0] += (b.orientation[0] * arm_body).cross(f);
    };
}

double frictionOnBody(const Simulation& sim) { return test::wallReaction(sim).x(); }

// A cube resting face down with its four corners at the static gap of the linear skin law, where
// each carries m g / 4: gap = gbar - m g / (4 eps1). Contacts are recorded.
Simulation restingCube(const test::CubeSceneSettings& s) {
    Scene scene = test::polyhedronScene("cube.stl", s.side, s);
    const double mass = s.density * std::pow(s.side, 3);
    const double gap = 0.01 * s.side - mass * kG / (4.0 * s.stiffness);
    scene.bodies.push_back(test::polyhedralBody(Vec3(0, 0, 0.5 * s.side + gap)));
    Simulation sim(scene, test::builtPlugins());
    sim.setRecordContacts(true);
    return sim;
}

}  // namespace

TEST_CASE("Cube pushed at the bottom-face centre: friction plateau mu_s m g, then mu_d m g", "[polyhedra][physics]") {
    const double mu_s = 0.6, mu_d = 0.4;
    const test::CubeSceneSettings s = frictionSettings(mu_s, mu_d);
    Simulation sim = restingCube(s);
    const double mg = sim.bodies().mass[0] * kG;
    const double t0 = 0.1, rate = 30.0;  // N/s: mu_s m g reached after ~0.5 s
    sim.setExternalLoad(rampedPush(t0, rate, Vec3(0, 0, -0.5 * s.side), sim.bodies().orientation[0]));
    double peak = 0.0, plateau = 0.0;
    int plateau_samples = 0;
    while (sim.state().time < t0 + 1.5 * mu_s * mg / rate) {
        sim.step();
        const double friction = -frictionOnBody(sim);
        peak = std::max(peak, friction);
        // Sliding well past the peak: sample the dynamic plateau.
        if (sim.state().time > t0 + 1.2 * mu_s * mg / rate) {
            plateau += friction;
            ++plateau_samples;
        }
    }
    CHECK(peak == Approx(mu_s * mg).epsilon(0.01));
    REQUIRE(plateau_samples > 0);
    CHECK(plateau / plateau_samples == Approx(mu_d * mg).epsilon(0.01));
    CHECK(sim.bodies().velocity[0].x() > 0.1);  // it slides
    CHECK(sim.bodies().angular_velocity[0].norm() < 1e-2);  // without toppling
}

TEST_CASE("Cube pushed at the top-face centre with mu > 1/2: tips at F = m g / 2", "[polyhedra][physics]") {
    // Moments about the leading edge: F L = m g L / 2, so the trailing edge unloads at F = m g / 2.
    const test::CubeSceneSettings s = frictionSettings(0.8, 0.8);
    Simulation sim = restingCube(s);
    const double mg = sim.bodies().mass[0] * kG;
    const double t0 = 0.1, rate = 20.0;
    sim.setExternalLoad(rampedPush(t0, rate, Vec3(0, 0, 0.5 * s.side), sim.bodies().orientation[0]));
    double tipping_force = -1.0;
    while (sim.state().time < t0 + mg / rate && tipping_force < 0.0) {
        sim.step();
        if (sim.state().time < t0) continue;
        // Normal load left on the trailing (x < centre) corners.
        double trailing = 0.0;
        for (const FrameContact& c : sim.frame().contacts)
            if (c.body_b < 0 && c.point_b.x() < sim.bodies().position[0].x()) trailing += c.force.z();
        if (trailing <= 0.0) tipping_force = (sim.state().time - t0) * rate;
    }
    CHECK(tipping_force == Approx(0.5 * mg).epsilon(0.01));
    // Still sticking when it tips: no slip of the leading edge.
    CHECK(std::abs(sim.bodies().velocity[0].x()) < 0.01);
}

TEST_CASE("Tetrapod on three tips under a ramped torque: friction moment follows, then holds mu m g r", "[polyhedra][physics]") {
    const double R = 0.1, mu = 0.5;
    test::CubeSceneSettings s = frictionSettings(mu, mu);
    Scene scene = test::polyhedronScene("tetrapod.stl", R, s);
    // Tips of the three lower legs at z = -R/3 below the centre of mass, radius r = R sqrt(8/9).
    scene.bodies.push_back(test::polyhedralBody(Vec3(0, 0, R / 3.0 + 0.9 * 0.01 * R)));
    Simulation sim(scene, test::builtPlugins());
    sim.setRecordContacts(true);
    const double mg = sim.bodies().mass[0] * kG;
    const double r = R * std::sqrt(8.0 / 9.0);
    const double limit = mu * mg * r;
    const double t0 = 0.1, rate = limit / 0.5;  // reaches the limit after 0.5 s
    sim.setExternalLoad([=](double t, Bodies& b) { b.torque[0].z() += std::max(0.0, t - t0) * rate; });
    auto frictionMoment = [&] {
        double m = 0.0;
        for (const FrameContact& c : sim.frame().contacts)
            if (c.body_b < 0) m += (c.point_b - sim.bodies().position[0]).cross(c.force).z();
        return m;
    };
    double worst_following = 0.0, worst_limit = 0.0;
    while (sim.state().time < t0 + 0.8) {
        sim.step();
        const double applied = std::max(0.0, sim.state().time - t0) * rate;
        const double moment = -frictionMoment();
        if (applied > 0.1 * limit && applied < 0.9 * limit)
            worst_following = std::max(worst_following, std::abs(moment - applied) / applied);
        if (applied > 1.2 * limit) worst_limit = std::max(worst_limit, std::abs(moment - limit) / limit);
    }
    CHECK(worst_following < 0.01);
    CHECK(worst_limit < 0.02);
    CHECK(sim.bodies().angular_velocity[0].z() > 0.5);  // it twists
    CHECK(std::abs(sim.bodies().velocity[0].z()) < 1e-3);  // on its tips
}
