#pragma once
// Integrator plugin interface. An integrator owns the order of a step: it moves bodies and asks the
// engine for forces at the configuration it needs (once for explicit schemes, repeatedly for
// implicit ones).
#include <functional>

#include "grainlab/plugin/parameters.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

struct StepContext {
    Bodies& bodies;
    double dt = 0.0;
    int threads = 1;
    // Recomputes bodies.force and bodies.torque (contacts, walls, gravity) at the current positions.
    std::function<void()> compute_forces;
};

class Integrator {
public:
    virtual ~Integrator() = default;
    virtual void configure(const ParameterValues& values) = 0;
    // Advances bodies by ctx.dt. Frozen bodies (inv_mass == 0) stay where they are.
    virtual void step(StepContext& ctx) = 0;
    // On entry bodies.force and bodies.torque belong to the current positions. True when they
    // still do on return (the engine then skips recomputing them before the next step).
    virtual bool leavesForcesCurrent() const = 0;
};

// Exact rotation of an orientation by angular velocity w (world frame) over dt.
inline Quat rotated(const Quat& q, const Vec3& w, double dt) {
    const double angle = w.norm() * dt;
    if (angle == 0.0) return q;
    return (Quat(Eigen::AngleAxisd(angle, w.normalized())) * q).normalized();
}

}  // namespace grainlab
