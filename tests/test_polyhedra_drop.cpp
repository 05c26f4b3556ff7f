// Example 1 of Gay Neto & Wriggers (seed 003): a cube falling on flat ground without damping or
// friction in four orientations. The paper reports conserved mechanical energy in all four and no
// rotation when the centre of mass lies above the vertex, edge or face that hits.
#include <catch2/catch.hpp>

#include <cmath>

#include "grainlab/core/error.hpp"
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

namespace {

struct FastImpact {
    double energy_error = 0.0;  // |E(t) - E(0)| / E_kinetic(0), largest over the run
    double rebound_speed = 0.0;
    double smallest_gap = 1.0;
    double smallest_step = 1.0;
    std::size_t flips = 0;
};

// A cube falling corner first at 1 m/s onto the ground, no gravity, scene step 5e-4 s. The barrier
// stops it at a gap near 0.01 gbb, where its stiffness (~8e9 N/m) allows explicit steps of ~3e-5 s.
FastImpact fastCornerImpact(bool adaptive) {
    test::CubeSceneSettings settings;
    settings.dt = 5e-4;
    Scene scene = test::polyhedronScene("cube.stl", settings.side, settings);
    scene.gravity = Vec3::Zero();
    scene.contact_model.parameters["adaptive_step"] = adaptive ? 1.0 : 0.0;
    const Quat vertex = Quat::FromTwoVectors(Vec3(1, 1, 1), Vec3(0, 0, 1));
    BodySpec body = test::polyhedralBody(Vec3(0, 0, std::sqrt(3.0) / 2 * settings.side + 0.003), vertex);
    body.velocity = Vec3(0, 0, -1.0);
    scene.bodies.push_back(body);
    Simulation sim(scene, test::builtPlugins());
    const double e0 = sim.energy().total();
    FastImpact r;
    bool touched = false;
    while (sim.state().time < 0.05) {
        sim.step();
        const EnergyRecord e = sim.energy();
        r.energy_error = std::max(r.energy_error, std::abs(e.kinetic + e.rotational + e.elastic - e0) / e0);
        for (const PolyhedralContact& c : sim.state().polyhedral.contacts) r.smallest_gap = std::min(r.smallest_gap, c.geometry.gap);
        r.smallest_step = std::min(r.smallest_step, sim.lastTimeStep());
        r.flips += sim.state().polyhedral.flipped;
        touched |= !sim.state().polyhedral.contacts.empty();
        if (touched && sim.state().polyhedral.contacts.empty()) break;
    }
    r.rebound_speed = sim.bodies().velocity[0].z();
    return r;
}

}  // namespace

TEST_CASE("Adaptive step: a fast corner impact keeps its gap positive and rebounds elastically", "[polyhedra][physics]") {
    // Note 10: dt <= s_f 2 sqrt(m/k_c(g)) and dt <= kappa g / closing speed. Undamped, the cube must
    // leave at the speed it came (1 m/s) with the gap never reaching zero and no normal turned over.
    const FastImpact adaptive = fastCornerImpact(true);
    CHECK(adaptive.smallest_gap > 0.0);
    CHECK(adaptive.flips == 0);
    CHECK(adaptive.rebound_speed == Approx(1.0).epsilon(0.03));
    // The largest error comes from entering the skin, where the penalty law has a kink, at the
    // scene's full step.
    CHECK(adaptive.energy_error < 0.05);
    CHECK(adaptive.smallest_step < 5e-5);  // it did adapt
    // The same impact at the fixed scene step: the barrier is stepped over and energy is lost.
    const FastImpact fixed = fastCornerImpact(false);
    CHECK(fixed.energy_error > 0.2);
}
