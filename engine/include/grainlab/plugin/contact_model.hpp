#pragma once
// Contact model plugin interface: turns contact geometry and kinematics into forces.
// A model implements its law as a small functor and calls applyContactLaw (contact_law.hpp), which
// runs the engine's pair and wall loops with the law inlined: one virtual call per step, not per pair.
#include <string>

#include "grainlab/plugin/force_context.hpp"
#include "grainlab/plugin/parameters.hpp"

namespace grainlab {

// What the stability check knows about the scene.
struct StabilityInput {
    double min_mass = 1.0;        // lightest free body
    double min_radius = 1.0;      // smallest free body
    double max_speed = 0.0;       // largest initial speed
    double gravity = 0.0;         // |g|
    double min_density = 1.0;
    double max_youngs = 1e7;      // stiffest material
    double max_shear_modulus = 4e6;
    double poisson_at_max_youngs = 0.3;
};

struct TimeStepLimit {
    double limit = 0.0;           // a step above this is refused
    double recommended = 0.0;
    std::string how;              // how the limit was computed, for the message
};

// Coefficients of a linear spring-dashpot law for one pair of materials, in the convention of the
// hooke plugin: F_n = kn delta n - m_eff gamma_n v_n, tangential spring kt with damping
// m_eff gamma_t v_t, Coulomb limit friction |F_n|.
struct LinearSpringDashpot {
    double kn = 0.0, kt = 0.0, gamma_n = 0.0, gamma_t = 0.0, friction = 0.0;
};

class ContactModel {
public:
    virtual ~ContactModel() = default;
    virtual void configure(const ParameterValues& values) = 0;
    // Doubles of per-contact history (tangential spring etc.) kept across steps.
    virtual std::size_t historySize() const = 0;
    // Adds contact forces and torques to ctx.accumulators.
    virtual void computeForces(ForceContext& ctx) = 0;
    // True where computeForces runs the engine's pair loop (applyContactLaw), which runs
    // ForceContext::sweep before each chunk's rows.
    virtual bool sweepsInPairLoop() const { return false; }
    virtual TimeStepLimit timeStepLimit(const StabilityInput& input, const MaterialPairTable& pairs) const = 0;
    // True where the model can be differentiated by implicit integrators (Hooke-type laws).
    virtual bool isLinearSpringDashpot() const { return false; }
    // The law's coefficients for a material pair; meaningful only where isLinearSpringDashpot().
    virtual LinearSpringDashpot linearCoefficients(const PairProperties&) const { return {}; }
    // A model for polyhedra returns the gap below which contacts act (its skin): the engine then
    // finds every contact (polyhedra, spheres, walls) as feature contacts in ForceContext::polyhedral
    // and skips the sphere pair and wall lists. 0: the model handles spheres only.
    virtual double featureContactRange() const { return 0.0; }
    // Largest step the model allows for the contacts of the last force evaluation (adaptive
    // stepping of explicit integrators); 0: no limit beyond the fixed step.
    virtual double adaptiveStepLimit(const ForceContext&) const { return 0.0; }
    // The engine renumbers bodies in spatial order now and then, which can exchange the roles of a
    // and b in a pair. A model whose pair history can follow says so here and turns one pair's
    // history around in swapHistoryRoles (a tangential spring's displacement changes sign, as in
    // LAMMPS's fix neigh/history). Models that do not are never renumbered.
    virtual bool swapsHistoryRoles() const { return false; }
    virtual void swapHistoryRoles(double* /*history*/) const {}
};

}  // namespace grainlab
