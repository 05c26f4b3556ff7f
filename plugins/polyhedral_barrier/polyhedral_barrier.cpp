// Contact model for polyhedra (and spheres and walls through the same feature contacts): the hybrid
// barrier normal law of Gay Neto & Wriggers (seed 003) with clipped normal damping and
// elastic-viscous Coulomb friction with static and dynamic coefficients and slip memory.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>

#include "barrier_law.hpp"
#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/contact_model.hpp"
#include "grainlab/plugin/feature_contact_law.hpp"
#include "grainlab/plugin/plugin_entry.hpp"

namespace {
using namespace grainlab;

// History per contact: elastic slip gt (3), stick flag (1), normal of the last step (3), and the
// last evaluation's damping force along n (1) and tangential force (3), for the dissipated work.
constexpr std::size_t kHistory = 11;

// Work of a contact's non-conservative force over the step that just ended. An explicit step
// applies the force of each evaluation over half the step before it and half the step after it
// (velocity Verlet's two half kicks; semi-implicit Euler likewise, as F_k (x_{k+1} - x_{k-1}) / 2),
// so the motion of the step just taken, rate * dt, was driven by the mean of the previous and the
// current force. Crediting the current force alone (with the velocity it was computed from) reads
// the dissipation high by about zeta omega dt per contact: 4% and more in damped piles.
template <class Force, class Rate>
double stepWork(const Force& previous, const Force& current, const Rate& rate, double dt) {
    if constexpr (std::is_same_v<Force, double>) return 0.5 * (previous + current) * rate * dt;
    else return 0.5 * (previous + current).dot(rate) * dt;
}

struct BarrierLaw {
    barrier::NormalLaw normal;
    double damping_ratio = 0.0, eps_t = 0.0, tangential_damping_ratio = 0.0, mu_s = -1.0, mu_d = -1.0;

