#pragma once
// Reading wall (and particle-shape) meshes from STL (ASCII or binary), OBJ and PLY files.
#include <string>

#include "grainlab/geometry/mesh_check.hpp"
#include "grainlab/geometry/triangle_mesh.hpp"

namespace grainlab {

struct LoadedMesh {
    TriangleMesh mesh;  // welded, without zero-area triangles or unused vertices
    MeshReport report;  // welded_vertices and degenerate_triangles say what loading changed
};

// Throws InputError(path, "", ...) for a missing, unreadable or unparseable file, and for a file
// with no usable triangles. Node transforms in the file are applied; units are taken as metres.
LoadedMesh loadMesh(const std::string& path);

}  // namespace grainlab
