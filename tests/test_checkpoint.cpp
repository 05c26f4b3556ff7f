// Checkpoints: a restarted run repeats the uninterrupted one exactly, and damaged files are refused.
// The property is determinism: the same arithmetic on the same bits in the same order gives the same
// bits, so a restart from a complete state cannot differ in even the last bit. A control run that
// drops the contact history shows the comparison detects a restart that misses state.

#include <algorithm>
#include <catch2/catch.hpp>
#include <tuple>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "grainlab/core/error.hpp"
#include "grainlab/io/checkpoint.hpp"
#include "grainlab/io/scene_file.hpp"
#include "grainlab/plugin/tangential_spring.hpp"
#include "restart_scene.hpp"
#include "support.hpp"
#include "temp_dir.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

Scene restartScene(const std::string& integrator, const std::string& model) {
    return parseScene(test::restartSceneJson(integrator, model), "restart-scene.json", GRAINLAB_SOURCE_DIR);
}

bool sameBodies(const Bodies& a, const Bodies& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a.position[i] != b.position[i] || a.velocity[i] != b.velocity[i] || a.angular_velocity[i] != b.angular_velocity[i] ||
            a.orientation[i].coeffs() != b.orientation[i].coeffs() || a.force[i] != b.force[i] || a.torque[i] != b.torque[i] ||
            a.image[i] != b.image[i])
            return false;
    return true;
}

// The pairs' history, a value per entry (zero where none is held), as a checkpoint lays it out.
std::vector<double> pairHistory(const State& s) { return s.pairs.history.dense(s.pairs.entries()); }

void requireSameState(const Simulation& a, const Simulation& b) {
    const State& x = a.state();
    const State& y = b.state();
    CHECK(x.step == y.step);
    CHECK(x.time == y.time);  // exact: the same sum of the same doubles
    CHECK(x.dissipated == y.dissipated);
    CHECK(x.elastic == y.elastic);
    CHECK(x.contacts == y.contacts);
    CHECK(sameBodies(x.bodies, y.bodies));
    CHECK(x.pairs.partner == y.pairs.partner);
    CHECK(x.pairs.history.size == y.pairs.history.size);
    CHECK(pairHistory(x) == pairHistory(y));
    CHECK(x.pairs.builds == y.pairs.builds);
    CHECK(x.wall_history == y.wall_history);
    REQUIRE(x.wall_contacts.size() == y.wall_contacts.size());
    for (std::size_t c = 0; c < x.wall_contacts.size(); ++c) {
        CHECK(x.wall_contacts[c].normal == y.wall_contacts[c].normal);
        CHECK(x.wall_contacts[c].overlap == y.wall_contacts[c].overlap);
    }
}

// `sim` advanced by `steps` and saved to `file`. As in a batch run, each step but the last leaves
// its closing update to the next step's pass (Simulation::step(true)), which must change no bit.
void stepAndSave(Simulation& sim, long steps, const fs::path& file) {
    for (long k = 0; k < steps; ++k) sim.step(k + 1 < steps);
    writeCheckpoint(sim, file);
}

bool anyNonZero(const std::vector<double>& v) {
    for (const double x : v)
        if (x != 0.0) return true;
    return false;
}

}  // namespace

TEST_CASE("A run restarted from a checkpoint repeats the uninterrupted run bit for bit", "[checkpoint]") {
    // The third run renumbers bodies in spatial order at every list rebuild: the order is state too.
    const auto [integrator, model, sort_every] = GENERATE(std::make_tuple("velocity-verlet", "hertz-mindlin", 0L),
                                                          std::make_tuple("semi-implicit-euler", "hooke", 0L),
                                                          std::make_tuple("velocity-verlet", "hertz-mindlin", 1L));
    INFO(integrator << " + " << model << ", spatial sort every " << sort_every << " builds");
    Scene scene = restartScene(integrator, model);
    scene.spatial_sort = {sort_every, 0};
    const long half = 300, total = 600;
    const test::TempDir dir("checkpoint-bits");
    const fs::path file = dir.path / "half.glc";

    Simulation whole(scene, test::builtPlugins());
    Simulation first(scene, test::builtPlugins());
    stepAndSave(first, half, file);
    const long builds_at_half = first.state().pairs.builds;
    // The state saved is one worth testing: contacts with tangential history against grains and wall.
    REQUIRE(first.state().contacts > 0);
    REQUIRE(!first.state().wall_contacts.empty());
    REQUIRE(anyNonZero(pairHistory(first.state())));
    REQUIRE(anyNonZero(first.state().wall_history));
    if (sort_every > 0) REQUIRE_FALSE(std::is_sorted(first.bodies().id.begin(), first.bodies().id.end()));

    Simulation resumed = Simulation::fromCheckpoint(readCheckpoint(file), test::builtPlugins());
    CHECK(resumed.threads() == 2);
    requireSameState(first, resumed);
    for (long k = 0; k < total; ++k) whole.step();
    for (long k = half; k < total; ++k) resumed.step(true);
    resumed.settle();
    CHECK(whole.state().pairs.builds > builds_at_half);  // the lists were rebuilt after the restart
    requireSameState(whole, resumed);

    // Control: a restart that loses the contact history ends somewhere else.
    Checkpoint forgetful = readCheckpoint(file);
    forgetful.state.pairs.history.clear();
    Simulation wrong = Simulation::fromCheckpoint(std::move(forgetful), test::builtPlugins());
    for (long k = half; k < total; ++k) wrong.step();
    CHECK_FALSE(sameBodies(whole.bodies(), wrong.bodies()));
}

