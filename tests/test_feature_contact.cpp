// The polyhedral narrow phase (seed 003, note 6) on configurations whose contacts are known in
// closed form: which sub-region pairs touch, where, with which normal and gap; swapping the bodies
// mirrors every contact (note 12); redundant contacts at convex and concave edges are filtered.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "grainlab/geometry/feature_contact.hpp"
#include "polyhedra_support.hpp"

using namespace grainlab;

namespace {

struct Placed {
    FeatureMesh mesh;
    ContactSurface surface;
};

Placed place(const Polyhedron& shape, const Quat& q, const Vec3& x) {
    Placed p;
    shape.features.transformInto(q, x, p.mesh);
    p.surface.mesh = &p.mesh;
    p.surface.centre = x;
    p.surface.bound = shape.features.bounding_radius;
    return p;
}

ContactSurface sphere(const Vec3& centre, double radius) {
    ContactSurface s;
    s.centre = centre;
    s.bound = radius;
    s.sphere_radius = radius;
    return s;
}

std::vector<FeatureContact> collide(const ContactSurface& a, const ContactSurface& b, double range) {
    std::vector<FeatureContact> out;
    collideSurfaces(a, b, range, out);
    return out;
}

std::size_t countType(const std::vector<FeatureContact>& cs, FeaturePair type) {
    return static_cast<std::size_t>(std::count_if(cs.begin(), cs.end(), [&](const FeatureContact& c) { return c.type == type; }));
}

const Polyhedron& unitCube() {
    static const Polyhedron cube = loadPolyhedron(test::shapePath("cube.stl"), 1.0, false);
    return cube;
}

constexpr double kRange = 0.01;

}  // namespace

TEST_CASE("Cube face down over a plane: its four corners at the height of the face", "[polyhedra][narrow]") {
    const Placed a = place(unitCube(), Quat::Identity(), Vec3(0, 0, 0.5 + 0.004));
    std::vector<FeatureContact> out;
    collidePlane(a.surface, Vec3::Zero(), Vec3::UnitZ(), kRange, out);
    REQUIRE(out.size() == 4);
    for (const FeatureContact& c : out) {
        CHECK(c.gap == Approx(0.004).epsilon(1e-9));
        CHECK(c.point_a.z() == Approx(0.004).epsilon(1e-9));
        CHECK(std::abs(c.point_a.x()) == Approx(0.5));
    }
}

TEST_CASE("Cube on a cube turned 45 degrees: eight edge crossings of the octagon, nothing else", "[polyhedra][narrow]") {
    // A's bottom square |x| + |y| <= 1/sqrt(2) and B's top square |x|, |y| <= 1/2 hold none of each
    // other's corners; their edges cross at the 8 corners of the common octagon, where the edges
    // are a distance g apart along z.
    const double g = 0.003;
    const Placed b = place(unitCube(), Quat::Identity(), Vec3::Zero());
    const Placed a = place(unitCube(), Quat(Eigen::AngleAxisd(kPi / 4, Vec3::UnitZ())), Vec3(0, 0, 1 + g));
    const auto out = collide(a.surface, b.surface, kRange);
    REQUIRE(out.size() == 8);
    CHECK(countType(out, FeaturePair::EdgeEdge) == 8);
    for (const FeatureContact& c : out) {
        CHECK(c.gap == Approx(g).epsilon(1e-9));
        CHECK(c.normal.z() == Approx(1.0).epsilon(1e-12));
        const double r = std::hypot(c.point_b.x(), c.point_b.y());
        // Octagon corner: on B's edge |x| = 1/2 with |y| = 1/sqrt(2) - 1/2.
        CHECK(r == Approx(std::hypot(0.5, 1.0 / std::sqrt(2.0) - 0.5)).epsilon(1e-9));
    }
    // Swapping the bodies mirrors every contact: same gaps, opposite normals.
    const auto swapped = collide(b.surface, a.surface, kRange);
    REQUIRE(swapped.size() == 8);
    for (const FeatureContact& c : swapped) {
        CHECK(c.gap == Approx(g).epsilon(1e-9));
        CHECK(c.normal.z() == Approx(-1.0).epsilon(1e-12));
    }
}

TEST_CASE("Face-on-face with corners inside the other face: vertex-face contacts both ways", "[polyhedra][narrow]") {
    // A smaller-footprint cube shifted: its bottom corners inside B's top face and vice versa.
    const double g = 0.002;
    const Placed b = place(unitCube(), Quat::Identity(), Vec3::Zero());
    const Placed a = place(unitCube(), Quat::Identity(), Vec3(0.3, 0.2, 1 + g));
    const auto out = collide(a.surface, b.surface, kRange);
    // A's corner (-0.2, -0.3) lies inside B's face; B's corner (0.5, 0.5) inside A's; two crossings.
    CHECK(countType(out, FeaturePair::VertexFace) == 1);
    CHECK(countType(out, FeaturePair::FaceVertex) == 1);
    CHECK(countType(out, FeaturePair::EdgeEdge) == 2);
    for (const FeatureContact& c : out) CHECK(c.gap == Approx(g).epsilon(1e-9));
}

