// The scene file format (reading, validation messages, writing) and the body generators. Scene
// files, meshes and data files are written to a temp directory at run time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grainlab/core/error.hpp"
#include "grainlab/io/scene_file.hpp"
#include "grainlab/scene/generators.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;
using namespace grainlab;
using nlohmann::json;

namespace {

using test::TempDir;

// A small valid scene; tests break one thing in it at a time.
json baseScene() {
    return json::parse(R"({
        "format": "grainlab-scene", "version": 1, "name": "base",
        "materials": [{"name": "glass", "density": 2500}, {"name": "steel", "density": 7800}],
        "bodies": [{"material": "glass", "radius": 0.5, "position": [0, 0, 1]}],
        "walls": [{"type": "plane", "name": "floor", "point": [0, 0, 0], "normal": [0, 0, 1], "material": "steel"}],
        "time_step": 1e-4, "run": {"steps": 10}
    })");
}

// Runs `read`, which must throw InputError whose message contains each of `parts`.
void requireInputError(const std::function<void()>& read, const std::vector<std::string>& parts) {
    try {
        read();
    } catch (const InputError& error) {
        const std::string message = error.what();
        INFO("message: " << message);
        for (const auto& part : parts) CHECK(message.find(part) != std::string::npos);
        return;
    }
    FAIL("no InputError thrown; expected one containing " << parts.front());
}

// Writes `doc` as a scene file and checks that reading it fails naming the file, `pointer` and
// `parts`.
void requireBadScene(const TempDir& dir, const json& doc, const std::string& pointer,
                     std::vector<std::string> parts) {
    const std::string path = dir.write("bad.json", doc.dump(2));
    parts.insert(parts.begin(), {path, pointer});
    requireInputError([&] { readSceneFile(path); }, parts);
    try {
        readSceneFile(path);
    } catch (const InputError& error) {
        CHECK(error.field() == pointer);
        CHECK(error.file() == path);
    }
}

bool inside(const Region& region, const BodySpec& b, double tol = 1e-12) {
    if (const auto* box = std::get_if<BoxRegion>(&region))
        return ((b.position.array() - b.radius) >= box->min.array() - tol).all() &&
               ((b.position.array() + b.radius) <= box->max.array() + tol).all();
    const auto& c = std::get<CylinderRegion>(region);
    const Vec3 d = b.position - c.base_center;
    const double along = d.dot(c.axis);
    const double radial = (d - along * c.axis).norm();
    return along >= b.radius - tol && along <= c.height - b.radius + tol &&
           radial <= c.radius - b.radius + tol;
}

// Smallest gap (distance minus the sum of radii) between any two of `bodies`, or between one of
// them and one of `others`.
double smallestGap(const std::vector<BodySpec>& bodies, const std::vector<BodySpec>& others = {}) {
    double gap = INFINITY;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        for (std::size_t j = i + 1; j < bodies.size(); ++j)
            gap = std::min(gap, (bodies[i].position - bodies[j].position).norm() -
                                    bodies[i].radius - bodies[j].radius);
        for (const auto& o : others)
            gap = std::min(gap,
                           (bodies[i].position - o.position).norm() - bodies[i].radius - o.radius);
    }
    return gap;
}

Scene sceneWithMaterial() {
    Scene scene;
    scene.source_file = "generated.json";
    scene.materials.push_back(Material{"glass", 2500, 1e7, 0.3, 0.5, 0.5, 0.0});
    return scene;
}

