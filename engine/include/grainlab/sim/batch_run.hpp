#pragma once
// A headless run with outputs: frames (VTK series), the energy time series (CSV), a summary and
// checkpoints to continue from.
#include <atomic>
#include <filesystem>
#include <functional>
#include <string>

#include "grainlab/io/checkpoint.hpp"
#include "grainlab/io/summary.hpp"
#include "grainlab/sim/simulation.hpp"

namespace grainlab {

inline constexpr const char* kCheckpointFileName = "checkpoint.glc";

struct BatchOptions {
    long steps = -1;                 // < 0: from the scene's run settings (or the resumed run's end)
    double time = -1.0;              // used when steps < 0 and time >= 0
    std::filesystem::path output;    // empty: the scene's output directory (or the resumed run's)
    std::filesystem::path summary;   // empty: <output>/summary.json
    std::function<void(long done, long total)> progress;

    long checkpoint_every = 0;       // > 0: a checkpoint at every multiple of this step and at the end
    std::filesystem::path checkpoint;  // empty: <output>/checkpoint.glc
    // Polled after each step; once true the run writes a checkpoint and returns "interrupted".
    const std::atomic<bool>* stop = nullptr;
    // The output progress of the checkpoint `simulation` was restored from: the run appends to
    // that series instead of starting a new one; steps and time then count from the checkpoint.
    const OutputProgress* resume = nullptr;
};

// Runs to the end, to the first SimulationError or to a stop request; every file written is
// complete and the summary says how the run ended. Throws OutputError when a file cannot be written.
RunSummary runBatch(Simulation& simulation, const BatchOptions& options);

}  // namespace grainlab
