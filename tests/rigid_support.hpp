#pragma once
// Shared set-up for the contact-dynamics tests: solvers from the built plugins, and a box whose
// contacts with the plane z = 0 are its corners below the envelope (a hand-made, shape-agnostic
// narrow phase feeding the engine's assembly).
#include <array>
#include <string>
#include <vector>

#include "grainlab/sim/contact_dynamics.hpp"
#include "support.hpp"

namespace grainlab::test {

inline const std::vector<std::string>& ccpSolvers() {
    static const std::vector<std::string> names{"ccp-pgs", "ccp-jacobi", "ccp-apgd"};
    return names;
}

inline PluginInstance<Solver> solver(const std::string& name, std::map<std::string, double> parameters = {}) {
    return builtPlugins().createSolver(PluginChoice{name, std::move(parameters)});
}

inline ContactDynamicsSettings tightSettings(double envelope = 0.01) {
    ContactDynamicsSettings s;
    s.envelope = envelope;
    s.solver.max_iterations = 20000;
    s.solver.tolerance = 1e-11;
    return s;
}

// A box of half extents h and mass m, resting with its bottom face on z = 0.
inline void addBox(Bodies& bodies, const Vec3& h, double m, const Vec3& position, const Vec3& velocity = Vec3::Zero()) {
    const Vec3 inertia = m / 3.0 * Vec3(h.y() * h.y() + h.z() * h.z(), h.x() * h.x() + h.z() * h.z(),
                                        h.x() * h.x() + h.y() * h.y());
    bodies.push(static_cast<std::int64_t>(bodies.size()), 0, 0, h.norm(), m, inertia, false, position,
                Quat::Identity(), velocity, Vec3::Zero());
}

// Corners of box `i` within `envelope` of the plane z = 0 (wall 0), friction mu.
inline std::vector<RigidContact> boxFloorContacts(const Bodies& bodies, std::size_t i, const Vec3& h, double mu,
                                                  double envelope) {
    std::vector<RigidContact> out;
    for (int corner = 0; corner < 8; ++corner) {
        const Vec3 local((corner & 1 ? 1 : -1) * h.x(), (corner & 2 ? 1 : -1) * h.y(), (corner & 4 ? 1 : -1) * h.z());
        const Vec3 point = bodies.position[i] + bodies.orientation[i] * local;
        if (point.z() >= envelope) continue;
        RigidContact c;
        c.key = {static_cast<std::uint32_t>(i), -1, static_cast<std::uint32_t>(corner)};
        c.point = Vec3(point.x(), point.y(), 0.0);
        c.normal = Vec3::UnitZ();
        c.gap = point.z();
        c.friction = mu;
        out.push_back(c);
    }
    return out;
}

}  // namespace grainlab::test
