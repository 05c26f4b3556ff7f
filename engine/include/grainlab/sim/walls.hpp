#pragma once
// Wall geometry at time t and the sphere-wall narrow phase.
#include <cstdint>
#include <vector>

#include "grainlab/plugin/force_context.hpp"
#include "grainlab/scene/scene.hpp"

namespace grainlab {

// The mesh-candidate lists and the vertex positions they were built at: saved in checkpoints,
// because when they are refreshed next depends on where the meshes were at the last refresh.
struct WallCandidates {
    std::vector<std::uint32_t> start;                               // per body, CSR
    std::vector<std::pair<std::uint32_t, std::uint32_t>> entries;   // (mesh, triangle)
    std::vector<std::vector<Vec3>> mesh_vertices;                   // per mesh, at the refresh
};

// Walls placed at the current time; mesh candidates are refreshed on neighbour-list rebuilds.
class WallSet {
public:
    void setup(const Scene& scene);
    void moveTo(double time);  // applies prescribed motion
    // Candidate triangles within radius + skin of each body.
    void refreshCandidates(const Bodies& bodies, double skin, int threads);
    bool candidatesStale(double skin) const;
    // Appends contacts of free bodies with planes and meshes, in body order: those overlapping, or
    // with a gap below `envelope` (contact dynamics, implicit integrators; keep it below the skin).
    void findContacts(const Bodies& bodies, int threads, std::vector<WallContact>& out, double envelope = 0.0) const;
    // The same for body i alone, appended to `out` (the engine's sweep before the forces).
    void appendContacts(const Bodies& bodies, std::size_t i, std::vector<WallContact>& out, double envelope = 0.0) const;
    std::size_t count() const { return planes_.size() + meshes_.size(); }

    // Wall geometry at the current time, for the narrow phase of feature meshes (polyhedra).
    std::size_t planeCount() const { return planes_.size(); }
    bool planePresent(std::size_t k) const { return time_ < planes_[k].remove_at; }
    const Vec3& planePoint(std::size_t k) const { return planes_[k].point; }
    const Vec3& planeNormal(std::size_t k) const { return planes_[k].normal; }
    std::uint32_t planeMaterial(std::size_t k) const { return planes_[k].material; }
    Vec3 planeVelocity(std::size_t k, const Vec3& point) const { return surfaceVelocity(*planes_[k].motion, point); }
    std::size_t meshCount() const { return meshes_.size(); }
    const std::vector<Vec3>& meshVertices(std::size_t m) const { return meshes_[m].current; }
    const MeshWall& meshWall(std::size_t m) const { return *meshes_[m].wall; }
    std::uint32_t meshMaterial(std::size_t m) const { return meshes_[m].material; }
    Vec3 meshVelocity(std::size_t m, const Vec3& point) const { return surfaceVelocity(meshes_[m].wall->motion, point); }
    WallCandidates candidates() const;
    // Restores saved candidates after setup(); false (nothing changed) if they do not fit the meshes.
    bool restoreCandidates(WallCandidates saved, std::size_t bodies);

private:
    struct Plane { Vec3 point, normal; const WallMotion* motion; std::uint32_t material; double remove_at; };
    struct Mesh { std::vector<Vec3> rest, current, at_candidates; const MeshWall* wall; std::uint32_t material; };
    Vec3 surfaceVelocity(const WallMotion& motion, const Vec3& point) const;

    std::vector<Plane> plane_rest_, planes_;
    std::vector<Mesh> meshes_;
    double time_ = 0.0;
    // Per body, (mesh, triangle) candidates in CSR form.
    std::vector<std::uint32_t> candidate_start_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates_;
};

}  // namespace grainlab
