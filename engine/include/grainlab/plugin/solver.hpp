#pragma once
// Solver plugin interface for rigid contact dynamics: a cone complementarity problem in impulses.
// Per contact i there is a 3-vector of impulses (normal, two tangential) constrained to the Coulomb
// cone of friction mu_i. The engine assembles the problem matrix-free: the solver sees the
// Delassus operator N = D^T M^-1 D only through products, diagonal blocks and, for sweeping
// solvers, a body-velocity vector it keeps current (the style of Project Chrono's ChSolver).
//
// Conventions: contact i joins body a and body b (or a wall); its frame is (n, u, w) with n from b
// to a; the impulse acts +on a and -on b; the contact velocity d_i = (N gamma + p)_i is the
// velocity of a relative to b in that frame plus stabilisation, d_n > 0 separating.
#include <chrono>
#include <vector>

#include <Eigen/Core>

#include "grainlab/plugin/parameters.hpp"

namespace grainlab {

// What the materials say about a contact's elasticity (for post-steps that want DEM-limit forces).
struct ContactElasticity {
    double effective_youngs = 1.0;  // E* of the pair
    double effective_radius = 1.0;  // R* = r_a r_b / (r_a + r_b) (r_a against a wall)
};

class ContactProblem {
public:
    virtual ~ContactProblem() = default;
    virtual std::size_t contacts() const = 0;
    virtual double friction(std::size_t contact) const = 0;
    // out = N * impulses (3 per contact).
    virtual void multiplyDelassus(const Eigen::VectorXd& impulses, Eigen::VectorXd& out) const = 0;
    // The 3x3 diagonal block N_ii.
    virtual Eigen::Matrix3d diagonalBlock(std::size_t contact) const = 0;
    // Right-hand side p: velocities in the contact frames before impulses, plus stabilisation.
    virtual const Eigen::VectorXd& freeVelocity() const = 0;

    // Velocity form. `velocities` is the body-velocity change M^-1 D gamma (6 per body); then
    // d_i = contactVelocity(i, velocities) + p_i.
    virtual std::size_t velocitySize() const = 0;
    virtual void velocityChange(const Eigen::VectorXd& impulses, Eigen::VectorXd& velocities) const = 0;
    virtual Eigen::Vector3d contactVelocity(std::size_t contact, const Eigen::VectorXd& velocities) const = 0;
    // velocities += M^-1 D_i impulse.
    virtual void addImpulse(std::size_t contact, const Eigen::Vector3d& impulse, Eigen::VectorXd& velocities) const = 0;
    virtual ContactElasticity elasticity(std::size_t) const { return {}; }
};

struct SolverSettings {
    int max_iterations = 100;
    double tolerance = 1e-8;       // on the relative residual (see cone.hpp)
    bool record_residuals = true;
};

struct SolverReport {
    int iterations = 0;
    double residual = 0.0;
    std::vector<double> residual_history;  // after each iteration
    std::vector<double> time_history;      // seconds since the solve began, after each iteration
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

// The shared loop of iterative solvers: iterate until the residual is below the tolerance or the
// iteration limit is reached, recording the residual and the time of each iteration.
class IterativeSolver : public Solver {
public:
    SolverReport solve(const ContactProblem& problem, Eigen::VectorXd& impulses,
                       const SolverSettings& settings) final {
        SolverReport report;
        const auto start = std::chrono::steady_clock::now();
        begin(problem, impulses);
        if (problem.contacts() == 0) { report.converged = true; return report; }
        for (int k = 0; k < settings.max_iterations; ++k) {
            report.residual = iterate(problem, impulses);
            report.iterations = k + 1;
            if (settings.record_residuals) {
                report.residual_history.push_back(report.residual);
                report.time_history.push_back(
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            }
            if (report.residual <= settings.tolerance) { report.converged = true; break; }
        }
        report.residual = finish(problem, impulses, report.residual);
        return report;
    }

protected:
    // Before the first iteration (warm start in `impulses`).
    virtual void begin(const ContactProblem& problem, const Eigen::VectorXd& impulses) = 0;
    // One iteration; returns the residual of `impulses` after it.
    virtual double iterate(const ContactProblem& problem, Eigen::VectorXd& impulses) = 0;
    // After the last iteration; may replace `impulses` (e.g. by the best iterate). Returns its residual.
    virtual double finish(const ContactProblem&, Eigen::VectorXd&, double residual) { return residual; }
};

}  // namespace grainlab

// Parameters every solver plugin declares: the engine reads them for the contact-dynamics step
// (the plugin reads what its algorithm needs). Put it first in a plugin's parameter array.
#define GRAINLAB_CONTACT_DYNAMICS_PARAMETERS                                                                      \
    {"max_iterations", "", GRAINLAB_PARAM_INTEGER, 200, 1, 1e9, "iteration limit per step"},                    \
    {"tolerance", "", GRAINLAB_PARAM_REAL, 1e-6, 0, 1,                                                           \
     "stop when the relative cone complementarity residual falls below this"},                                  \
    {"envelope", "length", GRAINLAB_PARAM_REAL, -1, -1, 1e30,                                                   \
     "contacts are built for gaps below this (delta_K); -1: 5% of the smallest radius"},                         \
    {"max_recovery_speed", "length/time", GRAINLAB_PARAM_REAL, 0.6, 0, 1e30,                                     \
     "cap on the speed at which penetration is removed"},                                                       \
    {"error_reduction", "", GRAINLAB_PARAM_REAL, 1, 0, 1,                                                       \
     "fraction of a penetration removed per step (Preclik's eps; gaps always count fully)"},                     \
    {"restitution", "", GRAINLAB_PARAM_BOOLEAN, 0, 0, 1,                                                        \
     "Newton restitution with the materials' coefficient for approaching touching contacts"},                    \
    {"warm_start", "", GRAINLAB_PARAM_BOOLEAN, 1, 0, 1, "start from the previous step's impulses"}
