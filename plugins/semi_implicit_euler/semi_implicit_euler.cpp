// Semi-implicit (symplectic) Euler: velocities from the current forces, then positions from the
// new velocities. First order, one force evaluation per step.
#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/kicks.hpp"
#include "grainlab/plugin/plugin_entry.hpp"

namespace {

class SemiImplicitEuler final : public grainlab::Integrator {
public:
    void configure(const grainlab::ParameterValues&) override {}
    // The forces of the new positions are evaluated at the end of the step, ready for the next.
    bool leavesForcesCurrent() const override { return true; }
    void step(grainlab::StepContext& ctx) override {
        ctx.compute_forces_around(grainlab::kickDrifts(ctx.bodies, ctx.dt, ctx.dt), {});
    }
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::Integrator, SemiImplicitEuler>(
        "semi-implicit-euler", "1.0.0",
        "Semi-implicit (symplectic) Euler: v from the current forces, then x from the new v. First order.");
}
