// Hertz-Mindlin: Hertz normal force, Mindlin tangential stiffness with history and a Coulomb limit,
// viscous damping from the coefficient of restitution (Tsuji et al. form as used by EDEM and
// LIGGGHTS), optional constant-torque rolling resistance. With kn > 0 it becomes LAMMPS's
// gran/hertz/history law instead (stiffness and damping given, scaled by sqrt(overlap R*)).
#include <cmath>
#include <sstream>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/contact_model.hpp"
#include "grainlab/plugin/tangential_spring.hpp"

namespace {
using namespace grainlab;

struct HertzMindlinLaw {
    bool rolling = false;
    // LAMMPS gran/hertz/history mode when kn > 0.
    double kn = 0, kt = 0, gamma_n = 0, gamma_t = 0;

    void operator()(const ContactKinematics& kin, double* history, ContactOutput& out) const {
        const PairProperties& p = *kin.properties;
        const double root = std::sqrt(kin.overlap * kin.effective_radius);
        const double vn = kin.relative_velocity.dot(kin.normal);
        double elastic, damping_coefficient, tangential_stiffness, tangential_damping, normal_energy;
        if (kn > 0.0) {
            elastic = kn * kin.overlap * root;
            damping_coefficient = kin.effective_mass * gamma_n * root;
            tangential_stiffness = kt * root;
            tangential_damping = kin.effective_mass * gamma_t * root;
            normal_energy = 0.4 * elastic * kin.overlap;
        } else {
            const double normal_stiffness = 2.0 * p.effective_youngs * root;  // S_n = dF_n/d(overlap)
            tangential_stiffness = 8.0 * p.effective_shear * root;
            elastic = 4.0 / 3.0 * p.effective_youngs * root * kin.overlap;
            const double log_e = std::log(p.restitution);
            const double beta = -log_e / std::sqrt(log_e * log_e + kPi * kPi);
            damping_coefficient = 2.0 * std::sqrt(5.0 / 6.0) * beta * std::sqrt(normal_stiffness * kin.effective_mass);
            tangential_damping = 2.0 * std::sqrt(5.0 / 6.0) * beta * std::sqrt(tangential_stiffness * kin.effective_mass);
            normal_energy = 0.4 * elastic * kin.overlap;  // integral of F_n: 8/15 E* sqrt(R*) overlap^(5/2)
        }
        const double normal_force = elastic - damping_coefficient * vn;
        const TangentialResult t = tangentialSpring(kin, normal_force, tangential_stiffness, tangential_damping, history);
        out.force = normal_force * kin.normal + t.force;
        out.elastic_energy = normal_energy + t.elastic_energy;
        out.dissipated = damping_coefficient * vn * vn * kin.dt + t.dissipated;
        if (rolling && p.rolling_friction > 0.0) {
            // Constant torque opposing relative rolling: mu_r R* |F_n|.
            const double spin = kin.relative_omega.norm();
            if (spin > 0.0) {
                const double torque = p.rolling_friction * kin.effective_radius * std::abs(normal_force);
                out.torque = -torque * kin.relative_omega / spin;
                out.dissipated += torque * spin * kin.dt;
            }
        }
    }
};

class HertzMindlin final : public ContactModel {
public:
    void configure(const ParameterValues& p) override {
        law_.rolling = p.flag("rolling_resistance");
        law_.kn = p.get("kn");
        law_.kt = p.get("kt") < 0.0 ? 2.0 / 7.0 * law_.kn : p.get("kt");
        law_.gamma_n = p.get("gamma_n");
        law_.gamma_t = p.get("gamma_t") < 0.0 ? 0.5 * law_.gamma_n : p.get("gamma_t");
    }
    std::size_t historySize() const override { return 3; }
    bool swapsHistoryRoles() const override { return true; }
    void swapHistoryRoles(double* history) const override { reverseTangentialHistory(history); }
    void computeForces(ForceContext& ctx) override { applyContactLaw(ctx, law_); }
    TimeStepLimit timeStepLimit(const StabilityInput& in, const MaterialPairTable&) const override {
        std::ostringstream how;
        if (law_.kn > 0.0) {
            // Stiffness at an overlap of 1% of the smallest radius.
            const double meff = 0.5 * in.min_mass;
            const double stiffness = 1.5 * law_.kn * std::sqrt(0.01 * in.min_radius * 0.5 * in.min_radius);
            const double contact_time = kPi * std::sqrt(meff / stiffness);
            how << "t_c/10, t_c = pi sqrt(m_eff/k) with the Hertz stiffness k = " << stiffness
                << " at 1% overlap of the smallest radius";
            return {contact_time / 10.0, contact_time / 50.0, how.str()};
        }
        // Rayleigh wave time across the smallest sphere.
        const double nu = in.poisson_at_max_youngs;
        const double rayleigh = kPi * in.min_radius * std::sqrt(in.min_density / in.max_shear_modulus) / (0.1631 * nu + 0.8766);
        how << "the Rayleigh time pi r_min sqrt(rho/G) / (0.1631 nu + 0.8766) = " << rayleigh
            << " for the smallest sphere and the stiffest material";
        return {rayleigh, 0.2 * rayleigh, how.str()};
    }

private:
    HertzMindlinLaw law_{};
};

const GrainlabParameter kParameters[] = {
    {"rolling_resistance", "", GRAINLAB_PARAM_BOOLEAN, 0, 0, 1,
     "constant rolling-resistance torque mu_r R* |F_n| (mu_r from the materials)"},
    {"kn", "force/length^1.5", GRAINLAB_PARAM_REAL, 0, 0, 1e30,
     "0: stiffness from Young's modulus and Poisson ratio; > 0: LAMMPS gran/hertz/history with this kn"},
    {"kt", "force/length^1.5", GRAINLAB_PARAM_REAL, -1, -1, 1e30, "with kn > 0: tangential stiffness; -1: 2/7 kn"},
    {"gamma_n", "1/(time length^0.5)", GRAINLAB_PARAM_REAL, 0, 0, 1e30, "with kn > 0: normal damping"},
    {"gamma_t", "1/(time length^0.5)", GRAINLAB_PARAM_REAL, 0, -1, 1e30, "with kn > 0: tangential damping; -1: gamma_n/2"},
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    static const GrainlabPluginDescriptor descriptor = {
        GRAINLAB_PLUGIN_ABI_VERSION, GRAINLAB_KIND_CONTACT_MODEL, "hertz-mindlin", "1.0.0",
        "Hertz normal and Mindlin tangential contact with history, damping from the coefficient of restitution, "
        "Coulomb limit and optional rolling resistance; all from the materials. kn > 0 switches to LAMMPS "
        "gran/hertz/history.",
        kParameters, sizeof(kParameters) / sizeof(kParameters[0]),
        []() -> void* { return static_cast<ContactModel*>(new HertzMindlin()); },
        [](void* p) { delete static_cast<ContactModel*>(p); }};
    return &descriptor;
}
