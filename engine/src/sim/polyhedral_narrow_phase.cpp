#include "grainlab/sim/polyhedral_narrow_phase.hpp"

#include <algorithm>
#include <unordered_map>

#include "grainlab/core/parallel.hpp"

namespace grainlab {
namespace {

struct ContactKey {
    std::uint32_t a;
    std::int64_t b;
    std::uint32_t fa, fb;
    bool operator==(const ContactKey& o) const { return a == o.a && b == o.b && fa == o.fa && fb == o.fb; }
};
struct ContactKeyHash {
    std::size_t operator()(const ContactKey& k) const {
        std::size_t h = std::hash<std::uint64_t>()((static_cast<std::uint64_t>(k.a) << 32) ^ static_cast<std::uint64_t>(k.b));
        h ^= std::hash<std::uint64_t>()((static_cast<std::uint64_t>(k.fa) << 32) | k.fb) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        return h;
    }
};

ContactKey keyOf(const PolyhedralContact& c) { return {c.body_a, c.body_b, c.geometry.feature_a, c.geometry.feature_b}; }

}  // namespace

void PolyhedralNarrowPhase::setup(const Scene& scene, const Bodies& bodies) {
    shape_of_.assign(bodies.size(), nullptr);
    placed_.assign(bodies.size(), FeatureMesh{});
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const ShapeSpec& shape = scene.shapes[bodies.shape[i]];
        if (shape.kind == ShapeSpec::Kind::Polyhedron) shape_of_[i] = shape.polyhedron;
    }
    // Wall meshes have no inside: each is kept twice, as given and with every triangle reversed, so
    // bodies meet faces, creases and corners from either side.
    wall_meshes_.clear();
    for (const MeshWall& wall : scene.meshes) {
        for (bool reversed : {false, true}) {
            FeatureMesh m;
            m.vertices = wall.mesh.vertices;
            m.triangles = wall.mesh.triangles;
            if (reversed)
                for (auto& t : m.triangles) std::swap(t[1], t[2]);
            m.build();
            wall_meshes_.push_back(std::move(m));
        }
    }
    previous_.clear();
    previous_history_.clear();
}

bool PolyhedralNarrowPhase::firstInterpenetration(const Bodies& bodies, const NeighborList& pairs, std::uint32_t& a,
                                                  std::uint32_t& b) const {
    for (std::size_t i = 0; i < bodies.size(); ++i)
        for (std::uint32_t k = pairs.row_start[i]; k < pairs.row_start[i + 1]; ++k) {
            const std::uint32_t j = pairs.partner[k];
            if (!shape_of_[i] && !shape_of_[j]) continue;
            if (surfacesInterpenetrate(surfaceOf(bodies, i), surfaceOf(bodies, j))) {
                a = static_cast<std::uint32_t>(i);
                b = j;
                return true;
            }
        }
    return false;
}

ContactSurface PolyhedralNarrowPhase::surfaceOf(const Bodies& bodies, std::size_t i) const {
    ContactSurface s;
    s.centre = bodies.position[i];
    s.bound = bodies.radius[i];
    if (shape_of_[i]) s.mesh = &placed_[i];
    else s.sphere_radius = bodies.radius[i];
    return s;
}

