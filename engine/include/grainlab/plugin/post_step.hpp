#pragma once
// Post-step plugin interface: runs after the solver and the velocity update of a contact-dynamics
// step and may replace the reported impulses (forces) without changing the motion, e.g. by the
// unique DEM-limit forces of Olsen and Kamrin's compatibility method.
#include <string>

#include <Eigen/Core>

#include "grainlab/plugin/parameters.hpp"
#include "grainlab/plugin/solver.hpp"

namespace grainlab {

class PostStep {
public:
    virtual ~PostStep() = default;
    virtual void configure(const ParameterValues& values) = 0;
    // Why this post-step cannot treat a scene whose largest pair friction coefficient is
    // `max_friction`; empty when it can. The engine refuses the scene with this reason.
    virtual std::string unsupported(double max_friction) const = 0;
    // `impulses` holds the solver's solution on entry; on return, the impulses to report. They
    // must give the same velocity update (M^-1 D gamma) on free bodies.
    virtual SolverReport apply(const ContactProblem& problem, Eigen::VectorXd& impulses,
                               const SolverSettings& settings) = 0;
};

}  // namespace grainlab
