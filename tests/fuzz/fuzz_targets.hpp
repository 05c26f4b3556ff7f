#pragma once
// The parsers under fuzzing, each as one function from bytes to a verdict: an empty string when the
// input was accepted or refused properly (InputError with a message naming the file), otherwise
// what went wrong. Used by the libFuzzer targets and by the seeded mutation test CTest runs.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace grainlab::fuzz {

struct Target {
    std::string name;       // also the corpus folder: tests/fuzz/corpus/<name>/
    std::string extension;  // of the file the bytes are written to ("" for in-memory parsers)
    void (*parse)(const std::string& path, const std::string& bytes);
};

const std::vector<Target>& targets();
const Target* findTarget(const std::string& name);

// Runs one input through `target`; returns "" or a description of the failure.
std::string runOne(const Target& target, const std::uint8_t* data, std::size_t size);

}  // namespace grainlab::fuzz
