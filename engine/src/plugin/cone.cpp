#include "grainlab/plugin/cone.hpp"

namespace grainlab {

double coneStepSize(const ContactProblem& problem, std::size_t contact) {
    const double trace = problem.diagonalBlock(contact).trace();
    return trace > 0.0 ? 3.0 / trace : 0.0;
}

void contactVelocities(const ContactProblem& problem, const Eigen::VectorXd& velocities, Eigen::VectorXd& d) {
    d.resize(static_cast<Eigen::Index>(3 * problem.contacts()));
    for (std::size_t i = 0; i < problem.contacts(); ++i) {
        const auto k = static_cast<Eigen::Index>(3 * i);
        d.segment<3>(k) = problem.contactVelocity(i, velocities) + problem.freeVelocity().segment<3>(k);
    }
}

double coneResidual(const ContactProblem& problem, const Eigen::VectorXd& impulses, const Eigen::VectorXd& velocity,
                    bool coulomb) {
    double sum = 0.0;
    for (std::size_t i = 0; i < problem.contacts(); ++i) {
        const double eta = coneStepSize(problem, i);
        if (eta <= 0.0) continue;  // a contact between two immovable bodies: nothing to solve
        const auto k = static_cast<Eigen::Index>(3 * i);
        const double mu = problem.friction(i);
        Eigen::Vector3d d = velocity.segment<3>(k);
        if (coulomb) d[0] += mu * std::hypot(d[1], d[2]);
        const Eigen::Vector3d g = impulses.segment<3>(k);
        sum += ((g - projectOntoCone(g - eta * d, mu)) / eta).squaredNorm();
    }
    const double scale = problem.freeVelocity().norm();
    return std::sqrt(sum) / std::max(scale, 1e-300);
}

}  // namespace grainlab
