// The maximum-dissipation NBGS solver (seed 001, Preclik, Eibl, Ruede): the paper's constructed
// single-contact problem (Table 1), the Painleve rod's sticking threshold mu*, optimality against
// dense sampling, and agreement of Gauss-Seidel and weighted Jacobi sweeps.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "rigid_support.hpp"

using namespace grainlab;

namespace {

// One contact with an explicit Delassus block A and right-hand side p = -b (so d = A x - b).
class SingleContact final : public ContactProblem {
public:
    SingleContact(const Eigen::Matrix3d& a, const Eigen::Vector3d& b, double mu) : a_(a), p_(-b), mu_(mu) {}
    std::size_t contacts() const override { return 1; }
    double friction(std::size_t) const override { return mu_; }
    void multiplyDelassus(const Eigen::VectorXd& x, Eigen::VectorXd& out) const override { out = a_ * x; }
    Eigen::Matrix3d diagonalBlock(std::size_t) const override { return a_; }
    const Eigen::VectorXd& freeVelocity() const override { return p_; }
    std::size_t velocitySize() const override { return 3; }
    void velocityChange(const Eigen::VectorXd& x, Eigen::VectorXd& v) const override { v = a_ * x; }
    Eigen::Vector3d contactVelocity(std::size_t, const Eigen::VectorXd& v) const override { return v; }
    void addImpulse(std::size_t, const Eigen::Vector3d& x, Eigen::VectorXd& v) const override { v += a_ * x; }

private:
    Eigen::Matrix3d a_;
    Eigen::VectorXd p_;
    double mu_;
};

Eigen::Vector3d solveSingle(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, double mu) {
    auto solver = test::solver("nbgs-maxdiss");
    SingleContact problem(A, b, mu);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
    SolverSettings settings;
    settings.max_iterations = 3;
    solver->solve(problem, x, settings);
    return x;
}

double objective(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, const Eigen::Vector3d& x) {
    return 0.5 * x.dot(A * x) - x.dot(b);
}

double roundTo(double x, int decimals) { return std::round(x * std::pow(10.0, decimals)) / std::pow(10.0, decimals); }

Mat3 skewOf(const Vec3& r) {
    Mat3 m;
    m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
    return m;
}

// The Painleve rod's impact impulse in world coordinates, through the engine's assembly: a rod of
// length l along its body x axis, tilted by theta, its lower tip on the plane y = 0, sliding at -v0 e_x.
Vec3 painleveImpulse(double theta, double mu) {
    const double m = 2.0, l = 1.5, v0 = 0.7;
    Bodies bodies;
    const Quat q(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
    const Vec3 centre = 0.5 * l * Vec3(std::cos(theta), std::sin(theta), 0);
    bodies.push(0, 0, 0, 0.5 * l, m, Vec3(1e-9, m * l * l / 12, m * l * l / 12), false, centre, q, Vec3(-v0, 0, 0),
                Vec3::Zero());
    RigidContact c;
    c.key = {0, -1, 0};
    c.point = Vec3::Zero();
    c.normal = Vec3::UnitY();
    c.gap = 0.0;
    c.friction = mu;
    ContactSystem system;
    system.assemble(bodies, {c}, Vec3::Zero(), 1e-3, test::tightSettings(), 1);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
    auto solver = test::solver("nbgs-maxdiss");
    solver->solve(system, x, test::tightSettings().solver);
    return system.frame(0) * x.head<3>();
}

}  // namespace

TEST_CASE("Maximum dissipation: the constructed single-contact problem of Table 1", "[maxdiss]") {
    // Preclik et al., section 4.1, with the frame t = n x e_x, o = n x t as printed (not unit length:
    // note errata 3). Table 1: x = (1.6, -1.1, -5.8), A x - b = (0, -0.057, 0.034), objective -0.634.
    const double dx = 10, dy = 1, dz = 1, mx = 0.03, my = 65, mz = 50;
    const Vec3 inertia = 2.0 * Vec3(my * dy * dy + mz * dz * dz, mx * dx * dx + mz * dz * dz, mx * dx * dx + my * dy * dy);
    const Mat3 ex = skewOf(Vec3::UnitX());
    const Mat3 K = Mat3::Identity() / (2.0 * (mx + my + mz)) - dx * dx * ex * inertia.cwiseInverse().asDiagonal() * ex;
    const Vec3 n = Vec3(0.25, 0.36, -0.9).normalized();
    const Vec3 t = n.cross(Vec3::UnitX());
    Mat3 Q;
    Q << n, t, n.cross(t);
    const Eigen::Matrix3d A = Q.transpose() * K * Q;
    const Eigen::Vector3d b = Q.transpose() * Vec3(0.06, 0.7, 0.23);
    const Eigen::Vector3d x = solveSingle(A, b, 3.7);
    const Eigen::Vector3d slip = A * x - b;
    CHECK(roundTo(x[0], 1) == Approx(1.6));
    CHECK(roundTo(x[1], 1) == Approx(-1.1));
    CHECK(roundTo(x[2], 1) == Approx(-5.8));
    CHECK(std::abs(slip[0]) < 1e-9);
    CHECK(roundTo(slip[1], 3) == Approx(-0.057));
    CHECK(roundTo(slip[2], 3) == Approx(0.034));
    CHECK(roundTo(objective(A, b, x), 3) == Approx(-0.634));
    // On the cone's boundary (sliding).
    CHECK(std::hypot(x[1], x[2]) == Approx(3.7 * x[0]).epsilon(1e-9));
}

TEST_CASE("Maximum dissipation: the Painleve rod sticks for mu >= mu* and takes no impulse below", "[maxdiss]") {
    // Preclik et al., section 4.2: mu*(theta) = (5 + 3 cos 2theta) / (3 sin 2theta); the sticking
    // impulse is Lambda0 = (m v0 / 8) (5 + 3 cos 2theta, 3 sin 2theta, 0) (world x, y, z).
    const double m = 2.0, v0 = 0.7;
    for (double degrees : {45.0, 60.0}) {
        const double theta = degrees * kPi / 180.0;
        const double mu_star = (5.0 + 3.0 * std::cos(2 * theta)) / (3.0 * std::sin(2 * theta));
        const Vec3 stick = m * v0 / 8.0 * Vec3(5.0 + 3.0 * std::cos(2 * theta), 3.0 * std::sin(2 * theta), 0.0);
        INFO("theta " << degrees << " mu* " << mu_star);
        CHECK((painleveImpulse(theta, 1.2 * mu_star) - stick).norm() < 1e-9 * stick.norm());
        CHECK((painleveImpulse(theta, mu_star * (1.0 + 1e-9)) - stick).norm() < 1e-6 * stick.norm());
        CHECK(painleveImpulse(theta, 0.9 * mu_star).norm() == 0.0);
    }
}

TEST_CASE("Maximum dissipation: feasible and not beaten by dense sampling of the cone's boundary", "[maxdiss]") {
    // Optimality: the solution lies in the cone on the plane a_n^T x = b_n, and no boundary point of
    // the feasible conic section (sampled at 10^4 angles) has a lower objective.
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (int trial = 0; trial < 200; ++trial) {
        Eigen::Matrix3d R;
        for (int k = 0; k < 9; ++k) R(k / 3, k % 3) = uniform(random);
        const Eigen::Matrix3d A = R * R.transpose() + 0.05 * Eigen::Matrix3d::Identity();
        const Eigen::Vector3d b(std::abs(uniform(random)) + 0.01, uniform(random), uniform(random));
        const double mu = 0.1 + 2.0 * std::abs(uniform(random));
        const Eigen::Vector3d x = solveSingle(A, b, mu);
        INFO("trial " << trial);
        REQUIRE(std::hypot(x[1], x[2]) <= mu * x[0] * (1 + 1e-9) + 1e-12);
        CHECK(std::abs(A.row(0).dot(x) - b[0]) < 1e-9 * (1 + b.norm()));
        double sampled = objective(A, b, Eigen::Vector3d(b[0] / A(0, 0), 0, 0));  // an interior point
        for (int k = 0; k < 10000; ++k) {
            const double al = 2.0 * kPi * k / 10000.0;
            const double fr = A(0, 0) + mu * (A(0, 1) * std::cos(al) + A(0, 2) * std::sin(al));
            if (fr <= 0.0) continue;
            const double r = mu * b[0] / fr;
            const Eigen::Vector3d y((b[0] - A(0, 1) * r * std::cos(al) - A(0, 2) * r * std::sin(al)) / A(0, 0),
                                    r * std::cos(al), r * std::sin(al));
            sampled = std::min(sampled, objective(A, b, y));
        }
        CHECK(objective(A, b, x) <= sampled + 1e-9 * std::abs(sampled));
    }
}

TEST_CASE("NBGS and weighted Jacobi reach the same impulses on a sphere stack", "[maxdiss]") {
    // Preclik et al., section 5: with sphere contacts the maximum-dissipation impulse is Coulomb's;
    // the fixed point of the sweep does not depend on Gauss-Seidel or Jacobi ordering.
    std::vector<Eigen::VectorXd> impulses;
    for (double jacobi : {0.0, 1.0}) {
        Scene scene = test::emptyScene();
        scene.gravity = Vec3(0, 0, -9.81);
        scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
        for (int k = 0; k < 4; ++k) scene.bodies.push_back(test::sphere(Vec3(0.01 * k, 0, 0.5 + k), Vec3(0.05 * k, 0, 0)));
        scene.time_step = 1e-3;
        scene.solver = PluginChoice{"nbgs-maxdiss", {{"jacobi", jacobi}, {"max_iterations", 20000}, {"tolerance", 1e-12}}};
        Simulation sim(scene, test::builtPlugins());
        sim.step();
        CHECK(sim.solverReport().converged);
        impulses.push_back(sim.contactDynamics().impulses());
    }
    REQUIRE(impulses[0].size() == impulses[1].size());
    CHECK((impulses[0] - impulses[1]).norm() < 1e-9 * impulses[0].norm());
}

TEST_CASE("Resting box and sphere stack: all four solvers give the same velocities", "[maxdiss][uniqueness]") {
    // At rest the CCP's relaxation term mu v_T is zero, so CCP and maximum-dissipation Coulomb
    // contacts share the velocity solution (sticking, v = 0), whatever the non-unique impulses.
    std::vector<std::string> names = test::ccpSolvers();
    names.push_back("nbgs-maxdiss");
    const Vec3 h(0.6, 0.4, 0.3);
    const Vec3 gravity = 9.81 * Vec3(std::sin(0.2), 0, -std::cos(0.2));  // tan 0.2 < mu = 0.5
    std::vector<std::vector<Vec3>> velocities;
    for (const std::string& name : names) {
        INFO(name);
        Bodies bodies;
        test::addBox(bodies, h, 2.0, Vec3(0, 0, h.z()));
        auto solver = test::solver(name);
        ContactDynamics dynamics;
        dynamics.settings = test::tightSettings();
        for (int k = 0; k < 5; ++k)
            dynamics.step(bodies, test::boxFloorContacts(bodies, 0, h, 0.5, 0.01), *solver, gravity, 1e-3, 1);
        Scene scene = test::emptyScene();
        scene.gravity = gravity;
        scene.materials[0].friction = 0.5;
        scene.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
        for (int k = 0; k < 3; ++k) scene.bodies.push_back(test::sphere(Vec3(0, 0, 0.5 + k), Vec3::Zero()));
        scene.time_step = 1e-3;
        scene.solver = PluginChoice{name, {{"max_iterations", 20000}, {"tolerance", 1e-12}}};
        Simulation sim(scene, test::builtPlugins());
        for (int k = 0; k < 5; ++k) sim.step();
        std::vector<Vec3> v = sim.bodies().velocity;
        v.push_back(bodies.velocity[0]);
        v.push_back(bodies.angular_velocity[0]);
        velocities.push_back(v);
    }
    for (std::size_t s = 0; s < velocities.size(); ++s)
        for (std::size_t i = 0; i < velocities[s].size(); ++i) {
            INFO(names[s] << " entry " << i);
            CHECK((velocities[s][i] - velocities[0][i]).norm() < 1e-8);
        }
}
