// Projected Jacobi on the cone complementarity problem (Negrut, Serban, Tasora, section 7): every
// block step uses the same body velocities (the products with N run on the engine's threads and
// give the same result whatever their number). It is a projected gradient step in the metric
// diag(1/eta), which converges for omega < 2 / lambda_max(eta N): omega is capped at 1.8 over a
// power-iteration estimate of that eigenvalue (dense packings, 12 contacts per body, need ~0.15).
#include <algorithm>
#include <cmath>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/plugin_entry.hpp"
#include "grainlab/plugin/projected_block_solver.hpp"

namespace {
using namespace grainlab;

class ProjectedJacobi final : public ProjectedBlockSolver {
public:
    void configure(const ParameterValues& p) override {
        ProjectedBlockSolver::configure(p);
        configured_omega_ = omega_;
    }

protected:
    void begin(const ContactProblem& problem, const Eigen::VectorXd& impulses) override {
        ProjectedBlockSolver::begin(problem, impulses);
        // lambda_max of eta^1/2 N eta^1/2 (symmetric) by power iteration from a fixed start.
        const Eigen::Index n = static_cast<Eigen::Index>(3 * problem.contacts());
        Eigen::VectorXd root_eta(n), x = Eigen::VectorXd::Ones(n), y;
        for (Eigen::Index k = 0; k < n; ++k) root_eta[k] = std::sqrt(eta_[static_cast<std::size_t>(k / 3)]);
        double lambda = 0.0;
        for (int k = 0; k < 20 && x.norm() > 0.0; ++k) {
            x /= x.norm();
            problem.multiplyDelassus(root_eta.cwiseProduct(x), y);
            x = root_eta.cwiseProduct(y);
            lambda = x.norm();
        }
        omega_ = lambda > 0.0 ? std::min(configured_omega_, 1.8 / lambda) : configured_omega_;
    }

    double iterate(const ContactProblem& problem, Eigen::VectorXd& impulses) override {
        for (std::size_t i = 0; i < problem.contacts(); ++i) {
            const auto k = static_cast<Eigen::Index>(3 * i);
            impulses.segment<3>(k) = step(problem, i, impulses.segment<3>(k), d_.segment<3>(k));
        }
        problem.velocityChange(impulses, velocities_);
        contactVelocities(problem, velocities_, d_);
        return coneResidual(problem, impulses, d_);
    }

private:
    double configured_omega_ = 0.3;  // omega from the parameters; omega_ is capped per problem
};

const GrainlabParameter kParameters[] = {
    GRAINLAB_CONTACT_DYNAMICS_PARAMETERS,
    GRAINLAB_PROJECTED_BLOCK_PARAMETERS(0.3),
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::Solver, ProjectedJacobi>(
        "ccp-jacobi", "1.0.0",
        "Projected Jacobi on the cone complementarity problem with the exact Coulomb-cone projection "
        "(Negrut, Serban, Tasora); all contacts updated from the same velocities.", kParameters);
}
