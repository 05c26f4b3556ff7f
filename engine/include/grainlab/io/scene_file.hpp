#pragma once
// The scene file: a versioned JSON document (format "grainlab-scene", version 1) described field
// by field in docs/scene-format.md. Reading validates everything that can be checked without
// loading meshes or data files; every problem throws InputError naming the file and the JSON
// pointer of the offending field ("/materials/1/density").
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "grainlab/scene/scene.hpp"

namespace grainlab {

inline constexpr const char* kSceneFormatName = "grainlab-scene";

// Half the edge of the domain box a scene gets when it names none: large enough not to matter.
inline constexpr double kDefaultDomainHalfWidth = 1000.0;

// Reads and validates a scene file. Relative paths inside it (mesh walls, LAMMPS data, the output
// folder) are resolved against the file's folder and stored absolute. Comments (// and /* */) are
// allowed; a field given twice is an error.
Scene readSceneFile(const std::string& path);

// Validates an already parsed document. `source_file` is used in messages and stored in the scene;
// relative paths resolve against `base_dir`.
Scene parseScene(const nlohmann::json& doc, const std::string& source_file,
                 const std::filesystem::path& base_dir);

// The document writeSceneFile would write, with paths relative to `base_dir`.
nlohmann::ordered_json sceneToJson(const Scene& scene, const std::filesystem::path& base_dir);

// Writes `scene` atomically (temporary file in the same folder, then rename). Paths are written
// relative to the new file's folder, so reading the file back gives the same Scene. Throws
// OutputError if the file cannot be written.
void writeSceneFile(const Scene& scene, const std::string& path);

}  // namespace grainlab