TEST_CASE("A checkpoint with each pair in the row of its lower body, as saved before 2026-11-26, resumes the same run",
          "[checkpoint]") {
    // Determinism again: the restore turns the old rows round (each pair to its higher body, the
    // tangential spring's displacement negated, which is exact), so the lists and the motion after it
    // are those of the uninterrupted run, bit for bit.
    Scene scene = restartScene("velocity-verlet", "hooke");
    scene.spatial_sort = {1, 0};
    const long half = 300, total = 600;
    const test::TempDir dir("checkpoint-old-rows");
    const fs::path file = dir.path / "half.glc";
    Simulation whole(scene, test::builtPlugins());
    Simulation first(scene, test::builtPlugins());
    stepAndSave(first, half, file);
    REQUIRE(anyNonZero(pairHistory(first.state())));

    // The list as the earlier builds kept it: row i holds the partners j > i.
    Checkpoint old = readCheckpoint(file);
    NeighborList& list = old.state.pairs;
    const std::size_t n = list.row_start.size() - 1, h = list.history.size;
    const std::vector<double> saved_history = list.history.dense(list.entries());
    std::vector<std::vector<std::pair<std::uint32_t, std::vector<double>>>> rows(n);
    for (std::uint32_t i = 0; i < n; ++i)
        for (std::uint32_t k = list.row_start[i]; k < list.row_start[i + 1]; ++k) {
            REQUIRE(list.partner[k] < i);
            std::vector<double> history(saved_history.begin() + k * h, saved_history.begin() + (k + 1) * h);
            reverseTangentialHistory(history.data());
            rows[list.partner[k]].emplace_back(i, std::move(history));
        }
    list.partner.clear();
    std::vector<double> old_history;
    for (std::uint32_t i = 0; i < n; ++i) {
        std::sort(rows[i].begin(), rows[i].end());
        for (const auto& [j, history] : rows[i]) {
            list.partner.push_back(j);
            old_history.insert(old_history.end(), history.begin(), history.end());
        }
        list.row_start[i + 1] = static_cast<std::uint32_t>(list.partner.size());
    }
    list.history = PairHistory::fromDense(old_history, h);
    list.owner.clear();

    Simulation resumed = Simulation::fromCheckpoint(std::move(old), test::builtPlugins());
    requireSameState(first, resumed);
    for (long k = 0; k < total; ++k) whole.step();
    for (long k = half; k < total; ++k) resumed.step();
    requireSameState(whole, resumed);
}

TEST_CASE("A checkpoint keeps plugin choices, parameters and the time step", "[checkpoint]") {
    const Scene scene = restartScene("semi-implicit-euler", "hooke");
    const test::TempDir dir("checkpoint-scene");
    const fs::path file = dir.path / "c.glc";
    Simulation sim(scene, test::builtPlugins());
    writeCheckpoint(sim, file);
    CHECK_FALSE(readCheckpoint(file).extras.forces_current);  // no force evaluated before the first step
    sim.step();
    writeCheckpoint(sim, file);
    const Checkpoint c = readCheckpoint(file);
    CHECK(c.scene.integrator.name == "semi-implicit-euler");
    CHECK(c.scene.contact_model.name == "hooke");
    CHECK(c.scene.contact_model.parameters.at("kn") == 2e3);
    CHECK(c.scene.time_step == scene.time_step);
    CHECK(c.scene.meshes.at(0).mesh.triangles.size() == sim.scene().meshes.at(0).mesh.triangles.size());
    CHECK(c.scene_file == "restart-scene.json");
    CHECK(c.state.step == 1);
    CHECK(c.extras.forces_current);  // semi-implicit Euler leaves the forces of the new positions
}

TEST_CASE("Damaged or foreign checkpoints are refused with a message naming the file", "[checkpoint][bad-input]") {
    const test::TempDir scratch("checkpoint-bad");
    const fs::path& dir = scratch.path;
    Simulation sim(restartScene("velocity-verlet", "hertz-mindlin"), test::builtPlugins());
    sim.step();
    writeCheckpoint(sim, dir / "good.glc");
    std::ifstream in(dir / "good.glc", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string good = ss.str();
    auto refused = [&](const std::string& bytes, const std::string& expected) {
        try {
            parseCheckpoint(bytes, "damaged.glc");
        } catch (const InputError& e) {
            INFO(e.what());
            CHECK(e.file() == "damaged.glc");
            CHECK(std::string(e.what()).find(expected) != std::string::npos);
            return;
        }
        FAIL("accepted a damaged checkpoint, expected: " << expected);
    };
    refused(good.substr(0, good.size() / 2), "truncated");
    refused("{\"format\": \"grainlab-scene\"}", "not a GrainLab checkpoint");
    std::string flipped = good;
    flipped[flipped.size() - 100] ^= 0x10;  // inside the last section
    refused(flipped, "checksum mismatch");
    std::string newer = good;
    const std::string version = "\"version\": " + std::to_string(kCheckpointFormatVersion);
    const std::size_t at = newer.find(version);
    REQUIRE(at != std::string::npos);
    newer.replace(at, version.size(), "\"version\": 9");
    refused(newer, "newer than this program reads");
    CHECK_THROWS_AS(readCheckpoint(dir / "missing.glc"), InputError);

    // Tools that take a scene or a checkpoint tell them apart by the first line.
    CHECK(isCheckpointFile(dir / "good.glc"));
    std::ofstream(dir / "scene.json") << "{\"format\": \"grainlab-scene\"}";
    CHECK_FALSE(isCheckpointFile(dir / "scene.json"));
    std::ofstream(dir / "short.glc") << "GRAIN";
    CHECK_FALSE(isCheckpointFile(dir / "short.glc"));
    CHECK_FALSE(isCheckpointFile(dir / "missing.glc"));
}
