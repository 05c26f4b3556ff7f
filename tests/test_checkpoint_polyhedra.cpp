// Checkpoints of polyhedra runs: the feature contacts and their history (tangential springs, slip
// state, last normals of the polyhedral-barrier model) are part of the state. The property is
// determinism, as in test_checkpoint.cpp: a restart from the complete state repeats the same
// arithmetic on the same bits, so it ends on exactly the bits of the uninterrupted run; control
// restarts that lose the history end elsewhere, so the comparison does detect missing state.

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "grainlab/core/error.hpp"
#include "grainlab/io/checkpoint.hpp"
#include "polyhedra_support.hpp"
#include "temp_dir.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

constexpr long kHalf = 150, kTotal = 400;

// Three cubes sliding with friction on the ground, one of them carrying a fourth that slides on
// it: cube-ground and cube-cube contacts (vertex-face and edge-edge) that stick and slip.
Scene slidingCubes(int threads = 2) {
    test::CubeSceneSettings settings;
    settings.damping_ratio = 0.3;
    settings.tangential_damping_ratio = 0.1;
    settings.mu_s = 0.6;
    settings.mu_d = 0.4;
    Scene scene = test::polyhedronScene("cube.stl", settings.side, settings);
    scene.threads = threads;
    const double gap = 0.00099;  // just inside the skin (0.001): the springs act from the first step
    const double z = 0.05 + gap;  // half the side above the ground
    const auto turned = [](double angle) { return Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ())); };
    auto add = [&](const Vec3& x, const Quat& q, const Vec3& v) {
        BodySpec b = test::polyhedralBody(x, q);
        b.velocity = v;
        scene.bodies.push_back(b);
    };
    add(Vec3(0, 0, z), Quat::Identity(), Vec3(0.05, 0, 0));
    add(Vec3(0.3, 0, z), turned(0.2), Vec3(-0.04, 0.02, 0));
    add(Vec3(0.3, 0, z + 0.1 + gap), Quat::Identity(), Vec3(-0.01, 0.03, 0));
    add(Vec3(-0.3, 0.2, z), turned(-0.5), Vec3(0, -0.06, 0));
    return scene;
}

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The checkpoint of `sim` as written to disk.
std::string checkpointBytes(const Simulation& sim) {
    const test::TempDir dir("poly-checkpoint-bytes");
    const fs::path file = dir.path / "c.glc";
    writeCheckpoint(sim, file);
    return readBytes(file);
}

bool sameBodies(const Bodies& a, const Bodies& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a.position[i] != b.position[i] || a.velocity[i] != b.velocity[i] || a.angular_velocity[i] != b.angular_velocity[i] ||
            a.orientation[i].coeffs() != b.orientation[i].coeffs() || a.force[i] != b.force[i] || a.torque[i] != b.torque[i])
            return false;
    return a.size() == b.size();
}

void requireSameState(const Simulation& x, const Simulation& y) {
    const State& a = x.state();
    const State& b = y.state();
    CHECK(a.step == b.step);
    CHECK(a.time == b.time);
    CHECK(a.dissipated == b.dissipated);
    CHECK(a.elastic == b.elastic);
    CHECK(a.contacts == b.contacts);
    CHECK(sameBodies(a.bodies, b.bodies));
    CHECK(a.polyhedral.history == b.polyhedral.history);
    REQUIRE(a.polyhedral.contacts.size() == b.polyhedral.contacts.size());
    for (std::size_t c = 0; c < a.polyhedral.contacts.size(); ++c) {
        CHECK(a.polyhedral.contacts[c].geometry.normal == b.polyhedral.contacts[c].geometry.normal);
        CHECK(a.polyhedral.contacts[c].geometry.gap == b.polyhedral.contacts[c].geometry.gap);
    }
}

// The checkpoint with its JSON header edited (sizes and payload unchanged).
template <class Edit>
std::string editHeader(const std::string& bytes, Edit edit) {
    const std::size_t first = bytes.find('\n') + 1;
    const std::size_t second = bytes.find('\n', first);
    const std::size_t length = std::stoull(bytes.substr(first, second - first));
    nlohmann::ordered_json header = nlohmann::ordered_json::parse(bytes.substr(second + 1, length));
    edit(header);
    const std::string text = header.dump(1);
    return bytes.substr(0, first) + std::to_string(text.size()) + "\n" + text + bytes.substr(second + 1 + length);
}

