// Example 1 of Gay Neto & Wriggers (seed 003): a cube falling on flat ground without damping or
// friction in four orientations. The paper reports conserved mechanical energy in all four and no
// rotation when the centre of mass lies above the vertex, edge or face that hits.
#include <catch2/catch.hpp>

#include <cmath>

#include "polyhedra_support.hpp"

using namespace grainlab;

namespace {

struct DropResult {
    int impacts = 0;
    double worst_energy_error = 0.0;  // |E(t) - E(0)| / (m g h), h the drop height
    double max_spin = 0.0;            // largest |omega| seen
};

DropResult dropCube(const Quat& orientation, int wanted_impacts) {
    test::CubeSceneSettings settings;
    const double L = settings.side, drop = 0.01;
    Scene scene = test::polyhedronScene("cube.stl", L, settings);
    // Lowest corner `drop` above the ground.
    double lowest = 0.0;
    for (int i = 0; i < 8; ++i) {
        const Vec3 corner(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
        lowest = std::min(lowest, (orientation * corner).z() * L);
    }
    scene.bodies.push_back(test::polyhedralBody(Vec3(0, 0, drop - lowest), orientation));
    Simulation sim(scene, test::builtPlugins());
    const double m = sim.bodies().mass[0];
    const double e0 = sim.energy().total() - sim.energy().dissipated;
    DropResult r;
    bool touching = false;
    for (long k = 0; k < 400000 && r.impacts < wanted_impacts + 1; ++k) {
        sim.step();
        const EnergyRecord e = sim.energy();
        r.worst_energy_error = std::max(r.worst_energy_error, std::abs(e.kinetic + e.rotational + e.gravitational + e.elastic - e0));
        r.max_spin = std::max(r.max_spin, sim.bodies().angular_velocity[0].norm());
        const bool now = e.contacts > 0;
        if (now && !touching) ++r.impacts;
        touching = now;
    }
    r.worst_energy_error /= m * 9.81 * drop;
    return r;
}

}  // namespace

TEST_CASE("Cube drop: energy conserved and no rotation for vertex, edge and face impacts", "[polyhedra][physics]") {
    const Quat face = Quat::Identity();
    const Quat edge(Eigen::AngleAxisd(kPi / 4, Vec3::UnitX()));
    const Quat vertex = Quat::FromTwoVectors(Vec3(1, 1, 1), Vec3(0, 0, 1));
    for (const Quat& q : {vertex, edge, face}) {
        const DropResult r = dropCube(q, 5);
        CHECK(r.impacts >= 5);
        CHECK(r.worst_energy_error < 0.005);
        CHECK(r.max_spin < 1e-6);
    }
}

TEST_CASE("Cube drop in a general orientation: energy conserved through tumbling impacts", "[polyhedra][physics]") {
    const Quat general = Quat(Eigen::AngleAxisd(0.4, Vec3(0.3, -0.8, 0.5).normalized()));
    const DropResult r = dropCube(general, 5);
    CHECK(r.impacts >= 5);
    CHECK(r.worst_energy_error < 0.005);
    CHECK(r.max_spin > 0.1);  // it does tumble
}
