// The explicit integrators' updates, which the engine runs inside its force passes in blocks of
// bodies shared among threads: checked against the exact discrete solutions of free fall.
#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <vector>

#include "grainlab/core/error.hpp"
#include "support.hpp"

using namespace grainlab;
using Catch::Matchers::Contains;

namespace {

// A grid of spheres three diameters apart (never touching), each with its own initial velocity.
Scene fallingGrid(const std::string& integrator, int threads, int count) {
    Scene scene = test::emptyScene();
    scene.integrator.name = integrator;
    scene.threads = threads;
    scene.time_step = 2e-4;  // below the stability limit t_c/10 of the default Hooke law
    scene.gravity = Vec3(0.3, -0.2, -9.81);
    for (int k = 0; k < count; ++k) {
        const Vec3 x(3.0 * (k % 10), 3.0 * ((k / 10) % 10), 3.0 * (k / 100));
        scene.bodies.push_back(test::sphere(x, Vec3(0.01 * (k % 7), -0.02 * (k % 5), 0.05 * (k % 3))));
        scene.bodies.back().id = k;
    }
    return scene;
}

}  // namespace

// Velocity Verlet integrates a constant force exactly: x = x0 + v0 t + g t^2 / 2, v = v0 + g t.
// Semi-implicit Euler (v first, then x with the new v) gives x_n = x0 + n h v0 + g h^2 n (n + 1) / 2.
// 1,000 bodies on 2 threads span several blocks of each thread's pass; 120,000 are past the count
// from which the passes run the kicks in one loop with their own jobs (kFusedFrom). Steps
// that leave their closing update to the next step's pass (step(true), as batch runs take them)
// follow it too.
TEST_CASE("Explicit integrators follow the exact discrete free fall on several threads", "[integrator]") {
    for (const std::string integrator : {"velocity-verlet", "semi-implicit-euler"}) {
      for (const bool deferred : {false, true}) {
       for (const auto& [count, steps] : {std::pair{1000, 40}, std::pair{120000, 6}}) {
        const Scene scene = fallingGrid(integrator, 2, count);
        Simulation sim(scene, test::builtPlugins());
        for (int s = 0; s < steps; ++s) sim.step(deferred);
        sim.settle();
        const double h = scene.time_step, t = steps * h, n = steps;
        const Vec3 g = scene.gravity;
        const Bodies& b = sim.bodies();
        double worst_x = 0.0, worst_v = 0.0;
        for (std::size_t i = 0; i < b.size(); ++i) {
            const BodySpec& start = scene.bodies[static_cast<std::size_t>(b.id[i])];
            const Vec3 x = integrator == "velocity-verlet" ? Vec3(start.position + start.velocity * t + 0.5 * g * t * t)
                                                           : Vec3(start.position + n * h * start.velocity +
                                                                  g * (h * h * n * (n + 1) / 2));
            worst_x = std::max(worst_x, (b.position[i] - x).norm());
            worst_v = std::max(worst_v, (b.velocity[i] - (start.velocity + g * t)).norm());
            // The forces left in the bodies are those of the new positions: the weight alone.
            CHECK((b.force[i] - b.mass[i] * g).norm() < 1e-12);
        }
        INFO(integrator << (deferred ? ", closing updates deferred" : "") << ", " << count << " bodies");
        CHECK(worst_x < 1e-12);
        CHECK(worst_v < 1e-12);
       }
      }
    }
}

// The motion check runs in the same pass as the last update: the lowest-numbered runaway is
// reported whichever thread's share it lies in, at the step it happened (120,000 bodies: the pass
// that runs the kick and the check in one loop).
TEST_CASE("The first runaway body is reported whatever thread holds it", "[integrator][runaway]") {
    for (const std::string integrator : {"velocity-verlet", "semi-implicit-euler"}) {
        for (const auto& [threads, count] : {std::pair{1, 1000}, std::pair{2, 1000}, std::pair{2, 120000}}) {
            Scene scene = fallingGrid(integrator, threads, count);
            scene.bodies[900].velocity = Vec3(1e4, 0, 0);  // 2 m per step: four radii
            scene.bodies[700].velocity = Vec3(0, 8e3, 0);
            Simulation sim(scene, test::builtPlugins());
            INFO(integrator << " on " << threads << " threads, " << count << " bodies");
            CHECK_THROWS_WITH(sim.step(), Contains("body 700 ") && Contains("at step 1 ") && Contains("runaway"));
        }
    }
}

