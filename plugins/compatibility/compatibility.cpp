// Compatibility post-step (Olsen and Kamrin): after a frictionless contact-dynamics step, replace the
// solver's (non-unique) normal impulses by the unique ones a penalty model of power-law contacts
// f = k c^(p-1) gives as its stiffness tends to infinity. The velocity update stays as it is:
//   minimise Psi(f) = sum ((p-1)/p) k_i^(1/(1-p)) f_i^(p/(p-1))  subject to  N (f - f_CD) = 0, f >= 0,
// restricted to the contacts active in the solver's solution (note, errata 4). N (f - f_CD) = 0 is the
// paper's B_N^T f = B_N^T f_CD (same velocity update on free bodies) written with the Delassus
// operator, so the engine's matrix-free products serve. Solved by an augmented Lagrangian around a
// bound-constrained accelerated projected gradient (augmented_lagrangian.hpp).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "augmented_lagrangian.hpp"
#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/plugin_entry.hpp"
#include "grainlab/plugin/post_step.hpp"

namespace {
using namespace grainlab;

class Compatibility final : public PostStep {
public:
    void configure(const ParameterValues& p) override {
        exponent_ = p.get("exponent");
        options_.tolerance = p.get("tolerance");
        options_.max_outer = static_cast<int>(p.get("max_outer_iterations"));
        options_.max_inner = static_cast<int>(p.get("max_inner_iterations"));
    }

    std::string unsupported(double max_friction) const override {
        if (max_friction <= 0.0) return {};
        std::ostringstream why;
        why << "the compatibility method treats frictionless contacts only: with friction the contact-dynamics "
               "velocity update is not unique, so the compatible (DEM-limit) forces it selects are not defined "
               "(Olsen and Kamrin). The largest pair friction coefficient here is "
            << max_friction << "; set \"friction\": 0 in every material";
        return why.str();
    }

    SolverReport apply(const ContactProblem& problem, Eigen::VectorXd& impulses, const SolverSettings&) override {
        const std::size_t nc = problem.contacts();
        SolverReport report;
        if (nc == 0) { report.converged = true; return report; }
        // The solver's normal impulses and which contacts are closed in its solution.
        Eigen::VectorXd d;
        problem.multiplyDelassus(impulses, d);
        d += problem.freeVelocity();
        const double closed = 1e-6 * problem.freeVelocity().cwiseAbs().maxCoeff();
        CompatibilityProblem q;
        q.first_stage.resize(static_cast<Eigen::Index>(nc));
        q.active.assign(nc, false);
        q.stiffness.assign(nc, 1.0);
        q.exponent = exponent_;
        double stiffest = 0.0;
        for (std::size_t i = 0; i < nc; ++i) {
            const double f = std::max(0.0, impulses[static_cast<Eigen::Index>(3 * i)]);
            q.first_stage[static_cast<Eigen::Index>(i)] = f;
            q.active[i] = f > 0.0 || d[static_cast<Eigen::Index>(3 * i)] <= closed;
            // Power-law prefactors from the materials: Hooke-type laws scale with E*, Hertz with E* sqrt(R*).
            const ContactElasticity e = problem.elasticity(i);
            q.stiffness[i] = exponent_ == 2.0 ? e.effective_youngs : e.effective_youngs * std::sqrt(e.effective_radius);
            if (q.active[i]) stiffest = std::max(stiffest, q.stiffness[i]);
        }
        // Normalised so the largest is 1 (note, errata 9): the minimiser does not depend on the scale.
        for (double& k : q.stiffness) k = stiffest > 0.0 ? k / stiffest : 1.0;
        q.multiply = [&problem, nc](const Eigen::VectorXd& normal, Eigen::VectorXd& out) {
            Eigen::VectorXd full = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(3 * nc)), product;
            for (std::size_t i = 0; i < nc; ++i) full[static_cast<Eigen::Index>(3 * i)] = normal[static_cast<Eigen::Index>(i)];
            problem.multiplyDelassus(full, product);
            out.resize(static_cast<Eigen::Index>(nc));
            for (std::size_t i = 0; i < nc; ++i) out[static_cast<Eigen::Index>(i)] = product[static_cast<Eigen::Index>(3 * i)];
        };
        Eigen::VectorXd f;
        report = solveCompatibility(q, options_, f);
        for (std::size_t i = 0; i < nc; ++i) {
            const auto k = static_cast<Eigen::Index>(3 * i);
            impulses[k] = f[static_cast<Eigen::Index>(i)];
            impulses.segment<2>(k + 1).setZero();
        }
        return report;
    }

private:
    double exponent_ = 2.0;
    AugmentedLagrangianOptions options_;
};

const GrainlabParameter kParameters[] = {
    {"exponent", "", GRAINLAB_PARAM_REAL, 2.0, 1.5, 4.0,
     "power-law exponent p of the contact energy k c^p / p: 2 Hooke, 2.5 Hertz"},
    {"tolerance", "", GRAINLAB_PARAM_REAL, 1e-9, 1e-15, 1e-2,
     "relative tolerance on the velocity mismatch and the projected gradient"},
    {"max_outer_iterations", "", GRAINLAB_PARAM_INTEGER, 60, 1, 1e6, "augmented-Lagrangian updates"},
    {"max_inner_iterations", "", GRAINLAB_PARAM_INTEGER, 5000, 1, 1e9,
     "accelerated projected-gradient iterations per bound-constrained subproblem"},
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::PostStep, Compatibility>(
        "compatibility", "1.0.0",
        "Olsen and Kamrin's compatibility post-step: replaces the non-unique frictionless contact-dynamics forces "
        "by the unique DEM-limit ones of power-law contacts (Hooke p = 2 as a QP, Hertz p = 5/2), relative "
        "stiffness from the materials; the motion is unchanged. Frictionless scenes only.", kParameters);
}
