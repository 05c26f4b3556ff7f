#include "grainlab/io/summary.hpp"

#include <nlohmann/json.hpp>

#include "grainlab/io/atomic_file.hpp"

namespace grainlab {
namespace {

// ordered_json keeps the fields in the order a person reads them.
nlohmann::ordered_json energyJson(const EnergyRecord& e) {
    return {{"step", e.step},
            {"time", e.time},
            {"kinetic", e.kinetic},
            {"rotational", e.rotational},
            {"gravitational", e.gravitational},
            {"elastic", e.elastic},
            {"dissipated", e.dissipated},
            {"total", e.total()},
            {"contacts", e.contacts},
            {"solver_iterations", e.solver_iterations},
            {"solver_residual", e.solver_residual}};
}

nlohmann::ordered_json breakdownJson(const PhaseSeconds& p, double wall_seconds) {
    return {{"integration", p.integration},
            {"neighbours", p.neighbours},
            {"forces", p.forces},
            {"output_and_other", wall_seconds - p.total()},
            {"pair_loop_per_thread", p.pair_loop_per_thread}};
}

}  // namespace

void writeSummary(const std::filesystem::path& path, const RunSummary& s) {
    nlohmann::ordered_json json = {
        {"scene", s.scene},
        {"status", s.status},
        {"steps", s.steps},
        {"simulated_time", s.simulated_time},
        {"bodies", s.bodies},
        {"contacts", s.contacts},
        {"neighbour_builds", s.neighbour_builds},
        {"wall_seconds", s.wall_seconds},
        {"particle_steps_per_second", s.particle_steps_per_second},
        {"seconds_by_phase", breakdownJson(s.phases, s.wall_seconds)},
        {"threads", s.threads},
        {"integrator", s.integrator},
        {"contact_model", s.contact_model},
        {"solver", s.solver},
        {"final_energy", energyJson(s.final_energy)}};
    if (!s.integrator_statistics.empty()) {
        nlohmann::ordered_json statistics = nlohmann::ordered_json::object();
        for (const IntegratorStatistic& stat : s.integrator_statistics) statistics[stat.name] = stat.value;
        json["integrator_statistics"] = statistics;
    }
    if (!s.checkpoint.empty()) json["checkpoint"] = s.checkpoint;
    // Replace invalid UTF-8 (e.g. in a scene path) rather than throw: the summary must be written.
    const auto text = json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    writeFileAtomically(path, text + "\n");
}

}  // namespace grainlab
