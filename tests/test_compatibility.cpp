// Compatibility post-step (seed 000, Olsen and Kamrin): the indeterminate beam's unique DEM-limit
// support forces, whatever the first-stage solver and contact order.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <numeric>

#include "grainlab/core/error.hpp"
#include "grainlab/plugin/post_step.hpp"
#include "rigid_support.hpp"

using namespace grainlab;

namespace {

struct BeamForces {
    Vec3 support{0, 0, 0};      // force on the supports at x = 0, L/2, L
    Vec3 platform_velocity{0, 0, 0};
};

// A rigid platform (weight 10) of length 2 resting on fixed supports at x = 0, 1, 2 (walls); the
// contacts are listed in `order`; relative stiffness (E*) per support. One contact-dynamics step.
BeamForces beam(const std::string& solver_name, const std::array<int, 3>& order, const Vec3& stiffness,
                double exponent, bool compatible) {
    const double dt = 1e-3, weight = 10.0;
    Bodies bodies;
    test::addBox(bodies, Vec3(1.0, 0.2, 0.05), 1.0, Vec3(1.0, 0.0, 0.05));
    std::vector<RigidContact> contacts;
    for (int k : order) {
        RigidContact c;
        c.key = {0, -1 - k, 0};
        c.point = Vec3(k, 0, 0);
        c.normal = Vec3::UnitZ();
        c.effective_youngs = stiffness[k];
        contacts.push_back(c);
    }
    auto solver = test::solver(solver_name);
    auto post = test::builtPlugins().createPostStep(PluginChoice{"compatibility", {{"exponent", exponent}}});
    ContactDynamics dynamics;
    dynamics.settings = test::tightSettings();
    dynamics.step(bodies, contacts, *solver, Vec3(0, 0, -weight), dt, 1, compatible ? &*post : nullptr);
    BeamForces out;
    for (std::size_t i = 0; i < contacts.size(); ++i) out.support[order[i]] = dynamics.impulses()[3 * i] / dt;
    out.platform_velocity = bodies.velocity[0];
    return out;
}

}  // namespace

TEST_CASE("Compatibility: beam on three supports, 10/3 each, any solver and contact order", "[compatibility]") {
    // Seed 000, section 5.1: with equal stiffness the DEM limit shares the weight 10 equally; with
    // stiffness 1, 3, 1 it is 2, 6, 2 (for Hooke p = 2 and Hertz p = 5/2: the overlaps are equal).
    std::vector<std::string> names = test::ccpSolvers();
    names.push_back("nbgs-maxdiss");
    std::array<int, 3> order{0, 1, 2};
    do {
        for (const std::string& name : names) {
            INFO(name << " order " << order[0] << order[1] << order[2]);
            const BeamForces equal = beam(name, order, Vec3(1, 1, 1), 2.0, true);
            CHECK((equal.support - Vec3::Constant(10.0 / 3.0)).norm() < 1e-6 * 10.0);
            CHECK(equal.platform_velocity.norm() < 1e-9);
            for (double p : {2.0, 2.5}) {
                INFO("exponent " << p);
                const BeamForces stiff = beam(name, order, Vec3(1, 3, 1), p, true);
                CHECK((stiff.support - Vec3(2, 6, 2)).norm() < 1e-6 * 10.0);
            }
        }
    } while (std::next_permutation(order.begin(), order.end()));
}

TEST_CASE("Compatibility: PGS alone depends on the contact order", "[compatibility]") {
    // Seed 000: classic CD has a whole set of support forces; PGS returns one that depends on the
    // order of its sweep (each a valid solution: total 10, the platform stays at rest).
    const BeamForces middle_first = beam("ccp-pgs", {1, 0, 2}, Vec3(1, 1, 1), 2.0, false);
    const BeamForces left_first = beam("ccp-pgs", {0, 2, 1}, Vec3(1, 1, 1), 2.0, false);
    CHECK(middle_first.support.sum() == Approx(10.0).epsilon(1e-6));
    CHECK(left_first.support.sum() == Approx(10.0).epsilon(1e-6));
    CHECK((middle_first.support - left_first.support).norm() > 0.5);
    CHECK(middle_first.support[1] > 5.0);
}

TEST_CASE("Compatibility refuses scenes with friction and says why", "[compatibility][input]") {
    Scene scene = test::emptyScene();
    scene.materials[0].friction = 0.4;
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.5), Vec3::Zero()));
    scene.solver = PluginChoice{"ccp-apgd", {}};
    scene.post_step = PluginChoice{"compatibility", {}};
    try {
        Simulation sim(scene, test::builtPlugins());
        FAIL("the scene was accepted");
    } catch (const InputError& e) {
        const std::string message = e.what();
        CHECK(message.find("/plugins/post_step") != std::string::npos);
        CHECK(message.find("frictionless") != std::string::npos);
        CHECK(message.find("not unique") != std::string::npos);
    }
}

