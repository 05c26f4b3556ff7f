#pragma once
// Errors while writing results: the message names the file and the system's reason, so a
// user can fix the folder, the permissions or the free space and run again.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

namespace grainlab {

class OutputError : public std::runtime_error {
public:
    OutputError(std::filesystem::path path, const std::string& message)
        : std::runtime_error(path.string() + ": " + message), path_(std::move(path)) {}
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace grainlab
