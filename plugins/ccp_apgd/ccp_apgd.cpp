// Accelerated projected gradient descent (Mazhar et al. 2015, as in Negrut, Serban, Tasora section 7)
// on the quadratic program whose optimality conditions are the cone complementarity problem:
// Nesterov steps with backtracking on the Lipschitz estimate, adaptive restart, and the best iterate
// kept. One product with N per iteration: N y follows from N x by linearity.
#include <cmath>
#include <limits>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/cone.hpp"
#include "grainlab/plugin/solver.hpp"

namespace {
using namespace grainlab;

class AcceleratedProjectedGradient final : public IterativeSolver {
public:
    void configure(const ParameterValues&) override {}

protected:
    void begin(const ContactProblem& problem, const Eigen::VectorXd& impulses) override {
        x_ = impulses;
        problem.multiplyDelassus(x_, nx_);
        y_ = x_;
        ny_ = nx_;
        theta_ = 1.0;
        // Lipschitz estimate along a direction that differs from x.
        const Eigen::VectorXd direction = Eigen::VectorXd::Ones(x_.size());
        Eigen::VectorXd n_direction;
        problem.multiplyDelassus(direction, n_direction);
        lipschitz_ = n_direction.norm() / direction.norm();
        if (!(lipschitz_ > 0.0)) lipschitz_ = 1.0;
        best_ = x_;
        best_residual_ = std::numeric_limits<double>::infinity();
    }

    double iterate(const ContactProblem& problem, Eigen::VectorXd& impulses) override {
        const Eigen::VectorXd& p = problem.freeVelocity();
        const Eigen::VectorXd g = ny_ + p;
        const double h_y = 0.5 * y_.dot(g + p);
        Eigen::VectorXd xn, nxn;
        for (int tries = 0;; ++tries) {
            xn = project(problem, y_ - g / lipschitz_);
            problem.multiplyDelassus(xn, nxn);
            const double h_xn = 0.5 * xn.dot(nxn) + p.dot(xn);
            const Eigen::VectorXd step = xn - y_;
            const double bound = h_y + g.dot(step) + 0.5 * lipschitz_ * step.squaredNorm();
            // Strict test with a round-off margin: with >= it never ends once xn == y.
            if (h_xn <= bound + 1e-14 * (std::abs(h_y) + std::abs(h_xn)) || tries > 60) break;
            lipschitz_ *= 2.0;
        }
        double theta_next = 0.5 * (-theta_ * theta_ + theta_ * std::sqrt(theta_ * theta_ + 4.0));
        const double beta = theta_ * (1.0 - theta_) / (theta_ * theta_ + theta_next);
        Eigen::VectorXd yn = xn + beta * (xn - x_);
        Eigen::VectorXd nyn = nxn + beta * (nxn - nx_);
        const double residual = coneResidual(problem, xn, nxn + p);
        if (residual < best_residual_) { best_residual_ = residual; best_ = xn; }
        if (g.dot(xn - x_) > 0.0) {  // adaptive restart: the momentum points uphill
            yn = xn;
            nyn = nxn;
            theta_next = 1.0;
        }
        lipschitz_ *= 0.9;
        x_ = std::move(xn);
        nx_ = std::move(nxn);
        y_ = std::move(yn);
        ny_ = std::move(nyn);
        theta_ = theta_next;
        impulses = x_;
        return residual;
    }

    double finish(const ContactProblem&, Eigen::VectorXd& impulses, double) override {
        impulses = best_;
        return best_residual_;
    }

private:
    static Eigen::VectorXd project(const ContactProblem& problem, Eigen::VectorXd v) {
        for (std::size_t i = 0; i < problem.contacts(); ++i) {
            const auto k = static_cast<Eigen::Index>(3 * i);
            v.segment<3>(k) = projectOntoCone(v.segment<3>(k), problem.friction(i));
        }
        return v;
    }

    Eigen::VectorXd x_, nx_, y_, ny_, best_;
    double theta_ = 1.0, lipschitz_ = 1.0, best_residual_ = 0.0;
};

const GrainlabParameter kParameters[] = {GRAINLAB_CONTACT_DYNAMICS_PARAMETERS};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    static const GrainlabPluginDescriptor descriptor = {
        GRAINLAB_PLUGIN_ABI_VERSION, GRAINLAB_KIND_SOLVER, "ccp-apgd", "1.0.0",
        "Nesterov-accelerated projected gradient with backtracking and adaptive restart (Mazhar et al.) on "
        "the cone complementarity problem, exact Coulomb-cone projection; returns the best iterate.",
        kParameters, sizeof(kParameters) / sizeof(kParameters[0]),
        []() -> void* { return static_cast<Solver*>(new AcceleratedProjectedGradient()); },
        [](void* p) { delete static_cast<Solver*>(p); }};
    return &descriptor;
}
