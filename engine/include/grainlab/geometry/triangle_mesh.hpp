#pragma once
// An indexed triangle mesh: wall geometry now, particle shapes later.
#include <array>
#include <cstdint>
#include <vector>

#include "grainlab/core/math.hpp"

namespace grainlab {

struct TriangleMesh {
    std::vector<Vec3> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;  // counter-clockwise seen from outside

    bool empty() const { return triangles.empty(); }
    Vec3 normal(std::size_t t) const {
        const auto& tri = triangles[t];
        return (vertices[tri[1]] - vertices[tri[0]]).cross(vertices[tri[2]] - vertices[tri[0]]).normalized();
    }
};

}  // namespace grainlab
