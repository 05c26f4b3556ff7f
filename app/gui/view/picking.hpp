#pragma once
// Which sphere a ray from the camera hits first (the window picks particles this way, from the
// published snapshot, without asking the running engine).
#include <cstddef>
#include <optional>
#include <vector>

#include "grainlab/core/math.hpp"

namespace grainlab::gui {

// Index of the sphere whose front surface the ray origin + s * direction (s > 0) meets first.
std::optional<std::size_t> pickSphere(const Vec3& origin, const Vec3& direction, const std::vector<Vec3>& centres,
                                      const std::vector<double>& radii);

}  // namespace grainlab::gui
