// The window's worker (app/runner): commands applied between steps, snapshots read from another
// thread. Run under ThreadSanitizer by scripts/sanitize.sh tsan.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "runner/simulation_runner.hpp"
#include "support.hpp"

using namespace grainlab;
using namespace grainlab::gui;
using namespace std::chrono_literals;

namespace {

// Twenty spheres dropped in a row onto a floor: contacts, history and walls all take part.
Scene dropScene() {
    Scene scene = test::emptyScene("hooke");
    scene.contact_model.parameters = {{"kn", 2e4}, {"gamma_n", 5.0}};
    scene.gravity = Vec3(0, 0, -9.81);
    scene.domain.min = Vec3(-20, -20, -1);
    scene.domain.max = Vec3(20, 20, 20);
    scene.planes.push_back(PlaneWall{"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
    for (int k = 0; k < 20; ++k) scene.bodies.push_back(test::sphere(Vec3(1.01 * k, 0.0, 0.6 + 0.05 * k), Vec3::Zero()));
    scene.time_step = 1e-4;
    scene.threads = 2;
    return scene;
}

std::shared_ptr<const Snapshot> waitForStep(const SimulationRunner& runner, long step) {
    for (int k = 0; k < 20000; ++k) {
        auto shown = runner.latest();
        if (shown->frame.step >= step || runner.state() == RunState::Failed) return shown;
        std::this_thread::sleep_for(1ms);
    }
    return runner.latest();
}

}  // namespace

// Determinism: the worker thread runs the same steps as a direct loop, so the state after N steps
// is the same to the last bit.
TEST_CASE("steps queued to the worker give the same state as stepping directly", "[runner][threads]") {
    Simulation direct(dropScene(), test::builtPlugins());
    // The spheres bounce: whether one touches at the last step depends on round-off (clang's build
    // had none there), so contacts are looked for over the whole run.
    std::size_t most_contacts = 0;
    for (int k = 0; k < 3000; ++k) {
        direct.step();
        most_contacts = std::max(most_contacts, direct.state().contacts);
    }
    SimulationRunner runner(std::make_unique<Simulation>(dropScene(), test::builtPlugins()));
    runner.post(StepCommand{1000});
    runner.post(StepCommand{2000});
    const auto shown = waitForStep(runner, 3000);
    REQUIRE(shown->frame.step == 3000);
    REQUIRE(most_contacts > 0);
    CHECK(shown->energy.kinetic == direct.energy().kinetic);
    CHECK(shown->energy.elastic == direct.energy().elastic);
    for (std::size_t i = 0; i < direct.bodies().size(); ++i) CHECK(shown->frame.position[i] == direct.bodies().position[i]);
}

// While running, snapshots are read from this thread and plugins swapped: time only grows, the
// bodies stay, and nothing blocks (the hand-over ThreadSanitizer checks).
TEST_CASE("reading snapshots and swapping plugins while the worker runs", "[runner][threads]") {
    SimulationRunner runner(std::make_unique<Simulation>(dropScene(), test::builtPlugins()));
    runner.setPublishInterval(1ms);
    runner.post(RunCommand{});
    double last_time = -1.0;
    for (int k = 0; k < 200; ++k) {
        const auto shown = runner.latest();
        CHECK(shown->frame.time >= last_time);
        CHECK(shown->frame.id.size() == 20);
        last_time = shown->frame.time;
        if (k % 40 == 10) runner.post(SwapIntegratorCommand{{k % 80 == 10 ? "semi-implicit-euler" : "velocity-verlet", {}}});
        if (k % 40 == 30) runner.post(SwapContactModelCommand{{"hooke", {{"kn", 2e4}, {"gamma_n", 5.0}}}});
        std::this_thread::sleep_for(1ms);
    }
    runner.post(PauseCommand{});
    std::this_thread::sleep_for(20ms);
    CHECK(runner.state() == RunState::Paused);
    const auto messages = runner.takeMessages();
    CHECK(std::any_of(messages.begin(), messages.end(),
                      [](const RunnerMessage& m) { return m.text.find("integrator: semi-implicit-euler") == 0; }));
    // The runner is destroyed while its worker waits: it must join cleanly.
}

TEST_CASE("a refused change leaves the run as it was and says why", "[runner]") {
    SimulationRunner runner(std::make_unique<Simulation>(dropScene(), test::builtPlugins()));
    runner.post(SwapContactModelCommand{{"no-such-model", {}}});
    runner.post(StepCommand{10});
    const auto shown = waitForStep(runner, 10);
    CHECK(shown->frame.step == 10);
    CHECK(shown->contact_model == "hooke");
    const auto messages = runner.takeMessages();
    REQUIRE(!messages.empty());
    CHECK(messages.front().level == RunnerMessage::Level::Error);
    CHECK(messages.front().text.find("no-such-model") != std::string::npos);
}
