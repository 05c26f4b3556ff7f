// Nonlinear block Gauss-Seidel whose block solver is the analytic maximum-dissipation single-contact
// solver (Preclik, Eibl, Ruede, Algorithm 2), with a weighted block-Jacobi option. Per contact, the
// other contacts' impulses are frozen: b = A_jj l_j - d_j with d_j the current contact velocity.
// The residual is the block fixed-point change, scaled like the cone residual (cone.hpp):
// sqrt(sum ||(l_new - l)/eta||^2) / ||p||, zero exactly at a fixed point of the sweep.
#include <cmath>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/cone.hpp"
#include "grainlab/plugin/plugin_entry.hpp"
#include "grainlab/plugin/solver.hpp"
#include "max_dissipation.hpp"

namespace {
using namespace grainlab;

class MaxDissipationBlockSolver final : public IterativeSolver {
public:
    void configure(const ParameterValues& p) override {
        jacobi_ = p.flag("jacobi");
        weight_ = p.get("jacobi_weight");
    }

protected:
    void begin(const ContactProblem& problem, const Eigen::VectorXd& impulses) override {
        problem.velocityChange(impulses, velocities_);
        blocks_.resize(problem.contacts());
        eta_.resize(problem.contacts());
        for (std::size_t i = 0; i < problem.contacts(); ++i) {
            blocks_[i] = problem.diagonalBlock(i);
            eta_[i] = coneStepSize(problem, i);
        }
    }

    double iterate(const ContactProblem& problem, Eigen::VectorXd& impulses) override {
        const Eigen::VectorXd& p = problem.freeVelocity();
        double change = 0.0;
        next_.resize(impulses.size());
        for (std::size_t i = 0; i < problem.contacts(); ++i) {
            const auto k = static_cast<Eigen::Index>(3 * i);
            if (eta_[i] <= 0.0) { next_.segment<3>(k).setZero(); continue; }
            const Eigen::Vector3d l = impulses.segment<3>(k);
            const Eigen::Vector3d d = problem.contactVelocity(i, velocities_) + p.segment<3>(k);
            const Eigen::Vector3d solved = maxdiss::solveContact(blocks_[i], blocks_[i] * l - d, problem.friction(i));
            change += ((solved - l) / eta_[i]).squaredNorm();
            if (jacobi_) {
                next_.segment<3>(k) = l + weight_ * (solved - l);
            } else {
                problem.addImpulse(i, solved - l, velocities_);
                impulses.segment<3>(k) = solved;
            }
        }
        if (jacobi_) {
            impulses = next_;
            problem.velocityChange(impulses, velocities_);
        }
        return std::sqrt(change) / std::max(p.norm(), 1e-300);
    }

private:
    bool jacobi_ = false;
    double weight_ = 0.5;
    Eigen::VectorXd velocities_, next_;
    std::vector<Eigen::Matrix3d> blocks_;
    std::vector<double> eta_;
};

const GrainlabParameter kParameters[] = {
    GRAINLAB_CONTACT_DYNAMICS_PARAMETERS,
    {"jacobi", "", GRAINLAB_PARAM_BOOLEAN, 0, 0, 1,
     "weighted block Jacobi: all contacts solved from the same velocities, then blended"},
    {"jacobi_weight", "", GRAINLAB_PARAM_REAL, 0.5, 1e-6, 1, "weight of the new block impulse in Jacobi mode"},
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::Solver, MaxDissipationBlockSolver>(
        "nbgs-maxdiss", "1.0.0",
        "Nonlinear block Gauss-Seidel (or weighted Jacobi) with the analytic maximum-dissipation single-contact "
        "solver (Preclik, Eibl, Ruede): Coulomb friction without the CCP relaxation, purely inelastic.", kParameters);
}
