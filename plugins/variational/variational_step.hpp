#pragma once
// One step of the variational integrator of De Klerk et al. in the momentum form that is exact for
// every alpha (notes, section 4):
//   R(q) = P_k - M vh + h (1-alpha) F(q_alpha) + (h/2) Q(q_alpha, vh) = 0,  vh = (q - q_k)/h
//   P_k+1 = M vh + h alpha F(q_alpha) + (h/2) Q(q_1-alpha, vh)
// F = -grad V (springs and gravity), Q the dashpot forces, q_s = (1-s) q_k + s q. A contact that starts
// or ends within the step has its dashpot (which jumps there) sampled at the alpha and 1-alpha points
// of the part of the step it touches and weighted by that part's length (the same discrete
// Lagrange-d'Alembert forcing, integrated over the time the dashpot acts): the contact switching then
// costs O(h^2), not O(h). R is solved for q = q_k+1 by Newton's method; each linear system
// S dq = R, S = M/h + h alpha (1-alpha) H + C/2, by conjugate gradients. The velocity-gradient of the
// dashpots (non-symmetric, O(h) against M/h) and the dependence of the touching part on q are left
// out of S, so for alpha > 0 the iteration is a quasi-Newton one; for alpha = 0 S is exact while no
// contact starts or ends. The touching parts are taken from the first Newton update and kept.
#include <Eigen/Sparse>
#include <vector>

#include "contact_terms.hpp"
#include "grainlab/plugin/integrator.hpp"

namespace grainlab::variational {

struct Settings {
    double alpha = 0.5;
    double newton_tolerance = 1e-10;  // on |R| relative to the momentum scale of the step
    double cg_tolerance = 1e-10;      // relative CG residual
    int max_newton = 20;
    int max_cg = 1000;
    bool line_search = true;
};

struct StepReport {
    int newton_iterations = 0;        // linear solves
    long cg_iterations = 0;           // summed over the solves
    bool converged = false;
    int backtracks = 0;               // line-search halvings
    bool locked = false;              // the active set was locked to converge
    std::size_t coulomb_exceeded = 0; // contacts whose viscous tangential force exceeds mu |F_n|
};

class VariationalStep {
public:
    using Vector = Eigen::VectorXd;
    // Advances ctx.bodies by ctx.dt; ctx.contacts must be set.
    StepReport run(StepContext& ctx, const Settings& settings);

    // For the Jacobian test: the step's set-up, then R and S (lower triangle) at a displacement u.
    void prepare(const StepContext& ctx, const Settings& settings) { settings_ = settings; setUp(ctx); }
    double residualAt(const Vector& u, Vector& r) { return residual(u, r); }
    const Eigen::SparseMatrix<double>& matrixAt(const Vector& u) { assemble(u); return matrix_; }

private:
    void setUp(const StepContext& ctx);
    // Everything below takes the step's displacement u = q_k+1 - q_k (6 entries per body).
    // Generalised spring + gravity forces at q_alpha and dashpot forces, moving with vel, at
    // `dashpot_fraction` of the part of the step each contact touches, times that part's length.
    void forces(const Vector& u, double dashpot_fraction, const Vector& vel, Vector& conservative, Vector& damping,
                std::size_t* coulomb_exceeded);
    // R at u; also keeps F, Q and the Coulomb count of that evaluation. Returns |R|_inf relative to
    // the momentum scale.
    double residual(const Vector& u, Vector& r);
    void assemble(const Vector& u);  // S at u
    ContactGeometry geometry(const ContactTerm& c, const Vector& u, double fraction) const;
    ActiveInterval activeInterval(const ContactTerm& c, const Vector& u) const;
    ActiveInterval touchingPart(std::size_t term, const Vector& u) const;  // frozen once set
    void freezeIntervals(const Vector& u);
    void lockActiveSet(const Vector& u);
    void writeBack(Bodies& bodies, const Vector& u, const Vector& momentum) const;

    Settings settings_;
    double h_ = 0.0;
    Vec3 gravity_ = Vec3::Zero();
    std::vector<LinearSpringDashpot> laws_;   // per material pair
    std::vector<ContactTerm> terms_;
    std::vector<std::int8_t> lock_;           // per term: 0 free, +1 spring locked on, -1 off
    std::vector<ActiveInterval> frozen_intervals_;  // per term once frozen; empty before
    std::vector<std::uint8_t> free_;
    Vector mass_, p0_, guess_velocity_;
    Vector conservative_, damping_;           // of the last residual evaluation
    std::size_t coulomb_exceeded_ = 0;
    double force_scale_ = 0.0;                // largest single force of the last evaluation
    Eigen::SparseMatrix<double> matrix_;
    std::vector<Eigen::Triplet<double>> triplets_;
};

}  // namespace grainlab::variational