const char* kFullScene = R"({
  // comments are allowed
  "format": "grainlab-scene", "version": 1, "name": "chute", "description": "a full scene",
  "materials": [
    {"name": "glass", "density": 2500, "youngs_modulus": 1e7, "poisson_ratio": 0.25, "restitution": 0.5,
     "friction": 0.4, "rolling_friction": 0.01},
    {"name": "steel", "density": 7800}
  ],
  "shapes": [{"name": "sphere", "kind": "sphere"}, {"name": "ball", "kind": "sphere"}],
  "bodies": [
    {"shape": "ball", "material": "glass", "radius": 0.5, "position": [0, 0, 1], "velocity": [1, 2, 3],
     "angular_velocity": [0, 0, 4], "orientation": [2, 0, 0, 0], "frozen": true, "id": 7},
    {"material": "steel", "radius": 0.25, "position": [2, 0, 1]}
  ],
  "generators": [
    {"type": "lattice", "kind": "hcp", "material": "glass", "origin": [0, 0, 5], "counts": [2, 3, 4],
     "radius": 0.1, "spacing": 0.25, "velocity": [0, 0, -1], "frozen": false},
    {"type": "random_fill", "material": "glass", "count": 50, "seed": 42,
     "radius": {"distribution": "uniform", "min": 0.04, "max": 0.06},
     "region": {"box": {"min": [-1, -1, 2], "max": [1, 1, 3]}}},
    {"type": "random_fill", "material": "steel", "count": 20, "seed": 18446744073709551615,
     "radius": {"distribution": "normal", "mean": 0.05, "stddev": 0.01, "min": 0.03, "max": 0.07},
     "region": {"cylinder": {"base_center": [0, 0, 10], "axis": [0, 0, 2], "radius": 0.5, "height": 1}},
     "velocity": [0, 0, 0], "frozen": true}
  ],
  "lammps_data": {"file": "data/data.chute", "material_by_type": {"1": "glass", "2": "steel"}, "frozen_types": [2]},
  "walls": [
    {"type": "plane", "name": "floor", "point": [0, 0, 0], "normal": [0, 0, 3], "material": "steel",
     "motion": {"surface_velocity": [1, 0, 0]}},
    {"type": "mesh", "name": "hopper", "file": "../meshes/hopper.stl", "scale": 0.5, "translation": [0, 0, 1],
     "material": "steel", "motion": {"velocity": [0, 0, 0.1], "angular_velocity": [0, 0, 1], "center": [0, 0, 2]}}
  ],
  "domain": {"min": [-2, -2, 0], "max": [2, 2, 20], "periodic": [true, false, false]},
  "gravity": [0, 0, -9.81],
  "plugins": {"integrator": {"name": "velocity-verlet", "parameters": {}},
              "contact_model": {"name": "hertz-mindlin", "parameters": {"kn": 2e5, "tangential": true}},
              "solver": null},
  "time_step": 1e-5, "skin": 0.02, "max_initial_overlap": 0.05, "threads": 2,
  "run": {"time": 1.5},
  "output": {"directory": "results", "every_steps": 100, "contacts": false}
})";

// Writes the full scene under dir/scenes/ with its mesh and data files, returns its path.
std::string writeFullScene(const TempDir& dir) {
    dir.write("meshes/hopper.stl", "solid empty\nendsolid empty\n");
    dir.write("scenes/data/data.chute", "LAMMPS data file\n");
    return dir.write("scenes/full.json", kFullScene);
}

}  // namespace

