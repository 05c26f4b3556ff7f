#pragma once
// Importing a particle shape from a mesh file and scattering copies of it (the import dialog's
// work, kept apart from its widgets).
#include <cstdint>
#include <string>
#include <vector>

#include "grainlab/io/frame.hpp"
#include "grainlab/scene/scene.hpp"

namespace grainlab::gui {

struct ImportedShape {
    ShapeSpec spec;        // kind Polyhedron, loaded
    std::string summary;   // what a person checks: mesh checks, size, mass properties
};

// Loads, welds, checks and measures the mesh. Throws InputError naming the file and the defects
// with their counts (open edges, non-manifold edges, flipped faces, zero-area triangles).
ImportedShape importShape(const std::string& path, double scale, bool repair_orientation, const std::string& name);

// `count` copies at random orientations (uniform over rotations, seeded) in `region`, kept clear
// of the frame's bodies and of each other by the shape's bounding sphere. Throws InputError when
// the region cannot hold them.
std::vector<BodySpec> scatterCopies(const Scene& scene, const Frame& existing, const ShapeSpec& shape,
                                    const std::string& material, const BoxRegion& region, int count,
                                    std::uint64_t seed);

}  // namespace grainlab::gui
