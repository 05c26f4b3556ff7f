#include "grainlab/geometry/polyhedron.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

#include <Eigen/Eigenvalues>

#include "grainlab/core/error.hpp"
#include "grainlab/geometry/mesh_check.hpp"
#include "grainlab/io/mesh_file.hpp"

namespace grainlab {
namespace {

using EdgeKey = std::pair<std::uint32_t, std::uint32_t>;

EdgeKey key(std::uint32_t a, std::uint32_t b) { return a < b ? EdgeKey{a, b} : EdgeKey{b, a}; }

// Smallest sphere around the triangle's centroid that holds it (not minimal, but tight enough).
void triangleBounds(const Vec3& a, const Vec3& b, const Vec3& c, Vec3& centre, double& radius) {
    centre = (a + b + c) / 3.0;
    radius = std::sqrt(std::max({(a - centre).squaredNorm(), (b - centre).squaredNorm(), (c - centre).squaredNorm()}));
}

// In face `face`'s plane, perpendicular to edge (a, b), pointing away from the face.
Vec3 outwardInPlane(const Vec3& a, const Vec3& b, const Vec3& opposite, const Vec3& face_normal) {
    Vec3 d = (b - a).cross(face_normal).normalized();
    if (d.dot(opposite - a) > 0.0) d = -d;
    return d;
}

std::uint32_t opposite(const std::array<std::uint32_t, 3>& t, std::uint32_t a, std::uint32_t b) {
    for (std::uint32_t v : t)
        if (v != a && v != b) return v;
    return t[0];
}

}  // namespace

MassProperties massProperties(const TriangleMesh& mesh) {
    MassProperties out;
    if (mesh.vertices.empty()) return out;
    // Relative to the mean vertex: keeps the sums well conditioned far from the origin.
    Vec3 o = Vec3::Zero();
    for (const Vec3& v : mesh.vertices) o += v;
    o /= static_cast<double>(mesh.vertices.size());
    Vec3 first = Vec3::Zero();
    Mat3 second = Mat3::Zero();
    for (const auto& t : mesh.triangles) {
        const Vec3 a = mesh.vertices[t[0]] - o, b = mesh.vertices[t[1]] - o, c = mesh.vertices[t[2]] - o;
        const double v = a.dot(b.cross(c)) / 6.0;
        out.volume += v;
        const Vec3 s = a + b + c;
        first += v * s / 4.0;
        second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
    if (out.volume == 0.0) return out;
    const Vec3 cg = first / out.volume;
    out.centroid = o + cg;
    const Mat3 c_g = second - out.volume * cg * cg.transpose();
    out.inertia = c_g.trace() * Mat3::Identity() - c_g;
    return out;
}

void FeatureMesh::build(double flat_tolerance) {
    const std::size_t nt = triangles.size();
    std::map<EdgeKey, std::vector<std::uint32_t>> users;
    for (std::uint32_t t = 0; t < nt; ++t)
        for (int k = 0; k < 3; ++k) users[key(triangles[t][k], triangles[t][(k + 1) % 3])].push_back(t);

    face_normals.resize(nt);
    for (std::size_t t = 0; t < nt; ++t) {
        const auto& tri = triangles[t];
        face_normals[t] = (vertices[tri[1]] - vertices[tri[0]]).cross(vertices[tri[2]] - vertices[tri[0]]).normalized();
    }
    // Facets: union of triangles across flat edges.
    std::vector<std::uint32_t> parent(nt);
    std::iota(parent.begin(), parent.end(), 0u);
    auto root = [&](std::uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    edges.clear();
    std::vector<std::vector<std::uint32_t>> adjacency(vertices.size());
    corner.assign(vertices.size(), 0);
    for (const auto& [edge, faces] : users) {
        adjacency[edge.first].push_back(edge.second);
        adjacency[edge.second].push_back(edge.first);
        PolyhedronEdge e;
        e.v0 = edge.first;
        e.v1 = edge.second;
        e.face0 = faces[0];
        e.face1 = faces.size() > 1 ? faces[1] : faces[0];
        if (faces.size() > 1 && face_normals[e.face0].dot(face_normals[e.face1]) > 1.0 - flat_tolerance) {
            parent[root(e.face0)] = root(e.face1);
            continue;
        }
        corner[e.v0] = corner[e.v1] = 1;
        edges.push_back(e);
    }
    facet.resize(nt);
    for (std::uint32_t t = 0; t < nt; ++t) facet[t] = root(t);
    // Planes of hull faces separate the mesh from anything wholly in front of them.
    double extent = 0.0;
    for (const Vec3& v : vertices) extent = std::max(extent, (v - vertices.front()).norm());
    supporting.assign(nt, 1);
    for (std::size_t t = 0; t < nt; ++t)
        for (const Vec3& v : vertices)
            if ((v - vertices[triangles[t][0]]).dot(face_normals[t]) > 1e-9 * extent) {
                supporting[t] = 0;
                break;
            }
    neighbor_start.assign(vertices.size() + 1, 0);
    neighbors.clear();
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        neighbors.insert(neighbors.end(), adjacency[v].begin(), adjacency[v].end());
        neighbor_start[v + 1] = static_cast<std::uint32_t>(neighbors.size());
    }
    place(vertices);
}

void FeatureMesh::place(const std::vector<Vec3>& new_vertices) {
    if (&new_vertices != &vertices) vertices = new_vertices;
    const std::size_t nt = triangles.size();
    face_normals.resize(nt);
    face_centre.resize(nt);
    face_radius.resize(nt);
    for (std::size_t t = 0; t < nt; ++t) {
        const auto& tri = triangles[t];
        const Vec3 &a = vertices[tri[0]], &b = vertices[tri[1]], &c = vertices[tri[2]];
        face_normals[t] = (b - a).cross(c - a).normalized();
        triangleBounds(a, b, c, face_centre[t], face_radius[t]);
    }
    for (PolyhedronEdge& e : edges) {
        const Vec3 &a = vertices[e.v0], &b = vertices[e.v1];
        e.normal0 = face_normals[e.face0];
        if (e.face1 != e.face0) {
            e.normal1 = face_normals[e.face1];
            // Convex when face1's far corner lies behind face0's plane.
            const Vec3& far = vertices[opposite(triangles[e.face1], e.v0, e.v1)];
            e.convex = (far - a).dot(e.normal0) < 0.0;
            e.inward1 = -outwardInPlane(a, b, far, e.normal1);
        } else {
            e.normal1 = outwardInPlane(a, b, vertices[opposite(triangles[e.face0], e.v0, e.v1)], e.normal0);
            e.convex = true;
            e.inward1 = -e.normal0;  // the open side behaves as a right-angled convex edge
        }
        e.inward0 = -outwardInPlane(a, b, vertices[opposite(triangles[e.face0], e.v0, e.v1)], e.normal0);
    }
    bounding_radius = 0.0;
    for (const Vec3& v : vertices) bounding_radius = std::max(bounding_radius, v.norm());
}

void FeatureMesh::transformInto(const Quat& q, const Vec3& x, FeatureMesh& out) const {
    if (out.vertices.size() != vertices.size() || out.triangles.size() != triangles.size() ||
        out.edges.size() != edges.size())
        out = *this;
    const Mat3 r = q.toRotationMatrix();
    for (std::size_t v = 0; v < vertices.size(); ++v) out.vertices[v] = r * vertices[v] + x;
    for (std::size_t t = 0; t < triangles.size(); ++t) {
        out.face_normals[t] = r * face_normals[t];
        out.face_centre[t] = r * face_centre[t] + x;
    }
    for (std::size_t k = 0; k < edges.size(); ++k) {
        const PolyhedronEdge& e = edges[k];
        PolyhedronEdge& o = out.edges[k];
        o.normal0 = r * e.normal0;
        o.normal1 = r * e.normal1;
        o.inward0 = r * e.inward0;
        o.inward1 = r * e.inward1;
    }
}

Polyhedron makePolyhedron(TriangleMesh mesh, double scale, bool repair_orientation, const std::string& file) {
    if (!(scale > 0.0) || !std::isfinite(scale))
        throw InputError(file, "", "the shape scale must be a positive number");
    MeshReport report = checkMesh(mesh);
    if (!report.closed() || report.non_orientable_components > 0 || report.degenerate_triangles > 0 ||
        (!report.consistentlyOriented() && !repair_orientation))
        throw InputError(file, "", "a particle shape must be a closed, consistently oriented, non-degenerate mesh; "
                                   "found " + report.describe() +
                                   (report.closed() && report.flipped_faces ? " (set \"repair_orientation\": true to fix the orientation)" : ""));
    if (report.flipped_faces) orientConsistently(mesh);
    for (Vec3& v : mesh.vertices) v *= scale;
    MassProperties mass = massProperties(mesh);
    if (mass.volume < 0.0) {
        if (!repair_orientation)
            throw InputError(file, "", "the mesh is wound inside out (negative volume " + std::to_string(mass.volume) +
                                           "); set \"repair_orientation\": true to invert it");
        for (auto& t : mesh.triangles) std::swap(t[1], t[2]);
        mass = massProperties(mesh);
    }
    if (!(mass.volume > 0.0)) throw InputError(file, "", "the mesh encloses no volume");

    // Body frame: origin at the centre of mass, axes along the principal axes (right-handed).
    Eigen::SelfAdjointEigenSolver<Mat3> eigen(mass.inertia);
    Mat3 axes = eigen.eigenvectors();
    Vec3 moments = eigen.eigenvalues();
    // Isotropic inertia (cube, tetrapod): any axes are principal; keep the file's, which users expect.
    if (moments.maxCoeff() - moments.minCoeff() <= 1e-9 * moments.maxCoeff()) {
        axes = Mat3::Identity();
        moments = mass.inertia.diagonal();
    }
    if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);
    Polyhedron shape;
    shape.volume = mass.volume;
    shape.principal_inertia = moments;
    shape.mesh_centroid = mass.centroid;
    shape.body_to_mesh = Quat(axes).normalized();
    FeatureMesh& f = shape.features;
    f.triangles = mesh.triangles;
    f.vertices.reserve(mesh.vertices.size());
    for (const Vec3& v : mesh.vertices) f.vertices.push_back(axes.transpose() * (v - mass.centroid));
    f.build();
    return shape;
}

Polyhedron loadPolyhedron(const std::string& path, double scale, bool repair_orientation) {
    LoadedMesh loaded = loadMesh(path);
    if (loaded.report.degenerate_triangles > 0 && !loaded.report.closed())
        throw InputError(path, "", "a particle shape must be a closed mesh; after removing " +
                                       std::to_string(loaded.report.degenerate_triangles) +
                                       " zero-area triangles it has " + loaded.report.describe());
    return makePolyhedron(std::move(loaded.mesh), scale, repair_orientation, path);
}

}  // namespace grainlab