TEST_CASE("a full scene file parses to the expected values", "[scene_file]") {
    TempDir dir;
    const std::string path = writeFullScene(dir);
    const Scene s = readSceneFile(path);

    CHECK(s.source_file == path);
    CHECK(s.name == "chute");
    CHECK(s.description == "a full scene");
    REQUIRE(s.materials.size() == 2);
    CHECK(s.materials[0].name == "glass");
    CHECK(s.materials[0].density == 2500);
    CHECK(s.materials[0].poisson_ratio == 0.25);
    CHECK(s.materials[0].friction == 0.4);
    CHECK(s.materials[0].rolling_friction == 0.01);
    CHECK(s.materials[1].youngs_modulus == Material{}.youngs_modulus);  // default
    REQUIRE(s.shapes.size() == 2);                                      // built-in sphere + ball
    CHECK(s.shapes[1].name == "ball");

    REQUIRE(s.bodies.size() == 2);
    const BodySpec& b = s.bodies[0];
    CHECK(b.shape == "ball");
    CHECK(b.material == "glass");
    CHECK(b.radius == 0.5);
    CHECK(b.position == Vec3(0, 0, 1));
    CHECK(b.velocity == Vec3(1, 2, 3));
    CHECK(b.angular_velocity == Vec3(0, 0, 4));
    CHECK(b.orientation.w() == 1.0);  // normalised
    CHECK(b.frozen);
    CHECK(b.id == 7);
    CHECK(s.bodies[1].shape == "sphere");
    CHECK(s.bodies[1].id == -1);
    CHECK(s.bodies[1].orientation.coeffs() == Quat::Identity().coeffs());

    REQUIRE(s.lattices.size() == 1);
    CHECK(s.lattices[0].kind == Lattice::Kind::HexagonalClosePacked);
    CHECK(s.lattices[0].counts == std::array<int, 3>{2, 3, 4});
    CHECK(s.lattices[0].spacing == 0.25);
    CHECK(s.lattices[0].velocity == Vec3(0, 0, -1));
    CHECK(s.lattices[0].source_index == 0);
    REQUIRE(s.fills.size() == 2);
    CHECK(s.fills[0].source_index == 1);
    CHECK(s.fills[0].count == 50);
    CHECK(s.fills[0].seed == 42);
    CHECK(s.fills[0].radius.kind == SizeDistribution::Kind::Uniform);
    CHECK(s.fills[0].radius.min == 0.04);
    CHECK(s.fills[0].radius.max == 0.06);
    REQUIRE(std::holds_alternative<BoxRegion>(s.fills[0].region));
    CHECK(std::get<BoxRegion>(s.fills[0].region).max == Vec3(1, 1, 3));
    CHECK(s.fills[1].seed == 18446744073709551615ull);
    CHECK(s.fills[1].radius.kind == SizeDistribution::Kind::Normal);
    CHECK(s.fills[1].radius.stddev == 0.01);
    CHECK(s.fills[1].frozen);
    REQUIRE(std::holds_alternative<CylinderRegion>(s.fills[1].region));
    CHECK(std::get<CylinderRegion>(s.fills[1].region).axis == Vec3(0, 0, 1));  // normalised

    REQUIRE(s.lammps_data);
    CHECK(s.lammps_data->file == (dir.path / "scenes/data/data.chute").string());
    CHECK(s.lammps_data->material_by_type.at(2) == "steel");
    CHECK(s.lammps_data->frozen_types == std::vector<int>{2});

    REQUIRE(s.planes.size() == 1);
    CHECK(s.planes[0].normal == Vec3(0, 0, 1));
    CHECK(s.planes[0].motion.surface_velocity == Vec3(1, 0, 0));
    REQUIRE(s.meshes.size() == 1);
    CHECK(s.meshes[0].file == (dir.path / "meshes/hopper.stl").string());
    CHECK(s.meshes[0].scale == 0.5);
    CHECK(s.meshes[0].motion.angular_velocity == Vec3(0, 0, 1));
    CHECK(s.meshes[0].motion.center == Vec3(0, 0, 2));
    CHECK(s.meshes[0].mesh.empty());  // loaded later, not by the parser

    CHECK(s.domain.periodic == std::array<bool, 3>{true, false, false});
    CHECK(s.domain.max == Vec3(2, 2, 20));
    CHECK(s.gravity == Vec3(0, 0, -9.81));
    CHECK(s.integrator.name == "velocity-verlet");
    CHECK(s.contact_model.name == "hertz-mindlin");
    CHECK(s.contact_model.parameters.at("kn") == 2e5);
    CHECK(s.contact_model.parameters.at("tangential") == 1.0);
    CHECK_FALSE(s.solver);
    CHECK(s.time_step == 1e-5);
    CHECK(s.skin == 0.02);
    CHECK(s.max_initial_overlap == 0.05);
    CHECK(s.threads == 2);
    CHECK(s.run.steps == 0);
    CHECK(s.run.time == 1.5);
    CHECK(s.output.directory == (dir.path / "scenes/results").string());
    CHECK(s.output.every_steps == 100);
    CHECK_FALSE(s.output.contacts);
}

TEST_CASE("a minimal scene gets the documented defaults", "[scene_file]") {
    TempDir dir;
    const std::string path =
        dir.write("minimal.json", R"({"format": "grainlab-scene", "version": 1})");
    const Scene s = readSceneFile(path);
    const Scene defaults;
    CHECK(s.name == "minimal");  // the file's stem
    CHECK(s.materials.empty());
    CHECK(s.bodies.empty());
    CHECK(s.shapes.size() == 1);
    CHECK(s.time_step == defaults.time_step);
    CHECK(s.gravity == defaults.gravity);
    CHECK(s.integrator.name == defaults.integrator.name);
    CHECK(s.contact_model.name == defaults.contact_model.name);
    CHECK(s.domain.min == Vec3::Constant(-kDefaultDomainHalfWidth));
    CHECK(s.domain.max == Vec3::Constant(kDefaultDomainHalfWidth));
    CHECK(s.output.directory == (dir.path / "output").string());
}

