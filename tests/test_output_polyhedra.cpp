// Particle frames with polyhedra: each polyhedral body is written as its mesh placed by the body's
// state, spheres stay points with a radius. Checked against the analytic rigid transform: every
// vertex read back is R(q) v + x, with R written out from the quaternion's components (not the
// code path the writer uses) and v the body-frame mesh vertex; the file's XML nests properly and
// its counts, offsets and block sizes agree.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "grainlab/io/vtp_format.hpp"
#include "polyhedra_support.hpp"
#include "vtp_reader.hpp"

using namespace grainlab;

namespace {

// The rotation matrix of a unit quaternion (w, x, y, z), term by term.
Mat3 rotationOf(const Quat& q) {
    const double w = q.w(), x = q.x(), y = q.y(), z = q.z();
    Mat3 r;
    r << 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),  //
        2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),  //
        2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y);
    return r;
}

// A cube, a non-convex tetrapod and a sphere, apart in the air, moving and spinning.
Simulation mixedScene() {
    test::CubeSceneSettings settings;
    Scene scene = test::polyhedronScene("cube.stl", settings.side, settings);
    scene.gravity = Vec3::Zero();
    ShapeSpec tetrapod = scene.shapes.back();  // the cube's, scale 0.1
    tetrapod.name = "tetrapod";
    tetrapod.file = test::shapePath("tetrapod.stl");
    scene.shapes.push_back(tetrapod);
    BodySpec cube = test::polyhedralBody(Vec3(0.1, -0.2, 0.5), Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, -1).normalized())));
    cube.velocity = Vec3(0.3, 0.1, -0.2);
    cube.angular_velocity = Vec3(2, -1, 3);
    BodySpec legs = test::polyhedralBody(Vec3(-0.6, 0.4, 0.8), Quat(Eigen::AngleAxisd(-2.1, Vec3(0.2, 1, 0.4).normalized())));
    legs.shape = "tetrapod";
    legs.velocity = Vec3(-0.5, 0, 0.25);
    legs.angular_velocity = Vec3(0, 4, 1);
    scene.bodies = {cube, test::sphere(Vec3(0.7, 0.7, 0.6), Vec3(0, 1, 0), 0.04), legs};
    return Simulation(scene, test::builtPlugins());
}

}  // namespace

TEST_CASE("Particle frames write polyhedra as their placed meshes and spheres as points", "[output][polyhedra]") {
    Simulation sim = mixedScene();
    for (int k = 0; k < 50; ++k) sim.step();  // turned and moved away from where they started
    const Bodies& b = sim.bodies();
    const Frame frame = sim.frame();
    const test::VtpFile file = test::parseVtp(encodeParticlesVtp(frame));
    test::checkLayout(file);

    std::size_t points = 0, verts = 0, triangles = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        const auto& shape = frame.polyhedra.at(frame.shape[i]);
        points += shape ? shape->features.vertices.size() : 1;
        verts += shape ? 0 : 1;
        triangles += shape ? shape->features.triangles.size() : 0;
    }
    REQUIRE(triangles > 12);  // the cube's and the tetrapod's
    CHECK(file.count("NumberOfPoints") == points);
    CHECK(file.count("NumberOfVerts") == verts);
    CHECK(file.count("NumberOfPolys") == triangles);

    const auto xyz = file.values<double>("Points", "Points");
    const auto id = file.values<std::int64_t>("PointData", "id");
    const auto radius = file.values<double>("PointData", "radius");
    const auto speed = file.values<double>("PointData", "speed");
    const auto vert_cells = file.values<std::int64_t>("Verts", "connectivity");
    const auto poly_cells = file.values<std::int64_t>("Polys", "connectivity");
    const auto poly_offsets = file.values<std::int64_t>("Polys", "offsets");
    REQUIRE(xyz.size() == 3 * points);
    REQUIRE(poly_cells.size() == 3 * triangles);
    for (std::size_t c = 0; c < poly_offsets.size(); ++c) CHECK(poly_offsets[c] == static_cast<std::int64_t>(3 * c + 3));

    // Points of each body, in file order.
    std::map<std::int64_t, std::vector<std::size_t>> of_body;
    for (std::size_t p = 0; p < points; ++p) of_body[id[p]].push_back(p);
    std::size_t triangle = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        INFO("body " << i);
        const std::vector<std::size_t>& own = of_body.at(b.id[i]);
        for (const std::size_t p : own) CHECK(speed[p] == Approx(b.velocity[i].norm()).epsilon(1e-15));
        const auto& shape = frame.polyhedra.at(frame.shape[i]);
        if (!shape) {  // a sphere: its centre, its radius, one vertex cell
            REQUIRE(own.size() == 1);
            CHECK(Vec3(xyz[3 * own[0]], xyz[3 * own[0] + 1], xyz[3 * own[0] + 2]) == b.position[i]);
            CHECK(radius[own[0]] == b.radius[i]);
            CHECK(std::find(vert_cells.begin(), vert_cells.end(), static_cast<std::int64_t>(own[0])) != vert_cells.end());
            continue;
        }
        const std::vector<Vec3>& body_frame = shape->features.vertices;
        REQUIRE(own.size() == body_frame.size());
        const Mat3 r = rotationOf(b.orientation[i]);
        double worst = 0.0;
        for (std::size_t k = 0; k < own.size(); ++k) {
            const Vec3 read(xyz[3 * own[k]], xyz[3 * own[k] + 1], xyz[3 * own[k] + 2]);
            worst = std::max(worst, (read - (r * body_frame[k] + b.position[i])).norm());
            CHECK(radius[own[k]] == 0.0);
        }
        CHECK(worst < 1e-14);  // round-off of a product of unit-size rotation and 0.1 m vertices
        // Its triangles, in order, name its own points as the mesh does.
        for (const auto& t : shape->features.triangles) {
            for (int v = 0; v < 3; ++v) CHECK(poly_cells[3 * triangle + v] == static_cast<std::int64_t>(own[t[v]]));
            ++triangle;
        }
    }
    CHECK(triangle == triangles);
}

TEST_CASE("Particle frames refuse a polyhedral frame without the state that places its meshes", "[output][polyhedra]") {
    Simulation sim = mixedScene();
    Frame frame = sim.frame();
    frame.orientation.clear();
    CHECK_THROWS_AS(encodeParticlesVtp(frame), std::invalid_argument);
    frame = sim.frame();
    frame.shape.back() = 7;  // a shape the frame does not list
    CHECK_THROWS_AS(encodeParticlesVtp(frame), std::invalid_argument);
}
