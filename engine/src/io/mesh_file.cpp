#include "grainlab/io/mesh_file.hpp"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <utility>
#include <vector>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "grainlab/core/error.hpp"
#include "mesh_file_checks.hpp"

namespace grainlab {
namespace {

using Transform = Eigen::Matrix4d;

Transform toEigen(const aiMatrix4x4& m) {
    Transform t;
    t << m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4, m.d1, m.d2,
        m.d3, m.d4;
    return t;
}

std::string formatPoint(const Vec3& p) {
    std::ostringstream out;
    out << "(" << p.x() << ", " << p.y() << ", " << p.z() << ")";
    return out.str();
}

// Appends one placed instance of an Assimp mesh: its vertices in world coordinates and its
// triangles (points and lines that a file may also hold are skipped).
void appendMesh(const std::string& path, const aiMesh& source, const Transform& placement,
                TriangleMesh& out) {
    if (source.mNumVertices == 0 || source.mVertices == nullptr) return;
    const std::uint64_t base = out.vertices.size();
    if (base + source.mNumVertices > UINT32_MAX)
        throw InputError(path, "", "too many vertices (more than 2^32)");
    for (unsigned i = 0; i < source.mNumVertices; ++i) {
        const aiVector3D& v = source.mVertices[i];
        const Vec3 raw(v.x, v.y, v.z);
        const Vec3 p = (placement * raw.homogeneous()).head<3>();
        if (!raw.allFinite() || !p.allFinite())  // also catches overflow to float infinity
            throw InputError(path, "", "vertex " + std::to_string(base + i) +
                                           " (counting from 0) has a non-finite coordinate " +
                                           formatPoint(raw));
        out.vertices.push_back(p);
    }
    if (source.mFaces == nullptr) return;
    for (unsigned f = 0; f < source.mNumFaces; ++f) {
        const aiFace& face = source.mFaces[f];
        if (face.mNumIndices != 3 || face.mIndices == nullptr) continue;
        std::array<std::uint32_t, 3> triangle{};
        for (int k = 0; k < 3; ++k) {
            const unsigned index = face.mIndices[k];
            if (index >= source.mNumVertices)
                throw InputError(path, "", "face " + std::to_string(f) + " refers to vertex " +
                                               std::to_string(index) + " but the mesh has only " +
                                               std::to_string(source.mNumVertices));
            triangle[k] = static_cast<std::uint32_t>(base + index);
        }
        out.triangles.push_back(triangle);
    }
}

// Walks the node tree (iteratively: a hostile file must not exhaust the stack) so that node
// transforms are applied and instanced meshes appear once per instance.
TriangleMesh flattenScene(const std::string& path, const aiScene& scene) {
    TriangleMesh out;
    if (scene.mRootNode == nullptr || scene.mMeshes == nullptr) return out;
    std::vector<std::pair<const aiNode*, Transform>> pending{
        {scene.mRootNode, toEigen(scene.mRootNode->mTransformation)}};
    while (!pending.empty()) {
        const auto [node, placement] = pending.back();
        pending.pop_back();
        for (unsigned i = 0; i < node->mNumMeshes; ++i) {
            const unsigned m = node->mMeshes[i];
            if (m < scene.mNumMeshes && scene.mMeshes[m] != nullptr)
                appendMesh(path, *scene.mMeshes[m], placement, out);
        }
        for (unsigned i = 0; i < node->mNumChildren; ++i) {
            const aiNode* child = node->mChildren[i];
            if (child != nullptr)
                pending.emplace_back(child, placement * toEigen(child->mTransformation));
        }
    }
    return out;
}

bool hasFaces(const aiScene& scene) {
    if (scene.mMeshes == nullptr) return false;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m)
        if (scene.mMeshes[m] != nullptr && scene.mMeshes[m]->mNumFaces > 0) return true;
    return false;
}

TriangleMesh importTriangles(const std::string& path) {
    // Assimp logs only through its DefaultLogger, a silent NullLogger unless someone creates a
    // real one; we never do, so bad files produce an error here and no console noise.
    Assimp::Importer importer;
    try {
        // Parse first, so a file without faces is reported as such rather than as Assimp's
        // validation failure; then validate (before triangulating touches any index).
        const aiScene* scene = importer.ReadFile(path, 0);
        if (scene != nullptr && !hasFaces(*scene))
            throw InputError(path, "", "the file contains no triangles");
        if (scene != nullptr)
            scene = importer.ApplyPostProcessing(aiProcess_ValidateDataStructure |
                                                 aiProcess_Triangulate);
        if (scene == nullptr) {
            std::string reason = importer.GetErrorString();
            if (reason.empty()) reason = "unknown error";
            throw InputError(path, "", "cannot read the mesh: " + reason);
        }
        return flattenScene(path, *scene);
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {  // Assimp may throw, e.g. bad_alloc on absurd counts
        throw InputError(path, "", std::string("cannot read the mesh: ") + e.what());
    }
}

}  // namespace

LoadedMesh loadMesh(const std::string& path) {
    detail::checkMeshFileUsable(path);
    LoadedMesh loaded;
    TriangleMesh& mesh = loaded.mesh;
    mesh = importTriangles(path);
    if (mesh.triangles.empty()) throw InputError(path, "", "the file contains no triangles");

    // Stray vertices no face uses must not widen the tolerance, which scales with the extent.
    removeUnusedVertices(mesh);
    if (!std::isfinite(boundingDiagonal(mesh.vertices)))
        throw InputError(path, "", "vertex coordinates span too large a range to weld");
    const std::size_t welded = weldVertices(mesh);
    const std::size_t triangle_count = mesh.triangles.size();
    const std::size_t degenerate = removeDegenerateTriangles(mesh);
    if (mesh.triangles.empty())
        throw InputError(path, "", "all " + std::to_string(triangle_count) +
                                       " triangles have zero area; nothing is left");
    removeUnusedVertices(mesh);

    loaded.report = checkMesh(mesh);
    loaded.report.welded_vertices = welded;
    loaded.report.degenerate_triangles = degenerate;
    return loaded;
}

}  // namespace grainlab
