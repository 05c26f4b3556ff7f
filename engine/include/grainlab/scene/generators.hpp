#pragma once
// Expanding a scene's generators (random fills, lattices) into explicit bodies.
#include <vector>

#include "grainlab/scene/scene.hpp"

namespace grainlab {

// The bodies of scene.lattices and scene.fills, in the order the generators appear in the scene
// file. `existing` are the bodies already present (the scene's own list, LAMMPS data): random
// fills keep clear of them, of every lattice, and of earlier fills. Lattices are placed as given.
// Walls are not considered: keeping bodies away from them is the scene author's business.
//
// Generated bodies get ids from max(largest id in `existing`, existing.size()) + 1 upward, so they
// collide neither with explicit ids nor with ids assigned in order.
//
// Random fills are reproducible from their seed, whatever the standard library (std::mt19937_64
// with our own uniform and normal transforms). Throws InputError(scene.source_file,
// "/generators/K", ...) when a fill cannot place all its bodies, naming how many it placed and
// what to change.
std::vector<BodySpec> generateBodies(const Scene& scene, const std::vector<BodySpec>& existing);

}  // namespace grainlab
