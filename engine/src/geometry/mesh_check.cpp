#include "grainlab/geometry/mesh_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <utility>
#include <vector>

namespace grainlab {
namespace {

using Triangle = std::array<std::uint32_t, 3>;

bool hasRepeatedCorner(const Triangle& t) { return t[0] == t[1] || t[1] == t[2] || t[2] == t[0]; }

// Degenerate when the smallest height (twice the area over the longest edge) is within tolerance:
// the triangle is then a segment or a point at the resolution vertices are welded with.
bool isDegenerate(const TriangleMesh& mesh, const Triangle& t, double tolerance) {
    if (hasRepeatedCorner(t)) return true;
    const Vec3& a = mesh.vertices[t[0]];
    const Vec3& b = mesh.vertices[t[1]];
    const Vec3& c = mesh.vertices[t[2]];
    const double longest = std::sqrt(
        std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()}));
    const double twiceArea = (b - a).cross(c - a).norm();
    return twiceArea <= tolerance * longest;
}

// Two triangles meeting at a manifold edge; `same_direction` means both traverse the edge the
// same way, i.e. their orientations disagree.
struct Link {
    std::uint32_t a;
    std::uint32_t b;
    bool same_direction;
};

struct EdgeCensus {
    std::size_t open = 0;
    std::size_t non_manifold = 0;
    std::vector<Link> links;
};

// Sorting directed edges by their undirected key groups the uses of each edge: O(n log n).
EdgeCensus censusEdges(const TriangleMesh& mesh) {
    struct Use {
        std::uint64_t key;
        std::uint32_t triangle;
        bool forward;  // traversed from the smaller to the larger vertex index
    };
    std::vector<Use> uses;
    uses.reserve(mesh.triangles.size() * 3);
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const Triangle& tri = mesh.triangles[t];
        if (hasRepeatedCorner(tri)) continue;  // its "edges" have no direction to compare
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t from = tri[k];
            const std::uint32_t to = tri[(k + 1) % 3];
            const std::uint64_t lo = std::min(from, to);
            const std::uint64_t hi = std::max(from, to);
            uses.push_back({(lo << 32) | hi, static_cast<std::uint32_t>(t), from < to});
        }
    }
    std::sort(uses.begin(), uses.end(), [](const Use& x, const Use& y) { return x.key < y.key; });

    EdgeCensus census;
    for (std::size_t first = 0; first < uses.size();) {
        std::size_t last = first;
        while (last < uses.size() && uses[last].key == uses[first].key) ++last;
        const std::size_t count = last - first;
        if (count == 1) {
            ++census.open;
        } else if (count == 2) {
            census.links.push_back({uses[first].triangle, uses[first + 1].triangle,
                                    uses[first].forward == uses[first + 1].forward});
        } else {
            ++census.non_manifold;
        }
        first = last;
    }
    return census;
}

// Breadth-first propagation of orientation from one seed per connected component. parity 1 means
// "disagrees with the seed"; the smaller parity class of a component is the one to flip.
struct Orientation {
    std::vector<std::uint32_t> component;  // per triangle
    std::vector<std::uint8_t> parity;      // per triangle
    std::vector<std::size_t> disagreeing;  // per component: triangles with parity 1
    std::vector<std::size_t> size;         // per component
    std::vector<bool> non_orientable;      // per component: some link cannot be satisfied
};

