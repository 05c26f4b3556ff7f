#include "grainlab/sim/walls.hpp"

#include <algorithm>

#include "grainlab/core/parallel.hpp"
#include "grainlab/geometry/closest_point.hpp"
#include "grainlab/sim/wall_placement.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

void WallSet::setup(const Scene& scene) {
    plane_rest_.clear();
    meshes_.clear();
    for (const PlaneWall& p : scene.planes)
        plane_rest_.push_back({p.point, p.normal, &p.motion, static_cast<std::uint32_t>(scene.materialIndex(p.material)),
                               p.remove_at});
    for (const MeshWall& m : scene.meshes)
        meshes_.push_back({m.mesh.vertices, m.mesh.vertices, {}, &m, static_cast<std::uint32_t>(scene.materialIndex(m.material))});
    planes_ = plane_rest_;
    moveTo(0.0);
}

void WallSet::moveTo(double time) {
    time_ = time;
    for (std::size_t k = 0; k < planes_.size(); ++k) {
        const Eigen::Isometry3d placement = wallPlacement(*plane_rest_[k].motion, time);
        planes_[k].point = placement * plane_rest_[k].point;
        planes_[k].normal = placement.linear() * plane_rest_[k].normal;
    }
    for (Mesh& mesh : meshes_) {
        if (!mesh.wall->motion.moves()) continue;
        const Eigen::Isometry3d placement = wallPlacement(mesh.wall->motion, time);
        for (std::size_t v = 0; v < mesh.rest.size(); ++v) mesh.current[v] = placement * mesh.rest[v];
    }
}

Vec3 WallSet::surfaceVelocity(const WallMotion& m, const Vec3& point) const {
    const Vec3 center = m.center + m.velocity * time_;
    return m.velocity + m.angular_velocity.cross(point - center) + m.surface_velocity;
}

bool WallSet::candidatesStale(double skin) const {
    for (const Mesh& mesh : meshes_) {
        if (mesh.at_candidates.size() != mesh.current.size()) return true;
        for (std::size_t v = 0; v < mesh.current.size(); ++v)
            if ((mesh.current[v] - mesh.at_candidates[v]).squaredNorm() > 0.25 * skin * skin) return true;
    }
    return false;
}

void WallSet::refreshCandidates(const Bodies& bodies, double skin, int threads) {
    const std::size_t n = bodies.size();
    candidate_start_.assign(n + 1, 0);
    candidates_.clear();
    if (meshes_.empty()) return;
    // Triangle boxes, tested against each body's sphere grown by the skin.
    struct Box { Vec3 lo, hi; };
    std::vector<std::vector<Box>> boxes(meshes_.size());
    for (std::size_t m = 0; m < meshes_.size(); ++m) {
        const Mesh& mesh = meshes_[m];
        for (const auto& tri : mesh.wall->mesh.triangles) {
            const Vec3 &a = mesh.current[tri[0]], &b = mesh.current[tri[1]], &c = mesh.current[tri[2]];
            boxes[m].push_back({a.cwiseMin(b).cwiseMin(c), a.cwiseMax(b).cwiseMax(c)});
        }
    }
    // Each thread collects the candidates of its body range; parts are joined in thread order.
    const int thread_count = std::max(1, threads);
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> parts(static_cast<std::size_t>(thread_count));
    std::vector<std::uint32_t> per_body(n, 0);
    parallelRanges(n, thread_count, [&](int thread, std::size_t begin, std::size_t end) {
        auto& out = parts[static_cast<std::size_t>(thread)];
        for (std::size_t i = begin; i < end; ++i) {
            if (bodies.frozen[i]) continue;
            const std::size_t before = out.size();
            const double reach = bodies.radius[i] + skin;
            const Vec3& x = bodies.position[i];
            for (std::size_t m = 0; m < meshes_.size(); ++m) {
                const auto& triangles = meshes_[m].wall->mesh.triangles;
                for (std::size_t t = 0; t < triangles.size(); ++t) {
                    const Box& box = boxes[m][t];
                    if (((x - box.hi).array() > reach).any() || ((box.lo - x).array() > reach).any()) continue;
                    TriangleFeature feature;
                    const auto& tri = triangles[t];
                    const Vec3 p = closestPointOnTriangle(x, meshes_[m].current[tri[0]], meshes_[m].current[tri[1]],
                                                          meshes_[m].current[tri[2]], feature);
                    if ((x - p).squaredNorm() < reach * reach)
                        out.push_back({static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(t)});
                }
            }
            per_body[i] = static_cast<std::uint32_t>(out.size() - before);
        }
    });
    for (std::size_t i = 0; i < n; ++i) candidate_start_[i + 1] = candidate_start_[i] + per_body[i];
    for (const auto& part : parts) candidates_.insert(candidates_.end(), part.begin(), part.end());
    for (Mesh& mesh : meshes_) mesh.at_candidates = mesh.current;
}