TEST_CASE("writing then reading a scene gives the same scene", "[scene_file]") {
    TempDir dir;
    const Scene original = readSceneFile(writeFullScene(dir));

    // Into another folder, so every relative path must be rewritten.
    const std::string copy_path = dir.file("elsewhere/deeper/copy.json");
    writeSceneFile(original, copy_path);
    const Scene copy = readSceneFile(copy_path);

    const json written = json::parse(std::ifstream(copy_path));
    CHECK(written["walls"][1]["file"] == "../../meshes/hopper.stl");
    CHECK(written["lammps_data"]["file"] == "../../scenes/data/data.chute");
    CHECK(written["output"]["directory"] == "../../scenes/results");

    // Every field is in the document, so equal documents mean equal scenes.
    CHECK(sceneToJson(copy, dir.path) == sceneToJson(original, dir.path));
    CHECK(copy.meshes[0].file == original.meshes[0].file);
    CHECK(copy.lammps_data->file == original.lammps_data->file);
    CHECK(copy.output.directory == original.output.directory);
    CHECK(copy.bodies[0].orientation.coeffs() == original.bodies[0].orientation.coeffs());
    CHECK(copy.fills[1].seed == original.fills[1].seed);
    CHECK(copy.lattices[0].source_index == original.lattices[0].source_index);
    CHECK(copy.fills[0].source_index == original.fills[0].source_index);
    CHECK(fs::directory_iterator(dir.path / "elsewhere/deeper") != fs::directory_iterator());
    int files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path / "elsewhere/deeper"))
        ++files;
    CHECK(files == 1);  // no temporary left behind

    // And the generators make the same bodies from either.
    const auto a = generateBodies(original, original.bodies);
    const auto b = generateBodies(copy, copy.bodies);
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) CHECK(a[k].position == b[k].position);
}

TEST_CASE("a scene built in code round-trips exactly", "[scene_file]") {
    TempDir dir;
    Scene scene = sceneWithMaterial();
    scene.name = "made in code";
    BodySpec body;
    body.material = "glass";
    body.radius = 0.1 + 1e-17;
    body.position = Vec3(0.1, 1.0 / 3.0, -2e-300);
    body.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized()));
    scene.bodies.push_back(body);
    RandomFill fill;
    fill.material = "glass";
    fill.count = 3;
    fill.radius.kind = SizeDistribution::Kind::Normal;
    fill.radius.mean = 0.1, fill.radius.stddev = 0.01, fill.radius.min = 0.08,
    fill.radius.max = 0.12;
    fill.region = CylinderRegion{Vec3(1, 2, 3), Vec3(1, 1, 1).normalized(), 0.7, 2.0};
    scene.fills.push_back(fill);
    Lattice lattice;
    lattice.material = "glass";
    scene.lattices.push_back(lattice);
    scene.solver = PluginChoice{"gauss-seidel", {{"iterations", 20}}};
    scene.run.steps = 123;

    const std::string path = dir.file("code.json");
    writeSceneFile(scene, path);
    const Scene back = readSceneFile(path);
    CHECK(back.bodies[0].position == body.position);
    CHECK(back.bodies[0].radius == body.radius);
    CHECK(back.bodies[0].orientation.coeffs() == body.orientation.coeffs());
    CHECK(std::get<CylinderRegion>(back.fills[0].region).axis ==
          std::get<CylinderRegion>(fill.region).axis);
    REQUIRE(back.solver);
    CHECK(back.solver->parameters.at("iterations") == 20);
    CHECK(back.run.steps == 123);
    CHECK(back.output.directory == (dir.path / "output").string());
    // The fill came first, then the lattice, as they were written.
    CHECK(back.fills[0].source_index == 0);
    CHECK(back.lattices[0].source_index == 1);
}

TEST_CASE("malformed JSON is reported with line and column", "[scene_file][errors]") {
    TempDir dir;
    const std::string path =
        dir.write("broken.json", "{\n  \"format\": \"grainlab-scene\",\n  \"version\": 1,,\n}\n");
    requireInputError([&] { readSceneFile(path); }, {path, "malformed JSON", "line 3, column 16"});

    const std::string truncated =
        dir.write("truncated.json", "{\n  \"format\": \"grainlab-scene\",\n  \"materials\": [\n");
    requireInputError([&] { readSceneFile(truncated); }, {truncated, "malformed JSON", "line 4"});

    const std::string empty = dir.write("empty.json", "  \n");
    requireInputError([&] { readSceneFile(empty); }, {empty, "empty"});
}

