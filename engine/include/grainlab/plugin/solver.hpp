#pragma once
// Solver plugin interface for rigid contact dynamics: a cone complementarity problem in impulses.
// Per contact i there is a 3-vector of impulses (normal, two tangential) constrained to the Coulomb
// cone of friction mu_i. The engine assembles the problem matrix-free: the solver sees the
// Delassus operator N = J M^-1 J^T only through products and diagonal blocks.
#include <vector>

#include <Eigen/Core>

#include "grainlab/plugin/parameters.hpp"

namespace grainlab {

class ContactProblem {
public:
    virtual ~ContactProblem() = default;
    virtual std::size_t contacts() const = 0;
    virtual double friction(std::size_t contact) const = 0;
    // out = N * impulses (3 per contact).
    virtual void multiplyDelassus(const Eigen::VectorXd& impulses, Eigen::VectorXd& out) const = 0;
    // The 3x3 diagonal block N_ii.
    virtual Eigen::Matrix3d diagonalBlock(std::size_t contact) const = 0;
    // Right-hand side b: velocities in the contact frames before impulses, plus stabilisation.
    virtual const Eigen::VectorXd& freeVelocity() const = 0;
};

struct SolverSettings {
    int max_iterations = 100;
    double tolerance = 1e-8;
    bool record_residuals = true;
};

struct SolverReport {
    int iterations = 0;
    double residual = 0.0;
    std::vector<double> residual_history;
    bool converged = false;
};

class Solver {
public:
    virtual ~Solver() = default;
    virtual void configure(const ParameterValues& values) = 0;
    // `impulses` holds the warm start on entry and the solution on return.
    virtual SolverReport solve(const ContactProblem& problem, Eigen::VectorXd& impulses,
                               const SolverSettings& settings) = 0;
};

}  // namespace grainlab
