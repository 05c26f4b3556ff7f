#pragma once
// A fresh folder under the system's temporary directory for one test, removed with everything in
// it when the test ends.
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

namespace grainlab::test {

class TempDir {
public:
    // The folder is grainlab_<prefix>_<random digits>.
    explicit TempDir(const std::string& prefix = "test") {
        std::random_device rd;
        path = std::filesystem::temp_directory_path() /
               ("grainlab_" + prefix + "_" + std::to_string(rd()) + std::to_string(rd()));
        std::filesystem::create_directories(path);
        path = std::filesystem::canonical(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name) const { return (path / name).string(); }
    // Writes `text` to `name` (its folders made) and returns the file's path.
    std::string write(const std::string& name, const std::string& text) const {
        const std::filesystem::path p = path / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }

    std::filesystem::path path;
};

}  // namespace grainlab::test