    void operator()(const FeatureKinematics& kin, double* h, FeatureOutput& out) const {
        const double g = kin.gap;
        if (g >= normal.gbar) {
            std::fill(h, h + kHistory, 0.0);
            return;
        }
        // Normal: elastic law, damping c_n = 2 zeta sqrt(k_c m_eff), clipped so it never pulls.
        const double fe_n = normal.force(g);
        const double c_n = 2.0 * damping_ratio * std::sqrt(normal.stiffness(g) * kin.effective_mass);
        const double f_n = std::max(0.0, fe_n - c_n * kin.normal_rate);
        out.normal_force = f_n;
        out.elastic_energy = normal.energy(g);
        // The damping part of the force (clipping included) takes this work from the bodies.
        out.dissipated = -stepWork(h[7], f_n - fe_n, kin.normal_rate, kin.dt);
        h[7] = f_n - fe_n;

        const double ms = mu_s >= 0.0 ? mu_s : kin.properties->friction;
        const double md = mu_d >= 0.0 ? mu_d : ms;
        if (eps_t <= 0.0 || ms <= 0.0) {
            std::fill(h + 8, h + kHistory, 0.0);
            return;
        }
        // Slip: last step's elastic slip turned with the contact frame, plus this step's increment.
        const Vec3 n = kin.normal;
        Vec3 gt(h[0], h[1], h[2]);
        const Vec3 n_old(h[4], h[5], h[6]);
        if (n_old.squaredNorm() > 0.0) {
            const Vec3 v = n_old.cross(n);
            const double c = n_old.dot(n);
            if (c > -0.999) {  // minimal rotation n_old -> n
                const Mat3 vx = (Mat3() << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0).finished();
                gt = (Mat3::Identity() + vx + vx * vx / (1.0 + c)) * gt;
            }
            gt -= gt.dot(n) * n;
        }
        const double energy_before = 0.5 * eps_t * gt.squaredNorm();
        gt += kin.slip_velocity * kin.dt;
        const Vec3 fe = eps_t * gt;
        const double c_t = 2.0 * tangential_damping_ratio * std::sqrt(eps_t * kin.effective_mass);
        const Vec3 ftr = fe + c_t * kin.slip_velocity;
        const bool was_stick = h[3] == 0.0;  // new contacts start sticking
        const double ftr_norm = ftr.norm();
        const bool stick = was_stick ? ftr_norm <= ms * fe_n : ftr_norm <= md * fe_n;
        const Vec3 ft = stick || ftr_norm == 0.0 ? ftr : Vec3(md * fe_n * ftr / ftr_norm);
        // Slip memory keeps only the recoverable part.
        const double mu = was_stick ? ms : md;
        const double fe_norm = fe.norm();
        if (fe_norm > mu * fe_n && fe_norm > 0.0) gt = (md * fe_n / eps_t) * fe / fe_norm;
        out.tangential_force = -ft;
        const double energy_after = 0.5 * eps_t * gt.squaredNorm();
        out.elastic_energy += energy_after;
        // What the friction force took from the bodies, less what the spring stored.
        out.dissipated += stepWork(Vec3(h[8], h[9], h[10]), ft, kin.slip_velocity, kin.dt) - (energy_after - energy_before);
        h[0] = gt.x(); h[1] = gt.y(); h[2] = gt.z();
        h[3] = stick ? 0.0 : 1.0;
        h[4] = n.x(); h[5] = n.y(); h[6] = n.z();
        h[8] = ft.x(); h[9] = ft.y(); h[10] = ft.z();
    }
};

// 1/m + (r x n) . I^-1 (r x n): the inverse of the mass a unit impulse along n at p moves.
double pointInverseMass(const Bodies& b, std::size_t i, const Vec3& p, const Vec3& n) {
    const Vec3 w = b.orientation[i].conjugate() * (p - b.position[i]).cross(n);
    return b.inv_mass[i] + w.dot(b.inv_inertia[i].cwiseProduct(w));
}

class PolyhedralBarrier final : public ContactModel {
public:
    void configure(const ParameterValues& p) override {
        if (!(p.get("barrier_fraction") < 1.0)) throw std::invalid_argument("barrier_fraction must be below 1");
        law_.normal.set(p.get("stiffness"), p.get("exponent"), p.get("skin"), p.get("barrier_fraction"),
                        p.get("barrier_exponent"));
        law_.damping_ratio = p.get("damping_ratio");
        law_.eps_t = p.get("tangential_stiffness");
        law_.tangential_damping_ratio = p.get("tangential_damping_ratio");
        law_.mu_s = p.get("static_friction");
        law_.mu_d = p.get("dynamic_friction");
        safety_ = p.get("step_safety");
        closing_ = p.get("closing_fraction");
        adaptive_ = p.flag("adaptive_step");
        min_step_ = p.get("min_time_step");
    }
    std::size_t historySize() const override { return kHistory; }
    // Contacts are searched to twice the skin so that the step can be shortened before a gap
    // enters the skin (the penalty law has a kink at gbar); beyond gbar they carry no force.
    double featureContactRange() const override { return 2.0 * law_.normal.gbar; }
    void computeForces(ForceContext& ctx) override { applyFeatureContactLaw(ctx, law_); }

    TimeStepLimit timeStepLimit(const StabilityInput& in, const MaterialPairTable&) const override {
        // Explicit stability at the skin's stiffest penalty point (g = gbb) for the lightest body
        // against a wall; the barrier below is stiffer still, which the adaptive step handles.
        const double k = std::max(law_.normal.stiffness(law_.normal.gbb), law_.eps_t);
        const double critical = 2.0 * std::sqrt(in.min_mass / k);
        std::ostringstream how;
        how << "dt_c = 2 sqrt(m/k_c) = " << critical << " at the barrier onset gbb, m = " << in.min_mass
            << ", k_c = " << k;
        return {critical, safety_ * critical, how.str()};
    }