// A step that leaves its motion check to the next step's pass (step(true)) has its runaway
// reported there, or by settle(), still as the lowest body at the step it happened, with the speed
// the step left it (8000 m/s to the message's four digits).
TEST_CASE("A runaway in a step left pending is reported at its own step", "[integrator][runaway]") {
    for (const std::string integrator : {"velocity-verlet", "semi-implicit-euler"}) {
        for (const auto& [threads, count] : {std::pair{1, 1000}, std::pair{2, 1000}, std::pair{2, 120000}}) {
            for (const bool by_settle : {false, true}) {
                Scene scene = fallingGrid(integrator, threads, count);
                scene.bodies[900].velocity = Vec3(1e4, 0, 0);
                scene.bodies[700].velocity = Vec3(0, 8e3, 0);
                Simulation sim(scene, test::builtPlugins());
                INFO(integrator << " on " << threads << " threads, " << count << " bodies, "
                                << (by_settle ? "settled" : "next step"));
                CHECK_NOTHROW(sim.step(true));
                // Catch's combined matchers hold their parts by reference: written out in each check.
                if (by_settle)
                    CHECK_THROWS_WITH(sim.settle(), Contains("body 700 ") && Contains("at step 1 ") &&
                                                        Contains("(speed 8000)") && Contains("runaway"));
                else
                    CHECK_THROWS_WITH(sim.step(), Contains("body 700 ") && Contains("at step 1 ") &&
                                                      Contains("(speed 8000)") && Contains("runaway"));
            }
        }
    }
}

// The Verlet criterion: the neighbour list is rebuilt at a step exactly when some body has moved
// more than half the skin since the last build, judged here from the bodies' own positions at every
// step. With 120,000 bodies and the closing updates deferred (as batch runs step), the sweep follows
// a bound on the moves and reads the positions at the build only where the bound could pass half
// the skin; with 1,000, or without deferring, it reads them at every step. Speeds up to 7.5 m/s move
// the fastest bodies past half the skin (0.025) about every 17 steps of 2e-4 s.
TEST_CASE("The neighbour list is rebuilt exactly when a body moved half the skin", "[integrator][neighbours]") {
    for (const auto& [threads, count, deferred] :
         {std::tuple{1, 1000, true}, std::tuple{2, 120000, true}, std::tuple{1, 120000, true}, std::tuple{2, 120000, false}}) {
        Scene scene = fallingGrid("velocity-verlet", threads, count);
        scene.skin = 0.05;
        for (std::size_t k = 0; k < scene.bodies.size(); ++k)
            scene.bodies[k].velocity = 2.0 * Vec3(double(k % 7) - 3.0, double(k % 5) - 2.0, double(k % 3) - 1.0);
        Simulation sim(scene, test::builtPlugins());
        const auto byId = [&sim] {
            std::vector<Vec3> x(sim.bodies().size());
            for (std::size_t i = 0; i < x.size(); ++i) x[static_cast<std::size_t>(sim.bodies().id[i])] = sim.bodies().position[i];
            return x;
        };
        std::vector<Vec3> at_build = byId();
        long builds = sim.state().pairs.builds, rebuilds = 0;
        for (int step = 1; step <= 60; ++step) {
            sim.step(deferred);
            const std::vector<Vec3> x = byId();
            double largest = 0.0;
            for (std::size_t k = 0; k < x.size(); ++k) largest = std::max(largest, (x[k] - at_build[k]).squaredNorm());
            const bool rebuilt = sim.state().pairs.builds != builds;
            INFO(count << " bodies on " << threads << " threads" << (deferred ? ", deferred" : "") << ", step " << step
                       << ": largest move " << std::sqrt(largest));
            REQUIRE(rebuilt == (largest > 0.25 * scene.skin * scene.skin));
            if (rebuilt) {
                at_build = x;
                builds = sim.state().pairs.builds;
                ++rebuilds;
            }
        }
        sim.settle();
        CHECK(rebuilds >= 3);
    }
}
