#pragma once
#include "grainlab/scene/scene.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

// Bodies of the scene: explicit ones, LAMMPS data, then generators. For LAMMPS data the scene's
// domain bounds are taken from the data file's box. Throws InputError naming the field.
Bodies buildBodies(Scene& scene);

}  // namespace grainlab
