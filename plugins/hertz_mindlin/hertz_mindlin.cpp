// Hertz-Mindlin: Hertz normal force, Mindlin tangential stiffness with history and a Coulomb limit,
// viscous damping from the coefficient of restitution (Tsuji et al. form as used by EDEM and
// LIGGGHTS), optional constant-torque rolling resistance. With kn > 0 it becomes LAMMPS's
// gran/hertz/history law instead (stiffness and damping given, scaled by sqrt(overlap R*)).
#include <cmath>
#include <sstream>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/contact_law.hpp"
#include "grainlab/plugin/contact_model.hpp"
#include "grainlab/plugin/plugin_entry.hpp"
#include "grainlab/plugin/tangential_spring.hpp"

namespace {
using namespace grainlab;

struct HertzMindlinLaw {
    bool rolling = false;
    // LAMMPS gran/hertz/history mode when kn > 0.
    double kn = 0, kt = 0, gamma_n = 0, gamma_t = 0;

    void lanes(ContactLanes& L, std::size_t n) const {
        constexpr std::size_t K = ContactLanes::kCapacity;
        // The pairs' properties as columns; LAMMPS's law takes only the friction columns. The damping
        // ratio of the restitution (Tsuji) takes a logarithm: worked out once per run of lanes with
        // the same pair of materials.
        double friction[K], youngs[K], shear[K], beta[K], rolling_friction[K];
        const bool lammps = kn > 0.0;
        const PairProperties* last = nullptr;
        double last_beta = 0.0;
        for (std::size_t c = 0; c < n; ++c) {
            const PairProperties& p = *L.properties[c];
            friction[c] = p.friction;
            rolling_friction[c] = p.rolling_friction;
            if (lammps) continue;
            youngs[c] = p.effective_youngs;
            shear[c] = p.effective_shear;
            if (&p != last) {
                const double log_e = std::log(p.restitution);
                last_beta = -log_e / std::sqrt(log_e * log_e + kPi * kPi);
                last = &p;
            }
            beta[c] = last_beta;
        }
        // One loop per mode, so that each computes only its own square roots.
        auto each = [&]<bool kLammps, bool kRolling>() {
            for (std::size_t c = 0; c < n; ++c) {
                const double overlap = L.overlap[c], meff = L.effective_mass[c];
                const double root = std::sqrt(overlap * L.effective_radius[c]);
                const double vn = L.vx[c] * L.nx[c] + L.vy[c] * L.ny[c] + L.vz[c] * L.nz[c];
                double elastic, damping_coefficient, tangential_stiffness, tangential_damping;
                if constexpr (kLammps) {
                    // LAMMPS: stiffness and damping given, scaled by sqrt(overlap R*).
                    elastic = kn * overlap * root;
                    damping_coefficient = meff * gamma_n * root;
                    tangential_stiffness = kt * root;
                    tangential_damping = meff * gamma_t * root;
                } else {
                    // From the materials: S_n = dF_n/d(overlap) = 2 E* root, damping from the restitution.
                    const double normal_stiffness = 2.0 * youngs[c] * root;
                    const double tsuji = 2.0 * std::sqrt(5.0 / 6.0) * beta[c];
                    tangential_stiffness = 8.0 * shear[c] * root;
                    elastic = 4.0 / 3.0 * youngs[c] * root * overlap;
                    damping_coefficient = tsuji * std::sqrt(normal_stiffness * meff);
                    tangential_damping = tsuji * std::sqrt(tangential_stiffness * meff);
                }
                const double normal_force = elastic - damping_coefficient * vn;
                L.fx[c] = normal_force * L.nx[c];
                L.fy[c] = normal_force * L.ny[c];
                L.fz[c] = normal_force * L.nz[c];
                // Integral of F_n: 8/15 E* sqrt(R*) overlap^(5/2) (2/5 of F_n overlap in both modes).
                L.elastic_energy[c] = 0.4 * elastic * overlap;
                L.dissipated[c] = damping_coefficient * vn * vn * L.dt;
                L.tx[c] = L.ty[c] = L.tz[c] = 0.0;
                if constexpr (kRolling) {
                    // Constant torque opposing relative rolling: mu_r R* |F_n|.
                    const double spin = std::sqrt(L.wx[c] * L.wx[c] + L.wy[c] * L.wy[c] + L.wz[c] * L.wz[c]);
                    const double torque = rolling_friction[c] * L.effective_radius[c] * std::abs(normal_force);
                    const bool rolls = (rolling_friction[c] > 0.0) & (spin > 0.0);
                    const double per_spin = rolls ? torque / spin : 0.0;
                    L.tx[c] = -per_spin * L.wx[c];
                    L.ty[c] = -per_spin * L.wy[c];
                    L.tz[c] = -per_spin * L.wz[c];
                    L.dissipated[c] += rolls ? torque * spin * L.dt : 0.0;
                }
                tangentialSpring(L, c, normal_force, tangential_stiffness, tangential_damping, friction[c]);
            }
        };
        if (lammps) {
            rolling ? each.template operator()<true, true>() : each.template operator()<true, false>();
        } else {
            rolling ? each.template operator()<false, true>() : each.template operator()<false, false>();
        }
    }
};

class HertzMindlin final : public ContactModel {
public:
    void configure(const ParameterValues& p) override {
        law_.rolling = p.flag("rolling_resistance");
        readSpringConstants(p, law_);
    }
    std::size_t historySize() const override { return 3; }
    bool swapsHistoryRoles() const override { return true; }
    void swapHistoryRoles(double* history) const override { reverseTangentialHistory(history); }
    void computeForces(ForceContext& ctx) override { applyContactLaw(ctx, law_); }
    bool sweepsInPairLoop() const override { return true; }
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
    return grainlab::pluginDescriptor<grainlab::ContactModel, HertzMindlin>(
        "hertz-mindlin", "1.0.0",
        "Hertz normal and Mindlin tangential contact with history, damping from the coefficient of restitution, "
        "Coulomb limit and optional rolling resistance; all from the materials. kn > 0 switches to LAMMPS "
        "gran/hertz/history.", kParameters);
}