TEST_CASE("a missing scene file is reported", "[scene_file][errors]") {
    TempDir dir;
    const std::string path = dir.file("nowhere.json");
    requireInputError([&] { readSceneFile(path); }, {path, "cannot open", "No such file"});
}

TEST_CASE("a field given twice is reported by its pointer", "[scene_file][errors]") {
    TempDir dir;
    const std::string path = dir.write("twice.json", R"({"format": "grainlab-scene", "version": 1,
        "materials": [{"name": "a", "density": 1}, {"name": "b", "density": 1, "density": 2}]})");
    requireInputError([&] { readSceneFile(path); },
                      {path, "/materials/1/density", "duplicate field 'density'"});
}

TEST_CASE("format and version are checked first", "[scene_file][errors]") {
    TempDir dir;
    json doc = baseScene();
    doc["version"] = 2;
    doc["a_field_from_the_future"] = true;
    requireBadScene(dir, doc, "/version",
                    {"this file is version 2; this GrainLab reads version 1"});

    doc = baseScene();
    doc["format"] = "lammps";
    requireBadScene(dir, doc, "/format", {"expected \"grainlab-scene\"", "not a GrainLab scene"});

    doc = baseScene();
    doc.erase("version");
    requireBadScene(dir, doc, "/version", {"missing required field 'version'"});

    doc = baseScene();
    doc["version"] = "1";
    requireBadScene(dir, doc, "/version", {"expected a whole number, found a string \"1\""});
}

TEST_CASE("unknown fields are reported with the closest allowed name", "[scene_file][errors]") {
    TempDir dir;
    json doc = baseScene();
    doc["bodies"][0]["radious"] = 1.0;
    requireBadScene(
        dir, doc, "/bodies/0/radious",
        {"unknown field 'radious'", "did you mean 'radius'?", "allowed: shape, material, radius"});

    doc = baseScene();
    doc["timestep"] = 1e-3;
    requireBadScene(dir, doc, "/timestep",
                    {"unknown field 'timestep'", "did you mean 'time_step'?"});

    doc = baseScene();
    doc["generators"] = json::array({{{"type", "random_fil"}}});
    requireBadScene(dir, doc, "/generators/0/type",
                    {"unknown type 'random_fil'", "did you mean 'random_fill'?"});
}

TEST_CASE("wrong types are reported with what was expected and found", "[scene_file][errors]") {
    TempDir dir;
    json doc = baseScene();
    doc["materials"][1]["density"] = "heavy";
    requireBadScene(dir, doc, "/materials/1/density",
                    {"expected a number, found a string \"heavy\""});

    doc = baseScene();
    doc["bodies"][0]["position"] = json::array({0, 1});
    requireBadScene(dir, doc, "/bodies/0/position",
                    {"expected an array of 3 numbers", "found an array of 2"});

    doc = baseScene();
    doc["bodies"][0]["position"][2] = nullptr;
    requireBadScene(dir, doc, "/bodies/0/position/2", {"expected a number, found null"});

    doc = baseScene();
    doc["bodies"][0]["frozen"] = 1;
    requireBadScene(dir, doc, "/bodies/0/frozen", {"expected true or false, found the number 1"});

    doc = baseScene();
    doc["materials"] = json::object();
    requireBadScene(dir, doc, "/materials", {"expected an array, found an object"});

    doc = baseScene();
    doc["plugins"] = {{"contact_model", {{"name", "hooke"}, {"parameters", {{"kn", "stiff"}}}}}};
    requireBadScene(dir, doc, "/plugins/contact_model/parameters/kn",
                    {"expected a number or true/false"});
}

TEST_CASE("missing required fields are reported", "[scene_file][errors]") {
    TempDir dir;
    json doc = baseScene();
    doc["bodies"][0].erase("position");
    requireBadScene(dir, doc, "/bodies/0/position", {"missing required field 'position'"});

    doc = baseScene();
    doc["materials"][0].erase("density");
    requireBadScene(dir, doc, "/materials/0/density", {"missing required field 'density'"});

    doc = baseScene();
    doc["walls"][0].erase("type");
    requireBadScene(dir, doc, "/walls/0/type", {"missing required field 'type'", "plane, mesh"});
}

