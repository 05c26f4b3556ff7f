#include "augmented_lagrangian.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "grainlab/plugin/accelerated_projected_gradient.hpp"

namespace grainlab {
namespace {

// L_A(x) = Psi(x) - s.(x - x_cd) + mu/2 (x - x_cd).A(x - x_cd), s = A z the multiplier term, in units
// where the first-stage impulses are at most 1 and A is N_nn scaled to order 1.
struct Lagrangian {
    const CompatibilityProblem& problem;
    const Eigen::VectorXd& x_cd;
    Eigen::VectorXd a_x_cd, s;
    double scale = 1.0;      // A = N_nn / scale
    double mu = 10.0;

    void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
        problem.multiply(x, out);
        out /= scale;
    }
    double value(const Eigen::VectorXd& x, const Eigen::VectorXd& ax) const {
        const double p = problem.exponent, q = p / (p - 1.0);
        double psi = 0.0;
        for (Eigen::Index i = 0; i < x.size(); ++i)
            if (x[i] > 0.0)
                psi += (p - 1.0) / p * std::pow(problem.stiffness[static_cast<std::size_t>(i)], 1.0 / (1.0 - p)) * std::pow(x[i], q);
        const Eigen::VectorXd delta = x - x_cd;
        return psi - s.dot(delta) + 0.5 * mu * delta.dot(ax - a_x_cd);
    }
    Eigen::VectorXd gradient(const Eigen::VectorXd& x, const Eigen::VectorXd& ax) const {
        const double p = problem.exponent;
        Eigen::VectorXd g = mu * (ax - a_x_cd) - s;
        for (Eigen::Index i = 0; i < x.size(); ++i)
            if (x[i] > 0.0) g[i] += std::pow(x[i] / problem.stiffness[static_cast<std::size_t>(i)], 1.0 / (p - 1.0));
        return g;
    }
    // Onto x >= 0, with contacts that are not active held at 0.
    Eigen::VectorXd project(Eigen::VectorXd x) const {
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = problem.active[static_cast<std::size_t>(i)] ? std::max(0.0, x[i]) : 0.0;
        return x;
    }
    double projectedGradient(const Eigen::VectorXd& x, const Eigen::VectorXd& ax) const {
        return (x - project(x - gradient(x, ax))).cwiseAbs().maxCoeff();
    }
};

// Accelerated projected gradient (the shared one) on min L_A over the bounds, until the projected
// gradient is below `tolerance`. Returns the projected gradient reached.
double minimiseBounded(const Lagrangian& lagrangian, Eigen::VectorXd& x, Eigen::VectorXd& ax, double& lipschitz,
                       double tolerance, int max_iterations, int& iterations) {
    AcceleratedProjectedGradient<Lagrangian> apgd;
    apgd.lipschitz = lipschitz;
    apgd.start(x, ax);
    double projected = lagrangian.projectedGradient(x, ax);
    for (int k = 0; k < max_iterations && projected > tolerance; ++k, ++iterations) {
        apgd.step(lagrangian);
        projected = lagrangian.projectedGradient(apgd.x(), apgd.ax());
    }
    x = apgd.x();
    ax = apgd.ax();
    lipschitz = apgd.lipschitz;
    return projected;
}

}  // namespace

SolverReport solveCompatibility(const CompatibilityProblem& problem, const AugmentedLagrangianOptions& options,
                                Eigen::VectorXd& f) {
    SolverReport report;
    const double impulse_scale = problem.first_stage.cwiseAbs().maxCoeff();
    f = problem.first_stage;
    if (!(impulse_scale > 0.0)) { report.converged = true; return report; }
    const Eigen::VectorXd x_cd = problem.first_stage / impulse_scale;
    Lagrangian lagrangian{problem, x_cd, {}, Eigen::VectorXd::Zero(x_cd.size())};
    problem.multiply(x_cd, lagrangian.a_x_cd);
    const double rayleigh = x_cd.dot(lagrangian.a_x_cd) / x_cd.squaredNorm();
    lagrangian.scale = rayleigh > 0.0 ? rayleigh : 1.0;
    lagrangian.a_x_cd /= lagrangian.scale;
    // ||A (x - x_cd)|| rather than the energy norm sqrt((x - x_cd).A(x - x_cd)): the square root
    // would put the round-off floor at 1e-8.
    const double mismatch_scale = std::max(lagrangian.a_x_cd.norm(), 1e-300);

    // Textbook constants (Nocedal and Wright, algorithm 17.4) in these units.
    double& mu = lagrangian.mu;
    double omega = 1.0 / mu, eta = std::pow(mu, -0.1), lipschitz = 1.0 + mu;
    Eigen::VectorXd x = lagrangian.project(x_cd), ax;
    lagrangian.multiply(x, ax);
    const auto start = std::chrono::steady_clock::now();
    double best = std::numeric_limits<double>::infinity();
    int stalled = 0;
    for (int outer = 0; outer < options.max_outer; ++outer) {
        const int before = report.iterations;
        const double projected = minimiseBounded(lagrangian, x, ax, lipschitz, omega, options.max_inner, report.iterations);
        const Eigen::VectorXd mismatch = ax - lagrangian.a_x_cd;  // A (x - x_cd)
        const double infeasibility = mismatch.norm() / mismatch_scale;
        report.residual = std::max(infeasibility, projected);
        report.residual_history.push_back(report.residual);
        report.time_history.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (infeasibility <= options.tolerance && projected <= options.tolerance) { report.converged = true; break; }
        // Round-off floors both measures; stop when the subproblems no longer improve the residual.
        stalled = report.residual < 0.5 * best || report.iterations - before < options.max_inner ? 0 : stalled + 1;
        best = std::min(best, report.residual);
        if (stalled >= 2) break;
        if (infeasibility <= eta) {
            lagrangian.s -= mu * mismatch;  // multiplier step z <- z - mu (x - x_cd)
            eta = std::max(eta / std::pow(mu, 0.9), options.tolerance);
            omega = std::max(omega / mu, options.tolerance);
        } else {
            if (mu > 1e12) break;  // the subproblems are past what round-off allows
            mu *= 100.0;           // tighten the penalty
            eta = std::max(std::pow(mu, -0.1), options.tolerance);
            omega = std::max(1.0 / mu, options.tolerance);
            lipschitz = std::max(lipschitz, 1.0 + mu);
        }
    }
    f = impulse_scale * x;
    return report;
}

}  // namespace grainlab
