#include "variational_step.hpp"

#include <Eigen/IterativeLinearSolvers>
#include <algorithm>
#include <cmath>

namespace grainlab::variational {
namespace {

constexpr int kMaxHalvings = 10;
// Newton iterations after which contacts keep the spring on/off state they have (see springActive).
constexpr int kLockAfter = 4;
// Newton iterations after which each contact keeps the touching part of the step it has. Where a
// contact grazes (little normal motion against much sliding) that part depends steeply on the normal
// displacement, which S leaves out, and the iteration crawls (settling box at t_c/10: 4-5 iterations
// per step late in the pour instead of 2). After the first update it is already as accurate as the
// step needs (offset impact: energies change by 2e-6 relative).
constexpr int kFreezeIntervalsAfter = 1;

Eigen::Ref<const Vec3> seg(const Eigen::VectorXd& v, std::size_t body, int part) {
    return v.segment<3>(static_cast<Eigen::Index>(6 * body + 3 * part));
}
Eigen::Ref<Vec3> seg(Eigen::VectorXd& v, std::size_t body, int part) {
    return v.segment<3>(static_cast<Eigen::Index>(6 * body + 3 * part));
}

}  // namespace

void VariationalStep::setUp(const StepContext& ctx) {
    const Bodies& b = ctx.bodies;
    const FrozenContacts& frozen = *ctx.contacts;
    const std::size_t n = b.size();
    h_ = ctx.dt;
    gravity_ = frozen.gravity;

    const std::size_t materials = frozen.materials.count;
    laws_.resize(materials * materials);
    for (std::size_t m1 = 0; m1 < materials; ++m1)
        for (std::size_t m2 = 0; m2 < materials; ++m2)
            laws_[m1 * materials + m2] = frozen.model.linearCoefficients(frozen.materials(m1, m2));

    free_.assign(n, 0);
    mass_.resize(static_cast<Eigen::Index>(6 * n));
    p0_.resize(static_cast<Eigen::Index>(6 * n));
    guess_velocity_.resize(static_cast<Eigen::Index>(6 * n));
    for (std::size_t i = 0; i < n; ++i) {
        free_[i] = b.inv_mass[i] > 0.0 && !b.frozen[i];
        seg(mass_, i, 0).setConstant(b.mass[i]);
        seg(mass_, i, 1) = b.inertia[i];  // spheres: isotropic, so the body frame does not matter
        // Predictor: the explicit half kick with the forces at the start (current on entry), so free
        // flight under gravity needs no Newton update.
        const bool moves = free_[i] && b.force.size() == n;
        seg(guess_velocity_, i, 0) = b.velocity[i] + (moves ? 0.5 * h_ / b.mass[i] : 0.0) * b.force[i];
        seg(guess_velocity_, i, 1) =
            b.angular_velocity[i] + (moves ? 0.5 * h_ : 0.0) * b.torque[i].cwiseQuotient(b.inertia[i]);
        seg(p0_, i, 0) = b.mass[i] * b.velocity[i];
        seg(p0_, i, 1) = b.inertia[i].cwiseProduct(b.angular_velocity[i]);
    }

    terms_.clear();
    const NeighborList& pairs = frozen.pairs;
    for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t k = pairs.row_start[i]; k < pairs.row_start[i + 1]; ++k) {
            const std::uint32_t j = pairs.partner[k];
            if (!free_[i] && !free_[j]) continue;
            ContactTerm c;
            c.a = static_cast<std::uint32_t>(i);
            c.b = j;
            c.radius_a = b.radius[i];
            c.radius_b = b.radius[j];
            c.effective_mass = 1.0 / (b.inv_mass[i] + b.inv_mass[j]);
            c.law = &laws_[b.material[i] * materials + b.material[j]];
            c.offset = frozen.box.nearestImage(b.position[i] - b.position[j]);
            terms_.push_back(c);
        }
    for (const WallContact& wc : frozen.walls) {
        if (!free_[wc.body]) continue;
        ContactTerm c;
        c.a = wc.body;
        c.wall = true;
        c.radius_a = b.radius[wc.body];
        c.effective_mass = b.mass[wc.body];
        c.law = &laws_[b.material[wc.body] * materials + wc.material];
        c.point = wc.point;
        c.normal = wc.normal;
        c.wall_velocity = wc.wall_velocity;
        c.offset = b.position[wc.body] - wc.point;
        terms_.push_back(c);
    }
    lock_.assign(terms_.size(), 0);
    frozen_intervals_.clear();
}

