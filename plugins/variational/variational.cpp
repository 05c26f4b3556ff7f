// The implicit variational integrator of De Klerk et al. ("A Variational Integrator for the Discrete
// Element Method"): forced discrete Euler-Lagrange equations of a discrete Lagrangian with parameter
// alpha, solved for the new configuration by Newton's method with conjugate gradients.
#include <algorithm>
#include <sstream>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/plugin_entry.hpp"
#include "variational_step.hpp"

namespace {
using namespace grainlab;

class Variational final : public Integrator {
public:
    void configure(const ParameterValues& p) override {
        settings_.alpha = p.get("alpha");
        settings_.newton_tolerance = p.get("newton_tolerance");
        settings_.cg_tolerance = p.get("cg_tolerance");
        settings_.max_newton = static_cast<int>(p.get("max_newton"));
        settings_.max_cg = static_cast<int>(p.get("max_cg"));
        settings_.line_search = p.flag("line_search");
    }
    bool leavesForcesCurrent() const override { return true; }
    bool needsFrozenContacts() const override { return true; }

    std::optional<IntegratorRefusal> refuse(const ContactModel& model, const MaterialPairTable& materials) const override {
        if (!model.isLinearSpringDashpot())
            return IntegratorRefusal{"/plugins/contact_model/name",
                                     "it builds its Jacobian from a linear spring-dashpot law and cannot differentiate "
                                     "this one; use the 'hooke' contact model with kt = 0"};
        for (const PairProperties& pair : materials.table) {
            const LinearSpringDashpot law = model.linearCoefficients(pair);
            if (law.kt != 0.0) {
                std::ostringstream message;
                message << "the tangential spring (kt = " << law.kt
                        << ") carries history the variational integrator does not model; set kt to 0 "
                           "(the tangential dashpot gamma_t stays)";
                return IntegratorRefusal{"/plugins/contact_model/parameters/kt", message.str()};
            }
        }
        return std::nullopt;
    }

    void step(StepContext& ctx) override {
        const variational::StepReport report = solver_.run(ctx, settings_);
        ctx.compute_forces();  // forces, energies and contact records of the new state, for output
        last_ = report;
        ++steps_;
        newton_total_ += report.newton_iterations;
        cg_total_ += report.cg_iterations;
        newton_max_ = std::max(newton_max_, report.newton_iterations);
        cg_max_ = std::max(cg_max_, report.cg_iterations);
        not_converged_ += report.converged ? 0 : 1;
        backtracks_ += report.backtracks;
        locked_ += report.locked ? 1 : 0;
        coulomb_exceeded_ += report.coulomb_exceeded;
    }

    std::vector<IntegratorStatistic> statistics() const override {
        const double steps = std::max<long>(steps_, 1);
        return {
            {"newton_iterations_last_step", double(last_.newton_iterations), "Newton iterations (linear solves) of the last step"},
            {"cg_iterations_last_step", double(last_.cg_iterations), "CG iterations of the last step, all solves"},
            {"newton_iterations_per_step_mean", double(newton_total_) / steps, "Newton iterations per step, mean"},
            {"newton_iterations_per_step_max", double(newton_max_), "Newton iterations per step, largest"},
            {"cg_iterations_per_step_mean", double(cg_total_) / steps, "CG iterations per step, mean"},
            {"cg_iterations_per_step_max", double(cg_max_), "CG iterations per step, largest"},
            {"steps_not_converged", double(not_converged_), "steps that hit max_newton before the tolerance"},
            {"steps_with_locked_contacts", double(locked_),
             "steps whose contact springs' on/off states were locked after 4 Newton iterations to converge"},
            {"line_search_halvings", double(backtracks_), "halvings of Newton updates by the line search"},
            {"coulomb_limit_exceeded", double(coulomb_exceeded_),
             "contact-steps where the viscous tangential force exceeded friction |F_n| (no Coulomb cap is applied)"},
        };
    }

private:
    variational::Settings settings_;
    variational::VariationalStep solver_;
    variational::StepReport last_;
    long steps_ = 0, newton_total_ = 0, cg_total_ = 0, cg_max_ = 0, not_converged_ = 0, backtracks_ = 0, locked_ = 0;
    int newton_max_ = 0;
    std::size_t coulomb_exceeded_ = 0;
};

const GrainlabParameter kParameters[] = {
    {"alpha", "", GRAINLAB_PARAM_REAL, 0.5, 0.0, 1.0,
     "where the discrete Lagrangian samples the potential: 0 first order (Stoermer-Verlet without damping), 1/2 "
     "midpoint, second order"},
    {"newton_tolerance", "", GRAINLAB_PARAM_REAL, 1e-10, 1e-16, 1e-2,
     "Newton stops when |R|_inf is below this times the step's momentum scale, or the update below this times the "
     "displacement"},
    {"cg_tolerance", "", GRAINLAB_PARAM_REAL, 1e-10, 1e-16, 1e-2, "relative residual of each conjugate-gradient solve"},
    {"max_newton", "", GRAINLAB_PARAM_INTEGER, 20, 1, 1000, "Newton iterations per step at most"},
    {"max_cg", "", GRAINLAB_PARAM_INTEGER, 1000, 1, 1e6, "conjugate-gradient iterations per solve at most"},
    {"line_search", "", GRAINLAB_PARAM_BOOLEAN, 1, 0, 1,
     "halve a Newton update while it increases the residual"},
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::Integrator, Variational>(
        "variational", "1.0.0",
        "Implicit variational integrator of De Klerk et al.: forced discrete Euler-Lagrange equations (alpha = 1/2 "
        "midpoint, second order; 0 first order), Newton with conjugate gradients on the new configuration, contact "
        "set frozen per step from the Verlet list. Supports spheres (translation and rotation), the 'hooke' contact "
        "model with kt = 0 (normal spring, normal and tangential dashpots; no Coulomb cap: exceedances are "
        "counted), gravity, plane and mesh walls (tangent plane frozen per step), periodic boxes. Reports Newton "
        "and CG iterations per step.", kParameters);
}
