// Bodies added to a running simulation (what the desktop application does between steps).
#include <catch2/catch.hpp>

#include "grainlab/core/error.hpp"
#include "support.hpp"

using namespace grainlab;
using namespace grainlab::test;

namespace {

// Two spheres in an oblique contact: the tangential spring matters, so a lost contact history
// would change their motion. Undamped, so forces depend on positions and history only (adding a
// body re-evaluates them after velocity Verlet's final kick).
Scene obliqueContact() {
    Scene scene = emptyScene("hooke");
    scene.contact_model.parameters = {{"kn", 2e5}, {"gamma_n", 0.0}};
    scene.domain.min = Vec3::Constant(-10.0);
    scene.domain.max = Vec3::Constant(10.0);
    scene.bodies.push_back(sphere(Vec3(0, 0, 0), Vec3(0.3, 0.2, 0)));
    scene.bodies.push_back(sphere(Vec3(0.99, 0.1, 0), Vec3(-0.3, -0.2, 0)));
    scene.time_step = 1e-5;
    return scene;
}

}  // namespace

// Newton's first law and locality: a body added far away exerts no force, so the pair in contact
// moves exactly as without it, to the last bit, which holds only if their tangential history
// survives the neighbour-list rebuild that adding forces.
TEST_CASE("adding a distant body keeps the contact history of existing pairs", "[add-bodies]") {
    Simulation plain(obliqueContact(), builtPlugins());
    Simulation added(obliqueContact(), builtPlugins());
    for (int k = 0; k < 100; ++k) {
        plain.step();
        added.step();
    }
    REQUIRE(added.state().contacts == 1);
    added.addBodies({sphere(Vec3(5, 5, 5), Vec3::Zero())});
    REQUIRE(added.bodies().size() == 3);
    REQUIRE(added.scene().bodies.size() == 3);
    for (int k = 0; k < 300; ++k) {
        plain.step();
        added.step();
    }
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(added.bodies().velocity[i] == plain.bodies().velocity[i]);
        CHECK(added.bodies().angular_velocity[i] == plain.bodies().angular_velocity[i]);
    }
    CHECK(added.bodies().id[2] == 3);
    CHECK(added.bodies().velocity[2] == Vec3::Zero());
}

TEST_CASE("an added body overlapping another is refused and the run goes on unchanged", "[add-bodies]") {
    Simulation plain(obliqueContact(), builtPlugins());
    Simulation refused(obliqueContact(), builtPlugins());
    for (int k = 0; k < 100; ++k) {
        plain.step();
        refused.step();
    }
    try {
        refused.addBodies({sphere(Vec3(0.2, 0, 0), Vec3::Zero())});
        FAIL("the overlapping body was accepted");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("overlap"));
    }
    CHECK(refused.bodies().size() == 2);
    CHECK(refused.scene().bodies.size() == 2);
    for (int k = 0; k < 100; ++k) {
        plain.step();
        refused.step();
    }
    CHECK(refused.bodies().velocity[0] == plain.bodies().velocity[0]);
    CHECK(refused.bodies().angular_velocity[1] == plain.bodies().angular_velocity[1]);
}
