// A headless run writes a complete, consistent set of files, also when the run stops early.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "grainlab/sim/batch_run.hpp"
#include "support.hpp"
#include "temp_dir.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// One sphere under gravity, a frame every 100 steps, run in a fresh folder.
RunSummary runSphere(double gravity, bool floor, long steps, const fs::path& folder, Vec3& final_velocity) {
    Scene scene = test::emptyScene();
    scene.gravity = Vec3(0, 0, gravity);
    if (floor) scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.6), Vec3::Zero()));
    scene.time_step = 1e-4;
    scene.output.every_steps = 100;
    Simulation sim(scene, test::builtPlugins());
    BatchOptions options;
    options.steps = steps;
    options.output = folder;
    const RunSummary summary = runBatch(sim, options);
    final_velocity = sim.bodies().velocity[0];
    return summary;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("Batch run writes frames, time series and summary that agree with the run", "[cli][output]") {
    const test::TempDir scratch("batch-ok");
    const fs::path folder = scratch.path / "out";  // the run makes it
    Vec3 velocity;
    const RunSummary summary = runSphere(-9.81, true, 1000, folder, velocity);
    CHECK(summary.status == "completed");
    CHECK(summary.steps == 1000);
    // Frames at steps 0, 100, ..., 1000, each listed once in the collection.
    CHECK(count(slurp(folder / "particles.pvd"), "<DataSet") == 11);
    CHECK(fs::exists(folder / "particles_00001000.vtp"));
    // Time series: header plus one row per frame; the summary's final energy is the last row's.
    const std::string csv = slurp(folder / "energy.csv");
    CHECK(count(csv, "\n") == 12);
    const auto json = nlohmann::json::parse(slurp(folder / "summary.json"));
    CHECK(json["steps"] == 1000);
    CHECK(json["final_energy"]["kinetic"].get<double>() == Approx(0.5 * test::sphereMass(0.5, 1.0) * velocity.squaredNorm()));
    // Free fall from rest for 0.1 s (it reaches the floor only after 0.14 s): v = g t.
    CHECK(velocity.z() == Approx(-9.81 * 0.1).epsilon(1e-9));
    // The phases split the run's wall time: each part at least zero, together the whole (to the
    // rounding of the sum).
    const auto& phases = json["seconds_by_phase"];
    double parts = 0.0;
    for (const char* phase : {"integration", "neighbours", "forces", "output_and_other"}) {
        CHECK(phases[phase].get<double>() >= 0.0);
        parts += phases[phase].get<double>();
    }
    CHECK(parts == Approx(json["wall_seconds"].get<double>()).epsilon(1e-9));
    CHECK(summary.phases.forces > 0.0);
}

TEST_CASE("A run that stops keeps every file it wrote valid and says why", "[cli][output][runaway]") {
    // g = 9.81e4 reaches a speed of one radius per step after ~0.05 s.
    const test::TempDir scratch("batch-stop");
    const fs::path folder = scratch.path / "out";  // the run makes it
    Vec3 velocity;
    const RunSummary summary = runSphere(-9.81e4, false, 5000, folder, velocity);
    CHECK(summary.status.find("stopped: body 1") == 0);
    CHECK(summary.steps < 5000);
    // Every listed frame exists; the collection is complete XML.
    const std::string pvd = slurp(folder / "particles.pvd");
    CHECK(pvd.find("</VTKFile>") != std::string::npos);
    for (long step = 0; step <= summary.steps; step += 100)
        CHECK(fs::exists(folder / ("particles_" + std::string(8 - std::to_string(step).size(), '0') + std::to_string(step) + ".vtp")));
    const auto json = nlohmann::json::parse(slurp(folder / "summary.json"));
    CHECK(json["status"].get<std::string>().find("runaway") != std::string::npos);
}