TEST_CASE("values out of range are reported with the allowed range", "[scene_file][errors]") {
    TempDir dir;
    struct Case {
        std::string pointer;
        json value;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {"/materials/0/density", 0, "expected a number greater than 0, found 0"},
        {"/materials/0/restitution", 1.5, "expected a number in (0, 1], found 1.5"},
        {"/materials/0/restitution", 0, "in (0, 1]"},
        {"/materials/0/friction", -0.1, "at least 0"},
        {"/materials/0/poisson_ratio", 0.5, "in (-1, 0.5), found 0.5"},
        {"/materials/0/youngs_modulus", -1, "greater than 0"},
        {"/bodies/0/radius", -0.5, "greater than 0, found -0.5"},
        {"/time_step", 0, "greater than 0"},
        {"/threads", -1, "expected a whole number at least 0"},
        {"/threads", 1.5, "expected a whole number, found 1.5"},
        {"/bodies/0/id", 0, "at least 1"},
        {"/walls/0/normal", json::array({0, 0, 0}), "non-zero direction"},
        {"/bodies/0/orientation", json::array({0, 0, 0, 0}), "non-zero quaternion"},
    };
    for (const auto& c : cases) {
        INFO(c.pointer << " = " << c.value.dump());
        json doc = baseScene();
        doc[json::json_pointer(c.pointer)] = c.value;
        requireBadScene(dir, doc, c.pointer, {c.expected});
    }

    json doc = baseScene();
    doc["generators"] = json::parse(
        R"([{"type": "lattice", "kind": "simple_cubic", "material": "glass", "counts": [2, 0, 2], "radius": 1, "spacing": 2}])");
    requireBadScene(dir, doc, "/generators/0/counts/1", {"at least 1"});

    doc["generators"][0]["counts"][1] = 2;
    doc["generators"][0]["spacing"] = 1.5;
    requireBadScene(dir, doc, "/generators/0/spacing", {"at least the diameter 2", "overlap"});

    doc = baseScene();
    doc["domain"] =
        json::parse(R"({"min": [0, 0, 0], "max": [1, 1, 0], "periodic": [true, true, false]})");
    requireBadScene(dir, doc, "/domain/max", {"max greater than min", "on z"});

    doc = baseScene();
    doc["run"] = {{"steps", 10}, {"time", 1.0}};
    requireBadScene(dir, doc, "/run", {"exactly one of \"steps\" or \"time\""});

    doc = baseScene();
    doc["generators"] = json::parse(
        R"([{"type": "random_fill", "material": "glass", "count": 5,
             "radius": {"distribution": "uniform", "min": 0.2, "max": 0.1},
             "region": {"box": {"min": [0, 0, 0], "max": [1, 1, 1]}}}])");
    requireBadScene(dir, doc, "/generators/0/radius/max", {"at least 0.2, found 0.1"});
}

TEST_CASE("references to undefined names list the defined ones", "[scene_file][errors]") {
    TempDir dir;
    json doc = baseScene();
    doc["bodies"][0]["material"] = "glas";
    requireBadScene(
        dir, doc, "/bodies/0/material",
        {"unknown material 'glas'", "did you mean 'glass'?", "defined materials: glass, steel"});

    doc = baseScene();
    doc["bodies"][0]["shape"] = "cube";
    requireBadScene(dir, doc, "/bodies/0/shape",
                    {"unknown shape 'cube'", "defined shapes: sphere"});

    doc = baseScene();
    doc["walls"][0]["material"] = "rubber";
    requireBadScene(dir, doc, "/walls/0/material", {"unknown material 'rubber'"});

    doc = baseScene();
    doc["materials"][1]["name"] = "glass";
    requireBadScene(dir, doc, "/materials/1/name",
                    {"duplicate material name 'glass'", "/materials/0"});

    doc = baseScene();
    doc["walls"].push_back(doc["walls"][0]);
    requireBadScene(dir, doc, "/walls/1/name", {"duplicate wall name 'floor'"});
}

