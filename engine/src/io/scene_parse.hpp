#pragma once
// The sections of a scene document, each read by its own function into a Scene being built.
// Sections that refer to names (materials, shapes) run after the sections defining them.
// Internal to parseScene.
#include <filesystem>
#include <string>
#include <vector>

#include "grainlab/scene/scene.hpp"
#include "json_fields.hpp"

namespace grainlab::scene_parse {

using json_fields::Json;
using json_fields::Object;

struct Context {
    std::string file;
    std::filesystem::path base_dir;
    Scene& scene;

    std::vector<std::string> materialNames() const;
    std::vector<std::string> shapeNames() const;
    // Fail unless `name` (found at `pointer`) is a defined material / shape.
    void requireMaterial(const std::string& pointer, const std::string& name) const;
    void requireShape(const std::string& pointer, const std::string& name) const;
    bool shapeIsPolyhedron(const std::string& name) const;
    // `text` resolved against base_dir, absolute and normalised. With must_exist, fails unless it
    // names an existing regular file.
    std::string resolvePath(const std::string& pointer, const std::string& text,
                            bool must_exist) const;
};

// scene_parse_particles.cpp
void parseMaterials(const Object& top, Context& context);
void parseShapes(const Object& top, Context& context);
void parseBodies(const Object& top, Context& context);

// scene_parse_generators.cpp
void parseGenerators(const Object& top, Context& context);

// scene_parse_world.cpp
void parseLammpsData(const Object& top, Context& context);
void parseWalls(const Object& top, Context& context);
void parseDomain(const Object& top, Context& context);

// scene_parse_settings.cpp
void parsePlugins(const Object& top, Context& context);
void parseSettings(const Object& top, Context& context);  // gravity, step, run, output, ...

}  // namespace grainlab::scene_parse
