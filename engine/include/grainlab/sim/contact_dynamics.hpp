#pragma once
// Rigid contact dynamics, one step (Negrut, Serban, Tasora; Preclik et al.): contacts within an
// envelope, per contact a frame and the blocks of D and N = D^T M^-1 D (matrix-free), free
// velocities with stabilisation, a solver plugin for the impulses, then the velocity and position
// update. Shape-agnostic: it sees only the narrow phase's contact list (rigid_contacts.hpp).
#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "grainlab/plugin/parameters.hpp"
#include "grainlab/plugin/post_step.hpp"
#include "grainlab/plugin/solver.hpp"
#include "grainlab/sim/rigid_contacts.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

struct ContactDynamicsSettings {
    double envelope = 0.0;            // delta_K: contacts with gap below this are built
    double max_recovery_speed = 0.6;  // cap on the penetration-removal speed
    double error_reduction = 1.0;     // Preclik's eps: fraction of a penetration removed per step
    bool restitution = false;         // Newton restitution for approaching touching contacts
    bool warm_start = true;
    SolverSettings solver;
    // From a solver plugin's resolved parameters (GRAINLAB_CONTACT_DYNAMICS_PARAMETERS);
    // `default_envelope` replaces the -1 ("automatic") value.
    static ContactDynamicsSettings from(const ParameterValues& values, double default_envelope);
};

// The cone complementarity problem of one step, assembled from bodies and contacts.
class ContactSystem final : public ContactProblem {
public:
    // Uses masses, inertias, orientations and velocities of `bodies`; gravity and the gyroscopic
    // torque are the applied loads.
    void assemble(const Bodies& bodies, const std::vector<RigidContact>& contacts, const Vec3& gravity, double dt,
                  const ContactDynamicsSettings& settings, int threads);

    std::size_t contacts() const override { return a_.size(); }
    double friction(std::size_t i) const override { return mu_[i]; }
    void multiplyDelassus(const Eigen::VectorXd& impulses, Eigen::VectorXd& out) const override;
    Eigen::Matrix3d diagonalBlock(std::size_t i) const override { return diagonal_[i]; }
    const Eigen::VectorXd& freeVelocity() const override { return p_; }
    std::size_t velocitySize() const override { return 6 * inv_mass_.size(); }
    void velocityChange(const Eigen::VectorXd& impulses, Eigen::VectorXd& velocities) const override;
    Eigen::Vector3d contactVelocity(std::size_t i, const Eigen::VectorXd& velocities) const override;
    void addImpulse(std::size_t i, const Eigen::Vector3d& impulse, Eigen::VectorXd& velocities) const override;
    ContactElasticity elasticity(std::size_t i) const override { return elasticity_[i]; }

    const Mat3& frame(std::size_t i) const { return frame_[i]; }  // columns n, u, w
    // The bodies of contact i: a, and b or -1 for a wall (sparse assembly of N, benchmarks).
    std::uint32_t bodyA(std::size_t i) const { return a_[i]; }
    std::int64_t bodyB(std::size_t i) const { return b_[i]; }
    // Body velocities (v, w per body) before impulses.
    const Eigen::VectorXd& freeBodyVelocity() const { return free_; }
    // The world wrench D gamma on each body (force, torque about its centre), 6 per body.
    Eigen::VectorXd wrench(const Eigen::VectorXd& impulses) const;

private:
    static constexpr std::int64_t kNone = -1;
    std::vector<std::uint32_t> a_;
    std::vector<std::int64_t> b_;       // body index or kNone (wall)
    std::vector<Mat3> frame_, diagonal_;
    std::vector<Vec3> ra_, rb_;
    std::vector<double> mu_;
    std::vector<ContactElasticity> elasticity_;
    std::vector<double> inv_mass_;
    std::vector<Mat3> inv_inertia_;     // world frame
    // Per body, the contacts touching it: CSR, entry = 2 * contact + (1 if the body is b).
    std::vector<std::uint32_t> body_start_, body_entries_;
    Eigen::VectorXd p_, free_;
    int threads_ = 1;
};

struct ContactDynamicsResult {
    SolverReport report;
    SolverReport post_step;   // when a post-step ran
    double dissipated = 0.0;  // kinetic energy removed by the impulses
};

// The step pipeline with warm starts carried across steps by contact identity.
class ContactDynamics {
public:
    ContactDynamicsSettings settings;

    // Solves the impulses for `contacts` and advances velocities, positions and orientations of the
    // free bodies by dt. bodies.force/torque become contact forces (impulse / dt) plus gravity;
    // a post-step, if given, replaces the impulses they come from (not the motion).
    ContactDynamicsResult step(Bodies& bodies, const std::vector<RigidContact>& contacts, Solver& solver,
                               const Vec3& gravity, double dt, int threads, PostStep* post_step = nullptr);

    const ContactSystem& system() const { return system_; }
    const Eigen::VectorXd& impulses() const { return impulses_; }  // of the last step, contact frames
    // The impulses the last step's solve began from (its warm start, contact frames; zero for new
    // contacts): with system(), the problem the solver was handed (benchmarks).
    const Eigen::VectorXd& lastWarmStart() const { return warm_start_; }

    // The warm start the next step begins from (checkpoints save and restore it).
    const std::vector<ContactKey>& warmStartKeys() const { return previous_keys_; }
    const std::vector<Vec3>& warmStartImpulses() const { return previous_impulses_; }
    // False (nothing changed) when the keys are not sorted or the sizes differ.
    bool restoreWarmStart(std::vector<ContactKey> keys, std::vector<Vec3> impulses);

private:
    void warmStart(const std::vector<RigidContact>& contacts);
    void remember(const std::vector<RigidContact>& contacts);

    ContactSystem system_;
    Eigen::VectorXd impulses_, warm_start_;
    std::vector<ContactKey> previous_keys_;   // sorted
    std::vector<Vec3> previous_impulses_;     // world frame, in the order of previous_keys_
};

// Moves free bodies by their velocities over dt (orientations rotated exactly and renormalised).
void advancePositions(Bodies& bodies, double dt, int threads);

}  // namespace grainlab
