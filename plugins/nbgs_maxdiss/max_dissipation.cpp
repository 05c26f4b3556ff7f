#include "max_dissipation.hpp"

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

namespace grainlab::maxdiss {
namespace {

using Complex = std::complex<double>;

// The problem reduced to the plane of maximum compression a_n^T x = b_n, in polar form
// x_to = r (cos al, sin al) (paper section 3.2; the implementation note's section 5).
struct Reduced {
    const Eigen::Matrix3d& A;
    const Eigen::Vector3d& b;
    double mu;
    Eigen::Matrix2d Ahat;
    Eigen::Vector2d bhat;
    double s, al0;

    Reduced(const Eigen::Matrix3d& a, const Eigen::Vector3d& bb, double friction) : A(a), b(bb), mu(friction) {
        const double ann = A(0, 0), ant = A(0, 1), ano = A(0, 2);
        Ahat << A(1, 1) - ant * ant / ann, A(1, 2) - ant * ano / ann, A(1, 2) - ant * ano / ann, A(2, 2) - ano * ano / ann;
        bhat << b[1] - ant * b[0] / ann, b[2] - ano * b[0] / ann;
        s = std::hypot(ant, ano);
        al0 = std::atan2(ano, ant);
    }
    double fr(double al) const { return A(0, 0) + mu * s * std::cos(al - al0); }
    Eigen::Vector2d direction(double al) const { return {std::cos(al), std::sin(al)}; }
    // The objective along the cone's boundary (constant -b_n^2 / (2 A_nn) dropped).
    double boundaryObjective(double al) const {
        const Eigen::Vector2d g = mu * b[0] / fr(al) * direction(al);
        return 0.5 * g.dot(Ahat * g) - g.dot(bhat);
    }
    // Stationarity g(al) = 0 in the pole-free form; and its derivative for Newton polishing.
    double k, c0, X1, Y1, X2, Y2;
    void coefficients() {
        const double ann = A(0, 0), ant = A(0, 1), ano = A(0, 2), att = A(1, 1), aoo = A(2, 2), ato = A(1, 2);
        const double bn = b[0], bt = b[1], bo = b[2], mu2 = mu * mu;
        k = 0.5 * mu * ann;
        c0 = 1.5 * mu * ann * (ano * bt - ant * bo);
        X1 = mu2 * ((ant * ato - ano * att) * bn + ant * ano * bt - ant * ant * bo) - ann * ann * bo + ann * ano * bn;
        Y1 = mu2 * ((ano * ato - ant * aoo) * bn - ano * ano * bt + ant * ano * bo) - ann * ann * bt + ann * ant * bn;
        X2 = 2.0 * ato * bn - ano * bt - ant * bo;
        Y2 = (att - aoo) * bn - ant * bt + ano * bo;
    }
    double g(double al) const {
        return c0 + X1 * std::cos(al) - Y1 * std::sin(al) + k * (X2 * std::cos(2 * al) - Y2 * std::sin(2 * al));
    }
    double dg(double al) const {
        return -X1 * std::sin(al) - Y1 * std::cos(al) - 2.0 * k * (X2 * std::sin(2 * al) + Y2 * std::cos(2 * al));
    }
    Eigen::Vector3d lift(const Eigen::Vector2d& to) const {
        return {(b[0] - A(0, 1) * to[0] - A(0, 2) * to[1]) / A(0, 0), to[0], to[1]};
    }
};

// Roots of a polynomial (coefficients in descending powers) by the companion matrix, after
// stripping zero leading and trailing coefficients (sphere contacts lose the outer ones).
std::vector<Complex> polynomialRoots(std::vector<Complex> c) {
    double scale = 0.0;
    for (const Complex& x : c) scale = std::max(scale, std::abs(x));
    const double zero = 1e-14 * scale;
    while (!c.empty() && std::abs(c.front()) <= zero) c.erase(c.begin());
    while (!c.empty() && std::abs(c.back()) <= zero) c.pop_back();  // roots at y = 0: off the circle
    const int degree = static_cast<int>(c.size()) - 1;
    if (degree < 1) return {};
    Eigen::MatrixXcd companion = Eigen::MatrixXcd::Zero(degree, degree);
    for (int j = 0; j < degree; ++j) companion(0, j) = -c[static_cast<std::size_t>(j + 1)] / c[0];
    for (int j = 1; j < degree; ++j) companion(j, j - 1) = 1.0;
    const Eigen::ComplexEigenSolver<Eigen::MatrixXcd> solver(companion, false);
    std::vector<Complex> roots;
    for (int j = 0; j < degree; ++j) roots.push_back(solver.eigenvalues()[j]);
    return roots;
}

// Minimum of the boundary objective over the feasible angles: quartic roots, or (if round-off
// leaves none) a sampled bracket refined by golden sections.
double bestAngle(Reduced& q) {
    q.coefficients();
    const Complex i(0.0, 1.0);
    const std::vector<Complex> roots = polynomialRoots(
        {q.k * (q.X2 + i * q.Y2), q.X1 + i * q.Y1, 2.0 * q.c0, q.X1 - i * q.Y1, q.k * (q.X2 - i * q.Y2)});
    double best = std::numeric_limits<double>::quiet_NaN(), best_value = std::numeric_limits<double>::infinity();
    for (const Complex& y : roots) {
        if (std::abs(std::abs(y) - 1.0) > 1e-6) continue;
        double al = std::arg(y);
        for (int n = 0; n < 3; ++n) {  // Newton polish
            const double slope = q.dg(al);
            if (slope == 0.0) break;
            al -= q.g(al) / slope;
        }
        if (!(q.fr(al) > 0.0)) continue;
        const double value = q.boundaryObjective(al);
        if (value < best_value) { best_value = value; best = al; }
    }
    if (!std::isnan(best)) return best;
    // Feasible interval: all angles for an ellipse, (al0 - dal, al0 + dal) otherwise.
    const bool ellipse = q.A(0, 0) > q.mu * q.s;
    const double half = ellipse ? M_PI : std::acos(-q.A(0, 0) / (q.mu * q.s)) * (1.0 - 1e-9);
    const int samples = 720;
    double lo = q.al0 - half, step = 2.0 * half / samples;
    int best_k = 0;
    for (int k = 0; k <= samples; ++k) {
        const double value = q.boundaryObjective(lo + k * step);
        if (value < best_value) { best_value = value; best_k = k; }
    }
    double a = lo + std::max(0, best_k - 1) * step, c = lo + std::min(samples, best_k + 1) * step;
    const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
    for (int n = 0; n < 60; ++n) {
        const double x1 = c - ratio * (c - a), x2 = a + ratio * (c - a);
        if (q.boundaryObjective(x1) < q.boundaryObjective(x2)) c = x2; else a = x1;
    }
    return 0.5 * (a + c);
}

}  // namespace

Eigen::Vector3d solveContact(const Eigen::Matrix3d& A, const Eigen::Vector3d& b_in, double mu) {
    // b_n within round-off of 0 counts as 0: a touching, non-colliding contact (the sweep feeds
    // b_n = (A l)_n - d_n, which cancels to 1e-17 when the contact is in steady sliding or sticking).
    const double zero = 1e-12 * b_in.norm();
    if (b_in[0] < -zero) return Eigen::Vector3d::Zero();             // separating
    Eigen::Vector3d b = b_in;
    if (b[0] <= zero) b[0] = 0.0;
    if (mu <= 0.0) return {b[0] / A(0, 0), 0.0, 0.0};                 // frictionless
    const Eigen::Vector3d x0 = A.ldlt().solve(b);
    if (x0[0] >= 0.0 && std::hypot(x0[1], x0[2]) <= mu * x0[0]) return x0;  // P1: sticking
    Reduced q(A, b, mu);
    if (b[0] == 0.0) {                                                 // apex or wedge
        if (A(0, 0) > mu * q.s) return Eigen::Vector3d::Zero();       // P2
        // Rays at al0 -/+ dal; both are tried (the paper's side test misses in ~1.5% of cases).
        const double dal = std::acos(std::max(-1.0, -A(0, 0) / (mu * q.s)));
        Eigen::Vector2d best = Eigen::Vector2d::Zero();
        double best_value = 0.0;
        for (double al : {q.al0 - dal, q.al0 + dal}) {
            const Eigen::Vector2d u = q.direction(al);
            const double r = std::max(0.0, u.dot(q.bhat) / u.dot(q.Ahat * u));
            const double value = 0.5 * r * r * u.dot(q.Ahat * u) - r * u.dot(q.bhat);
            if (value < best_value) { best_value = value; best = r * u; }
        }
        return q.lift(best);
    }
    const double al = bestAngle(q);
    return q.lift(q.mu * b[0] / q.fr(al) * q.direction(al));
}

}  // namespace grainlab::maxdiss