void dropSections(nlohmann::ordered_json& header, const std::string& prefix) {
    nlohmann::ordered_json kept = nlohmann::ordered_json::array();
    for (const auto& s : header["sections"])
        if (s["name"].get<std::string>().rfind(prefix, 0) != 0) kept.push_back(s);
    header["sections"] = kept;
}

// The checkpoint as a version-1 writer made it: no feature-contact sections or header entry.
std::string asVersionOne(const std::string& bytes) {
    return editHeader(bytes, [](nlohmann::ordered_json& h) {
        h["version"] = 1;
        h.erase("polyhedral");
        dropSections(h, "polyhedral/");
    });
}

}  // namespace

TEST_CASE("A polyhedra run restarted from a checkpoint repeats the uninterrupted run bit for bit",
          "[checkpoint][polyhedra]") {
    const Scene scene = slidingCubes();
    const test::TempDir dir("poly-checkpoint-bits");
    const fs::path file = dir.path / "half.glc";
    Simulation whole(scene, test::builtPlugins());
    Simulation first(scene, test::builtPlugins());
    for (long k = 0; k < kHalf; ++k) first.step();
    writeCheckpoint(first, file);
    // A state worth saving: contacts with the ground and between cubes, tangential springs loaded.
    const PolyhedralContactList& saved = first.state().polyhedral;
    REQUIRE(first.state().contacts > 8);
    bool cube_on_cube = false, spring_loaded = false;
    for (const PolyhedralContact& c : saved.contacts) cube_on_cube |= !c.wall() && c.geometry.gap < 0.001;
    for (const double x : saved.history) spring_loaded |= x != 0.0;
    REQUIRE(cube_on_cube);
    REQUIRE(spring_loaded);

    Simulation resumed = Simulation::fromCheckpoint(readCheckpoint(file), test::builtPlugins());
    CHECK(resumed.threads() == 2);
    requireSameState(first, resumed);
    for (long k = 0; k < kTotal; ++k) whole.step();
    for (long k = kHalf; k < kTotal; ++k) resumed.step();
    requireSameState(whole, resumed);

    // Controls: the restart without the saved history (zeroed, or found again as version 1 did)
    // ends elsewhere.
    Checkpoint forgetful = readCheckpoint(file);
    std::fill(forgetful.state.polyhedral.history.begin(), forgetful.state.polyhedral.history.end(), 0.0);
    Checkpoint searched = parseCheckpoint(asVersionOne(readBytes(file)), "v1.glc");
    CHECK_FALSE(searched.extras.feature_contacts_saved);
    for (Checkpoint* c : {&forgetful, &searched}) {
        Simulation wrong = Simulation::fromCheckpoint(std::move(*c), test::builtPlugins());
        for (long k = kHalf; k < kTotal; ++k) wrong.step();
        CHECK_FALSE(sameBodies(whole.bodies(), wrong.bodies()));
    }
}

TEST_CASE("Feature-contact sections: version 1 files still load, damaged ones are refused", "[checkpoint][polyhedra][bad-input]") {
    Simulation sim(slidingCubes(), test::builtPlugins());
    for (int k = 0; k < 20; ++k) sim.step();
    const std::string good = checkpointBytes(sim);
    auto refused = [&](const std::string& bytes, const std::string& field, const std::string& expected) {
        try {
            Simulation::fromCheckpoint(parseCheckpoint(bytes, "damaged.glc"), test::builtPlugins());
        } catch (const InputError& e) {
            INFO(e.what());
            CHECK(e.file() == "damaged.glc");
            CHECK(e.field() == field);
            CHECK(std::string(e.what()).find(expected) != std::string::npos);
            return;
        }
        FAIL("accepted a damaged checkpoint, expected: " << expected);
    };

    // Version 1 (before feature contacts were saved): resumes with the contacts found again.
    Simulation old = Simulation::fromCheckpoint(parseCheckpoint(asVersionOne(good), "v1.glc"), test::builtPlugins());
    CHECK(old.state().polyhedral.contacts.size() == sim.state().polyhedral.contacts.size());
    old.step();

    // Version 2 without a feature-contact section: refused, naming it.
    refused(editHeader(good, [](nlohmann::ordered_json& h) { dropSections(h, "polyhedral/history"); }),
            "polyhedral/history", "required section missing");
    // A history size the saved arrays do not have.
    refused(editHeader(good, [](nlohmann::ordered_json& h) { h["polyhedral"]["history_size"] = 6; }),
            "polyhedral/history", "expected");
    // A feature contact naming a wall the scene does not have (the ground is wall 0, id -1).
    Checkpoint no_wall = parseCheckpoint(good, "damaged.glc");
    REQUIRE(!no_wall.state.polyhedral.contacts.empty());
    no_wall.state.polyhedral.contacts.front().body_b = -5;
    try {
        Simulation::fromCheckpoint(std::move(no_wall), test::builtPlugins());
        FAIL("accepted a contact with a wall that does not exist");
    } catch (const InputError& e) {
        CHECK(e.field() == "polyhedral/contact_ids");
    }
}

