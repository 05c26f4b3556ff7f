#include "fuzz_targets.hpp"

#include <filesystem>
#include <fstream>
#include <new>

#include "grainlab/core/error.hpp"
#include "grainlab/io/checkpoint.hpp"
#include "grainlab/io/lammps_data.hpp"
#include "grainlab/io/mesh_file.hpp"
#include "grainlab/io/scene_file.hpp"
#include "../temp_dir.hpp"

namespace grainlab::fuzz {
namespace {

namespace fs = std::filesystem;

// One scratch folder per process, removed when it exits: libFuzzer and the mutation test run
// inputs one at a time.
fs::path inputPath(const std::string& extension) {
    static const test::TempDir dir("fuzz");
    return dir.path / ("input" + extension);
}

void parseScene(const std::string& path, const std::string&) { readSceneFile(path); }
void parseMesh(const std::string& path, const std::string&) { loadMesh(path); }
void parseLammps(const std::string& path, const std::string&) { readLammpsData(path); }
void parseCheckpointBytes(const std::string& path, const std::string& bytes) { parseCheckpoint(bytes, path); }

}  // namespace

const std::vector<Target>& targets() {
    static const std::vector<Target> all{
        {"scene", ".json", parseScene},          {"mesh_stl", ".stl", parseMesh}, {"mesh_obj", ".obj", parseMesh},
        {"mesh_ply", ".ply", parseMesh},         {"lammps", ".data", parseLammps},
        {"checkpoint", "", parseCheckpointBytes}};
    return all;
}

const Target* findTarget(const std::string& name) {
    for (const Target& t : targets())
        if (t.name == name) return &t;
    return nullptr;
}

std::string runOne(const Target& target, const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    std::string path = "fuzz-input.glc";
    if (!target.extension.empty()) {
        path = inputPath(target.extension).string();
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    }
    try {
        target.parse(path, bytes);
    } catch (const InputError& e) {
        const std::string message = e.what();
        if (e.file() != path) return "InputError names '" + e.file() + "', not the file read: " + message;
        if (message.size() <= path.size() + 2) return "InputError without a message: " + message;
    } catch (const std::bad_alloc&) {
        return "out of memory (std::bad_alloc): an input size was trusted";
    } catch (const std::exception& e) {
        return std::string("escaped exception (not an InputError): ") + e.what();
    }
    return "";
}

}  // namespace grainlab::fuzz
