#pragma once
// Where a file's bytes go when they are produced a piece at a time (encoders and atomic writes).
#include <functional>
#include <string_view>

namespace grainlab {

// Receives a file's bytes in order, a piece at a time.
using ByteSink = std::function<void(std::string_view bytes)>;

}  // namespace grainlab
