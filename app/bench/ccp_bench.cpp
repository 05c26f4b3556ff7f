// Benchmark of the contact-dynamics solvers on one settled pile: runs the scene's own solver (or
// `--settle-solver`) for `--settle` steps, from the scene's start or from a checkpoint (a pile poured
// once by `grainlab-cli run --checkpoint-every`, reused by several benchmarks), then solves the last
// step's cone complementarity problem with each solver, from a cold start or (`--warm-start`) from
// the impulses the engine's own solve of that step began from (the previous step's, matched by contact
// history), writing the residual after every iteration against the iteration count and the time.
// Every solver's final impulses are also scored with one formula: the relative natural-map residual
// of the Coulomb problem with De Saxce's change of variable (cone.hpp), which is also Siconos's fc3d
// error measure up to scaling.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "grainlab/core/error.hpp"
#include "grainlab/io/checkpoint.hpp"
#include "grainlab/io/scene_file.hpp"
#include "grainlab/plugin/cone.hpp"
#include "grainlab/plugin/loader.hpp"
#include "grainlab/sim/simulation.hpp"
#ifdef GRAINLAB_WITH_SICONOS
#include "siconos_solve.hpp"
#endif

namespace {

// A CSV field: solver specs hold commas (name:key=value,key=value).
std::string quoted(const std::string& field) { return '"' + field + '"'; }

// "name" or "name:key=value,key=value" (solver parameters), e.g. nbgs-maxdiss:omega=1.5.
grainlab::PluginChoice solverChoice(const std::string& spec) {
    grainlab::PluginChoice choice;
    const auto colon = spec.find(':');
    choice.name = spec.substr(0, colon);
    if (colon == std::string::npos) return choice;
    std::stringstream rest(spec.substr(colon + 1));
    std::string item;
    while (std::getline(rest, item, ',')) {
        const auto equals = item.find('=');
        if (equals == std::string::npos)
            throw grainlab::InputError("", "--solvers", "expected key=value after ':' in " + spec);
        try {
            choice.parameters[item.substr(0, equals)] = std::stod(item.substr(equals + 1));
        } catch (const std::exception&) {
            throw grainlab::InputError("", "--solvers", "not a number: " + item + " in " + spec);
        }
    }
    return choice;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"grainlab-ccp-bench: residual against iterations and time for the contact-dynamics solvers"};
    std::string scene_path, csv = "ccp_bench.csv";
    long settle = 200;
    int iterations = 500, threads = 1;
    std::vector<std::string> solvers{"ccp-pgs", "ccp-jacobi", "ccp-apgd", "nbgs-maxdiss"};
    std::string settle_solver;
    bool warm = false;
    app.add_option("scene", scene_path,
                   "scene whose solver settles the pile, or a checkpoint of a run of one (the settling goes on from it)")
        ->required();
    app.add_option("--settle", settle, "steps run before the benchmarked problem");
    app.add_option("--settle-solver", settle_solver,
                   "settle with this solver instead of the scene's (name or name:key=value,...; the scene's "
                   "solver parameters are kept where not given)");
    app.add_flag("--warm-start", warm,
                   "every solver, ours and Siconos's, starts from the engine's warm start of the benchmarked step "
                   "(the previous step's impulses matched by contact history) instead of zero");
    app.add_option("--iterations", iterations, "iterations per solver");
    app.add_option("--threads", threads, "threads for the Delassus products");
    app.add_option("--solvers", solvers, "solvers to compare: name or name:key=value,... (its parameters)");
    app.add_option("--csv", csv, "output: solver,iteration,seconds,residual");
    std::string siconos_csv;
    std::vector<std::string> siconos_solvers{"nsgs"};
    app.add_option("--siconos-solvers", siconos_solvers, "Siconos solvers: nsgs, nsn-ac, nsn-fb, admm, prox, aclmfp, vi-fpp, vi-eg (Newton ones factorise: slow)");
    app.add_option("--siconos", siconos_csv,
                   "also solve with Siconos fc3d (see --siconos-solvers) at tolerances 1e-2..1e-8; output: "
                   "round,solver,tolerance,limit,seconds,iterations,own_error,coulomb_residual; then --coulomb-solvers with "
                   "growing iteration limits (tolerance 0), scored the same way");
    std::vector<std::string> coulomb_solvers{"nbgs-maxdiss"};
    std::vector<int> coulomb_limits{10, 30, 100, 300, 1000, 3000};
    std::vector<double> siconos_tolerances{1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
    std::vector<double> coulomb_tolerances;
    int siconos_limit = 5000;
    app.add_option("--siconos-limit", siconos_limit, "with --siconos: Siconos's iteration limit");
    int rounds = 1;
    app.add_option("--rounds", rounds, "with --siconos: repeat the Siconos runs and ours this many times, interleaved");
    app.add_option("--coulomb-solvers", coulomb_solvers,
                   "with --siconos: our solvers of the Coulomb problem (name or name:key=value,...)");
    app.add_option("--coulomb-limits", coulomb_limits,
                   "with --siconos: their iteration limits (fresh runs; 0: none, only --coulomb-tolerances)");
    app.add_option("--coulomb-tolerances", coulomb_tolerances,
                   "with --siconos: also fresh runs of our Coulomb solvers stopped at these tolerances on their own "
                   "residual (as Siconos is), limit --siconos-limit");
    app.add_option("--siconos-tolerances", siconos_tolerances, "with --siconos: Siconos's tolerances");
    CLI11_PARSE(app, argc, argv);
    try {
        grainlab::PluginRegistry registry;
        registry.scan(grainlab::PluginRegistry::defaultSearchPath());
        const auto withSettleSolver = [&](grainlab::Scene& scene) {
            scene.threads = threads;
            if (settle_solver.empty()) return;
            grainlab::PluginChoice choice = solverChoice(settle_solver);
            if (scene.solver)
                for (const auto& [key, value] : scene.solver->parameters) choice.parameters.emplace(key, value);
            scene.solver = choice;
        };
        grainlab::Simulation sim = [&] {
            if (!grainlab::isCheckpointFile(scene_path)) {
                grainlab::Scene scene = grainlab::readSceneFile(scene_path);
                withSettleSolver(scene);
                return grainlab::Simulation(std::move(scene), registry);
            }
            grainlab::Checkpoint checkpoint = grainlab::readCheckpoint(scene_path);
            withSettleSolver(checkpoint.scene);
            return grainlab::Simulation::fromCheckpoint(std::move(checkpoint), registry, threads);
        }();
        if (!sim.usesSolver()) throw grainlab::InputError(scene_path, "/plugins/solver", "the benchmark needs a solver");
        // The settling, ten times along the way: whether the pile is at rest and its solves converge.
        for (long k = 1; k <= settle; ++k) {
            sim.step();
            if (k % std::max(1L, settle / 10) != 0 || k == settle) continue;
            const grainlab::EnergyRecord e = sim.energy();
            std::vector<double> speeds;
            for (const auto& v : sim.bodies().velocity) speeds.push_back(v.norm());
            std::sort(speeds.begin(), speeds.end());
            std::cout << "step " << k << ": kinetic energy " << e.kinetic + e.rotational << " J, speeds: median "
                      << speeds[speeds.size() / 2] << ", 99th percentile " << speeds[speeds.size() * 99 / 100]
                      << ", largest " << speeds.back() << " m/s; " << e.contacts << " contacts, solve "
                      << e.solver_iterations << " iterations to " << e.solver_residual << std::endl;
        }
        const grainlab::ContactSystem& problem = sim.contactDynamics().system();
        // The initial impulses every solver is handed: zero, or the engine's warm start of this step.
        const Eigen::VectorXd initial = warm ? sim.contactDynamics().lastWarmStart()
                                             : Eigen::VectorXd::Zero(static_cast<Eigen::Index>(3 * problem.contacts()));
        const auto coulombResidual = [&problem](const Eigen::VectorXd& impulses) {
            Eigen::VectorXd d;
            problem.multiplyDelassus(impulses, d);
            d += problem.freeVelocity();
            return grainlab::coneResidual(problem, impulses, d, true);
        };
        const grainlab::EnergyRecord energy = sim.energy();
        std::cout << sim.bodies().size() << " bodies, " << problem.contacts() << " contacts after " << settle
                  << " steps (kinetic energy " << energy.kinetic + energy.rotational << " J, the last step's solve "
                  << energy.solver_iterations << " iterations to residual " << energy.solver_residual << "); "
                  << (warm ? "warm" : "cold") << " start, its Coulomb residual " << coulombResidual(initial)
                  << std::endl;
        std::ofstream out(csv);
        out << "solver,iteration,seconds,residual\n";
        out.precision(10);
        for (const std::string& name : solvers) {
            auto solver = registry.createSolver(solverChoice(name));
            grainlab::SolverSettings settings;
            settings.max_iterations = iterations;
            settings.tolerance = 0.0;
            Eigen::VectorXd impulses = initial;
            const grainlab::SolverReport report = solver->solve(problem, impulses, settings);
            for (std::size_t k = 0; k < report.residual_history.size(); ++k)
                out << quoted(name) << ',' << k + 1 << ',' << report.time_history[k] << ',' << report.residual_history[k] << '\n';
            Eigen::VectorXd d;
            problem.multiplyDelassus(impulses, d);
            d += problem.freeVelocity();
            std::cout << name << ": " << report.iterations << " iterations in "
                      << (report.time_history.empty() ? 0.0 : report.time_history.back()) << " s, own residual "
                      << report.residual << ", CCP residual " << grainlab::coneResidual(problem, impulses, d)
                      << ", Coulomb (De Saxce) residual " << grainlab::coneResidual(problem, impulses, d, true) << std::endl;
        }
        if (!siconos_csv.empty()) {
#ifdef GRAINLAB_WITH_SICONOS
            grainlab::bench::SiconosProblem siconos(problem);
            std::ofstream table(siconos_csv);
            table << "round,solver,tolerance,limit,seconds,iterations,own_error,coulomb_residual\n";
            table.precision(10);
            int round = 1;
            // Siconos fc3d stopped at a tolerance on its own error (or its limit), scored with our formula.
            const auto siconosRun = [&](const std::string& name, double tolerance) {
                Eigen::VectorXd impulses = initial;
                const auto run = siconos.solve(name, tolerance, siconos_limit, impulses);
                const double coulomb = coulombResidual(impulses);
                table << round << ',' << quoted("siconos " + name) << ',' << tolerance << ',' << siconos_limit << ','
                      << run.seconds << ',' << run.iterations << ',' << run.own_error << ',' << coulomb << '\n';
                std::cout << "siconos " << name << " tolerance " << tolerance << ": " << run.iterations
                          << " iterations in " << run.seconds << " s, Coulomb residual " << coulomb
                          << (run.info ? " (not converged)" : "") << std::endl;
            };
            // Ours on the same (Coulomb) problem from the same start, scored with the same formula: fresh
            // runs with growing iteration limits, then (as Siconos) stopped at tolerances on their own
            // residual; the time of each run is the time to its result.
            const auto ours = [&](const std::string& spec, double tolerance, int limit) {
                auto solver = registry.createSolver(solverChoice(spec));
                grainlab::SolverSettings settings;
                settings.max_iterations = limit;
                settings.tolerance = tolerance;
                settings.record_residuals = false;
                Eigen::VectorXd impulses = initial;
                const auto start = std::chrono::steady_clock::now();
                const grainlab::SolverReport report = solver->solve(problem, impulses, settings);
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                const double coulomb = coulombResidual(impulses);
                table << round << ',' << quoted("grainlab " + spec) << ',' << tolerance << ',' << limit << ',' << seconds << ','
                      << report.iterations << ',' << report.residual << ',' << coulomb << '\n';
                std::cout << spec << " tolerance " << tolerance << ", limit " << limit << ": " << report.iterations
                          << " iterations in " << seconds << " s, Coulomb residual " << coulomb << std::endl;
            };
            // Rounds on the same problem, Siconos then ours in each, so that a change of the machine's load
            // shows as a difference between rounds rather than between the two sides.
            for (; round <= rounds; ++round) {
                if (rounds > 1) std::cout << "round " << round << std::endl;
                for (const std::string& name : siconos_solvers)
                    for (double tolerance : siconos_tolerances) siconosRun(name, tolerance);
                for (const std::string& spec : coulomb_solvers) {
                    for (int limit : coulomb_limits)
                        if (limit > 0) ours(spec, 0.0, limit);
                    for (double tolerance : coulomb_tolerances) ours(spec, tolerance, siconos_limit);
                }
            }
#else
            throw grainlab::InputError("", "--siconos", "this grainlab-ccp-bench was built without Siconos numerics "
                                       "(install libsiconos-numerics-dev and re-run cmake)");
#endif
        }
        return 0;
    } catch (const grainlab::InputError& e) {
        std::cerr << "grainlab-ccp-bench: " << e.what() << "\n";
        return 2;
    } catch (const grainlab::SimulationError& e) {
        std::cerr << "grainlab-ccp-bench: " << e.what() << "\n";
        return 3;
    }
}
