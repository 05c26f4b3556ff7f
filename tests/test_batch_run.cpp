// A headless run writes a complete, consistent set of files, also when the run stops early.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "grainlab/sim/batch_run.hpp"
#include "support.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

fs::path freshFolder(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("grainlab-batch-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    return dir;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("Batch run writes frames, time series and summary that agree with the run", "[cli][output]") {
    Scene scene = test::emptyScene();
    scene.gravity = Vec3(0, 0, -9.81);
    scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.6), Vec3::Zero()));
    scene.time_step = 1e-4;
    scene.output.every_steps = 100;
    Simulation sim(scene, test::builtPlugins());
    BatchOptions options;
    options.steps = 1000;
    options.output = freshFolder("ok");
    const RunSummary summary = runBatch(sim, options);
    CHECK(summary.status == "completed");
    CHECK(summary.steps == 1000);
    // Frames at steps 0, 100, ..., 1000, each listed once in the collection.
    CHECK(count(slurp(options.output / "particles.pvd"), "<DataSet") == 11);
    CHECK(fs::exists(options.output / "particles_00001000.vtp"));
    // Time series: header plus one row per frame; the summary's final energy is the last row's.
    const std::string csv = slurp(options.output / "energy.csv");
    CHECK(count(csv, "\n") == 12);
    const auto json = nlohmann::json::parse(slurp(options.output / "summary.json"));
    CHECK(json["steps"] == 1000);
    CHECK(json["final_energy"]["kinetic"].get<double>() == Approx(sim.energy().kinetic));
    // Free fall from rest for 0.1 s (it touches the floor only after 0.32 s): v = g t.
    CHECK(sim.bodies().velocity[0].z() == Approx(-9.81 * 0.1).epsilon(1e-9));
}

TEST_CASE("A run that stops keeps every file it wrote valid and says why", "[cli][output][runaway]") {
    Scene scene = test::emptyScene();
    scene.gravity = Vec3(0, 0, -9.81e4);  // reaches a speed of one radius per step after ~0.05 s
    scene.bodies.push_back(test::sphere(Vec3(0, 0, 0), Vec3::Zero()));
    scene.time_step = 1e-4;
    scene.output.every_steps = 100;
    Simulation sim(scene, test::builtPlugins());
    BatchOptions options;
    options.steps = 5000;
    options.output = freshFolder("stop");
    const RunSummary summary = runBatch(sim, options);
    CHECK(summary.status.find("stopped: body 1") == 0);
    CHECK(summary.steps < 5000);
    // Every listed frame exists; the collection is complete XML.
    const std::string pvd = slurp(options.output / "particles.pvd");
    CHECK(pvd.find("</VTKFile>") != std::string::npos);
    for (long step = 0; step <= summary.steps; step += 100)
        CHECK(fs::exists(options.output / ("particles_" + std::string(8 - std::to_string(step).size(), '0') + std::to_string(step) + ".vtp")));
    const auto json = nlohmann::json::parse(slurp(options.output / "summary.json"));
    CHECK(json["status"].get<std::string>().find("runaway") != std::string::npos);
}
