// Compatibility post-step (seed 000, Olsen and Kamrin): the indeterminate beam's unique DEM-limit
// support forces, whatever the first-stage solver and contact order.
#include <algorithm>
#include <chrono>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <random>
#include <numeric>

#include <Eigen/Sparse>

#include "grainlab/core/error.hpp"
#include "grainlab/io/checkpoint.hpp"
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

// Seed 000, section 8.2, in the paper's units: a square close-packed (cannonball) pyramid of spheres of
// diameter 2.5 mm and density 2000 kg/m^3 with 20 spheres along the base edge (2,870 spheres, 400 in
// the base), touching and at rest, base layer fixed, frictionless. The bodies are listed in a random
// order, as a poured pile's would be, so a Gauss-Seidel sweep meets the contacts in no special order.
constexpr int kBase = 20;
constexpr double kRadius = 1.25e-3, kDensity = 2000.0, kGravity = 9.81;

Scene pyramid() {
    Scene scene = test::emptyScene("hooke");
    scene.materials[0].density = kDensity;
    scene.materials[0].friction = 0.0;
    scene.gravity = Vec3(0, 0, -kGravity);
    const double d = 2.0 * kRadius, layer_height = d / std::sqrt(2.0);
    for (int layer = 0; layer < kBase; ++layer)
        for (int i = 0; i < kBase - layer; ++i)
            for (int j = 0; j < kBase - layer; ++j) {
                BodySpec b = test::sphere(Vec3((i + 0.5 * layer) * d, (j + 0.5 * layer) * d, kRadius + layer * layer_height),
                                          Vec3::Zero(), kRadius);
                b.frozen = layer == 0;
                b.id = static_cast<std::int64_t>(scene.bodies.size());
                scene.bodies.push_back(b);
            }
    std::mt19937 random(7);
    std::shuffle(scene.bodies.begin(), scene.bodies.end(), random);
    scene.domain.min = Vec3::Constant(-d);
    scene.domain.max = Vec3::Constant((kBase + 1) * d);
    return scene;
}

// Contact forces on the fixed base spheres (the floor reactions), stacked in the order of their ids.
Eigen::VectorXd floorReactions(const Simulation& sim) {
    std::map<std::int64_t, Vec3> by_id;
    for (std::size_t i = 0; i < sim.bodies().size(); ++i)
        if (sim.bodies().frozen[i]) by_id[sim.bodies().id[i]] = sim.bodies().force[i];
    Eigen::VectorXd out(static_cast<Eigen::Index>(3 * by_id.size()));
    Eigen::Index k = 0;
    for (const auto& [id, force] : by_id) out.segment<3>(3 * k++) = force;
    return out;
}

struct ContactDynamicsReactions {
    Eigen::VectorXd plain, compatible;
    double speed = 0.0;  // largest speed after the second step
    bool converged = false;
};

// One contact-dynamics step (1 ms, the paper's) of the resting pyramid from a cold start, solved to
// 1e-6: the floor reactions of the solver's solution; then the next step, warm started, with the
// first stage solved to 1e-7 and the compatibility post-step (to 1e-5): its floor reactions.
ContactDynamicsReactions contactDynamicsReactions(const std::string& solver) {
    Scene scene = pyramid();
    scene.time_step = 1e-3;
    scene.solver = PluginChoice{solver, {{"max_iterations", 20000}, {"tolerance", 1e-6}}};
    Simulation sim(scene, test::builtPlugins());
    sim.step();
    ContactDynamicsReactions out;
    out.plain = floorReactions(sim);
    out.converged = sim.solverReport().converged;
    Checkpoint state{"", "", sim.scene(), sim.state(), sim.restartExtras(), 1, {}};
    state.scene.solver = PluginChoice{solver, {{"max_iterations", 20000}, {"tolerance", 1e-7}}};
    state.scene.post_step = PluginChoice{"compatibility", {{"tolerance", 1e-5}}};
    Simulation compatible = Simulation::fromCheckpoint(std::move(state), test::builtPlugins());
    compatible.step();
    out.compatible = floorReactions(compatible);
    out.converged = out.converged && compatible.solverReport().converged && compatible.postStepReport().converged;
    for (const Vec3& v : compatible.bodies().velocity) out.speed = std::max(out.speed, v.norm());
    return out;
}