ContactGeometry VariationalStep::geometry(const ContactTerm& c, const Vector& u, double fraction) const {
    if (c.wall) return wallGeometry(c, fraction * (seg(u, c.a, 0) - h_ * c.wall_velocity));
    return pairGeometry(c, c.offset + fraction * (seg(u, c.a, 0) - seg(u, c.b, 0)));
}

ActiveInterval VariationalStep::touchingPart(std::size_t t, const Vector& u) const {
    return frozen_intervals_.empty() ? activeInterval(terms_[t], u) : frozen_intervals_[t];
}

void VariationalStep::freezeIntervals(const Vector& u) {
    frozen_intervals_.resize(terms_.size());
    for (std::size_t t = 0; t < terms_.size(); ++t) frozen_intervals_[t] = activeInterval(terms_[t], u);
}

ActiveInterval VariationalStep::activeInterval(const ContactTerm& c, const Vector& u) const {
    if (c.wall) return wallActiveInterval(c, seg(u, c.a, 0) - h_ * c.wall_velocity);
    return pairActiveInterval(c, seg(u, c.a, 0) - seg(u, c.b, 0));
}

void VariationalStep::lockActiveSet(const Vector& u) {
    for (std::size_t t = 0; t < terms_.size(); ++t)
        lock_[t] = geometry(terms_[t], u, settings_.alpha).touching ? 1 : -1;
}

void VariationalStep::forces(const Vector& u, double dashpot_fraction, const Vector& vel, Vector& conservative,
                             Vector& damping, std::size_t* coulomb_exceeded) {
    conservative.setZero(u.size());
    damping.setZero(u.size());
    force_scale_ = 0.0;
    for (std::size_t i = 0; i < free_.size(); ++i)
        if (free_[i]) {
            seg(conservative, i, 0) = mass_[static_cast<Eigen::Index>(6 * i)] * gravity_;
            force_scale_ = std::max(force_scale_, mass_[static_cast<Eigen::Index>(6 * i)] * gravity_.norm());
        }
    for (std::size_t t = 0; t < terms_.size(); ++t) {
        const ContactTerm& c = terms_[t];
        const ContactGeometry g = geometry(c, u, settings_.alpha);
        const bool spring_on = springActive(g, lock_[t]);
        const ActiveInterval touching = touchingPart(t, u);
        if (!spring_on && touching.length == 0.0) continue;
        const Vec3 spring = spring_on ? Vec3(c.law->kn * g.overlap * g.n) : Vec3::Zero();
        force_scale_ = std::max(force_scale_, spring.norm());
        seg(conservative, c.a, 0) += spring;
        if (!c.wall) seg(conservative, c.b, 0) -= spring;
        if (touching.length == 0.0) continue;
        // The dashpot at the same fraction of the touching part as alpha is of the step, weighted by
        // that part's length: the quadrature of its virtual work over the time it acts.
        const ContactGeometry gd = geometry(c, u, touching.at(dashpot_fraction));
        const auto map = velocityMap(c, gd);
        Vec3 relative = seg(vel, c.a, 0) + map[1] * seg(vel, c.a, 1);
        if (c.wall) relative -= c.wall_velocity;
        else relative += map[2] * seg(vel, c.b, 0) + map[3] * seg(vel, c.b, 1);
        const Vec3 dashpot = -(dampingMatrix(c, gd) * relative);
        force_scale_ = std::max(force_scale_, dashpot.norm());
        const Vec3 weighted = touching.length * dashpot;
        seg(damping, c.a, 0) += weighted;
        seg(damping, c.a, 1) += map[1].transpose() * weighted;
        if (!c.wall) {
            seg(damping, c.b, 0) += map[2].transpose() * weighted;
            seg(damping, c.b, 1) += map[3].transpose() * weighted;
        }
        if (coulomb_exceeded) {
            const double normal = (spring + dashpot).dot(gd.n);
            const Vec3 tangential = dashpot - dashpot.dot(gd.n) * gd.n;
            if (tangential.norm() > c.law->friction * std::abs(normal)) ++*coulomb_exceeded;
        }
    }
    for (std::size_t i = 0; i < free_.size(); ++i)
        if (!free_[i]) {
            conservative.segment<6>(static_cast<Eigen::Index>(6 * i)).setZero();
            damping.segment<6>(static_cast<Eigen::Index>(6 * i)).setZero();
        }
}