void PolyhedralNarrowPhase::find(const Bodies& bodies, const NeighborList& pairs, const WallSet& walls, int threads,
                                 PolyhedralContactList& list) {
    const std::size_t n = bodies.size();
    const double range = list.range;
    parallelRanges(n, threads, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            if (shape_of_[i]) shape_of_[i]->features.transformInto(bodies.orientation[i], bodies.position[i], placed_[i]);
    });
    wall_surfaces_.resize(wall_meshes_.size());
    for (std::size_t m = 0; m < wall_meshes_.size(); ++m) {
        if (walls.meshWall(m / 2).motion.moves()) wall_meshes_[m].place(walls.meshVertices(m / 2));
        ContactSurface& wall = wall_surfaces_[m];
        wall.mesh = &wall_meshes_[m];
        wall.centre = Vec3::Zero();
        for (const Vec3& v : wall_meshes_[m].vertices) wall.centre += v;
        wall.centre /= static_cast<double>(std::max<std::size_t>(1, wall_meshes_[m].vertices.size()));
        wall.bound = 0.0;
        for (const Vec3& v : wall_meshes_[m].vertices) wall.bound = std::max(wall.bound, (v - wall.centre).norm());
    }

    std::swap(previous_, list.contacts);
    std::swap(previous_history_, list.history);
    const std::size_t thread_count = static_cast<std::size_t>(std::max(1, threads));
    std::vector<std::vector<PolyhedralContact>> found(thread_count);
    scratch_.resize(thread_count);
    parallelRanges(n, threads, [&](int t, std::size_t begin, std::size_t end) {
        std::vector<PolyhedralContact>& local = found[static_cast<std::size_t>(t)];
        std::vector<FeatureContact>& geometry = scratch_[static_cast<std::size_t>(t)];
        auto emit = [&](std::uint32_t a, std::int64_t b, std::uint32_t material_b, auto&& velocity_at) {
            for (const FeatureContact& g : geometry) local.push_back({a, b, material_b, g, velocity_at(g.point_b)});
            geometry.clear();
        };
        const auto still = [](const Vec3&) { return Vec3::Zero().eval(); };
        for (std::size_t i = begin; i < end; ++i) {
            const ContactSurface si = surfaceOf(bodies, i);
            const auto a = static_cast<std::uint32_t>(i);
            for (std::uint32_t k = pairs.row_start[i]; k < pairs.row_start[i + 1]; ++k) {
                const std::uint32_t j = pairs.partner[k];
                if (bodies.frozen[i] && bodies.frozen[j]) continue;
                collideSurfaces(si, surfaceOf(bodies, j), range, geometry);
                emit(a, j, bodies.material[j], still);
            }
            if (bodies.frozen[i]) continue;
            for (std::size_t p = 0; p < walls.planeCount(); ++p) {
                if (!walls.planePresent(p)) continue;
                collidePlane(si, walls.planePoint(p), walls.planeNormal(p), range, geometry);
                emit(a, -1 - static_cast<std::int64_t>(p), walls.planeMaterial(p),
                     [&](const Vec3& x) { return walls.planeVelocity(p, x); });
            }
            for (std::size_t m = 0; m < wall_meshes_.size(); ++m) {
                collideSurfaces(si, wall_surfaces_[m], range, geometry);
                // A body sits on one side of a sheet: the other side's (negative) gaps are not contacts.
                geometry.erase(std::remove_if(geometry.begin(), geometry.end(),
                                              [](const FeatureContact& c) { return c.gap <= 0.0; }),
                               geometry.end());
                const std::size_t wall = m / 2;
                emit(a, -1 - static_cast<std::int64_t>(walls.planeCount() + wall), walls.meshMaterial(wall),
                     [&](const Vec3& x) { return walls.meshVelocity(wall, x); });
            }
        }
    });
    list.contacts.clear();
    for (const auto& part : found) list.contacts.insert(list.contacts.end(), part.begin(), part.end());

    // History follows the key (bodies and sub-region pair); new contacts start from zeros.
    // The same sub-region pair with a reversed normal means a gap went through zero (note 8); so
    // does a gap that is no longer positive.
    const std::size_t h = list.history_size;
    list.history.assign(list.contacts.size() * h, 0.0);
    list.flipped = 0;
    const bool carry = h > 0 && previous_history_.size() == previous_.size() * h;
    std::unordered_map<ContactKey, std::size_t, ContactKeyHash> index;
    index.reserve(previous_.size());
    for (std::size_t c = 0; c < previous_.size(); ++c) index.emplace(keyOf(previous_[c]), c);
    for (std::size_t c = 0; c < list.contacts.size(); ++c) {
        if (list.contacts[c].geometry.gap <= 0.0) ++list.flipped;  // through the barrier
        const auto it = index.find(keyOf(list.contacts[c]));
        if (it == index.end()) continue;
        if (previous_[it->second].geometry.normal.dot(list.contacts[c].geometry.normal) <= 0.0) ++list.flipped;
        if (carry) std::copy_n(previous_history_.data() + it->second * h, h, list.history.data() + c * h);
    }
}

}  // namespace grainlab