TEST_CASE("Vertex over a convex edge, crossed edges, vertex on vertex: one contact each", "[polyhedra][narrow]") {
    const double g = 0.005;
    const Quat corner_down = Quat::FromTwoVectors(Vec3(-1, -1, -1), Vec3(0, 0, -1));
    const Quat corner_up = Quat::FromTwoVectors(Vec3(1, 1, 1), Vec3(0, 0, 1));
    const Quat edge_up_x(Eigen::AngleAxisd(kPi / 4, Vec3::UnitX()));   // top edge along x
    const Quat edge_down_y(Eigen::AngleAxisd(kPi / 4, Vec3::UnitY()));  // bottom edge along y
    const double half_diagonal = std::sqrt(3.0) / 2, half_face_diagonal = std::sqrt(0.5);

    SECTION("vertex over the middle of an edge: vertex-edge") {
        const Placed b = place(unitCube(), edge_up_x, Vec3::Zero());
        const Placed a = place(unitCube(), corner_down, Vec3(0.1, 0, half_face_diagonal + half_diagonal + g));
        const auto out = collide(a.surface, b.surface, kRange);
        REQUIRE(out.size() == 1);
        CHECK(out[0].type == FeaturePair::VertexEdge);
        CHECK(out[0].gap == Approx(g).epsilon(1e-9));
        CHECK(out[0].normal.z() == Approx(1.0).epsilon(1e-9));
    }
    SECTION("crossed edges: edge-edge") {
        const Placed b = place(unitCube(), edge_up_x, Vec3::Zero());
        const Placed a = place(unitCube(), edge_down_y, Vec3(0.05, 0.1, 2 * half_face_diagonal + g));
        const auto out = collide(a.surface, b.surface, kRange);
        REQUIRE(out.size() == 1);
        CHECK(out[0].type == FeaturePair::EdgeEdge);
        CHECK(out[0].gap == Approx(g).epsilon(1e-9));
    }
    SECTION("vertex on vertex: vertex-vertex") {
        const Placed b = place(unitCube(), corner_up, Vec3::Zero());
        const Placed a = place(unitCube(), corner_down, Vec3(0, 0, 2 * half_diagonal + g));
        const auto out = collide(a.surface, b.surface, kRange);
        REQUIRE(out.size() == 1);
        CHECK(out[0].type == FeaturePair::VertexVertex);
        CHECK(out[0].gap == Approx(g).epsilon(1e-9));
    }
}

TEST_CASE("Sphere against polyhedra: faces, convex edges, and a concave corner (rule 1)", "[polyhedra][narrow]") {
    const double r = 0.05, g = 0.004;
    SECTION("over a face and over a convex edge") {
        const Placed b = place(unitCube(), Quat::Identity(), Vec3::Zero());
        auto out = collide(sphere(Vec3(0.1, 0.2, 0.5 + r + g), r), b.surface, kRange);
        REQUIRE(out.size() == 1);
        CHECK(out[0].type == FeaturePair::VertexFace);
        CHECK(out[0].gap == Approx(g).epsilon(1e-9));
        // Beyond the top edge x = 1/2 at 45 degrees: only the edge touches.
        const Vec3 n = Vec3(1, 0, 1).normalized();
        out = collide(sphere(Vec3(0.5, 0.1, 0.5) + (r + g) * n, r), b.surface, kRange);
        REQUIRE(out.size() == 1);
        CHECK(out[0].type == FeaturePair::VertexEdge);
        CHECK(out[0].gap == Approx(g).epsilon(1e-9));
        CHECK((out[0].normal - n).norm() < 1e-9);
    }
    SECTION("in the inner corner of the L block: both faces, not the concave edge") {
        const Polyhedron lblock = loadPolyhedron(test::shapePath("lblock.ply"), 1.0, false);
        const Placed b = place(lblock, Quat::Identity(), Vec3::Zero());
        // The one concave edge runs along the inner corner; its faces are perpendicular.
        const auto concave = std::find_if(b.mesh.edges.begin(), b.mesh.edges.end(), [](const PolyhedronEdge& e) { return !e.convex; });
        REQUIRE(concave != b.mesh.edges.end());
        const Vec3 middle = 0.5 * (b.mesh.vertices[concave->v0] + b.mesh.vertices[concave->v1]);
        REQUIRE(std::abs(concave->normal0.dot(concave->normal1)) < 1e-12);
        const Vec3 centre = middle + (r + g) * (concave->normal0 + concave->normal1);
        const auto out = collide(sphere(centre, r), b.surface, kRange);
        CHECK(out.size() == 2);
        CHECK(countType(out, FeaturePair::VertexFace) == 2);
        for (const FeatureContact& c : out) CHECK(c.gap == Approx(g).epsilon(1e-9));
    }
}