double VariationalStep::residual(const Vector& u, Vector& r) {
    const double a = settings_.alpha;
    const Vector vh = u / h_;
    coulomb_exceeded_ = 0;
    forces(u, a, vh, conservative_, damping_, &coulomb_exceeded_);
    const Vector momentum = mass_.cwiseProduct(vh);
    r = p0_ - momentum + (h_ * (1.0 - a)) * conservative_ + (0.5 * h_) * damping_;
    for (std::size_t i = 0; i < free_.size(); ++i)
        if (!free_[i]) r.segment<6>(static_cast<Eigen::Index>(6 * i)).setZero();
    // Momentum scale of the step: R sums momenta and impulses of the largest single forces (not their
    // sums, which vanish at rest), so round-off sits near 1e-16 of it.
    const double scale = std::max({p0_.lpNorm<Eigen::Infinity>(), momentum.lpNorm<Eigen::Infinity>(), h_ * force_scale_});
    const double norm = r.lpNorm<Eigen::Infinity>();
    return norm == 0.0 ? 0.0 : norm / scale;
}

void VariationalStep::assemble(const Vector& u) {
    const double a = settings_.alpha;
    const double hessian_weight = h_ * a * (1.0 - a);
    triplets_.clear();
    for (Eigen::Index k = 0; k < u.size(); ++k)
        triplets_.emplace_back(k, k, free_[static_cast<std::size_t>(k / 6)] ? mass_[k] / h_ : 1.0);
    for (std::size_t t = 0; t < terms_.size(); ++t) {
        const ContactTerm& c = terms_[t];
        const ContactGeometry g = geometry(c, u, a);
        const bool spring_on = springActive(g, lock_[t]);
        const ActiveInterval touching = touchingPart(t, u);
        if (!spring_on && touching.length == 0.0) continue;
        // The touching part's dependence on u is left out (quasi-Newton, as the velocity gradient).
        const ContactGeometry gd = geometry(c, u, touching.at(a));
        const auto map = velocityMap(c, gd);
        const Mat3 half_damping = touching.length > 0.0 ? Mat3(0.5 * touching.length * dampingMatrix(c, gd)) : Mat3::Zero();
        const Mat3 spring = spring_on ? Mat3(hessian_weight * springHessian(c, g)) : Mat3::Zero();
        const int blocks = c.wall ? 2 : 4;
        for (int k = 0; k < blocks; ++k) {
            const std::uint32_t row_body = k < 2 ? c.a : c.b;
            if (!free_[row_body]) continue;
            for (int l = 0; l < blocks; ++l) {
                const std::uint32_t col_body = l < 2 ? c.a : c.b;
                if (!free_[col_body]) continue;
                Mat3 block = map[static_cast<std::size_t>(k)].transpose() * half_damping * map[static_cast<std::size_t>(l)];
                // The spring acts on translations: +H on (x_a, x_a), (x_b, x_b), -H across.
                if (k % 2 == 0 && l % 2 == 0 && hessian_weight > 0.0) block += (k == l ? 1.0 : -1.0) * spring;
                const Eigen::Index row = static_cast<Eigen::Index>(6 * row_body + 3 * (k % 2));
                const Eigen::Index col = static_cast<Eigen::Index>(6 * col_body + 3 * (l % 2));
                // S is symmetric: CG reads its lower triangle only, so half the entries are stored.
                for (int rr = 0; rr < 3; ++rr)
                    for (int cc = 0; cc < 3; ++cc)
                        if (row + rr >= col + cc && block(rr, cc) != 0.0)
                            triplets_.emplace_back(row + rr, col + cc, block(rr, cc));
            }
        }
    }
    matrix_.resize(u.size(), u.size());
    matrix_.setFromTriplets(triplets_.begin(), triplets_.end());
}

