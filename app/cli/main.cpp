// grainlab-cli: runs scenes headless and lists plugins.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "grainlab/core/error.hpp"
#include "grainlab/io/output_error.hpp"
#include "grainlab/io/scene_file.hpp"
#include "grainlab/plugin/loader.hpp"
#include "grainlab/sim/batch_run.hpp"
#include "progress.hpp"

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

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"GrainLab headless runner"};
    app.require_subcommand(1);
    auto* run = app.add_subcommand("run", "run a scene file");
    std::string scene_path, output, summary;
    long steps = -1;
    double time = -1.0;
    int threads = -1;
    run->add_option("scene", scene_path, "scene file (JSON)")->required();
    auto* steps_option = run->add_option("--steps", steps, "number of steps");
    run->add_option("--time", time, "simulated time to run")->excludes(steps_option);
    run->add_option("--threads", threads, "threads (0: all cores)");
    run->add_option("--output", output, "output folder (default: the scene's)");
    run->add_option("--summary", summary, "summary JSON path (default: OUTPUT/summary.json)");
    app.add_subcommand("plugins", "list plugins and their parameters");
    CLI11_PARSE(app, argc, argv);

    grainlab::PluginRegistry registry;
    registry.scan(grainlab::PluginRegistry::defaultSearchPath());
    if (app.got_subcommand("plugins")) {
        listPlugins(registry);
        return 0;
    }
    try {
        grainlab::Scene scene = grainlab::readSceneFile(scene_path);
        if (threads >= 0) scene.threads = threads;
        grainlab::Simulation simulation(std::move(scene), registry);
        grainlab::BatchOptions options;
        options.steps = steps;
        options.time = time;
        options.output = output;
        options.summary = summary;
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
        for (const grainlab::IntegratorStatistic& stat : result.integrator_statistics)
            std::cout << "  " << stat.name << " = " << stat.value << "  (" << stat.description << ")\n";
        if (!result.solver.empty())
            std::cout << "solver " << result.solver << ": " << result.final_energy.solver_iterations
                      << " iterations, relative residual " << result.final_energy.solver_residual
                      << " at the last step (every step in energy.csv)\n";
        if (result.status != "completed") {
            std::cerr << "grainlab-cli: " << result.status << "\n";
            return 3;
        }
        return 0;
    } catch (const grainlab::InputError& e) {
        std::cerr << "grainlab-cli: " << e.what() << "\n";
        return 2;
    } catch (const grainlab::OutputError& e) {
        std::cerr << "grainlab-cli: cannot write output: " << e.what() << "\n";
        return 4;
    }
}
