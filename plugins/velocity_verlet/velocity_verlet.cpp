// Velocity Verlet (kick-drift-kick): second order, symplectic for conservative forces; the same
// update as LAMMPS fix nve/sphere for spheres.
#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/kicks.hpp"

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
    static const GrainlabPluginDescriptor descriptor = {
        GRAINLAB_PLUGIN_ABI_VERSION, GRAINLAB_KIND_INTEGRATOR, "velocity-verlet", "1.0.0",
        "Velocity Verlet (kick-drift-kick), second order and symplectic; the update of LAMMPS nve/sphere. "
        "One force evaluation per step.",
        nullptr, 0,
        []() -> void* { return static_cast<grainlab::Integrator*>(new VelocityVerlet()); },
        [](void* p) { delete static_cast<grainlab::Integrator*>(p); }};
    return &descriptor;
}
