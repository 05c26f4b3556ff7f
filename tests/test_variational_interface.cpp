// What the variational integrator refuses, and what it reports.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "grainlab/core/error.hpp"
#include "grainlab/sim/batch_run.hpp"
#include "temp_dir.hpp"
#include "variational_support.hpp"

using namespace grainlab;
using namespace grainlab::test::deklerk;
using grainlab::test::builtPlugins;

namespace {

std::string refusalField(const Scene& s) {
    try {
        Simulation sim(s, builtPlugins());
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("variational") != std::string::npos);
        return e.field();
    }
    return "";
}

Scene restingOnFloor(double alpha) {
    Scene s = scene("variational", 50.0, alpha);
    s.gravity = Vec3(0, 0, -1);
    s.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
    // Static overlap m g / kn: spring and gravity balance.
    s.bodies.push_back(test::sphere(Vec3(0, 0, kRadius - 1.0 / kStiffness), Vec3::Zero(), kRadius));
    s.time_step = kWallContactTime / 20.0;
    return s;
}

}  // namespace

TEST_CASE("Variational integrator refuses contact models it cannot differentiate, naming the field", "[variational][input]") {
    Scene hertz = scene("variational", 0.0);
    hertz.contact_model = {"hertz-mindlin", {}};
    hertz.bodies.push_back(test::sphere(Vec3::Zero(), Vec3::Zero()));
    hertz.time_step = 1e-5;
    CHECK(refusalField(hertz) == "/plugins/contact_model/name");

    Scene spring = scene("variational", 0.0);
    spring.contact_model.parameters.erase("kt");  // default: kt = 2/7 kn, a history spring
    spring.bodies.push_back(test::sphere(Vec3::Zero(), Vec3::Zero()));
    spring.time_step = 1e-5;
    CHECK(refusalField(spring) == "/plugins/contact_model/parameters/kt");
}

TEST_CASE("Variational integrator keeps an equilibrium: no Newton update, no momentum", "[physics][variational]") {
    // Fixed point (notes, suggested test 10): with grad V = 0 (spring balancing gravity) and P = 0 the
    // discrete equations are solved by q_k+1 = q_k for every alpha.
    for (double alpha : {0.5, 0.0}) {
        Simulation sim(restingOnFloor(alpha), builtPlugins());
        const Vec3 start = sim.bodies().position[0];
        for (int k = 0; k < 50; ++k) sim.step();
        INFO("alpha = " << alpha);
        CHECK((sim.bodies().position[0] - start).norm() < 1e-12);
        CHECK(sim.bodies().velocity[0].norm() < 1e-9);
        for (const IntegratorStatistic& stat : sim.integratorStatistics())
            if (stat.name == "newton_iterations_per_step_max") CHECK(stat.value == 0.0);
    }
}

TEST_CASE("Newton and CG iteration counts reach the run summary", "[variational][output]") {
    // A ball dropped onto the floor: contact steps need Newton solves, so the counts are positive.
    Scene s = restingOnFloor(0.5);
    s.bodies[0].position.z() = kRadius + 0.01;
    const test::TempDir scratch("variational");
    const auto folder = scratch.path / "out";
    Simulation sim(s, builtPlugins());
    BatchOptions options;
    options.steps = 400;
    options.output = folder;
    const RunSummary summary = runBatch(sim, options);
    REQUIRE(summary.status == "completed");
    std::ifstream in(folder / "summary.json");
    const auto json = nlohmann::json::parse(in);
    REQUIRE(json.contains("integrator_statistics"));
    CHECK(json["integrator_statistics"]["newton_iterations_per_step_max"].get<double>() >= 1.0);
    CHECK(json["integrator_statistics"]["cg_iterations_per_step_max"].get<double>() >= 1.0);
    CHECK(json["integrator_statistics"]["steps_not_converged"].get<double>() == 0.0);
}
