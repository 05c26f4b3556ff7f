#pragma once
#include "grainlab/scene/scene.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

// Reads every polyhedral shape not loaded yet (weld, check, mass properties, sub-regions).
// Throws InputError naming the shape's field.
void loadShapes(Scene& scene);

// Bodies of the scene: explicit ones, LAMMPS data, then generators. For LAMMPS data the scene's
// domain bounds are taken from the data file's box. Throws InputError naming the field.
Bodies buildBodies(Scene& scene);

// Marks the shapes whose bodies keep their orientation (spheres, when the scene does not track
// theirs): Bodies::shape_keeps_orientation.
void markKeptOrientations(const Scene& scene, Bodies& bodies);

// Appends bodies to an existing set; specs without an id get ids above the largest one present.
// Throws InputError naming `field` (a material that does not exist).
void appendBodies(const Scene& scene, const std::vector<BodySpec>& specs, Bodies& bodies, const std::string& field);

}  // namespace grainlab