WallCandidates WallSet::candidates() const {
    WallCandidates out{candidate_start_, candidates_, {}};
    for (const Mesh& mesh : meshes_) out.mesh_vertices.push_back(mesh.at_candidates);
    return out;
}

bool WallSet::restoreCandidates(WallCandidates saved, std::size_t bodies) {
    if (saved.mesh_vertices.size() != meshes_.size()) return false;
    if (!saved.start.empty() && (saved.start.size() != bodies + 1 || saved.start.back() != saved.entries.size())) return false;
    for (std::size_t c = 0; c + 1 < saved.start.size(); ++c)
        if (saved.start[c] > saved.start[c + 1]) return false;
    for (std::size_t m = 0; m < meshes_.size(); ++m)
        if (!saved.mesh_vertices[m].empty() && saved.mesh_vertices[m].size() != meshes_[m].rest.size()) return false;
    for (const auto& [mesh, triangle] : saved.entries)
        if (mesh >= meshes_.size() || triangle >= meshes_[mesh].wall->mesh.triangles.size()) return false;
    candidate_start_ = std::move(saved.start);
    candidates_ = std::move(saved.entries);
    for (std::size_t m = 0; m < meshes_.size(); ++m) meshes_[m].at_candidates = std::move(saved.mesh_vertices[m]);
    return true;
}

void WallSet::findContacts(const Bodies& bodies, int threads, std::vector<WallContact>& out, double envelope) const {
    out.clear();
    if (count() == 0) return;  // a pass over every body per step for nothing (the chute has no walls)
    const std::size_t thread_count = static_cast<std::size_t>(std::max(1, threads));
    std::vector<std::vector<WallContact>> found(thread_count);
    parallelRanges(bodies.size(), threads, [&](int t, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) appendContacts(bodies, i, found[static_cast<std::size_t>(t)], envelope);
    });
    for (const auto& part : found) out.insert(out.end(), part.begin(), part.end());
}

void WallSet::appendContacts(const Bodies& bodies, std::size_t i, std::vector<WallContact>& out, double envelope) const {
    if (bodies.frozen[i]) return;
    const Vec3& x = bodies.position[i];
    const double r = bodies.radius[i];
    for (std::size_t k = 0; k < planes_.size(); ++k) {
        const Plane& p = planes_[k];
        if (time_ >= p.remove_at) continue;
        const double overlap = r - (x - p.point).dot(p.normal);
        if (overlap <= -envelope) continue;
        const Vec3 point = x - (r - overlap) * p.normal;
        out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(k), 0, p.material, p.normal, overlap,
                       point, surfaceVelocity(*p.motion, point)});
    }
    if (candidate_start_.size() != bodies.size() + 1) return;
    const std::size_t first_of_body = out.size();
    for (std::uint32_t c = candidate_start_[i]; c < candidate_start_[i + 1]; ++c) {
        const auto m = candidates_[c].first, t_index = candidates_[c].second;  // clang 14 cannot capture bindings
        const Mesh& mesh = meshes_[m];
        const auto& tri = mesh.wall->mesh.triangles[t_index];
        TriangleFeature feature;
        const Vec3 p = closestPointOnTriangle(x, mesh.current[tri[0]], mesh.current[tri[1]], mesh.current[tri[2]], feature);
        const Vec3 d = x - p;
        const double dist2 = d.squaredNorm();
        if (dist2 >= (r + envelope) * (r + envelope) || dist2 == 0.0) continue;
        // A sphere on an edge or vertex shared by several triangles touches it once.
        const bool duplicate = std::any_of(out.begin() + static_cast<std::ptrdiff_t>(first_of_body), out.end(),
            [&](const WallContact& o) { return o.wall == planes_.size() + m && (o.point - p).squaredNorm() < 1e-20 * (1.0 + r * r); });
        if (duplicate) continue;
        const double dist = std::sqrt(dist2);
        out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(planes_.size() + m), t_index,
                       mesh.material, d / dist, r - dist, p, surfaceVelocity(mesh.wall->motion, p)});
    }
}

}  // namespace grainlab
