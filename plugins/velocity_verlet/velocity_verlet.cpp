// Velocity Verlet (kick-drift-kick): second order, symplectic for conservative forces; the same
// update as LAMMPS fix nve/sphere for spheres.
#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/kicks.hpp"
#include "grainlab/plugin/plugin_entry.hpp"

namespace {

class VelocityVerlet final : public grainlab::Integrator {
public:
    void configure(const grainlab::ParameterValues&) override {}
    bool leavesForcesCurrent() const override { return true; }
    void step(grainlab::StepContext& ctx) override {
        ctx.compute_forces_around(grainlab::kickDrifts(ctx.bodies, 0.5 * ctx.dt, ctx.dt),
                                  grainlab::kicks(ctx.bodies, 0.5 * ctx.dt));
    }
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::Integrator, VelocityVerlet>(
        "velocity-verlet", "1.0.0",
        "Velocity Verlet (kick-drift-kick), second order and symplectic; the update of LAMMPS nve/sphere. "
        "One force evaluation per step.");
}