Orientation propagateOrientation(std::size_t triangle_count, const std::vector<Link>& links) {
    // Compressed adjacency: neighbours of t are entries [offset[t], offset[t+1]).
    std::vector<std::size_t> offset(triangle_count + 1, 0);
    for (const Link& l : links) {
        ++offset[l.a + 1];
        ++offset[l.b + 1];
    }
    for (std::size_t t = 0; t < triangle_count; ++t) offset[t + 1] += offset[t];
    std::vector<std::pair<std::uint32_t, bool>> neighbours(offset.back());
    std::vector<std::size_t> fill(offset.begin(), offset.end() - 1);
    for (const Link& l : links) {
        neighbours[fill[l.a]++] = {l.b, l.same_direction};
        neighbours[fill[l.b]++] = {l.a, l.same_direction};
    }

    constexpr std::uint32_t kUnvisited = UINT32_MAX;
    Orientation o;
    o.component.assign(triangle_count, kUnvisited);
    o.parity.assign(triangle_count, 0);
    std::deque<std::uint32_t> queue;
    for (std::uint32_t seed = 0; seed < triangle_count; ++seed) {
        if (o.component[seed] != kUnvisited) continue;
        const auto id = static_cast<std::uint32_t>(o.size.size());
        o.size.push_back(0);
        o.disagreeing.push_back(0);
        o.component[seed] = id;
        queue.push_back(seed);
        while (!queue.empty()) {
            const std::uint32_t t = queue.front();
            queue.pop_front();
            ++o.size[id];
            o.disagreeing[id] += o.parity[t];
            for (std::size_t k = offset[t]; k < offset[t + 1]; ++k) {
                const auto [n, same] = neighbours[k];
                if (o.component[n] != kUnvisited) continue;
                o.component[n] = id;
                o.parity[n] = static_cast<std::uint8_t>(o.parity[t] ^ (same ? 1 : 0));
                queue.push_back(n);
            }
        }
    }
    o.non_orientable.assign(o.size.size(), false);
    for (const Link& l : links) {
        const bool differ = o.parity[l.a] != o.parity[l.b];
        if (differ != l.same_direction) o.non_orientable[o.component[l.a]] = true;
    }
    return o;
}

std::string plural(std::size_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

std::string MeshReport::describe() const {
    std::vector<std::string> parts;
    if (open_edges) parts.push_back(plural(open_edges, "open edge"));
    if (non_manifold_edges) parts.push_back(plural(non_manifold_edges, "non-manifold edge"));
    if (flipped_faces) parts.push_back(plural(flipped_faces, "flipped face"));
    if (non_orientable_components)
        parts.push_back(plural(non_orientable_components, "non-orientable component"));
    if (degenerate_triangles) parts.push_back(plural(degenerate_triangles, "zero-area triangle"));
    if (parts.empty()) return "closed, consistently oriented";
    std::string text = parts.front();
    for (std::size_t i = 1; i < parts.size(); ++i) text += ", " + parts[i];
    return text;
}

VertexBox boundingBox(const std::vector<Vec3>& vertices) {
    VertexBox box;
    if (vertices.empty()) return box;
    box.lo = box.hi = vertices.front();
    for (const Vec3& v : vertices) {
        box.lo = box.lo.cwiseMin(v);
        box.hi = box.hi.cwiseMax(v);
    }
    return box;
}

MeshReport checkMesh(const TriangleMesh& mesh) {
    MeshReport report;
    const double tolerance = kMeshRelativeTolerance * boundingDiagonal(mesh.vertices);
    for (const Triangle& t : mesh.triangles)
        if (isDegenerate(mesh, t, tolerance)) ++report.degenerate_triangles;

    const EdgeCensus census = censusEdges(mesh);
    report.open_edges = census.open;
    report.non_manifold_edges = census.non_manifold;

    const Orientation o = propagateOrientation(mesh.triangles.size(), census.links);
    for (std::size_t c = 0; c < o.size.size(); ++c) {
        report.flipped_faces += std::min(o.disagreeing[c], o.size[c] - o.disagreeing[c]);
        if (o.non_orientable[c]) ++report.non_orientable_components;
    }
    return report;
}

void orientConsistently(TriangleMesh& mesh) {
    const EdgeCensus census = censusEdges(mesh);
    const Orientation o = propagateOrientation(mesh.triangles.size(), census.links);
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const std::uint32_t c = o.component[t];
        // On a tie keep the seed's orientation, so repeated calls change nothing.
        const std::uint8_t minority = 2 * o.disagreeing[c] <= o.size[c] ? 1 : 0;
        if (o.parity[t] == minority) std::swap(mesh.triangles[t][1], mesh.triangles[t][2]);
    }
}