    // Note 10: dt <= s_f 2 sqrt(m_eff/k_c(g)) and dt <= kappa g / closing speed, over the contacts.
    double adaptiveStepLimit(const ForceContext& ctx) const override {
        if (!ctx.polyhedral || !adaptive_) return 0.0;
        double limit = 0.0;
        const Bodies& b = ctx.bodies;
        for (const PolyhedralContact& c : ctx.polyhedral->contacts) {
            const double g = c.geometry.gap;
            const double gbar = law_.normal.gbar;
            // Mass seen along n at the contact points, rotation included: a slender leg's tip is
            // much lighter than its body.
            const Vec3& n = c.geometry.normal;
            double inv = pointInverseMass(b, c.body_a, c.geometry.point_a, n);
            if (!c.wall()) inv += pointInverseMass(b, static_cast<std::size_t>(c.body_b), c.geometry.point_b, n);
            const double meff = inv > 0.0 ? 1.0 / inv : b.mass[c.body_a];
            // Outside the skin: the stiffness it will meet on entry.
            const double stiffness = law_.normal.stiffness(std::min(g, std::nextafter(gbar, 0.0)));
            double dt = safety_ * 2.0 * std::sqrt(meff / stiffness);
            const std::size_t j = c.wall() ? 0 : static_cast<std::size_t>(c.body_b);
            auto velocity = [&](std::size_t i, const Vec3& p) {
                return Vec3(b.velocity[i] + b.angular_velocity[i].cross(p - b.position[i]));
            };
            const Vec3 vb = c.wall() ? c.wall_velocity : velocity(j, c.geometry.point_b);
            const double closing = -c.geometry.normal.dot(velocity(c.body_a, c.geometry.point_a) - vb);
            if (closing > 0.0 && g >= gbar) dt = std::max(dt, (g - gbar) / closing);  // may not reach the skin
            else if (closing > 0.0 && g > 0.0) dt = std::min(dt, closing_ * g / closing);
            limit = limit == 0.0 ? dt : std::min(limit, dt);
        }
        return limit > 0.0 ? std::max(limit, min_step_) : 0.0;
    }

private:
    BarrierLaw law_{};
    double safety_ = 0.2, closing_ = 0.5, min_step_ = 0.0;
    bool adaptive_ = true;
};

const GrainlabParameter kParameters[] = {
    {"stiffness", "force/length^exponent", GRAINLAB_PARAM_REAL, 1e6, 1e-12, 1e30, "eps1: penalty stiffness inside the skin"},
    {"exponent", "", GRAINLAB_PARAM_REAL, 1.0, 1.0, 3.0, "n1: 1 linear penalty, 1.5 Hertz-like"},
    {"skin", "length", GRAINLAB_PARAM_REAL, 1e-3, 1e-12, 1e30, "gbar: contacts act while the gap is below it"},
    {"barrier_fraction", "", GRAINLAB_PARAM_REAL, 0.5, 1e-6, 0.999, "phi: the barrier acts below gbb = phi gbar"},
    {"barrier_exponent", "", GRAINLAB_PARAM_REAL, -1.0, -10.0, -1e-3, "n2 < 0: barrier force eps2 g^n2 + c2"},
    {"damping_ratio", "", GRAINLAB_PARAM_REAL, 0.0, 0.0, 100.0,
     "zeta_n: normal damping c_n = 2 zeta_n sqrt(k_c m_eff), clipped so the total never pulls"},
    {"tangential_stiffness", "force/length", GRAINLAB_PARAM_REAL, 1e6, 0.0, 1e30, "eps_t: elastic tangential spring; 0 disables friction"},
    {"tangential_damping_ratio", "", GRAINLAB_PARAM_REAL, 0.0, 0.0, 100.0, "zeta_t: tangential damping c_t = 2 zeta_t sqrt(eps_t m_eff)"},
    {"static_friction", "", GRAINLAB_PARAM_REAL, -1.0, -1.0, 1e3, "mu_s; -1: the materials' friction"},
    {"dynamic_friction", "", GRAINLAB_PARAM_REAL, -1.0, -1.0, 1e3, "mu_d; -1: equal to mu_s"},
    {"step_safety", "", GRAINLAB_PARAM_REAL, 0.2, 1e-3, 1.0, "s_f: adaptive step <= s_f 2 sqrt(m_eff/k_c(g))"},
    {"closing_fraction", "", GRAINLAB_PARAM_REAL, 0.5, 1e-3, 1.0, "kappa: no gap closes by more than this fraction in one step"},
    {"adaptive_step", "", GRAINLAB_PARAM_BOOLEAN, 1, 0, 1,
     "shorten the scene's time step (its upper bound) to the limits above; 0: fixed step"},
    {"min_time_step", "time", GRAINLAB_PARAM_REAL, 0.0, 0.0, 1e30, "lower bound of the adapted step"},
};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    return grainlab::pluginDescriptor<grainlab::ContactModel, PolyhedralBarrier>(
        "polyhedral-barrier", "1.0.0",
        "Gay Neto & Wriggers hybrid law for polyhedra, spheres and walls: penalty (or Hertz-like) inside a skin, "
        "C1-matched barrier below it, clipped normal damping, elastic-viscous Coulomb friction with static and "
        "dynamic coefficients and slip memory.", kParameters);
}
