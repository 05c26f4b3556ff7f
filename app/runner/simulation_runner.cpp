#include "simulation_runner.hpp"

#include <type_traits>

#include "grainlab/core/error.hpp"
#include "grainlab/io/checkpoint.hpp"
#include "grainlab/io/output_error.hpp"

namespace grainlab::gui {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

SimulationRunner::SimulationRunner(std::unique_ptr<Simulation> simulation) : simulation_(std::move(simulation)) {
    last_publish_ = Clock::now();
    simulation_->updateForces();
    publish();
    worker_ = std::thread([this] { work(); });
}

SimulationRunner::~SimulationRunner() {
    {
        std::lock_guard lock(queue_mutex_);
        quit_ = true;
    }
    queue_wakeup_.notify_all();
    worker_.join();
}

void SimulationRunner::post(Command command) {
    {
        std::lock_guard lock(queue_mutex_);
        queue_.push_back(std::move(command));
    }
    queue_wakeup_.notify_all();
}

std::shared_ptr<const Snapshot> SimulationRunner::latest() const {
    std::lock_guard lock(snapshot_mutex_);
    return latest_;
}

std::vector<RunnerMessage> SimulationRunner::takeMessages() {
    std::lock_guard lock(message_mutex_);
    return std::exchange(messages_, {});
}

std::vector<EnergyRecord> SimulationRunner::takeSamples() {
    std::lock_guard lock(sample_mutex_);
    return std::exchange(samples_, {});
}

void SimulationRunner::sample(const EnergyRecord& record) {
    if (record.step == last_sampled_step_) return;
    last_sampled_step_ = record.step;
    std::lock_guard lock(sample_mutex_);
    samples_.push_back(record);
}

void SimulationRunner::say(RunnerMessage::Level level, std::string text) {
    std::lock_guard lock(message_mutex_);
    messages_.push_back({level, std::move(text)});
}

void SimulationRunner::work() {
    std::deque<Command> commands;
    for (;;) {
        const bool busy = state_ == RunState::Running || pending_steps_ > 0;
        {
            std::unique_lock lock(queue_mutex_);
            if (!busy) queue_wakeup_.wait(lock, [this] { return quit_ || !queue_.empty(); });
            if (quit_) return;
            commands.swap(queue_);
        }
        const bool had_commands = !commands.empty();
        for (Command& command : commands) apply(command);
        commands.clear();
        if (state_ == RunState::Running || pending_steps_ > 0) stepOnce();
        else if (had_commands) publish();
    }
}

void SimulationRunner::apply(Command& command) {
    // A change the engine refuses leaves the run as it was and says why.
    auto attempt = [this](auto&& change, const std::string& done) {
        try {
            change();
            say(RunnerMessage::Level::Info, done + " from step " + std::to_string(simulation_->state().step));
        } catch (const InputError& e) {
            say(RunnerMessage::Level::Error, e.what());
        }
    };
    std::visit(
        [this, &attempt](auto& c) {
            using T = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<T, RunCommand>) {
                if (state_ != RunState::Failed) state_ = RunState::Running;
                stop_time_ = -1.0;
            } else if constexpr (std::is_same_v<T, PauseCommand>) {
                if (state_ == RunState::Running) state_ = RunState::Paused;
                pending_steps_ = 0;
            } else if constexpr (std::is_same_v<T, StepCommand>) {
                if (state_ != RunState::Failed) pending_steps_ += c.steps;
            } else if constexpr (std::is_same_v<T, RunUntilCommand>) {
                if (state_ == RunState::Failed) return;
                if (c.time <= simulation_->state().time) {
                    say(RunnerMessage::Level::Warning, "the simulation is already past t = " + std::to_string(c.time));
                    return;
                }
                stop_time_ = c.time;
                state_ = RunState::Running;
            } else if constexpr (std::is_same_v<T, RealTimeFactorCommand>) {
                real_time_factor_ = c.factor;
            } else if constexpr (std::is_same_v<T, SwapContactModelCommand>) {
                attempt([&] { simulation_->setContactModel(c.choice); }, "contact model: " + c.choice.name);
            } else if constexpr (std::is_same_v<T, SwapIntegratorCommand>) {
                attempt([&] { simulation_->setIntegrator(c.choice); }, "integrator: " + c.choice.name);
            } else if constexpr (std::is_same_v<T, SwapSolverCommand>) {
                attempt([&] { simulation_->setSolver(c.choice); },
                        c.choice ? "solver: " + c.choice->name : std::string("soft contacts (no solver)"));
            } else if constexpr (std::is_same_v<T, AddBodiesCommand>) {
                attempt(
                    [&] {
                        for (const ShapeSpec& shape : c.shapes) simulation_->addShape(shape);
                        simulation_->addBodies(c.bodies);
                    },
                    "added " + std::to_string(c.bodies.size()) + " bodies");
            } else if constexpr (std::is_same_v<T, PublishCommand>) {
                publish();
            } else if constexpr (std::is_same_v<T, WriteCheckpointCommand>) {
                try {
                    writeCheckpoint(*simulation_, c.path);
                    say(RunnerMessage::Level::Info, "checkpoint at step " + std::to_string(simulation_->state().step) +
                                                        " written to " + c.path);
                } catch (const OutputError& e) {
                    say(RunnerMessage::Level::Error, std::string("cannot write the checkpoint: ") + e.what());
                }
            } else if constexpr (std::is_same_v<T, RecordFramesCommand>) {
                frames_.reset();
                if (c.directory.empty()) {
                    say(RunnerMessage::Level::Info, "frame recording stopped");
                    return;
                }
                try {
                    frames_ = std::make_unique<FrameSeriesWriter>(c.directory, true);
                    frame_every_ = std::max(1L, c.every_steps);
                    say(RunnerMessage::Level::Info, "recording frames every " + std::to_string(frame_every_) +
                                                        " steps to " + c.directory + " (open particles.pvd in ParaView)");
                    simulation_->setRecordContacts(true);
                    simulation_->updateForces();
                    writeFrame();
                } catch (const OutputError& e) {
                    frames_.reset();
                    say(RunnerMessage::Level::Error, std::string("cannot record frames: ") + e.what());
                }
            }
        },
        command);
}

