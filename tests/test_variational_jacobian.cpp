// The variational integrator's Newton matrix against finite differences of its residual.
#include <catch2/catch.hpp>
#include <random>

#include "../plugins/variational/variational_step.hpp"
#include "grainlab/sim/material_pairs.hpp"
#include "variational_support.hpp"

using namespace grainlab;
using namespace grainlab::test::deklerk;
using grainlab::test::builtPlugins;

namespace {

// Largest relative difference between the columns of S and -dR/du by central differences, at a random
// displacement of a compressed cluster of spheres, one of them on the floor, all moving and spinning.
double jacobianError(double alpha, double gamma_n) {
    Scene s = scene("variational", gamma_n, alpha);
    s.gravity = Vec3(0, 0, -1);
    std::mt19937 random(3);
    std::uniform_real_distribution<double> jitter(-1.0, 1.0);
    const Vec3 centres[] = {{0, 0, 0.495}, {0.985, 0.05, 0.5}, {0.49, 0.85, 0.52}, {0.5, 0.3, 1.3}};
    for (const Vec3& c : centres) {
        BodySpec b = test::sphere(c, Vec3(jitter(random), jitter(random), jitter(random)), kRadius);
        b.angular_velocity = Vec3(jitter(random), jitter(random), jitter(random));
        s.bodies.push_back(b);
    }
    s.planes.push_back({"floor", Vec3::Zero(), Vec3::UnitZ(), "grain", {}});
    s.time_step = kPairContactTime / 20.0;
    s.max_initial_overlap = 0.2;
    Simulation sim(s, builtPlugins());
    sim.updateForces();

    Bodies bodies = sim.bodies();
    const MaterialPairTable materials = mixMaterials(s.materials);
    auto model = builtPlugins().createContactModel(s.contact_model, "test");
    const Vec3 x0 = bodies.position[0];
    std::vector<WallContact> walls = {{0, 0, 0, 0, Vec3::UnitZ(), kRadius - x0.z(), Vec3(x0.x(), x0.y(), 0), Vec3::Zero()}};
    const PeriodicBox box;
    const FrozenContacts contacts{sim.state().pairs, walls, box, materials, *model, s.gravity, 0.1};
    StepContext ctx{bodies, s.time_step, 1, [] {}, &contacts, {}};
    variational::Settings settings;
    settings.alpha = alpha;
    variational::VariationalStep step;
    step.prepare(ctx, settings);

    // A displacement near the step's solution: free flight plus a small random part.
    variational::VariationalStep::Vector u(6 * bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        u.segment<3>(6 * i) = s.time_step * bodies.velocity[i];
        u.segment<3>(6 * i + 3) = s.time_step * bodies.angular_velocity[i];
    }
    for (Eigen::Index k = 0; k < u.size(); ++k) u[k] += 1e-5 * jitter(random);
    const Eigen::MatrixXd S = Eigen::MatrixXd(step.matrixAt(u)).selfadjointView<Eigen::Lower>();
    double worst = 0.0;
    const double eps = 1e-9;
    for (Eigen::Index k = 0; k < u.size(); ++k) {
        variational::VariationalStep::Vector up = u, down = u, r_up, r_down;
        up[k] += eps;
        down[k] -= eps;
        step.residualAt(up, r_up);
        step.residualAt(down, r_down);
        const Eigen::VectorXd numeric = -(r_up - r_down) / (2 * eps);
        worst = std::max(worst, (S.col(k) - numeric).norm() / S.col(k).norm());
    }
    return worst;
}

}  // namespace

TEST_CASE("Variational Newton matrix is the derivative of the residual", "[variational]") {
    // Notes, section 5: S = -dR/dq_k+1 = M/h + h alpha (1-alpha) H + C/2 - (h alpha/2) dQ/dq. The
    // plugin keeps every term but the last, so S is exact without dashpots (both alpha) and for
    // alpha = 0; for alpha = 1/2 with dashpots the left-out velocity-gradient term shows, but stays small
    // against M/h (quasi-Newton). Central differences of R, relative error per column.
    const double undamped_midpoint = jacobianError(0.5, 0.0);
    const double damped_first_order = jacobianError(0.0, 60.0);
    const double damped_midpoint = jacobianError(0.5, 60.0);
    INFO("relative column errors: undamped alpha = 1/2 " << undamped_midpoint << ", damped alpha = 0 "
                                                         << damped_first_order << ", damped alpha = 1/2 "
                                                         << damped_midpoint);
    CHECK(undamped_midpoint < 1e-6);
    CHECK(damped_first_order < 1e-6);
    CHECK(damped_midpoint < 1e-3);
    CHECK(damped_midpoint > undamped_midpoint);  // the left-out term is really there
}