// The static state of penalty DEM with linear (Hooke) contacts, f = kn overlap along the line of
// centres, frictionless and without tension, for `scene`'s spheres under gravity: Newton on the force
// balance of the free centres (Gauss-Newton stiffness kn n n^T per overlapping pair; the dropped
// geometric term is overlap/distance, 1e-7 of it here), the overlapping pairs updated each iteration.
std::vector<Vec3> hookeStatics(const Scene& scene, double kn) {
    const std::size_t n = scene.bodies.size();
    std::vector<Vec3> x(n);
    std::vector<int> dof(n, -1);
    int free = 0;
    for (std::size_t i = 0; i < n; ++i) {
        x[i] = scene.bodies[i].position;
        if (!scene.bodies[i].frozen) dof[i] = free++;
    }
    const double d = 2.0 * kRadius, weight = test::sphereMass(kRadius, kDensity) * kGravity;
    // The close-packed neighbours, from a grid of cells of one diameter.
    std::map<std::array<long, 3>, std::vector<std::size_t>> cells;
    auto cell = [&](const Vec3& p) {
        return std::array<long, 3>{std::lround(std::floor(p.x() / d)), std::lround(std::floor(p.y() / d)),
                                   std::lround(std::floor(p.z() / d))};
    };
    for (std::size_t i = 0; i < n; ++i) cells[cell(x[i])].push_back(i);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = cell(x[i]);
        for (long a = -1; a <= 1; ++a)
            for (long b = -1; b <= 1; ++b)
                for (long e = -1; e <= 1; ++e) {
                    const auto found = cells.find({c[0] + a, c[1] + b, c[2] + e});
                    if (found == cells.end()) continue;
                    for (std::size_t j : found->second)
                        if (j > i && (dof[i] >= 0 || dof[j] >= 0) && (x[i] - x[j]).norm() < 1.01 * d)
                            pairs.emplace_back(i, j);
                }
    }
    for (int iteration = 0; iteration < 40; ++iteration) {
        Eigen::VectorXd force = Eigen::VectorXd::Zero(3 * free);
        for (std::size_t i = 0; i < n; ++i)
            if (dof[i] >= 0) force[3 * dof[i] + 2] -= weight;
        std::vector<Eigen::Triplet<double>> stiffness;
        auto add = [&](int r, int c, const Mat3& block) {
            if (r < 0 || c < 0) return;
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) stiffness.emplace_back(3 * r + a, 3 * c + b, block(a, b));
        };
        for (const auto& [i, j] : pairs) {
            const Vec3 between = x[i] - x[j];
            const double overlap = d - between.norm();
            // The first iteration starts from touching spheres: every neighbour may close.
            if (overlap <= (iteration == 0 ? -1e-9 * d : 0.0)) continue;
            const Vec3 normal = between.normalized();
            const Mat3 k = kn * normal * normal.transpose();
            if (dof[i] >= 0) force.segment<3>(3 * dof[i]) += kn * overlap * normal;
            if (dof[j] >= 0) force.segment<3>(3 * dof[j]) -= kn * overlap * normal;
            add(dof[i], dof[i], k);
            add(dof[j], dof[j], k);
            add(dof[i], dof[j], -k);
            add(dof[j], dof[i], -k);
        }
        if (iteration > 0 && force.cwiseAbs().maxCoeff() < 1e-7 * weight) break;
        Eigen::SparseMatrix<double> matrix(3 * free, 3 * free);
        matrix.setFromTriplets(stiffness.begin(), stiffness.end());
        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> factor(matrix);
        REQUIRE(factor.info() == Eigen::Success);
        const Eigen::VectorXd move = factor.solve(force);
        for (std::size_t i = 0; i < n; ++i)
            if (dof[i] >= 0) x[i] += move.segment<3>(3 * dof[i]);
    }
    return x;
}

}  // namespace

TEST_CASE("Compatibility: cannonball pyramid floor reactions match stiff DEM", "[compatibility][pyramid]") {
    // Seed 000, sections 8.2-8.3 and table 1: on the 20-sphere pyramid the compatible floor reactions
    // (forces on the fixed base) equal those of penalty DEM with Hooke contacts in the stiff limit
    // (paper: 1.9e-5 relative), whichever solver ran first; plain APGD and PGS return other members of
    // the solution set (paper: 0.17 and 0.19). Error = ||F - F_DEM|| / ||F_DEM||, as in the paper.
    // The paper drops the layers from 5% of a radius and reads the forces once static; the pyramid
    // here starts touching and at rest, the same static problem (the drop changes only which member
    // classic CD returns). The DEM reference is the static state of the `hooke` plugin: found by a
    // quasi-static (Newton) solve of its force law, then checked with the plugin itself to be at rest
    // (net force on every free sphere below 1e-6 of its weight, reactions unchanged over 100 steps,
    // the base carrying the weight above it). Frictionless, so that static state does not depend on
    // the path that led to it (a convex potential). About 5 s in Release.
    const double d = 2.0 * kRadius, mass = test::sphereMass(kRadius, kDensity), weight = mass * kGravity;
    // Stiff: overlaps of order 1e-6 d, so the geometric change that separates DEM statics from the
    // rigid limit is of that order. Critically damped pairs (reduced mass), time step t_c / 20.
    const double kn = 1e7 * weight / d, reduced_mass = 0.5 * mass;
    Scene dem_scene = pyramid();
    const std::vector<Vec3> statics = hookeStatics(dem_scene, kn);
    for (std::size_t i = 0; i < statics.size(); ++i) dem_scene.bodies[i].position = statics[i];
    dem_scene.contact_model.parameters = {{"kn", kn}, {"gamma_n", 2.0 * std::sqrt(kn / reduced_mass)}, {"gamma_t", 0.0}};
    dem_scene.time_step = kPi / std::sqrt(kn / reduced_mass) / 20.0;
    Simulation dem(dem_scene, test::builtPlugins());
    dem.step();
    double net = 0.0, free_weight = 0.0;
    for (std::size_t i = 0; i < dem.bodies().size(); ++i)
        if (!dem.bodies().frozen[i]) {
            net = std::max(net, dem.bodies().force[i].norm());
            free_weight += weight;
        }
    CHECK(net < 1e-6 * weight);
    const Eigen::VectorXd reference = floorReactions(dem);
    for (int k = 0; k < 100; ++k) dem.step();
    CHECK((floorReactions(dem) - reference).norm() < 1e-6 * reference.norm());
    CHECK(-reference.sum() == Approx(free_weight).epsilon(1e-6));

    auto error = [&](const Eigen::VectorXd& f) { return (f - reference).norm() / reference.norm(); };
    for (const char* first : {"ccp-apgd", "ccp-pgs"}) {
        const ContactDynamicsReactions cd = contactDynamicsReactions(first);
        const double compatible = error(cd.compatible), plain = error(cd.plain);
        INFO(first << ": compatible " << compatible << ", plain " << plain << " relative to DEM");
        CHECK(cd.converged);
        CHECK(cd.speed < 1e-4 * kGravity * 1e-3);  // at rest: the weight is carried (g dt would be 1)
        CHECK(compatible < 1e-3);
        CHECK(plain > 0.05);
    }
}