void SimulationRunner::stepOnce() {
    const auto interval = std::chrono::milliseconds(publish_interval_ms_.load());
    const bool last_requested = pending_steps_ == 1;
    const bool publish_due = last_requested || Clock::now() - last_publish_ >= interval;
    const bool frame_due = frames_ && (simulation_->state().step + 1) % frame_every_ == 0;
    // Contacts are recorded only on the steps that publish or write: recording costs throughput.
    simulation_->setRecordContacts(publish_due || frame_due);
    const auto start = Clock::now();
    try {
        simulation_->step();
    } catch (const SimulationError& e) {
        state_ = RunState::Failed;
        pending_steps_ = 0;
        say(RunnerMessage::Level::Error, e.what());
        publish();
        return;
    }
    stepping_seconds_ += secondsSince(start);
    if (pending_steps_ > 0) --pending_steps_;
    if (simulation_->state().step % kSampleEvery == 0) sample(simulation_->energy());
    if (frame_due) writeFrame();
    const double time = simulation_->state().time;
    if (stop_time_ >= 0.0 && time >= stop_time_ - 0.5 * simulation_->scene().time_step) {
        state_ = RunState::Paused;
        stop_time_ = -1.0;
        say(RunnerMessage::Level::Info, "paused at t = " + std::to_string(time));
        publish();
        return;
    }
    if (publish_due) publish();
    if (real_time_factor_ > 0.0) {
        // Hold back so simulated time advances at most `factor` times wall time; wake for commands.
        const double ahead = (time - time_at_publish_) / real_time_factor_ - secondsSince(last_publish_);
        if (ahead > 0.0) {
            std::unique_lock lock(queue_mutex_);
            queue_wakeup_.wait_for(lock, std::chrono::duration<double>(std::min(ahead, 0.1)),
                                   [this] { return quit_ || !queue_.empty(); });
        }
    }
}

void SimulationRunner::writeFrame() {
    try {
        frames_->write(simulation_->frameView());
    } catch (const OutputError& e) {
        frames_.reset();
        say(RunnerMessage::Level::Error, std::string("frame recording stopped: ") + e.what());
    }
}

void SimulationRunner::publish() {
    auto next = std::make_shared<Snapshot>();
    next->frame = simulation_->frame();
    next->energy = simulation_->energy();
    sample(next->energy);
    const State& state = simulation_->state();
    const double wall = secondsSince(last_publish_);
    const double stepping = stepping_seconds_ - wall_at_publish_;
    const long steps = state.step - steps_at_publish_;
    if (steps > 0 && stepping > 0.0) {
        next->steps_per_second = steps / stepping;
        next->real_time_factor = wall > 0.0 ? (state.time - time_at_publish_) / wall : 0.0;
    } else {
        next->steps_per_second = next->real_time_factor = 0.0;
    }
    next->wall_seconds = stepping_seconds_;
    next->integrator = simulation_->integratorName();
    next->contact_model = simulation_->contactModelName();
    next->solver = simulation_->usesSolver() ? simulation_->solverName() : std::string();
    if (simulation_->usesSolver()) next->solver_report = simulation_->solverReport();
    next->serial = ++serial_;
    last_publish_ = Clock::now();
    steps_at_publish_ = state.step;
    time_at_publish_ = state.time;
    wall_at_publish_ = stepping_seconds_;

    std::lock_guard lock(snapshot_mutex_);
    latest_ = std::move(next);
}

}  // namespace grainlab::gui
