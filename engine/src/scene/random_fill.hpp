#pragma once
// Random sequential addition of non-overlapping spheres into a region. Internal to generateBodies.
#include <string>
#include <vector>

#include "grainlab/scene/scene.hpp"

namespace grainlab::detail {

struct Sphere {
    Vec3 center;
    double radius;
};

// Places fill.count bodies fully inside fill.region, overlapping neither each other nor
// `obstacles`. Bodies have no ids yet. Throws InputError(file, pointer, ...) if it cannot.
std::vector<BodySpec> randomFill(const RandomFill& fill, const std::vector<Sphere>& obstacles,
                                 const std::string& file, const std::string& pointer);

}  // namespace grainlab::detail
