// grainlab-cli: runs scenes headless and lists plugins.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "grainlab/core/error.hpp"
#include "grainlab/io/output_error.hpp"
#include "grainlab/io/scene_file.hpp"
#include "grainlab/plugin/loader.hpp"
#include "grainlab/sim/batch_run.hpp"
#include "grainlab/io/checkpoint.hpp"
#include "phase_report.hpp"
#include "progress.hpp"
#include "stop_signals.hpp"

namespace {

void listPlugins(const grainlab::PluginRegistry& registry) {
    for (const auto& p : registry.plugins()) {
        std::cout << p.name << "  (" << grainlab::kindName(p.kind) << ", version " << p.version << ")\n    "
                  << p.description << "\n    " << p.path.string() << "\n";
        for (const auto& param : p.parameters)
            std::cout << "    - " << param.name << " [" << (param.unit.empty() ? "-" : param.unit) << "] default "
                      << param.default_value << ", range [" << param.min_value << ", " << param.max_value << "]: "
                      << param.description << "\n";
    }
    for (const auto& r : registry.refused()) std::cout << "refused: " << r.path.string() << ": " << r.reason << "\n";
}

// Options shared by `run` and `resume`.
struct RunOptions {
    long steps = -1;
    double time = -1.0;
    int threads = -1;
    long checkpoint_every = 0;
    std::string output, summary, checkpoint;
};

void addRunOptions(CLI::App& command, RunOptions& o, const char* steps_help) {
    auto* steps_option = command.add_option("--steps", o.steps, steps_help);
    command.add_option("--time", o.time, "simulated time to run")->excludes(steps_option);
    command.add_option("--threads", o.threads, "threads (0: one per 5,000 bodies, at most one per core)");
    command.add_option("--output", o.output, "output folder (default: the scene's)");
    command.add_option("--summary", o.summary, "summary JSON path (default: OUTPUT/summary.json)");
    command.add_option("--checkpoint-every", o.checkpoint_every, "write a checkpoint every N steps and at the end")
        ->check(CLI::NonNegativeNumber);
    command.add_option("--checkpoint", o.checkpoint,
                       "where --checkpoint-every and an interruption write checkpoints (default: OUTPUT/checkpoint.glc)");
}

// Runs to the end or to SIGINT/SIGTERM; returns the exit code.
int runWithOutputs(grainlab::Simulation& simulation, const RunOptions& o, const grainlab::OutputProgress* resume,
                   const std::string& program) {
    grainlab::BatchOptions options;
    options.steps = o.steps;
    options.time = o.time;
    options.output = o.output;
    options.summary = o.summary;
    options.checkpoint = o.checkpoint;
    options.checkpoint_every = o.checkpoint_every;
    options.resume = resume;
    options.stop = &grainlab::cli::installStopSignals();
    grainlab::cli::ProgressBar bar(0, isatty(STDERR_FILENO));
    long total_seen = 0;
    options.progress = [&](long done, long total) {
        if (total_seen != total) { bar = grainlab::cli::ProgressBar(total, isatty(STDERR_FILENO)); total_seen = total; }
        bar.update(done);
    };
    const grainlab::RunSummary result = grainlab::runBatch(simulation, options);
    bar.finish(result.steps);
    std::cout << result.steps << " steps of " << result.bodies << " bodies in " << result.wall_seconds << " s ("
              << result.particle_steps_per_second / 1e6 << " M particle-steps/s, " << result.threads
              << " threads); " << result.contacts << " contacts; kinetic energy " << result.final_energy.kinetic
              << "\n";
    grainlab::cli::printPhaseSeconds(std::cout, result.phases, result.wall_seconds);
    for (const grainlab::IntegratorStatistic& stat : result.integrator_statistics)
        std::cout << "  " << stat.name << " = " << stat.value << "  (" << stat.description << ")\n";
    if (!result.solver.empty())
        std::cout << "solver " << result.solver << ": " << result.final_energy.solver_iterations
                  << " iterations, relative residual " << result.final_energy.solver_residual
                  << " at the last step (every step in energy.csv)\n";
    if (result.status == "interrupted") {
        std::cerr << "grainlab-cli: interrupted at step " << simulation.state().step << "; checkpoint written to "
                  << result.checkpoint << "\nresume with: " << grainlab::cli::shellQuoted(program) << " resume "
                  << grainlab::cli::shellQuoted(result.checkpoint) << "\n";
        return 5;
    }
    if (result.status != "completed") {
        std::cerr << "grainlab-cli: " << result.status << "\n";
        return 3;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"GrainLab headless runner"};
    app.require_subcommand(1);
    auto* run = app.add_subcommand("run", "run a scene file");
    std::string scene_path, checkpoint_path;
    RunOptions options;
    run->add_option("scene", scene_path, "scene file (JSON)")->required();
    addRunOptions(*run, options, "number of steps");
    auto* resume = app.add_subcommand("resume", "continue a run from a checkpoint, appending to its output series");
    resume->add_option("checkpoint", checkpoint_path, "checkpoint file")->required();
    addRunOptions(*resume, options, "number of steps from the checkpoint (default: to the run's planned end)");
    app.add_subcommand("plugins", "list plugins and their parameters");
    CLI11_PARSE(app, argc, argv);

    grainlab::PluginRegistry registry;
    registry.scan(grainlab::PluginRegistry::defaultSearchPath());
    if (app.got_subcommand("plugins")) {
        listPlugins(registry);
        return 0;
    }
    try {
        if (app.got_subcommand("resume")) {
            grainlab::Checkpoint checkpoint = grainlab::readCheckpoint(checkpoint_path);
            const grainlab::OutputProgress progress = checkpoint.output;
            if (options.threads >= 0 && options.threads != checkpoint.threads)
                std::cerr << "grainlab-cli: note: the checkpoint was written with " << checkpoint.threads
                          << " threads; with another count the continuation differs from the uninterrupted run"
                             " in round-off\n";
            if (options.checkpoint.empty() && options.output.empty()) options.checkpoint = checkpoint_path;
            grainlab::Simulation simulation =
                grainlab::Simulation::fromCheckpoint(std::move(checkpoint), registry, std::max(0, options.threads));
            return runWithOutputs(simulation, options, &progress, argv[0]);
        }
        grainlab::Scene scene = grainlab::readSceneFile(scene_path);
        if (options.threads >= 0) scene.threads = options.threads;
        grainlab::Simulation simulation(std::move(scene), registry);
        return runWithOutputs(simulation, options, nullptr, argv[0]);
    } catch (const grainlab::InputError& e) {
        std::cerr << "grainlab-cli: " << e.what() << "\n";
        return 2;
    } catch (const grainlab::OutputError& e) {
        std::cerr << "grainlab-cli: cannot write output: " << e.what() << "\n";
        return 4;
    }
}
