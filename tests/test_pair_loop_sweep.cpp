// The sweep over the bodies run inside the pair loop, chunk by chunk before the chunk's rows (one
// thread, closing updates deferred, from 100,000 bodies): the same motion as the sweep run before the
// loop, and the contract a pair loop keeps with it (ChunkSweep, force_context.hpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "grainlab/sim/material_pairs.hpp"
#include "grainlab/sim/neighbor_list.hpp"
#include "support.hpp"

using namespace grainlab;

namespace {

// Spheres of radius 0.5 on a lattice 1.005 apart in a periodic box, moving at up to 5 m/s in a fixed
// pattern of directions: they collide within a few steps, and the fastest pass half the skin (0.025)
// about every 25 steps of 2e-4 s.
Scene collidingLattice(int threads, int nx, int ny, int nz) {
    Scene scene = test::emptyScene();
    scene.threads = threads;
    scene.time_step = 2e-4;  // below the stability limit t_c/10 of the default Hooke law
    scene.skin = 0.05;
    const double spacing = 1.005;
    scene.domain.min = Vec3::Zero();
    scene.domain.max = Vec3(nx * spacing, ny * spacing, nz * spacing);
    scene.domain.periodic = {true, true, true};
    for (int k = 0; k < nx * ny * nz; ++k) {
        const Vec3 x = spacing * Vec3(k % nx + 0.5, (k / nx) % ny + 0.5, k / (nx * ny) + 0.5);
        const Vec3 v(double(k % 7) - 3.0, double(k % 5) - 2.0, double(k % 3) - 1.0);
        scene.bodies.push_back(test::sphere(x, 5.0 / std::sqrt(14.0) * v));
        scene.bodies.back().id = k;
    }
    return scene;
}

}  // namespace

// Bit for bit against the same steps with the sweep before the loop (the closing updates not
// deferred), through the list's rebuilds and the spatial sorts that renumber the bodies; and, as
// pair forces come in equal and opposite pairs, the total momentum is conserved.
TEST_CASE("The sweep inside the pair loop moves the bodies as the sweep before it", "[neighbours][integrator]") {
    const Scene scene = collidingLattice(1, 50, 50, 48);  // 120,000 spheres
    Simulation inside(scene, test::builtPlugins()), before(scene, test::builtPlugins());
    const Vec3 p0 = test::momentum(inside.bodies());
    for (int step = 0; step < 110; ++step) {
        inside.step(true);
        before.step(false);
    }
    inside.settle();
    const Bodies& a = inside.bodies();
    const Bodies& b = before.bodies();
    std::vector<std::size_t> by_id(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) by_id[static_cast<std::size_t>(b.id[i])] = i;
    std::size_t differing = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::size_t j = by_id[static_cast<std::size_t>(a.id[i])];
        if (a.position[i] != b.position[j] || a.velocity[i] != b.velocity[j] ||
            a.angular_velocity[i] != b.angular_velocity[j] || a.force[i] != b.force[j])
            ++differing;
    }
    CHECK(differing == 0);
    CHECK(inside.state().elastic == before.state().elastic);
    CHECK(inside.state().dissipated == before.state().dissipated);
    CHECK(inside.state().contacts == before.state().contacts);
    CHECK(inside.state().contacts > 10000);
    CHECK(inside.state().pairs.builds >= 3);
    const Vec3 p = test::momentum(a);
    CHECK((p - p0).norm() < 1e-9 * a.size());
}

// With several threads each range's rows run right after its own bodies are swept, and the bodies
// of a range that a higher range's rows reach are swept before the loop: the same run bit for bit
// as one thread (a body's forces are summed in the same order whatever thread holds its pairs),
// also where the first thread is given nine tenths of the pair loop's work, so that the others
// take chunks from the end of its range and wait for the bodies below them.
TEST_CASE("The sweep inside the pair loop on two and three threads moves the bodies as on one", "[neighbours][threads]") {
    struct Unset {
        ~Unset() { unsetenv("GRAINLAB_FIRST_PAIR_SHARE"); }
    } unset;
    auto run = [](int threads, bool lopsided) {
        if (lopsided) setenv("GRAINLAB_FIRST_PAIR_SHARE", "0.9", 1);
        else unsetenv("GRAINLAB_FIRST_PAIR_SHARE");
        auto sim = std::make_unique<Simulation>(collidingLattice(threads, 50, 50, 48), test::builtPlugins());
        for (int step = 0; step < 60; ++step) sim->step(true);
        sim->settle();
        return sim;
    };
    const auto one = run(1, false);
    REQUIRE(one->state().contacts > 10000);
    REQUIRE(one->state().pairs.builds >= 2);
    for (const auto& [threads, lopsided] : {std::pair{2, false}, std::pair{3, false}, std::pair{2, true}, std::pair{3, true}}) {
        CAPTURE(threads, lopsided);
        const auto many = run(threads, lopsided);
        CHECK(many->bodies().position == one->bodies().position);
        CHECK(many->bodies().velocity == one->bodies().velocity);
        CHECK(many->bodies().angular_velocity == one->bodies().angular_velocity);
        CHECK(many->state().elastic == one->state().elastic);
        CHECK(many->state().dissipated == one->state().dissipated);
    }
}

