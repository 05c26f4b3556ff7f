#include "grainlab/sim/batch_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "grainlab/core/error.hpp"
#include "grainlab/io/atomic_file.hpp"
#include "grainlab/io/time_series.hpp"
#include "grainlab/io/vtk_series.hpp"

namespace grainlab {
namespace {

// Steps, frame and row intervals of a new run, or those saved with the run being resumed. Frames
// and rows fall on absolute step numbers, so a resumed run writes the ones the whole run would.
OutputProgress plan(const Simulation& sim, const BatchOptions& options) {
    const Scene& scene = sim.scene();
    const long now = sim.state().step;
    long steps = options.steps;
    if (steps < 0 && options.time >= 0.0) steps = static_cast<long>(std::llround(options.time / scene.time_step));
    if (options.resume) {
        OutputProgress p = *options.resume;
        if (steps >= 0) p.end_step = now + steps;
        if (!options.output.empty()) p.directory = options.output;
        if (options.checkpoint_every > 0) p.checkpoint_every = options.checkpoint_every;
        return p;
    }
    if (steps < 0)
        steps = scene.run.steps > 0 ? scene.run.steps : static_cast<long>(std::llround(scene.run.time / scene.time_step));
    OutputProgress p;
    p.directory = options.output.empty() ? std::filesystem::path(scene.output.directory) : options.output;
    p.directory = std::filesystem::absolute(p.directory);
    p.end_step = now + steps;
    p.frame_every = scene.output.every_steps > 0 ? scene.output.every_steps : std::max(1L, steps);
    p.row_every = scene.output.every_steps > 0 ? scene.output.every_steps : std::max(1L, steps / 100);
    p.checkpoint_every = options.checkpoint_every;
    p.contacts = scene.output.contacts;
    return p;
}

}  // namespace

RunSummary runBatch(Simulation& sim, const BatchOptions& options) {
    OutputProgress progress = plan(sim, options);
    const Scene& scene = sim.scene();
    const std::filesystem::path& dir = progress.directory;
    const std::filesystem::path checkpoint = options.checkpoint.empty() ? dir / kCheckpointFileName : options.checkpoint;
    const long first = sim.state().step;
    // A run by time whose step adapts ends by time, not by step count (a resumed one by its step).
    double end_time = -1.0;
    if (!options.resume && sim.adaptsTimeStep() && options.steps < 0 && (options.time >= 0.0 || scene.run.steps <= 0))
        end_time = sim.state().time + (options.time >= 0.0 ? options.time : scene.run.time);
    // Within half the scene step of the end time, a further step would overshoot it.
    auto lastStep = [&](long step) {
        return end_time >= 0.0 ? sim.state().time >= end_time - 0.5 * scene.time_step : step >= progress.end_step;
    };
    auto isFrame = [&](long step) { return step % progress.frame_every == 0 || lastStep(step); };
    auto isRow = [&](long step) { return step % progress.row_every == 0 || lastStep(step); };

    removeStaleTemporaries(dir);  // left by a run killed mid-write
    std::optional<FrameSeriesWriter> frames;
    std::optional<TimeSeriesWriter> series;
    if (options.resume) {
        // Resumed into another folder, the earlier frames are not there to list.
        for (auto* list : {&progress.particle_frames, &progress.contact_frames})
            std::erase_if(*list, [&](const CollectionEntry& e) { return !std::filesystem::exists(dir / e.file); });
        frames.emplace(dir, progress.contacts, progress.particle_frames, progress.contact_frames);
        series.emplace(dir / "energy.csv", first);
    } else {
        frames.emplace(dir, progress.contacts);
        series.emplace(dir / "energy.csv");
        sim.setRecordContacts(progress.contacts);
        sim.updateForces();  // the set-up evaluation; a resumed run has it behind it already
        frames->write(sim.frameView());
        series->append(sim.energy());
    }

    RunSummary summary;
    summary.scene = sim.scene().source_file;
    summary.status = "completed";
    auto saveCheckpoint = [&] {
        progress.particle_frames = frames->particleFrames();
        progress.contact_frames = frames->contactFrames();
        writeCheckpoint(sim, checkpoint, progress);
        summary.checkpoint = checkpoint.string();
    };
    // A runaway stops the run, saying why, whether a step finds it or the settling of one left pending.
    auto survives = [&](auto&& act) {
        try {
            act();
            return true;
        } catch (const SimulationError& e) {
            summary.status = std::string("stopped: ") + e.what();
            return false;
        }
    };
    const long total = progress.end_step - first;
    const PhaseSeconds phases_before = sim.phaseSeconds();
    const long builds_before = sim.state().pairs.builds;
    const auto start = std::chrono::steady_clock::now();
    while (!lastStep(sim.state().step)) {
        const long next = sim.state().step + 1;
        // Before the step: an adapted step may be the last one when a full step would reach the end.
        const bool may_end = end_time >= 0.0 && sim.state().time + 1.5 * scene.time_step >= end_time;
        sim.setRecordContacts(progress.contacts && (isFrame(next) || may_end));
        const bool checkpoint_due = progress.checkpoint_every > 0 && next % progress.checkpoint_every == 0;
        // Nothing reads the state after this step unless it ends a row, a frame, the run or a stretch
        // between checkpoints, or a stop is asked for: the step may then leave its closing work to
        // the next one (settled below if a stop comes during it).
        const bool another_follows = end_time < 0.0 && !(options.stop && options.stop->load()) && !checkpoint_due &&
                                     !isRow(next) && !isFrame(next);
        if (!survives([&] { sim.step(another_follows); })) break;
        const long s = sim.state().step;
        if (isRow(s)) series->append(sim.energy());
        if (isFrame(s)) frames->write(sim.frameView());
        if (options.progress) {
            // Adapted steps: the total is estimated from the time left at the last step's size.
            const long done = s - first;
            const long estimate =
                end_time >= 0.0 ? done + std::lround(std::max(0.0, end_time - sim.state().time) / sim.lastTimeStep()) : total;
            options.progress(done, estimate);
        }
        const bool stop = options.stop && options.stop->load();
        if (stop || (progress.checkpoint_every > 0 && (s % progress.checkpoint_every == 0 || lastStep(s)))) {
            if (!survives([&] { sim.settle(); })) break;
            saveCheckpoint();
        }
        if (stop && !lastStep(s)) {
            summary.status = "interrupted";
            break;
        }
    }
    summary.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    summary.phases = sim.phaseSeconds().since(phases_before);
    summary.steps = sim.state().step - first;
    summary.simulated_time = sim.state().time;
    summary.final_energy = sim.energy();
    summary.bodies = sim.bodies().size();
    summary.contacts = sim.state().contacts;
    summary.neighbour_builds = sim.state().pairs.builds - builds_before;
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
