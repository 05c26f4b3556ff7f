#pragma once
// Runs a Simulation in its own thread. The window never calls into the simulation: it posts
// commands, which the worker applies between steps, and reads the latest published snapshot.
// No call here waits for a step to finish (the destructor waits for the current one).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "grainlab/io/vtk_series.hpp"
#include "grainlab/sim/simulation.hpp"
#include "snapshot.hpp"

namespace grainlab::gui {

enum class RunState { Paused, Running, Failed };

struct RunnerMessage {
    enum class Level { Info, Warning, Error };
    Level level = Level::Info;
    std::string text;
};

class SimulationRunner {
public:
    explicit SimulationRunner(std::unique_ptr<Simulation> simulation);
    ~SimulationRunner();  // finishes the step under way, then joins the worker
    SimulationRunner(const SimulationRunner&) = delete;
    SimulationRunner& operator=(const SimulationRunner&) = delete;

    void post(Command command);
    RunState state() const { return state_.load(); }

    // The newest snapshot (never null after construction). Holding it does not block the worker.
    std::shared_ptr<const Snapshot> latest() const;
    std::vector<RunnerMessage> takeMessages();
    // Energy, contact count and solver residual every kSampleEvery steps (and at each publication)
    // since the last call: the time series sees the whole run, not only the snapshots shown.
    static constexpr long kSampleEvery = 10;
    std::vector<EnergyRecord> takeSamples();

    void setPublishInterval(std::chrono::milliseconds interval) { publish_interval_ms_ = interval.count(); }

private:
    void work();
    void apply(Command& command);
    void stepOnce();
    void publish();
    void writeFrame();
    void sample(const EnergyRecord& record);
    void say(RunnerMessage::Level level, std::string text);

    std::unique_ptr<Simulation> simulation_;  // touched by the worker only, after construction
    std::atomic<RunState> state_{RunState::Paused};
    std::atomic<long> publish_interval_ms_{33};

    std::mutex queue_mutex_;
    std::condition_variable queue_wakeup_;
    std::deque<Command> queue_;
    bool quit_ = false;

    mutable std::mutex snapshot_mutex_;
    std::shared_ptr<const Snapshot> latest_;

    std::mutex message_mutex_;
    std::vector<RunnerMessage> messages_;

    std::mutex sample_mutex_;
    std::vector<EnergyRecord> samples_;
    long last_sampled_step_ = -1;  // worker only

    // Worker-only state.
    long pending_steps_ = 0;
    double stop_time_ = -1.0;          // < 0: none
    double real_time_factor_ = 0.0;
    std::uint64_t serial_ = 0;
    double stepping_seconds_ = 0.0;
    std::chrono::steady_clock::time_point last_publish_;
    long steps_at_publish_ = 0;
    double time_at_publish_ = 0.0;
    double wall_at_publish_ = 0.0;
    std::unique_ptr<FrameSeriesWriter> frames_;
    long frame_every_ = 0;

    std::thread worker_;  // last: starts after every member above exists
};

}  // namespace grainlab::gui
