#pragma once
#include <vector>

#include "grainlab/plugin/force_context.hpp"
#include "grainlab/scene/material.hpp"

namespace grainlab {

// Pair properties for every ordered pair of materials.
MaterialPairTable mixMaterials(const std::vector<Material>& materials);

}  // namespace grainlab
