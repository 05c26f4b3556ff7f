#pragma once
// The end-of-run summary (summary.json): what was run, how far it got and how fast.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "grainlab/io/frame.hpp"
#include "grainlab/plugin/integrator_statistics.hpp"
#include "grainlab/sim/phase_seconds.hpp"

namespace grainlab {

struct RunSummary {
    std::string scene;
    long steps = 0;
    double simulated_time = 0.0;
    EnergyRecord final_energy;
    std::size_t bodies = 0;
    std::size_t contacts = 0;
    long neighbour_builds = 0;  // neighbour-list builds during the run (as LAMMPS's "Neighbor list builds")
    double wall_seconds = 0.0;
    double particle_steps_per_second = 0.0;
    PhaseSeconds phases;  // of wall_seconds; the rest went to output (frames, rows, checkpoints)
    int threads = 1;
    std::string integrator, contact_model;
    std::vector<IntegratorStatistic> integrator_statistics;  // as the integrator reports them
    std::string solver;  // empty: penalty DEM
    std::string status;  // "completed", "stopped: <reason>", "interrupted"
    std::string checkpoint;  // the last checkpoint written, if any
};

// Writes the summary as JSON, atomically. Non-finite numbers are written as null.
// Throws OutputError.
void writeSummary(const std::filesystem::path& path, const RunSummary& summary);

}  // namespace grainlab
