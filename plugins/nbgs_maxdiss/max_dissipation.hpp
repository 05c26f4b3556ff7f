#pragma once
// The analytic single-contact solver of Preclik, Eibl and Ruede (Algorithm 1): the impulse x that
// minimises 1/2 x^T A x - x^T b over the Coulomb cone ||x_to|| <= mu x_n with the purely inelastic
// conditions (a_n^T x - b_n >= 0 complementary to x_n >= 0), order (n, t, o), A symmetric positive
// definite. The maximally dissipative impulse is unique.
#include <Eigen/Core>

namespace grainlab::maxdiss {

Eigen::Vector3d solveContact(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, double mu);

}  // namespace grainlab::maxdiss
