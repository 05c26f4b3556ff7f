// Polyhedral shapes in scene files: read, written back and read again unchanged; bad polyhedral
// input refused with the file and field named (product standard: clear messages, no crash).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "grainlab/core/error.hpp"
#include "grainlab/io/scene_file.hpp"
#include "polyhedra_support.hpp"
#include "temp_dir.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

const std::string kScenes = std::string(GRAINLAB_SOURCE_DIR) + "/resources/scenes/";

nlohmann::json tetrapodScene() {
    std::ifstream in(kScenes + "tetrapods.json");
    return nlohmann::json::parse(in);
}

Scene parse(const nlohmann::json& doc) { return parseScene(doc, "scene.json", kScenes); }

}  // namespace

TEST_CASE("Polyhedral scene: shapes and bodies survive a write and a read", "[polyhedra][scene]") {
    const Scene first = readSceneFile(kScenes + "tetrapods.json");
    REQUIRE(first.shapes.size() == 3);  // built-in sphere, tetrapod, lblock
    CHECK(first.shapes[1].kind == ShapeSpec::Kind::Polyhedron);
    CHECK(first.shapes[1].scale == 0.1);
    CHECK(fs::path(first.shapes[1].file).filename() == "tetrapod.stl");
    CHECK(first.bodies.size() == 100);
    const test::TempDir dir("polyhedra-scene");
    const fs::path copy = dir.path / "copy.json";
    writeSceneFile(first, copy.string());
    const Scene second = readSceneFile(copy.string());
    REQUIRE(second.shapes.size() == first.shapes.size());
    for (std::size_t k = 0; k < first.shapes.size(); ++k) {
        CHECK(second.shapes[k].kind == first.shapes[k].kind);
        CHECK(fs::equivalent(second.shapes[k].file.empty() ? copy.parent_path() : fs::path(second.shapes[k].file),
                             first.shapes[k].file.empty() ? copy.parent_path() : fs::path(first.shapes[k].file)));
    }
    REQUIRE(second.planes.size() == first.planes.size());
    CHECK(second.bodies[7].orientation.coeffs().isApprox(first.bodies[7].orientation.coeffs()));
}

TEST_CASE("Polyhedral scene: bad input is named", "[polyhedra][scene][input]") {
    nlohmann::json doc = tetrapodScene();
    doc["shapes"][0]["kind"] = "cone";
    CHECK_THROWS_WITH(parse(doc), Catch::Contains("/shapes/0/kind") && Catch::Contains("sphere, polyhedron"));

    doc = tetrapodScene();
    doc["shapes"][0]["file"] = "../shapes/nothing.stl";
    CHECK_THROWS_WITH(parse(doc), Catch::Contains("/shapes/0/file") && Catch::Contains("not found"));

    doc = tetrapodScene();
    doc["bodies"][3]["radius"] = 0.1;
    CHECK_THROWS_WITH(parse(doc), Catch::Contains("/bodies/3/radius") && Catch::Contains("polyhedron"));

    doc = tetrapodScene();
    doc["walls"][1]["remove_at"] = -1;
    CHECK_THROWS_WITH(parse(doc), Catch::Contains("/walls/1/remove_at"));

    // A sphere-only contact model cannot handle polyhedra.
    Scene scene = parse(tetrapodScene());
    scene.contact_model = {"hooke", {}};
    CHECK_THROWS_WITH(Simulation(scene, test::builtPlugins()), Catch::Contains("/contact_model") && Catch::Contains("polyhedra"));

    // Two bodies placed through each other are refused, naming both.
    scene = parse(tetrapodScene());
    scene.bodies[1].position = scene.bodies[0].position + Vec3(0.01, 0, 0);
    CHECK_THROWS_WITH(Simulation(scene, test::builtPlugins()), Catch::Contains("interpenetrate") && Catch::Contains("body 1"));

    // An open mesh as a particle shape: the defect and its count, under the shape's field.
    const test::TempDir dir("open-shape");
    const fs::path open = dir.path / "open.obj";
    {
        std::ofstream out(open);
        out << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n";  // one face missing
    }
    scene = parse(tetrapodScene());
    scene.shapes[1].file = open.string();
    CHECK_THROWS_WITH(Simulation(scene, test::builtPlugins()),
                      Catch::Contains("/shapes (shape 'tetrapod')/file") && Catch::Contains("3 open edges"));
}