namespace {

// A stand-in for the engine's sweep: it moves the bodies it sweeps by one translation, which leaves
// every contact as it was, so the rows give the forces of the translated bodies only where each body
// a row reaches was swept before it. It refuses to sweep past `stop_at`.
class TranslatingSweep final : public ChunkSweep {
public:
    TranslatingSweep(Bodies& bodies, const Vec3& shift, std::size_t stop_at)
        : bodies_(bodies), shift_(shift), stop_at_(stop_at) {}
    bool beforeLoop(const std::vector<std::size_t>&) override { return true; }
    bool sweepChunk(int, std::size_t, std::size_t, std::size_t end) override {
        if (stopped_) return false;
        if (end > stop_at_) {
            stopped_ = true;
            return false;
        }
        for (; swept_ < std::min(end, bodies_.size()); ++swept_) bodies_.position[swept_] += shift_;
        return true;
    }
    bool stopped() const override { return stopped_; }
    std::size_t swept() const { return swept_; }

private:
    Bodies& bodies_;
    Vec3 shift_;
    std::size_t stop_at_;
    std::size_t swept_ = 0;
    bool stopped_ = false;
};

struct Evaluation {
    Bodies bodies;
    NeighborList pairs;
    bool stopped = false;
};

// The Hooke plugin's forces on `bodies` (one thread): with a TranslatingSweep (shift, stop_at) where
// `swept`, otherwise on the bodies as given.
Evaluation hookeForces(const Scene& scene, Bodies bodies, NeighborList pairs, bool swept, const Vec3& shift,
                       std::size_t stop_at) {
    PluginInstance<ContactModel> model = test::builtPlugins().createContactModel(scene.contact_model);
    REQUIRE(model->sweepsInPairLoop());
    const MaterialPairTable materials = mixMaterials(scene.materials);
    PeriodicBox box;
    box.min = scene.domain.min;
    box.length = scene.domain.max - scene.domain.min;
    box.periodic = scene.domain.periodic;
    for (std::size_t i = 0; i < bodies.size(); ++i) bodies.force[i] = bodies.torque[i] = Vec3::Zero();
    std::vector<ThreadAccumulator> accumulators(1);
    ThreadAccumulator& acc = accumulators[0];
    acc.force = acc.own_force = bodies.force.data();
    acc.torque = acc.own_torque = bodies.torque.data();
    acc.ownRange(0, bodies.size());
    std::vector<WallContact> walls;
    std::vector<double> wall_history, energy_blocks;
    TranslatingSweep sweep(bodies, shift, stop_at);
    ForceContext ctx{bodies, pairs, walls, wall_history, materials, box, accumulators, scene.time_step, 1, false,
                     nullptr, &energy_blocks, nullptr, swept ? &sweep : nullptr};
    model->computeForces(ctx);
    return {std::move(bodies), std::move(pairs), sweep.stopped()};
}

}  // namespace

// The contract of ForceContext::sweep, on the Hooke plugin's pair loop: with the sweep run chunk by
// chunk the forces and the new histories are those of the bodies swept beforehand, bit for bit (a
// translation changes no contact, and the total force stays zero, each pair's forces being equal and
// opposite); a sweep that stops leaves the histories as they were and runs no row from its stop on.
TEST_CASE("The pair loop sweeps the bodies its rows reach before them, and a stopped sweep leaves the histories",
          "[neighbours]") {
    const Scene scene = collidingLattice(1, 30, 30, 30);  // 27,000 spheres: 18 chunks of the pair loop
    Simulation sim(scene, test::builtPlugins());
    for (int step = 0; step < 30; ++step) sim.step();
    const Bodies& start = sim.bodies();
    const NeighborList& list = sim.state().pairs;
    const std::size_t n = start.size();
    const std::vector<double> history_before = list.history.dense(list.entries());
    const Vec3 shift(0.25, -0.125, 0.0625);

    Bodies moved = start;
    for (Vec3& x : moved.position) x += shift;
    const Evaluation reference = hookeForces(scene, moved, list, false, shift, n);
    Vec3 total = Vec3::Zero();
    std::size_t pushed = 0;
    for (const Vec3& f : reference.bodies.force) {
        total += f;
        if (f != Vec3::Zero()) ++pushed;
    }
    CHECK(total.norm() < 1e-9);
    CHECK(pushed > n / 10);
    const std::vector<double> history_after = reference.pairs.history.dense(list.entries());
    CHECK(history_after != history_before);  // the springs stretched

    const Evaluation inside = hookeForces(scene, start, list, true, shift, n);
    CHECK_FALSE(inside.stopped);
    CHECK(inside.bodies.position == reference.bodies.position);
    CHECK(inside.bodies.force == reference.bodies.force);
    CHECK(inside.bodies.torque == reference.bodies.torque);
    CHECK(inside.pairs.history.dense(list.entries()) == history_after);

    const std::size_t stop_at = n / 2;
    const Evaluation stopped = hookeForces(scene, start, list, true, shift, stop_at);
    CHECK(stopped.stopped);
    CHECK(stopped.pairs.history.dense(list.entries()) == history_before);
    std::size_t above = 0, below = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (stopped.bodies.force[i] == Vec3::Zero()) continue;
        ++(i < stop_at ? below : above);
    }
    CHECK(above == 0);
    CHECK(below > 0);
}