void VariationalStep::writeBack(Bodies& b, const Vector& u, const Vector& momentum) const {
    for (std::size_t i = 0; i < b.size(); ++i) {
        const Vec3 turn = seg(u, i, 1) / h_;  // mean angular velocity over the step
        b.position[i] += seg(u, i, 0);
        turnBody(b, i, turn, h_);
        if (!free_[i]) continue;
        b.velocity[i] = seg(momentum, i, 0) / b.mass[i];
        b.angular_velocity[i] = seg(momentum, i, 1).cwiseQuotient(b.inertia[i]);
    }
}

StepReport VariationalStep::run(StepContext& ctx, const Settings& settings) {
    settings_ = settings;
    setUp(ctx);
    StepReport report;
    const double a = settings_.alpha;
    // Unknown: the step's displacement u = q_k+1 - q_k. Initial guess h (M^-1 P_k + h/2 M^-1 F_k);
    // frozen bodies follow their own velocity, as the explicit drift does.
    Vector u = h_ * guess_velocity_;
    Vector r, trial, r_trial, dq;
    double relative = residual(u, r);
    bool small_step = false;
    Eigen::ConjugateGradient<Eigen::SparseMatrix<double>, Eigen::Lower> cg;
    cg.setTolerance(settings_.cg_tolerance);
    cg.setMaxIterations(settings_.max_cg);
    for (;;) {
        if (relative <= settings_.newton_tolerance || small_step) { report.converged = true; break; }
        if (report.newton_iterations == settings_.max_newton) break;
        if (report.newton_iterations == kFreezeIntervalsAfter) {
            freezeIntervals(u);
            relative = residual(u, r);
            if (relative <= settings_.newton_tolerance) { report.converged = true; break; }
        }
        if (report.newton_iterations == kLockAfter) {
            lockActiveSet(u);
            relative = residual(u, r);
            report.locked = true;
            if (relative <= settings_.newton_tolerance) { report.converged = true; break; }
        }
        assemble(u);
        cg.compute(matrix_);
        dq = cg.solve(r);
        // Counted as products with S: Eigen does not count the one that meets the tolerance.
        report.cg_iterations += static_cast<long>(cg.iterations()) + (cg.info() == Eigen::Success ? 1 : 0);
        ++report.newton_iterations;
        // Halve the update while it makes the residual worse (far from the solution, e.g. when a
        // large step switches contacts on and off); fall back to the full update if none helps.
        double length = 1.0;
        trial = u + dq;
        double trial_relative = residual(trial, r_trial);
        const double norm = r.lpNorm<Eigen::Infinity>();
        int halvings = 0;
        while (settings_.line_search && r_trial.lpNorm<Eigen::Infinity>() > norm && halvings < kMaxHalvings) {
            length *= 0.5;
            trial = u + length * dq;
            trial_relative = residual(trial, r_trial);
            ++halvings;
        }
        if (halvings == kMaxHalvings && r_trial.lpNorm<Eigen::Infinity>() > norm) {
            length = 1.0;
            trial = u + dq;
            trial_relative = residual(trial, r_trial);
        }
        report.backtracks += halvings;
        // Only a full Newton update that is negligible means convergence; a halved one may be small
        // because the line search shrank it.
        small_step = length == 1.0 && dq.lpNorm<Eigen::Infinity>() <=
                                          settings_.newton_tolerance * trial.lpNorm<Eigen::Infinity>();
        u.swap(trial);
        r.swap(r_trial);
        relative = trial_relative;
    }

    // P_k+1 = M vh + h alpha F(q_alpha) + (h/2) Q(q_1-alpha, vh); for alpha = 1/2 both at the midpoint.
    const Vector vh = u / h_;
    Vector momentum = mass_.cwiseProduct(vh) + (h_ * a) * conservative_;
    if (a == 0.5) {
        momentum += (0.5 * h_) * damping_;
    } else {
        Vector spring, dashpot;
        forces(u, 1.0 - a, vh, spring, dashpot, nullptr);
        momentum += (0.5 * h_) * dashpot;
    }
    report.coulomb_exceeded = coulomb_exceeded_;
    writeBack(ctx.bodies, u, momentum);
    return report;
}

}  // namespace grainlab::variational