TEST_CASE("missing mesh and data files are reported by their field", "[scene_file][errors]") {
    TempDir dir;
    json doc = baseScene();
    doc["walls"].push_back({{"type", "mesh"},
                            {"name", "hopper"},
                            {"file", "meshes/hopper.stl"},
                            {"material", "steel"}});
    requireBadScene(dir, doc, "/walls/1/file", {"file not found", "hopper.stl"});

    doc = baseScene();
    doc["lammps_data"] = {{"file", "data.chute"}, {"material_by_type", {{"1", "glass"}}}};
    requireBadScene(dir, doc, "/lammps_data/file", {"file not found", "data.chute"});

    dir.write("data.chute", "x\n");
    doc["lammps_data"]["material_by_type"]["one"] = "glass";
    requireBadScene(dir, doc, "/lammps_data/material_by_type/one", {"atom type"});
    doc["lammps_data"]["material_by_type"].erase("one");
    doc["lammps_data"]["frozen_types"] = {3};
    requireBadScene(dir, doc, "/lammps_data/frozen_types/0", {"atom type 3 has no material"});
}

TEST_CASE("random fill of a box: count, no overlaps, inside, radius statistics", "[generators]") {
    Scene scene = sceneWithMaterial();
    RandomFill fill;
    fill.material = "glass";
    fill.count = 400;
    fill.seed = 7;
    fill.radius.kind = SizeDistribution::Kind::Uniform;
    fill.radius.min = 0.04, fill.radius.max = 0.06;
    fill.region = BoxRegion{Vec3(0, 0, 0), Vec3(1, 1, 1)};
    fill.velocity = Vec3(0, 0, -1);
    scene.fills.push_back(fill);

    // A big body already in the middle, and one with an explicit id.
    std::vector<BodySpec> existing(2);
    existing[0].material = "glass", existing[0].radius = 0.3,
    existing[0].position = Vec3(0.5, 0.5, 0.5);
    existing[1].material = "glass", existing[1].radius = 0.05, existing[1].position = Vec3(5, 5, 5);
    existing[1].id = 10;

    const auto bodies = generateBodies(scene, existing);
    REQUIRE(bodies.size() == 400);
    CHECK(smallestGap(bodies, existing) >= 0.0);
    double sum = 0.0;
    for (const auto& b : bodies) {
        CHECK(inside(fill.region, b));
        CHECK(b.radius >= 0.04);
        CHECK(b.radius <= 0.06);
        CHECK(b.velocity == fill.velocity);
        CHECK(b.material == "glass");
        sum += b.radius;
    }
    const double standard_error = 0.02 / std::sqrt(12.0) / std::sqrt(400.0);
    CHECK(std::fabs(sum / 400 - 0.05) < 3 * standard_error);
    CHECK(bodies.front().id == 11);  // after the largest existing id
    CHECK(bodies.back().id == 410);

    // Reproducible from the seed; another seed gives other bodies.
    const auto again = generateBodies(scene, existing);
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        CHECK(again[k].position == bodies[k].position);
        CHECK(again[k].radius == bodies[k].radius);
    }
    scene.fills[0].seed = 8;
    CHECK(generateBodies(scene, existing)[0].position != bodies[0].position);
}

TEST_CASE("random fill of a tilted cylinder with normal radii", "[generators]") {
    Scene scene = sceneWithMaterial();
    RandomFill fill;
    fill.material = "glass";
    fill.count = 300;
    fill.seed = 3;
    fill.radius.kind = SizeDistribution::Kind::Normal;
    fill.radius.mean = 0.05, fill.radius.stddev = 0.005, fill.radius.min = 0.04,
    fill.radius.max = 0.06;
    fill.region = CylinderRegion{Vec3(1, -1, 2), Vec3(1, 1, 1).normalized(), 0.5, 1.0};
    scene.fills.push_back(fill);

    const auto bodies = generateBodies(scene, {});
    REQUIRE(bodies.size() == 300);
    CHECK(smallestGap(bodies) >= 0.0);
    double sum = 0.0;
    for (const auto& b : bodies) {
        CHECK(inside(fill.region, b));
        CHECK(b.radius >= 0.04);
        CHECK(b.radius <= 0.06);
        sum += b.radius;
    }
    // Symmetric truncation keeps the mean; its spread is below the untruncated one.
    CHECK(std::fabs(sum / 300 - 0.05) < 3 * 0.005 / std::sqrt(300.0));
    CHECK(bodies.front().id == 1);
}

