#include "grainlab/sim/batch_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "grainlab/core/error.hpp"
#include "grainlab/io/time_series.hpp"
#include "grainlab/io/vtk_series.hpp"

namespace grainlab {

RunSummary runBatch(Simulation& sim, const BatchOptions& options) {
    const Scene& scene = sim.scene();
    long total = options.steps;
    double end_time = -1.0;  // a run by time whose step adapts ends by time, not by step count
    if (total < 0) {
        const double time = options.time >= 0.0 ? options.time : scene.run.time;
        const bool by_steps = options.time < 0.0 && scene.run.steps > 0;
        total = by_steps ? scene.run.steps : static_cast<long>(std::llround(time / scene.time_step));
        if (!by_steps && sim.adaptsTimeStep()) end_time = sim.state().time + time;
    }
    const std::filesystem::path dir = options.output.empty() ? std::filesystem::path(scene.output.directory) : options.output;
    const long frame_every = scene.output.every_steps > 0 ? scene.output.every_steps : std::max(1L, total);
    const long row_every = scene.output.every_steps > 0 ? scene.output.every_steps : std::max(1L, total / 100);

    FrameSeriesWriter frames(dir, scene.output.contacts);
    TimeSeriesWriter series(dir / "energy.csv");
    // Within half the scene step of the end time, a further step would overshoot it.
    auto lastStep = [&](long step) {
        return end_time >= 0.0 ? sim.state().time >= end_time - 0.5 * scene.time_step : step >= total;
    };
    auto isFrame = [&](long step) { return step % frame_every == 0 || lastStep(step); };
    auto isRow = [&](long step) { return step % row_every == 0 || lastStep(step); };

    sim.setRecordContacts(scene.output.contacts);
    sim.updateForces();
    frames.write(sim.frame());
    series.append(sim.energy());

    RunSummary summary;
    summary.scene = scene.source_file;
    summary.status = "completed";
    const long first = sim.state().step;
    const auto start = std::chrono::steady_clock::now();
    for (long done = 0; !lastStep(done); ++done) {
        const long next = sim.state().step + 1;
        // Before the step: an adapted step may be the last one when a full step would reach the end.
        const bool may_end = end_time >= 0.0 && sim.state().time + 1.5 * scene.time_step >= end_time;
        sim.setRecordContacts(scene.output.contacts && (isFrame(next - first) || may_end));
        try {
            sim.step();
        } catch (const SimulationError& e) {
            summary.status = std::string("stopped: ") + e.what();
            break;
        }
        const long s = sim.state().step - first;
        if (isRow(s)) series.append(sim.energy());
        if (isFrame(s)) frames.write(sim.frame());
        if (options.progress) {
            // Adapted steps: the total is estimated from the time left at the last step's size.
            const long estimate = end_time >= 0.0 ? done + 1 + std::lround(std::max(0.0, end_time - sim.state().time) / sim.lastTimeStep())
                                                  : total;
            options.progress(done + 1, estimate);
        }
    }
    summary.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summary.steps = sim.state().step - first;
    summary.simulated_time = sim.state().time;
    summary.final_energy = sim.energy();
    summary.bodies = sim.bodies().size();
    summary.contacts = sim.state().contacts;
    summary.threads = sim.threads();
    summary.integrator = sim.integratorName();
    summary.contact_model = sim.contactModelName();
    summary.integrator_statistics = sim.integratorStatistics();
    if (sim.usesSolver()) summary.solver = sim.solverName();
    summary.particle_steps_per_second =
        summary.wall_seconds > 0 ? static_cast<double>(summary.steps) * static_cast<double>(summary.bodies) / summary.wall_seconds : 0.0;
    writeSummary(options.summary.empty() ? dir / "summary.json" : options.summary, summary);
    return summary;
}

}  // namespace grainlab
