#pragma once
// Whole-file writes that never leave a half-written file behind: a reader (or a run killed
// mid-write) sees either the old contents or the new ones.
#include <filesystem>
#include <functional>
#include <string_view>

#include "grainlab/io/byte_sink.hpp"

namespace grainlab {

// Writes `contents` to a hidden temporary file in the same folder, fsyncs it, then renames it
// over `path`. Creates missing parent folders. Throws OutputError (naming the path and the
// system's reason) on any failure; the old file, if any, is then left untouched.
void writeFileAtomically(const std::filesystem::path& path, std::string_view contents);

// The same for contents produced a piece at a time: `produce` hands each piece to the sink it
// gets. If it throws, the temporary is removed and the exception passes on; the old file stays.
void writeFileAtomically(const std::filesystem::path& path, const std::function<void(const ByteSink&)>& produce);

// Removes the hidden temporaries (".<name>.tmp.<pid>.<n>") that processes no longer running left
// in `directory` when they were killed mid-write. Returns how many were removed; never throws.
std::size_t removeStaleTemporaries(const std::filesystem::path& directory);

// Creates `directory` and its parents if missing. Throws OutputError if it cannot, or if the
// path exists but is not a folder.
void ensureDirectory(const std::filesystem::path& directory);

}  // namespace grainlab