namespace {

// FNV-1a of a section's bytes, as the checkpoint table lists it (16 hex digits).
std::string fnv1aHex(std::string_view bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

// Overwrites one 8-byte value of a named section and fixes its checksum, so the damage gets past
// the checksum to the checks behind it (random byte flips, as the fuzz corpus gets, stop there).
std::string withValue(const std::string& bytes, const std::string& section, std::size_t index, std::uint64_t bits) {
    const std::size_t first = bytes.find('\n') + 1;
    const std::size_t second = bytes.find('\n', first);
    const std::size_t payload = second + 1 + std::stoull(bytes.substr(first, second - first));
    std::string out = bytes;
    std::size_t offset = 0, length = 0;
    const std::string edited = editHeader(bytes, [&](nlohmann::ordered_json& h) {
        for (auto& s : h["sections"]) {
            if (s["name"] != section) continue;
            offset = payload + s["offset"].get<std::size_t>();
            length = s["bytes"].get<std::size_t>();
            REQUIRE(8 * index + 8 <= length);
            std::memcpy(out.data() + offset + 8 * index, &bits, 8);
            s["fnv1a"] = fnv1aHex(std::string_view(out).substr(offset, length));
        }
    });
    REQUIRE(length > 0);
    // The header's length may have changed: the edited header, then the mutated payload.
    const std::size_t e_first = edited.find('\n') + 1;
    const std::size_t e_second = edited.find('\n', e_first);
    const std::size_t e_payload = e_second + 1 + std::stoull(edited.substr(e_first, e_second - e_first));
    return edited.substr(0, e_payload) + out.substr(payload);
}

}  // namespace

TEST_CASE("Feature-contact sections with damaged values past the checksum: refused with a message or run",
          "[checkpoint][polyhedra][bad-input][fuzz]") {
    // Seeded mutation, as tests/fuzz does for whole files: every input is accepted (and then steps
    // or stops with a SimulationError naming the body) or refused with an InputError naming the
    // file; nothing else may escape, and nothing may crash. One thread: 120 restarts.
    Simulation sim(slidingCubes(1), test::builtPlugins());
    for (int k = 0; k < 20; ++k) sim.step();
    const std::string good = checkpointBytes(sim);
    const std::size_t contacts = sim.state().polyhedral.contacts.size();
    REQUIRE(contacts > 0);
    const std::uint64_t values[] = {0, 1, 5, 6, 0x7fffffff, 0xffffffff, 0x100000000ull, ~0ull, ~0ull - 4,
                                    0x8000000000000000ull, 0x7ff8000000000000ull /* nan */,
                                    0x7ff0000000000000ull /* inf */, 0xbff0000000000000ull /* -1.0 */};
    const char* const sections[] = {"polyhedral/contact_ids", "polyhedral/contact_geometry", "polyhedral/history"};
    const std::size_t per_contact[] = {6, 13, 11};
    std::mt19937_64 random(7);
    int refused = 0, accepted = 0;
    for (int k = 0; k < 120; ++k) {
        const std::size_t s = random() % 3;
        const std::size_t index = random() % (per_contact[s] * contacts);
        const std::string bytes = withValue(good, sections[s], index, values[random() % std::size(values)]);
        try {
            Simulation resumed = Simulation::fromCheckpoint(parseCheckpoint(bytes, "mutated.glc"), test::builtPlugins());
            resumed.step();
            ++accepted;
        } catch (const InputError& e) {
            CHECK(e.file() == "mutated.glc");
            CHECK(!e.field().empty());
            ++refused;
        } catch (const SimulationError& e) {
            CHECK(std::string(e.what()).find("body") != std::string::npos);
            ++accepted;
        }
    }
    CHECK(refused > 0);
    CHECK(accepted > 0);
}
