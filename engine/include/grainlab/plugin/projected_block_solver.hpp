#pragma once
// Shared state of the block-step solvers (projected Gauss-Seidel and Jacobi): the relaxation omega,
// the sharpness lambda, the per-contact step sizes and the body velocities M^-1 D gamma they keep.
#include <vector>

#include "grainlab/plugin/cone.hpp"
#include "grainlab/plugin/solver.hpp"

namespace grainlab {

class ProjectedBlockSolver : public IterativeSolver {
public:
    void configure(const ParameterValues& p) override {
        omega_ = p.get("omega");
        sharpness_ = p.get("sharpness");
    }

protected:
    void begin(const ContactProblem& problem, const Eigen::VectorXd& impulses) override {
        problem.velocityChange(impulses, velocities_);
        eta_.resize(problem.contacts());
        for (std::size_t i = 0; i < problem.contacts(); ++i) eta_[i] = coneStepSize(problem, i);
        contactVelocities(problem, velocities_, d_);
    }
    Eigen::Vector3d step(const ContactProblem& problem, std::size_t i, const Eigen::Vector3d& g,
                         const Eigen::Vector3d& d) const {
        return projectedStep(g, d, problem.friction(i), eta_[i], omega_, sharpness_);
    }

    double omega_ = 1.0, sharpness_ = 1.0;
    Eigen::VectorXd velocities_;  // M^-1 D gamma
    Eigen::VectorXd d_;           // N gamma + p, where a solver keeps it current
    std::vector<double> eta_;
};

}  // namespace grainlab

// The parameters of ProjectedBlockSolver, after GRAINLAB_CONTACT_DYNAMICS_PARAMETERS.
#define GRAINLAB_PROJECTED_BLOCK_PARAMETERS(omega_default)                                                    \
    {"omega", "", GRAINLAB_PARAM_REAL, omega_default, 1e-6, 2.0, "relaxation factor of the block step"},     \
    {"sharpness", "", GRAINLAB_PARAM_REAL, 1.0, 1e-6, 1.0, "blend of the projected and the old block (lambda)"}
