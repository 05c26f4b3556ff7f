#pragma once
// Named numbers an integrator reports about its own work (e.g. Newton and CG iterations per step),
// generic so the CLI summary and the GUI can show them without knowing the integrator.
#include <string>

namespace grainlab {

struct IntegratorStatistic {
    std::string name;         // snake_case, e.g. "newton_iterations_per_step_mean"
    double value = 0.0;
    std::string description;  // one line for a person
};

}  // namespace grainlab
