#pragma once
// Accelerated projected gradient (Nesterov, with Mazhar et al.'s backtracking on the Lipschitz
// estimate and adaptive restart), the one implementation behind the `ccp-apgd` solver (the cone
// complementarity QP) and the `compatibility` post-step (its bound-constrained subproblems).
//
// The objective is f(x) = phi(x, A x) with A linear, minimised over a closed convex set. Products
// with A are the costly part, so the iteration keeps A x and A y: A y follows from A x by
// linearity, and each trial point of the backtracking costs one product.
//
// `Objective` provides
//   void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& ax) const;      // ax = A x
//   double value(const Eigen::VectorXd& x, const Eigen::VectorXd& ax) const;  // f(x)
//   Eigen::VectorXd gradient(const Eigen::VectorXd& x, const Eigen::VectorXd& ax) const;
//   Eigen::VectorXd project(Eigen::VectorXd x) const;                        // onto the feasible set
#include <cmath>
#include <utility>

#include <Eigen/Core>

namespace grainlab {

template <class Objective>
class AcceleratedProjectedGradient {
public:
    // Starts from the feasible x (A x given), momentum reset; keeps the Lipschitz estimate.
    void start(Eigen::VectorXd x, Eigen::VectorXd ax) {
        x_ = std::move(x);
        ax_ = std::move(ax);
        y_ = x_;
        ay_ = ax_;
        theta_ = 1.0;
    }

    // One Nesterov step from y; the new iterate is x(), with A x in ax().
    void step(const Objective& f) {
        const Eigen::VectorXd g = f.gradient(y_, ay_);
        const double value_y = f.value(y_, ay_);
        Eigen::VectorXd xn, axn;
        for (int tries = 0;; ++tries) {
            xn = f.project(y_ - g / lipschitz);
            f.multiply(xn, axn);
            const double value = f.value(xn, axn);
            const Eigen::VectorXd delta = xn - y_;
            const double bound = value_y + g.dot(delta) + 0.5 * lipschitz * delta.squaredNorm();
            // A round-off margin: without it the test never passes once xn == y.
            if (value <= bound + 1e-14 * (std::abs(value_y) + std::abs(value)) || tries > 60) break;
            lipschitz *= 2.0;
        }
        double theta_next = 0.5 * (-theta_ * theta_ + theta_ * std::sqrt(theta_ * theta_ + 4.0));
        const double beta = theta_ * (1.0 - theta_) / (theta_ * theta_ + theta_next);
        Eigen::VectorXd yn = xn + beta * (xn - x_);
        Eigen::VectorXd ayn = axn + beta * (axn - ax_);
        if (g.dot(xn - x_) > 0.0) {  // adaptive restart: the momentum points uphill
            yn = xn;
            ayn = axn;
            theta_next = 1.0;
        }
        lipschitz *= 0.9;  // let the step grow again
        x_ = std::move(xn);
        ax_ = std::move(axn);
        y_ = std::move(yn);
        ay_ = std::move(ayn);
        theta_ = theta_next;
    }

    const Eigen::VectorXd& x() const { return x_; }
    const Eigen::VectorXd& ax() const { return ax_; }

    double lipschitz = 1.0;  // the current estimate of the gradient's Lipschitz constant

private:
    Eigen::VectorXd x_, ax_, y_, ay_;
    double theta_ = 1.0;
};

}  // namespace grainlab