TEST_CASE("an impossible fill throws naming the generator", "[generators]") {
    TempDir dir;
    json doc = baseScene();
    // Second generator: 1000 spheres of radius 0.1 in a unit cube would fill 419% of it.
    doc["generators"] = json::parse(R"([
        {"type": "lattice", "kind": "simple_cubic", "material": "glass", "origin": [5, 5, 5], "counts": [1, 1, 1],
         "radius": 0.1, "spacing": 0.2},
        {"type": "random_fill", "material": "glass", "count": 1000, "radius": 0.1,
         "region": {"box": {"min": [0, 0, 0], "max": [1, 1, 1]}}}])");
    const std::string path = dir.write("impossible.json", doc.dump());
    const Scene scene = readSceneFile(path);
    requireInputError(
        [&] { generateBodies(scene, scene.bodies); },
        {path, "/generators/1", "fill", "enlarge the region or lower the count or the radius"});

    // Possible in principle (50%) but beyond random sequential addition: gives up, saying how far
    // it got.
    Scene dense = sceneWithMaterial();
    RandomFill fill;
    fill.material = "glass";
    fill.count = 119;  // 119 * 4/3 pi 0.1^3 = 0.50 of the unit cube
    fill.radius.value = 0.1;
    fill.region = BoxRegion{Vec3(0, 0, 0), Vec3(1, 1, 1)};
    dense.fills.push_back(fill);
    requireInputError([&] { generateBodies(dense, {}); },
                      {"generated.json", "/generators/0", "placed only", "of 119 bodies"});

    // A body wider than the region.
    dense.fills[0].count = 1;
    dense.fills[0].radius.value = 0.6;
    dense.fills[0].region = BoxRegion{Vec3(0, 0, 0), Vec3(1, 1, 10)};
    requireInputError([&] { generateBodies(dense, {}); }, {"/generators/0", "does not fit"});
}

TEST_CASE("fills keep clear of lattices wherever they are in the file", "[generators]") {
    TempDir dir;
    json doc = baseScene();
    doc["bodies"] = json::array();
    doc["generators"] = json::parse(R"([
        {"type": "random_fill", "material": "glass", "count": 100, "seed": 5, "radius": 0.05,
         "region": {"box": {"min": [0, 0, 0], "max": [1, 1, 1]}}},
        {"type": "lattice", "kind": "simple_cubic", "material": "steel", "origin": [0.1, 0.1, 0.1],
         "counts": [4, 4, 4], "radius": 0.1, "spacing": 0.25}])");
    const Scene scene = readSceneFile(dir.write("mixed.json", doc.dump()));
    const auto bodies = generateBodies(scene, scene.bodies);
    REQUIRE(bodies.size() == 164);
    CHECK(bodies.front().material == "glass");  // file order: the fill first
    CHECK(bodies.back().material == "steel");
    CHECK(smallestGap(bodies) >= 0.0);
}

TEST_CASE("lattices have the right count and nearest-neighbour spacing", "[generators]") {
    Scene scene = sceneWithMaterial();
    Lattice sc;
    sc.material = "glass";
    sc.counts = {3, 4, 5};
    sc.radius = 0.1;
    sc.spacing = 0.3;
    sc.origin = Vec3(1, 2, 3);
    Lattice hcp = sc;
    hcp.kind = Lattice::Kind::HexagonalClosePacked;
    hcp.counts = {5, 5, 5};
    hcp.spacing = 0.2;  // touching

    for (const Lattice& lattice : {sc, hcp}) {
        scene.lattices = {lattice};
        const auto bodies = generateBodies(scene, {});
        REQUIRE(bodies.size() == static_cast<std::size_t>(lattice.counts[0] * lattice.counts[1] *
                                                          lattice.counts[2]));
        CHECK(bodies.front().position == lattice.origin);
        std::vector<double> nearest(bodies.size(), INFINITY);
        std::vector<int> neighbours(bodies.size(), 0);
        for (std::size_t i = 0; i < bodies.size(); ++i)
            for (std::size_t j = 0; j < bodies.size(); ++j) {
                if (i == j) continue;
                const double d = (bodies[i].position - bodies[j].position).norm();
                nearest[i] = std::min(nearest[i], d);
                if (std::fabs(d - lattice.spacing) < 1e-9) ++neighbours[i];
            }
        for (double d : nearest) CHECK(d == Approx(lattice.spacing).epsilon(1e-12));
        const int most = *std::max_element(neighbours.begin(), neighbours.end());
        // Interior sites touch 6 neighbours in a simple cubic lattice, 12 in a close packing.
        CHECK(most == (lattice.kind == Lattice::Kind::SimpleCubic ? 6 : 12));
    }
}
