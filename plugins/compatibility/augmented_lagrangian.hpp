#pragma once
// The compatibility problem of Olsen and Kamrin [36] in Delassus form and its augmented-Lagrangian
// solver (Nocedal and Wright, bound-constrained Lagrangian) with accelerated projected-gradient
// inner solves.
#include <functional>
#include <vector>

#include <Eigen/Core>

#include "grainlab/plugin/solver.hpp"

namespace grainlab {

struct CompatibilityProblem {
    Eigen::VectorXd first_stage;        // the solver's normal impulses (feasible)
    std::vector<bool> active;           // contacts that may carry force
    std::vector<double> stiffness;      // relative stiffness k_i, largest 1
    double exponent = 2.0;              // p
    std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> multiply;  // out = N_nn x
};

struct AugmentedLagrangianOptions {
    double tolerance = 1e-9;
    int max_outer = 60;
    int max_inner = 5000;
};

// Returns the report (iterations: inner iterations in all; residual: the final relative velocity
// mismatch); `f` the compatible normal impulses.
SolverReport solveCompatibility(const CompatibilityProblem& problem, const AugmentedLagrangianOptions& options,
                                Eigen::VectorXd& f);

}  // namespace grainlab