namespace {

// Square close-packed (cannonball) pyramid of spheres of radius 1/2 with `base` spheres along the
// base edge, touching, at rest; the base layer is fixed. Frictionless.
Scene pyramid(int base, const std::string& contact_model) {
    Scene scene = test::emptyScene(contact_model);
    scene.materials[0].friction = 0.0;
    scene.gravity = Vec3(0, 0, -9.81);
    const double d = 1.0;
    for (int layer = 0; layer < base; ++layer)
        for (int i = 0; i < base - layer; ++i)
            for (int j = 0; j < base - layer; ++j) {
                BodySpec b = test::sphere(Vec3((i + 0.5 * layer) * d, (j + 0.5 * layer) * d, 0.5 + layer * d / std::sqrt(2.0)),
                                          Vec3::Zero());
                b.frozen = layer == 0;
                scene.bodies.push_back(b);
            }
    scene.domain.min = Vec3::Constant(-1.0);
    scene.domain.max = Vec3(base + 1.0, base + 1.0, base + 1.0);
    return scene;
}

// Forces on the fixed base spheres (the floor reactions), stacked.
Eigen::VectorXd floorReactions(const Simulation& sim) {
    std::vector<double> values;
    for (std::size_t i = 0; i < sim.bodies().size(); ++i)
        if (sim.bodies().frozen[i])
            for (int k = 0; k < 3; ++k) values.push_back(sim.bodies().force[i][k]);
    return Eigen::Map<Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

Eigen::VectorXd contactDynamicsReactions(int base, const std::string& solver, bool compatible) {
    Scene scene = pyramid(base, "hooke");
    scene.time_step = 1e-3;
    scene.solver = PluginChoice{solver, {{"max_iterations", 5000}, {"tolerance", 1e-9}}};
    if (compatible) scene.post_step = PluginChoice{"compatibility", {}};
    Simulation sim(scene, test::builtPlugins());
    sim.step();
    return floorReactions(sim);
}

}  // namespace

TEST_CASE("Compatibility: cannonball pyramid floor reactions match stiff DEM", "[compatibility][pyramid]") {
    // Seed 000, section 5.2 and its table: the compatible floor reactions equal those of penalty DEM
    // in the stiff limit (paper: 1.9e-5 relative for 20 spheres along the edge), whichever solver
    // ran first; plain APGD and PGS give other members of the solution set (paper: 0.17, 0.19).
    // Eight spheres along the edge keep the test fast (measured: compatible 9e-7, plain APGD 0.035,
    // PGS 0.024); GRAINLAB_PYRAMID_BASE=20 runs the paper's size (minutes; docs/contact-dynamics.md).
    const char* base_text = std::getenv("GRAINLAB_PYRAMID_BASE");
    const int base = base_text ? std::max(2, std::atoi(base_text)) : 8;
    // Stiff DEM (Hooke, critically damped contacts), settled from the touching configuration.
    Scene scene = pyramid(base, "hooke");
    const double kn = 1e7, meff = 0.5 * test::sphereMass(0.5, 1.0);
    const double gamma_n = 2.0 * std::sqrt(kn / meff);
    scene.contact_model.parameters = {{"kn", kn}, {"gamma_n", gamma_n}, {"gamma_t", 0.0}};
    scene.time_step = kPi / std::sqrt(kn / meff) / 20.0;
    Simulation dem(scene, test::builtPlugins());
    // Settled when the reactions change by less than 1e-9 (relative) over 500 steps.
    Eigen::VectorXd reference = floorReactions(dem), previous;
    double change = 1.0;
    for (int chunk = 0; chunk < 200 && change > 1e-9; ++chunk) {
        for (int k = 0; k < 500; ++k) dem.step();
        previous = reference;
        reference = floorReactions(dem);
        change = (reference - previous).norm() / reference.norm();
    }
    REQUIRE(change <= 1e-9);
    auto error = [&](const Eigen::VectorXd& f) { return (f - reference).norm() / reference.norm(); };
    for (const std::string& first : {"ccp-apgd", "ccp-pgs"}) {
        INFO(first);
        const double compatible = error(contactDynamicsReactions(base, first, true));
        const double plain = error(contactDynamicsReactions(base, first, false));
        WARN(first << " with " << base << " spheres along the edge: compatible " << compatible << ", plain " << plain
                   << " (relative to DEM after " << dem.state().step << " steps)");
        CHECK(compatible < 1e-3);
        CHECK(plain > 1e-2);
    }
}