std::size_t weldVertices(TriangleMesh& mesh, double relative_tolerance) {
    const std::size_t n = mesh.vertices.size();
    if (n == 0) return 0;
    const VertexBox box = boundingBox(mesh.vertices);
    const Vec3 lo = box.lo;
    const double diagonal = box.diagonal();
    if (!std::isfinite(diagonal)) return 0;  // cell indices would be meaningless

    std::vector<std::uint32_t> remap(n);
    std::vector<Vec3> kept;
    if (diagonal == 0.0) {  // every vertex is the same point
        kept.push_back(mesh.vertices.front());
        std::fill(remap.begin(), remap.end(), 0);
    } else {
        // Cells as wide as the tolerance: any partner lies in one of the 27 surrounding cells.
        // The floor on the relative tolerance keeps cell indices well inside 64 bits.
        const double tolerance = std::max(relative_tolerance, 1e-15) * diagonal;
        struct Cell {
            std::int64_t x, y, z;
            bool operator==(const Cell&) const = default;
        };
        struct CellHash {
            std::size_t operator()(const Cell& c) const {
                std::uint64_t h = static_cast<std::uint64_t>(c.x) * 0x9E3779B97F4A7C15ULL;
                h ^= static_cast<std::uint64_t>(c.y) * 0xC2B2AE3D27D4EB4FULL + (h << 6) + (h >> 2);
                h ^= static_cast<std::uint64_t>(c.z) * 0x165667B19E3779F9ULL + (h << 6) + (h >> 2);
                return static_cast<std::size_t>(h);
            }
        };
        std::unordered_map<Cell, std::vector<std::uint32_t>, CellHash> grid;
        grid.reserve(n);
        const double tolerance2 = tolerance * tolerance;
        for (std::size_t i = 0; i < n; ++i) {
            const Vec3& v = mesh.vertices[i];
            const Vec3 scaled = (v - lo) / tolerance;
            const Cell home{static_cast<std::int64_t>(std::floor(scaled.x())),
                            static_cast<std::int64_t>(std::floor(scaled.y())),
                            static_cast<std::int64_t>(std::floor(scaled.z()))};
            std::uint32_t match = UINT32_MAX;
            for (int dx = -1; dx <= 1 && match == UINT32_MAX; ++dx)
                for (int dy = -1; dy <= 1 && match == UINT32_MAX; ++dy)
                    for (int dz = -1; dz <= 1 && match == UINT32_MAX; ++dz) {
                        const auto it = grid.find({home.x + dx, home.y + dy, home.z + dz});
                        if (it == grid.end()) continue;
                        for (std::uint32_t j : it->second)
                            if ((kept[j] - v).squaredNorm() <= tolerance2) {
                                match = j;
                                break;
                            }
                    }
            if (match == UINT32_MAX) {
                match = static_cast<std::uint32_t>(kept.size());
                kept.push_back(v);
                grid[home].push_back(match);
            }
            remap[i] = match;
        }
    }
    for (Triangle& t : mesh.triangles)
        for (std::uint32_t& index : t) index = remap[index];
    const std::size_t merged = n - kept.size();
    mesh.vertices = std::move(kept);
    return merged;
}

std::size_t removeDegenerateTriangles(TriangleMesh& mesh, double relative_tolerance) {
    const double tolerance = relative_tolerance * boundingDiagonal(mesh.vertices);
    const std::size_t before = mesh.triangles.size();
    std::erase_if(mesh.triangles,
                  [&](const Triangle& t) { return isDegenerate(mesh, t, tolerance); });
    return before - mesh.triangles.size();
}

std::size_t removeUnusedVertices(TriangleMesh& mesh) {
    std::vector<bool> used(mesh.vertices.size(), false);
    for (const Triangle& t : mesh.triangles)
        for (std::uint32_t index : t) used[index] = true;
    // Keep the survivors in their original order so vertex numbers stay recognisable.
    std::vector<std::uint32_t> remap(mesh.vertices.size(), 0);
    std::vector<Vec3> kept;
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
        if (!used[i]) continue;
        remap[i] = static_cast<std::uint32_t>(kept.size());
        kept.push_back(mesh.vertices[i]);
    }
    for (Triangle& t : mesh.triangles)
        for (std::uint32_t& index : t) index = remap[index];
    const std::size_t dropped = mesh.vertices.size() - kept.size();
    mesh.vertices = std::move(kept);
    return dropped;
}

}  // namespace grainlab
