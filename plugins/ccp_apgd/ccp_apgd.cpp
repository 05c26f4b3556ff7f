// Accelerated projected gradient descent (Mazhar et al. 2015, as in Negrut, Serban, Tasora section 7)
// on the quadratic program whose optimality conditions are the cone complementarity problem:
// Nesterov steps with backtracking on the Lipschitz estimate, adaptive restart, and the best iterate
// kept. The iteration itself is the shared plugin/accelerated_projected_gradient.hpp.
#include <limits>

#include "grainlab/plugin/abi.h"
#include "grainlab/plugin/accelerated_projected_gradient.hpp"
#include "grainlab/plugin/cone.hpp"
#include "grainlab/plugin/solver.hpp"

namespace {
using namespace grainlab;

// h(x) = 1/2 x.N x + p.x over the product of the Coulomb cones.
struct ConeQuadratic {
    const ContactProblem& problem;

    void multiply(const Eigen::VectorXd& x, Eigen::VectorXd& nx) const { problem.multiplyDelassus(x, nx); }
    double value(const Eigen::VectorXd& x, const Eigen::VectorXd& nx) const {
        return 0.5 * x.dot(nx) + problem.freeVelocity().dot(x);
    }
    Eigen::VectorXd gradient(const Eigen::VectorXd&, const Eigen::VectorXd& nx) const { return nx + problem.freeVelocity(); }
    Eigen::VectorXd project(Eigen::VectorXd v) const {
        for (std::size_t i = 0; i < problem.contacts(); ++i) {
            const auto k = static_cast<Eigen::Index>(3 * i);
            v.segment<3>(k) = projectOntoCone(v.segment<3>(k), problem.friction(i));
        }
        return v;
    }
};

class ConeApgd final : public IterativeSolver {
public:
    void configure(const ParameterValues&) override {}

protected:
    void begin(const ContactProblem& problem, const Eigen::VectorXd& impulses) override {
        Eigen::VectorXd nx;
        problem.multiplyDelassus(impulses, nx);
        apgd_.start(impulses, std::move(nx));
        // Lipschitz estimate along a direction that differs from x.
        const Eigen::VectorXd direction = Eigen::VectorXd::Ones(impulses.size());
        Eigen::VectorXd n_direction;
        problem.multiplyDelassus(direction, n_direction);
        apgd_.lipschitz = n_direction.norm() / direction.norm();
        if (!(apgd_.lipschitz > 0.0)) apgd_.lipschitz = 1.0;
        best_ = impulses;
        best_residual_ = std::numeric_limits<double>::infinity();
    }

    double iterate(const ContactProblem& problem, Eigen::VectorXd& impulses) override {
        apgd_.step(ConeQuadratic{problem});
        impulses = apgd_.x();
        const double residual = coneResidual(problem, impulses, apgd_.ax() + problem.freeVelocity());
        if (residual < best_residual_) { best_residual_ = residual; best_ = impulses; }
        return residual;
    }

    double finish(const ContactProblem&, Eigen::VectorXd& impulses, double) override {
        impulses = best_;
        return best_residual_;
    }

private:
    AcceleratedProjectedGradient<ConeQuadratic> apgd_;
    Eigen::VectorXd best_;
    double best_residual_ = 0.0;
};

const GrainlabParameter kParameters[] = {GRAINLAB_CONTACT_DYNAMICS_PARAMETERS};

}  // namespace

extern "C" GRAINLAB_PLUGIN_EXPORT const GrainlabPluginDescriptor* GRAINLAB_PLUGIN_ENTRY(void) {
    static const GrainlabPluginDescriptor descriptor = {
        GRAINLAB_PLUGIN_ABI_VERSION, GRAINLAB_KIND_SOLVER, "ccp-apgd", "1.0.0",
        "Nesterov-accelerated projected gradient with backtracking and adaptive restart (Mazhar et al.) on "
        "the cone complementarity problem, exact Coulomb-cone projection; returns the best iterate.",
        kParameters, sizeof(kParameters) / sizeof(kParameters[0]),
        []() -> void* { return static_cast<Solver*>(new ConeApgd()); },
        [](void* p) { delete static_cast<Solver*>(p); }};
    return &descriptor;
}
