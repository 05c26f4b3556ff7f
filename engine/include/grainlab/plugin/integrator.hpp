#pragma once
// Integrator plugin interface. An integrator owns the order of a step: it moves bodies and asks the
// engine for forces at the configuration it needs (once for explicit schemes, repeatedly for
// implicit ones).
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "grainlab/plugin/contact_model.hpp"
#include "grainlab/plugin/integrator_statistics.hpp"
#include "grainlab/plugin/parameters.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

// The contacts an implicit integrator may see during one step, frozen at its start (read-only):
// the Verlet list's candidate pairs (within r_i + r_j + skin) and the walls within `wall_margin` of
// each free body (WallContact::overlap is negative for a wall not yet touched; point and normal give
// the wall's tangent plane, wall_velocity its motion).
struct FrozenContacts {
    const NeighborList& pairs;
    const std::vector<WallContact>& walls;
    const PeriodicBox& box;
    const MaterialPairTable& materials;
    const ContactModel& model;
    Vec3 gravity = Vec3::Zero();
    double wall_margin = 0.0;
};

// An update of the bodies [begin, end), one body at a time (a thread's share of them or a part).
using BodyRangeUpdate = std::function<void(std::size_t begin, std::size_t end)>;

struct StepContext {
    Bodies& bodies;
    double dt = 0.0;
    int threads = 1;
    // Recomputes bodies.force and bodies.torque (contacts, walls, gravity) at the current positions.
    std::function<void()> compute_forces;
    // Set only for integrators whose needsFrozenContacts() is true.
    const FrozenContacts* contacts = nullptr;
    // For explicit schemes, the last call of a step: `before` on every body, compute_forces, then
    // `after` on every body (either may be empty), with the two updates run inside the evaluation's
    // own passes over the bodies. Every parallel region wakes the sleeping threads (about 85 us on
    // a 2-core VM); velocity Verlet's step had six, and has three this way (the sweep before the
    // forces, the contact model's, the reduction after). The engine checks the bodies' motion in
    // the `after` pass, so nothing may change them after this call. Between steps that nothing
    // observes (Simulation::step(true)) the engine runs a block's `after` just before the next
    // step's `before` on it, in that step's sweep: a step that calls this may read or change no
    // body before the call.
    std::function<void(const BodyRangeUpdate& before, const BodyRangeUpdate& after)> compute_forces_around;
};

// Why an integrator cannot run with a scene's contact model: the scene field at fault and the reason.
struct IntegratorRefusal {
    std::string field;    // e.g. "/plugins/contact_model/name"
    std::string message;
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
    // Implicit integrators that build their own Jacobian ask for the step's contact set.
    virtual bool needsFrozenContacts() const { return false; }
    // Checked when the scene is loaded and when either plugin is swapped.
    virtual std::optional<IntegratorRefusal> refuse(const ContactModel&, const MaterialPairTable&) const {
        return std::nullopt;
    }
    // Counters the integrator keeps (iterations per step etc.), for the CLI summary and the GUI.
    virtual std::vector<IntegratorStatistic> statistics() const { return {}; }
};

// Exact rotation of an orientation by angular velocity w (world frame) over dt: the quaternion
// (cos x, sin(x) w/|w|) with x = |w| dt / 2. Steps turn bodies by small angles, where the Taylor
// series of cos x and sin(x)/x are exact to round-off and cost a fraction of sincos and the axis
// normalisation: to x^8 for x^2 < 1e-3 (the next terms below 1e-19), and to x^4 for x^2 < 1e-5
// (below 1.4e-18), which halves the chain of dependent operations in a typical step.
inline Quat rotated(const Quat& q, const Vec3& w, double dt) {
    const double w2 = w.squaredNorm();
    if (w2 == 0.0 || dt == 0.0) return q;
    const double x2 = 0.25 * w2 * dt * dt;
    double c, s;  // cos x and sin(x) / |w|
    if (x2 < 1e-5) {
        c = 1.0 - 0.5 * x2 * (1.0 - x2 * (1.0 / 12));
        s = 0.5 * dt * (1.0 - x2 * (1.0 / 6) * (1.0 - x2 * (1.0 / 20)));
    } else if (x2 < 1e-3) {
        // Reciprocal constants: a division per term cost more than the rest of a body's update.
        c = 1.0 - 0.5 * x2 * (1.0 - x2 * (1.0 / 12) * (1.0 - x2 * (1.0 / 30) * (1.0 - x2 * (1.0 / 56))));
        s = 0.5 * dt * (1.0 - x2 * (1.0 / 6) * (1.0 - x2 * (1.0 / 20) * (1.0 - x2 * (1.0 / 42) * (1.0 - x2 * (1.0 / 72)))));
    } else {
        const double speed = std::sqrt(w2);
        const double x = 0.5 * speed * dt;
        c = std::cos(x);
        s = std::sin(x) / speed;
    }
    const Quat turned = Quat(c, s * w.x(), s * w.y(), s * w.z()) * q;
    // Renormalised against round-off. The norm squared is 1 + e with e of order 1e-16, where one
    // Newton step for 1/sqrt, (3 - n2) / 2, is exact to round-off and spares a square root and a
    // division per body per step; a far-off norm (a user's unnormalised input) takes the exact path.
    const double n2 = turned.coeffs().squaredNorm();
    const double scale = std::abs(n2 - 1.0) < 1e-8 ? 1.5 - 0.5 * n2 : 1.0 / std::sqrt(n2);
    return Quat(turned.coeffs() * scale);
}

// Body i turned by angular velocity w over dt, unless it keeps its orientation (a sphere whose
// scene does not track it): the one place every integrator turns bodies.
inline void turnBody(Bodies& b, std::size_t i, const Vec3& w, double dt) {
    if (!b.keepsOrientation(i)) b.orientation[i] = rotated(b.orientation[i], w, dt);
}

}  // namespace grainlab
