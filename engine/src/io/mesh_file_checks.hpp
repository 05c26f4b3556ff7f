#pragma once
// Checks run on a mesh file before Assimp sees it: they name common defects in plain words, and
// they keep known Assimp 5.2 failure modes (endless loops on malformed PLY headers, huge
// allocations for absurd element counts) away from the importer. Internal to loadMesh.
#include <string>

namespace grainlab::detail {

// Throws InputError(path, "", ...) unless the file exists, is readable, non-empty, has a supported
// extension (.stl, .obj, .ply, any case), and passes the format's structural checks.
void checkMeshFileUsable(const std::string& path);

}  // namespace grainlab::detail
