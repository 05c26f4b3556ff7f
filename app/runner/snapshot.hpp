#pragma once
// What the worker publishes for the window: a copy of the state taken between steps.
#include <cstdint>
#include <string>
#include <vector>

#include "grainlab/io/frame.hpp"
#include "grainlab/plugin/solver.hpp"

namespace grainlab::gui {

struct Snapshot {
    Frame frame;                     // bodies, and the contacts of the step that published it
    EnergyRecord energy;
    double steps_per_second = 0.0;   // over the last publishing interval
    double real_time_factor = 0.0;   // simulated seconds per wall-clock second, same interval
    double wall_seconds = 0.0;       // wall time spent stepping since the run began
    std::string integrator, contact_model;
    std::string solver;              // empty: soft contacts (contact model + integrator)
    SolverReport solver_report;      // of the last step, when a solver runs
    std::uint64_t serial = 0;        // increases with every publication
};

}  // namespace grainlab::gui
