// Projected Jacobi on the cone complementarity problem (Negrut, Serban, Tasora, section 7): every
// block step uses the same body velocities (the products with N run on the engine's threads and
// give the same result whatever their number); it needs a smaller omega (or sharpness) than
// Gauss-Seidel.
#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/projected_block_solver.hpp"

namespace {
using namespace grainlab;

class ProjectedJacobi final : public ProjectedBlockSolver {
protected:
    double iterate(const ContactProblem& problem, Eigen::VectorXd& impulses) override {
        for (std::size_t i = 0; i < problem.contacts(); ++i) {
            const auto k = static_cast<Eigen::Index>(3 * i);
            impulses.segment<3>(k) = step(problem, i, impulses.segment<3>(k), d_.segment<3>(k));
        }
        problem.velocityChange(impulses, velocities_);
        contactVelocities(problem, velocities_, d_);
        return coneResidual(problem, impulses, d_);
    }
};

const GrainlabParameter kParameters[] = {
    GRAINLAB_CONTACT_DYNAMICS_PARAMETERS,
    GRAINLAB_PROJECTED_BLOCK_PARAMETERS(0.3),
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    static const GrainlabPluginDescriptor descriptor = {
        GRAINLAB_PLUGIN_ABI_VERSION, GRAINLAB_KIND_SOLVER, "ccp-jacobi", "1.0.0",
        "Projected Jacobi on the cone complementarity problem with the exact Coulomb-cone projection "
        "(Negrut, Serban, Tasora); all contacts updated from the same velocities.",
        kParameters, sizeof(kParameters) / sizeof(kParameters[0]),
        []() -> void* { return static_cast<Solver*>(new ProjectedJacobi()); },
        [](void* p) { delete static_cast<Solver*>(p); }};
    return &descriptor;
}
