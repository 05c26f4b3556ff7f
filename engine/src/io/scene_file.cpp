// Reading a scene file: the text, the format header, then each section in dependency order.
#include "grainlab/io/scene_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "grainlab/core/error.hpp"
#include "json_text.hpp"
#include "scene_parse.hpp"

namespace grainlab {

namespace fs = std::filesystem;

namespace scene_parse {

std::vector<std::string> Context::materialNames() const {
    std::vector<std::string> names;
    for (const auto& m : scene.materials) names.push_back(m.name);
    return names;
}

std::vector<std::string> Context::shapeNames() const {
    std::vector<std::string> names;
    for (const auto& s : scene.shapes) names.push_back(s.name);
    return names;
}

void Context::requireMaterial(const std::string& pointer, const std::string& name) const {
    if (scene.materialIndex(name) >= 0) return;
    json_fields::requireDefined(file, pointer, name, "material", materialNames());
}

bool Context::shapeIsPolyhedron(const std::string& name) const {
    for (const auto& s : scene.shapes)
        if (s.name == name) return s.kind == ShapeSpec::Kind::Polyhedron;
    return false;
}

void Context::requireShape(const std::string& pointer, const std::string& name) const {
    json_fields::requireDefined(file, pointer, name, "shape", shapeNames());
}

std::string Context::resolvePath(const std::string& pointer, const std::string& text,
                                 bool must_exist) const {
    const fs::path given(text);
    std::error_code ec;
    fs::path resolved = fs::absolute(given.is_absolute() ? given : base_dir / given, ec);
    const fs::path canonical = fs::weakly_canonical(resolved, ec);
    resolved = ec ? resolved.lexically_normal() : canonical;
    if (must_exist) {
        if (!fs::exists(resolved, ec))
            json_fields::fail(
                file, pointer,
                "file not found: " + resolved.string() +
                    (given.is_absolute() ? ""
                                         : " ('" + text + "' relative to the scene's folder)"));
        if (!fs::is_regular_file(resolved, ec))
            json_fields::fail(
                file, pointer,
                "expected a file, found a folder or special file: " + resolved.string());
    }
    return resolved.string();
}

}  // namespace scene_parse

namespace {

// The header is checked before anything else: a file from a newer GrainLab should be reported
// as such, not as a list of unknown fields.
void checkHeader(const nlohmann::json& doc, const std::string& file) {
    if (!doc.is_object()) json_fields::failType(file, "", "a JSON object (a GrainLab scene)", doc);
    const auto format = doc.find("format");
    if (format == doc.end())
        json_fields::fail(file, "/format",
                          std::string("missing required field 'format'; a scene file starts with "
                                      "\"format\": \"") +
                              kSceneFormatName + "\"");
    if (!format->is_string() || format->get<std::string>() != kSceneFormatName)
        json_fields::fail(file, "/format",
                          std::string("expected \"") + kSceneFormatName + "\", found " +
                              json_fields::describe(*format) +
                              ": this is not a GrainLab scene file");
    const auto version = doc.find("version");
    if (version == doc.end())
        json_fields::fail(file, "/version",
                          "missing required field 'version'; this GrainLab reads version " +
                              std::to_string(kSceneFormatVersion));
    const long long v =
        json_fields::asInteger(file, "/version", *version, json_fields::Range::atLeast(1));
    if (v != kSceneFormatVersion)
        json_fields::fail(
            file, "/version",
            "this file is version " + std::to_string(v) + "; this GrainLab reads version " +
                std::to_string(kSceneFormatVersion) +
                (v > kSceneFormatVersion ? " (was it written by a newer GrainLab?)" : ""));
}

}  // namespace

Scene parseScene(const nlohmann::json& doc, const std::string& source_file,
                 const fs::path& base_dir) {
    checkHeader(doc, source_file);
    const json_fields::Object top(
        source_file, "", doc,
        {"format", "version", "name", "description", "materials", "shapes", "bodies", "generators",
         "lammps_data", "walls", "domain", "gravity", "plugins", "time_step", "skin",
         "max_initial_overlap", "threads", "spatial_sort", "track_sphere_orientation", "run", "output"});
    Scene scene;
    scene.source_file = source_file;
    scene.name = top.string("name", fs::path(source_file).stem().string());
    scene.description = top.string("description", "");

    scene_parse::Context context{source_file, base_dir.empty() ? fs::current_path() : base_dir,
                                 scene};
    scene_parse::parseMaterials(top, context);
    scene_parse::parseShapes(top, context);
    scene_parse::parseBodies(top, context);
    scene_parse::parseGenerators(top, context);
    scene_parse::parseLammpsData(top, context);
    scene_parse::parseWalls(top, context);
    scene_parse::parseDomain(top, context);
    scene_parse::parsePlugins(top, context);
    scene_parse::parseSettings(top, context);
    return scene;
}

Scene readSceneFile(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw InputError(path, "", "expected a scene file, found a folder");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int error = errno;
        throw InputError(path, "",
                         std::string("cannot open scene file: ") +
                             (error ? std::strerror(error) : "unknown reason"));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw InputError(path, "", "cannot read scene file");
    if (text.str().find_first_not_of(" \t\r\n") == std::string::npos)
        throw InputError(path, "", "the scene file is empty");
    const nlohmann::json doc = json_text::parse(text.str(), path);
    const fs::path folder = fs::absolute(fs::path(path), ec).parent_path();
    return parseScene(doc, path, folder);
}

}  // namespace grainlab
