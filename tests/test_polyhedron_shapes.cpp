// Polyhedral shapes: mass properties against closed forms, body frame, sub-regions, and refusal of
// defective meshes with the defects named (implementation note sections 2-3 and 12).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "grainlab/core/error.hpp"
#include "grainlab/geometry/polyhedron.hpp"
#include "polyhedra_support.hpp"

using namespace grainlab;

namespace {

// Box with half sides h, each face split into two triangles, wound outward.
TriangleMesh boxMesh(const Vec3& h) {
    TriangleMesh m;
    for (int i = 0; i < 8; ++i) m.vertices.push_back(Vec3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z()));
    const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : quads) {
        m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[1]), std::uint32_t(q[2])});
        m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[2]), std::uint32_t(q[3])});
    }
    return m;
}

std::size_t concaveEdges(const FeatureMesh& f) {
    std::size_t n = 0;
    for (const auto& e : f.edges) n += e.convex ? 0 : 1;
    return n;
}

}  // namespace

TEST_CASE("Cube shape: volume L^3, inertia m L^2 / 6, flat diagonals are not edges", "[polyhedra][shape]") {
    // Closed forms for a cube of side L (note 12): V = L^3, J = m L^2/6 I, bounding radius sqrt(3) L/2.
    const double L = 0.1;
    const Polyhedron cube = loadPolyhedron(test::shapePath("cube.stl"), L, false);
    CHECK(cube.volume == Approx(L * L * L).epsilon(1e-6));
    for (int k = 0; k < 3; ++k) CHECK(cube.principal_inertia[k] == Approx(L * L * L * L * L / 6.0).epsilon(1e-6));
    CHECK(cube.features.bounding_radius == Approx(std::sqrt(3.0) / 2.0 * L).epsilon(1e-6));
    CHECK(cube.features.triangles.size() == 12);
    CHECK(cube.features.edges.size() == 12);      // the 6 face diagonals are flat: excluded
    CHECK(concaveEdges(cube.features) == 0);
    std::size_t corners = 0;
    for (auto c : cube.features.corner) corners += c;
    CHECK(corners == 8);
    std::vector<std::uint32_t> facets(cube.features.facet);
    std::sort(facets.begin(), facets.end());
    CHECK(std::unique(facets.begin(), facets.end()) - facets.begin() == 6);
}

TEST_CASE("Box shape: principal axes, centre of mass and invariance under rigid motion", "[polyhedra][shape]") {
    // Solid box a x b x c: principal moments V (b^2 + c^2)/12 etc. (unit density); the body frame
    // is at the centre of mass whatever the file's placement and orientation.
    const Vec3 h(0.5, 0.5, 1.5);
    TriangleMesh mesh = boxMesh(h);
    const Quat turn = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
    const Vec3 shift(3.0, -2.0, 5.0);
    for (Vec3& v : mesh.vertices) v = turn * v + shift;
    const Polyhedron box = makePolyhedron(mesh, 2.0, false, "box");
    const Vec3 side = 4.0 * h;  // scale 2
    const double V = side.prod();
    CHECK(box.volume == Approx(V).epsilon(1e-9));
    CHECK((box.mesh_centroid - 2.0 * shift).norm() < 1e-9);
    // Eigenvalues ascending: the long axis first.
    CHECK(box.principal_inertia[0] == Approx(V * (side.x() * side.x() + side.y() * side.y()) / 12.0).epsilon(1e-9));
    CHECK(box.principal_inertia[2] == Approx(V * (side.y() * side.y() + side.z() * side.z()) / 12.0).epsilon(1e-9));
    // The body frame maps back onto the file's vertices.
    for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
        CHECK((box.body_to_mesh * box.features.vertices[v] + box.mesh_centroid - 2.0 * mesh.vertices[v]).norm() < 1e-9);
    // The long axis of the file is the body's x axis.
    CHECK(std::abs((box.body_to_mesh * Vec3::UnitX()).dot(turn * Vec3::UnitZ())) == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("Shipped non-convex shapes load with concave edges and a positive volume", "[polyhedra][shape]") {
    // The tetrapod's valley diagonals and the L block's inner corner are concave (note 2.2).
    const Polyhedron tetrapod = loadPolyhedron(test::shapePath("tetrapod.stl"), 1.0, false);
    CHECK(tetrapod.volume > 0.0);
    CHECK(concaveEdges(tetrapod.features) == 6);
    CHECK(tetrapod.features.edges.size() == 18);
    // Tetrahedral symmetry: isotropic inertia, centre of mass at the origin of the file.
    CHECK(tetrapod.mesh_centroid.norm() < 1e-6);
    CHECK(tetrapod.principal_inertia[0] == Approx(tetrapod.principal_inertia[2]).epsilon(1e-5));
    const Polyhedron lblock = loadPolyhedron(test::shapePath("lblock.ply"), 1.0, false);
    CHECK(lblock.volume == Approx((2 * 0.4 - 0.16) * 0.4).epsilon(1e-6));
    CHECK(concaveEdges(lblock.features) == 1);
    const Polyhedron cross = loadPolyhedron(test::shapePath("cross.obj"), 1.0, false);
    CHECK(concaveEdges(cross.features) == 4);
    const Polyhedron box = loadPolyhedron(test::shapePath("box.obj"), 1.0, false);
    CHECK(box.volume == Approx(3.0).epsilon(1e-6));
}

TEST_CASE("Defective shapes are refused naming the defects; orientation repaired on request", "[polyhedra][shape][input]") {
    TriangleMesh open = boxMesh(Vec3(1, 1, 1));
    open.triangles.pop_back();
    try {
        makePolyhedron(open, 1.0, true, "open.stl");
        FAIL("an open mesh was accepted");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("open.stl") && Catch::Contains("3 open edges"));
    }
    TriangleMesh flipped = boxMesh(Vec3(1, 1, 1));
    std::swap(flipped.triangles[3][1], flipped.triangles[3][2]);
    CHECK_THROWS_WITH(makePolyhedron(flipped, 1.0, false, "flipped.stl"), Catch::Contains("1 flipped face"));
    CHECK(makePolyhedron(flipped, 1.0, true, "flipped.stl").volume == Approx(8.0));
    TriangleMesh inverted = boxMesh(Vec3(1, 1, 1));
    for (auto& t : inverted.triangles) std::swap(t[1], t[2]);
    CHECK_THROWS_WITH(makePolyhedron(inverted, 1.0, false, "inverted.stl"), Catch::Contains("inside out"));
    CHECK(makePolyhedron(inverted, 1.0, true, "inverted.stl").volume == Approx(8.0));
    CHECK_THROWS_WITH(loadPolyhedron(test::shapePath("missing.stl"), 1.0, false), Catch::Contains("missing.stl"));
}
