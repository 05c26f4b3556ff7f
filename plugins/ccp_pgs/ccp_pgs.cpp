// Projected Gauss-Seidel / SOR on the cone complementarity problem (Negrut, Serban, Tasora, section 7;
// Tasora and Anitescu's matrix-free form): contacts are visited in order, each block step projected
// exactly onto its Coulomb cone and applied to the body velocities at once.
#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/plugin_entry.hpp"
#include "grainlab/plugin/projected_block_solver.hpp"

namespace {
using namespace grainlab;

class ProjectedGaussSeidel final : public ProjectedBlockSolver {
protected:
    double iterate(const ContactProblem& problem, Eigen::VectorXd& impulses) override {
        const Eigen::VectorXd& p = problem.freeVelocity();
        for (std::size_t i = 0; i < problem.contacts(); ++i) {
            const auto k = static_cast<Eigen::Index>(3 * i);
            const Eigen::Vector3d g = impulses.segment<3>(k);
            const Eigen::Vector3d d = problem.contactVelocity(i, velocities_) + p.segment<3>(k);
            const Eigen::Vector3d next = step(problem, i, g, d);
            problem.addImpulse(i, next - g, velocities_);
            impulses.segment<3>(k) = next;
        }
        contactVelocities(problem, velocities_, d_);
        return coneResidual(problem, impulses, d_);
    }
};

const GrainlabParameter kParameters[] = {
    GRAINLAB_CONTACT_DYNAMICS_PARAMETERS,
    GRAINLAB_PROJECTED_BLOCK_PARAMETERS(1.0),
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::Solver, ProjectedGaussSeidel>(
        "ccp-pgs", "1.0.0",
        "Projected Gauss-Seidel (SOR) on the cone complementarity problem with the exact Coulomb-cone "
        "projection (Negrut, Serban, Tasora); sequential sweeps in contact order.", kParameters);
}
