#pragma once
// A headless run with outputs: frames (VTK series), the energy time series (CSV) and a summary.
#include <filesystem>
#include <functional>
#include <string>

#include "grainlab/io/summary.hpp"
#include "grainlab/sim/simulation.hpp"

namespace grainlab {

struct BatchOptions {
    long steps = -1;                 // < 0: from the scene's run settings
    double time = -1.0;              // used when steps < 0 and time >= 0
    std::filesystem::path output;    // empty: the scene's output directory
    std::filesystem::path summary;   // empty: <output>/summary.json
    std::function<void(long done, long total)> progress;
};

// Runs to the end or to the first SimulationError; either way every file written is complete and
// the summary says how the run ended. Throws OutputError when a file cannot be written.
RunSummary runBatch(Simulation& simulation, const BatchOptions& options);

}  // namespace grainlab
