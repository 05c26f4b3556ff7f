// Hooke spring-dashpot with tangential history and Coulomb friction: the law and the damping
// convention of LAMMPS pair gran/hooke/history (normal damping force m_eff gamma_n v_n).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/contact_law.hpp"
#include "grainlab/plugin/contact_model.hpp"
#include "grainlab/plugin/plugin_entry.hpp"
#include "grainlab/plugin/tangential_spring.hpp"

namespace {
using namespace grainlab;

struct HookeLaw {
    double kn, kt, gamma_n, gamma_t;
    void lanes(ContactLanes& L, std::size_t n) const {
        double friction[ContactLanes::kCapacity];
        for (std::size_t c = 0; c < n; ++c) friction[c] = L.properties[c]->friction;
        for (std::size_t c = 0; c < n; ++c) {
            const double vn = L.vx[c] * L.nx[c] + L.vy[c] * L.ny[c] + L.vz[c] * L.nz[c];
            const double damping = L.effective_mass[c] * gamma_n * vn;
            const double normal_force = kn * L.overlap[c] - damping;
            L.fx[c] = normal_force * L.nx[c];
            L.fy[c] = normal_force * L.ny[c];
            L.fz[c] = normal_force * L.nz[c];
            L.tx[c] = L.ty[c] = L.tz[c] = 0.0;
            L.elastic_energy[c] = 0.5 * kn * L.overlap[c] * L.overlap[c];
            L.dissipated[c] = damping * vn * L.dt;
            tangentialSpring(L, c, normal_force, kt, L.effective_mass[c] * gamma_t, friction[c]);
        }
    }
};

class Hooke final : public ContactModel {
public:
    void configure(const ParameterValues& p) override { readSpringConstants(p, law_); }
    std::size_t historySize() const override { return 3; }
    bool swapsHistoryRoles() const override { return true; }
    void swapHistoryRoles(double* history) const override { reverseTangentialHistory(history); }
    bool isLinearSpringDashpot() const override { return true; }
    LinearSpringDashpot linearCoefficients(const PairProperties& pair) const override {
        return {law_.kn, law_.kt, law_.gamma_n, law_.gamma_t, pair.friction};
    }
    void computeForces(ForceContext& ctx) override { applyContactLaw(ctx, law_); }
    bool sweepsInPairLoop() const override { return true; }
    TimeStepLimit timeStepLimit(const StabilityInput& in, const MaterialPairTable&) const override {
        // Undamped contact time of the lightest pair; explicit schemes need ~10 steps per contact.
        const double meff = 0.5 * in.min_mass;
        const double contact_time = kPi * std::sqrt(meff / law_.kn);
        std::ostringstream how;
        how << "t_c/10 with contact time t_c = pi sqrt(m_eff/kn) = " << contact_time
            << " for the lightest pair, m_eff = " << meff << ", kn = " << law_.kn;
        return {contact_time / 10.0, contact_time / 50.0, how.str()};
    }

private:
    HookeLaw law_{};
};

const GrainlabParameter kParameters[] = {
    {"kn", "force/length", GRAINLAB_PARAM_REAL, 2e5, 1e-12, 1e30, "normal spring stiffness"},
    {"kt", "force/length", GRAINLAB_PARAM_REAL, -1, -1, 1e30, "tangential spring stiffness; -1: 2/7 kn (LAMMPS NULL)"},
    {"gamma_n", "1/time", GRAINLAB_PARAM_REAL, 50, 0, 1e30,
     "normal damping rate: damping force m_eff gamma_n v_n"},
    {"gamma_t", "1/time", GRAINLAB_PARAM_REAL, 0, -1, 1e30,
     "tangential damping rate; -1: gamma_n/2 (LAMMPS NULL with dampflag 1)"},
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::ContactModel, Hooke>(
        "hooke", "1.0.0",
        "Linear spring-dashpot with tangential history and Coulomb friction (friction from the materials); "
        "the law and damping convention of LAMMPS pair gran/hooke/history.", kParameters);
}
