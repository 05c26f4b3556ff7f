#include "grainlab/sim/contact_dynamics.hpp"

#include <algorithm>
#include <cmath>

#include "grainlab/core/parallel.hpp"
#include "grainlab/plugin/integrator.hpp"

namespace grainlab {
namespace {

Mat3 skew(const Vec3& r) {
    Mat3 m;
    m << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
    return m;
}

// Orthonormal (n, u, w) with u, w chosen from the axis least aligned with n (deterministic).
Mat3 contactFrame(const Vec3& n) {
    Eigen::Index axis = 0;
    n.cwiseAbs().minCoeff(&axis);
    const Vec3 u = n.cross(Vec3::Unit(axis)).normalized();
    Mat3 q;
    q.col(0) = n;
    q.col(1) = u;
    q.col(2) = n.cross(u);
    return q;
}

// (1/m) E - r^x I^-1 r^x: the point mobility of a body at lever arm r.
Mat3 pointMobility(double inv_mass, const Mat3& inv_inertia, const Vec3& r) {
    const Mat3 rx = skew(r);
    return inv_mass * Mat3::Identity() - rx * inv_inertia * rx;
}

}  // namespace

ContactDynamicsSettings ContactDynamicsSettings::from(const ParameterValues& values, double default_envelope) {
    ContactDynamicsSettings s;
    s.solver.max_iterations = static_cast<int>(values.get("max_iterations"));
    s.solver.tolerance = values.get("tolerance");
    s.envelope = values.get("envelope") < 0.0 ? default_envelope : values.get("envelope");
    s.max_recovery_speed = values.get("max_recovery_speed");
    s.error_reduction = values.get("error_reduction");
    s.restitution = values.flag("restitution");
    s.warm_start = values.flag("warm_start");
    return s;
}

void ContactSystem::assemble(const Bodies& bodies, const std::vector<RigidContact>& contacts, const Vec3& gravity,
                             double dt, const ContactDynamicsSettings& settings, int threads) {
    threads_ = std::max(1, threads);
    const std::size_t nb = bodies.size();
    inv_mass_.assign(nb, 0.0);
    inv_inertia_.assign(nb, Mat3::Zero());
    free_.setZero(static_cast<Eigen::Index>(6 * nb));
    parallelRanges(nb, threads_, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const auto k = static_cast<Eigen::Index>(6 * i);
            free_.segment<3>(k) = bodies.velocity[i];
            free_.segment<3>(k + 3) = bodies.angular_velocity[i];
            if (bodies.frozen[i] || bodies.inv_mass[i] == 0.0) continue;
            const Mat3 r = bodies.orientation[i].toRotationMatrix();
            inv_mass_[i] = bodies.inv_mass[i];
            inv_inertia_[i] = r * bodies.inv_inertia[i].asDiagonal() * r.transpose();
            const Mat3 inertia = r * bodies.inertia[i].asDiagonal() * r.transpose();
            const Vec3& w = bodies.angular_velocity[i];
            free_.segment<3>(k) += dt * gravity;
            free_.segment<3>(k + 3) -= dt * inv_inertia_[i] * w.cross(inertia * w);  // gyroscopic torque
        }
    });

    const std::size_t nc = contacts.size();
    a_.resize(nc);
    b_.resize(nc);
    frame_.resize(nc);
    diagonal_.resize(nc);
    ra_.resize(nc);
    rb_.resize(nc);
    mu_.resize(nc);
    elasticity_.resize(nc);
    p_.resize(static_cast<Eigen::Index>(3 * nc));
    parallelRanges(nc, threads_, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const RigidContact& c = contacts[i];
            a_[i] = c.key.a;
            b_[i] = c.key.b >= 0 ? c.key.b : kNone;
            frame_[i] = contactFrame(c.normal);
            mu_[i] = c.friction;
            elasticity_[i] = {c.effective_youngs, c.effective_radius};
            ra_[i] = c.point - bodies.position[a_[i]];
            Mat3 mobility = pointMobility(inv_mass_[a_[i]], inv_inertia_[a_[i]], ra_[i]);
            Vec3 relative = Vec3::Zero(), relative_now = Vec3::Zero();
            {
                const auto k = static_cast<Eigen::Index>(6 * a_[i]);
                relative = free_.segment<3>(k) + free_.segment<3>(k + 3).cross(ra_[i]);
                relative_now = bodies.velocity[a_[i]] + bodies.angular_velocity[a_[i]].cross(ra_[i]);
            }
            if (b_[i] != kNone) {
                const auto j = static_cast<std::size_t>(b_[i]);
                rb_[i] = c.point - (bodies.position[j] + c.b_image_shift);
                mobility += pointMobility(inv_mass_[j], inv_inertia_[j], rb_[i]);
                const auto k = static_cast<Eigen::Index>(6 * j);
                relative -= free_.segment<3>(k) + free_.segment<3>(k + 3).cross(rb_[i]);
                relative_now -= bodies.velocity[j] + bodies.angular_velocity[j].cross(rb_[i]);
            } else {
                rb_[i] = Vec3::Zero();
                relative -= c.wall_velocity;
                relative_now -= c.wall_velocity;
            }
            diagonal_[i] = frame_[i].transpose() * mobility * frame_[i];
            Vec3 d = frame_[i].transpose() * relative;
            // Stabilisation: the gap closes within the step (Phi/dt); penetrations are removed at
            // the rate eps (Preclik) and no faster than the recovery-speed cap (Negrut et al.).
            const double approach = c.normal.dot(relative_now);
            if (settings.restitution && c.gap <= 0.0 && approach < 0.0)
                d[0] += c.restitution * approach;  // Newton: v_n+ >= -e v_n-
            else {
                const double gap = settings.error_reduction * std::min(0.0, c.gap) + std::max(0.0, c.gap);
                d[0] += std::max(gap / dt, -settings.max_recovery_speed);
            }
            p_.segment<3>(static_cast<Eigen::Index>(3 * i)) = d;
        }
    });

    // Body -> contact incidence, in contact order within each body (a deterministic gather).
    body_start_.assign(nb + 1, 0);
    for (std::size_t i = 0; i < nc; ++i) {
        ++body_start_[a_[i] + 1];
        if (b_[i] != kNone) ++body_start_[static_cast<std::size_t>(b_[i]) + 1];
    }
    for (std::size_t i = 0; i < nb; ++i) body_start_[i + 1] += body_start_[i];
    body_entries_.resize(body_start_[nb]);
    std::vector<std::uint32_t> fill(body_start_.begin(), body_start_.end() - 1);
    for (std::size_t i = 0; i < nc; ++i) {
        body_entries_[fill[a_[i]]++] = static_cast<std::uint32_t>(2 * i);
        if (b_[i] != kNone) body_entries_[fill[static_cast<std::size_t>(b_[i])]++] = static_cast<std::uint32_t>(2 * i + 1);
    }
}

Eigen::VectorXd ContactSystem::wrench(const Eigen::VectorXd& impulses) const {
    const std::size_t nb = inv_mass_.size();
    Eigen::VectorXd out = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(6 * nb));
    parallelRanges(nb, threads_, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t body = begin; body < end; ++body) {
            Vec3 f = Vec3::Zero(), t = Vec3::Zero();
            for (std::uint32_t e = body_start_[body]; e < body_start_[body + 1]; ++e) {
                const std::size_t i = body_entries_[e] / 2;
                const bool is_b = body_entries_[e] & 1u;
                const Vec3 force = frame_[i] * impulses.segment<3>(static_cast<Eigen::Index>(3 * i));
                const Vec3& r = is_b ? rb_[i] : ra_[i];
                const Vec3 signed_force = is_b ? Vec3(-force) : force;
                f += signed_force;
                t += r.cross(signed_force);
            }
            out.segment<3>(static_cast<Eigen::Index>(6 * body)) = f;
            out.segment<3>(static_cast<Eigen::Index>(6 * body + 3)) = t;
        }
    });
    return out;
}

void ContactSystem::velocityChange(const Eigen::VectorXd& impulses, Eigen::VectorXd& velocities) const {
    const std::size_t nb = inv_mass_.size();
    velocities.resize(static_cast<Eigen::Index>(6 * nb));
    parallelRanges(nb, threads_, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t body = begin; body < end; ++body) {
            Vec3 f = Vec3::Zero(), t = Vec3::Zero();
            if (inv_mass_[body] != 0.0)
                for (std::uint32_t e = body_start_[body]; e < body_start_[body + 1]; ++e) {
                    const std::size_t i = body_entries_[e] / 2;
                    const bool is_b = body_entries_[e] & 1u;
                    const Vec3 force = frame_[i] * impulses.segment<3>(static_cast<Eigen::Index>(3 * i));
                    const Vec3 signed_force = is_b ? Vec3(-force) : force;
                    f += signed_force;
                    t += (is_b ? rb_[i] : ra_[i]).cross(signed_force);
                }
            velocities.segment<3>(static_cast<Eigen::Index>(6 * body)) = inv_mass_[body] * f;
            velocities.segment<3>(static_cast<Eigen::Index>(6 * body + 3)) = inv_inertia_[body] * t;
        }
    });
}

Eigen::Vector3d ContactSystem::contactVelocity(std::size_t i, const Eigen::VectorXd& v) const {
    const auto k = static_cast<Eigen::Index>(6 * a_[i]);
    Vec3 relative = v.segment<3>(k) + Vec3(v.segment<3>(k + 3)).cross(ra_[i]);
    if (b_[i] != kNone) {
        const auto j = static_cast<Eigen::Index>(6 * b_[i]);
        relative -= v.segment<3>(j) + Vec3(v.segment<3>(j + 3)).cross(rb_[i]);
    }
    return frame_[i].transpose() * relative;
}

void ContactSystem::addImpulse(std::size_t i, const Eigen::Vector3d& impulse, Eigen::VectorXd& v) const {
    const Vec3 f = frame_[i] * impulse;
    const auto k = static_cast<Eigen::Index>(6 * a_[i]);
    v.segment<3>(k) += inv_mass_[a_[i]] * f;
    v.segment<3>(k + 3) += inv_inertia_[a_[i]] * ra_[i].cross(f);
    if (b_[i] != kNone) {
        const auto j = static_cast<std::size_t>(b_[i]);
        const auto kj = static_cast<Eigen::Index>(6 * j);
        v.segment<3>(kj) -= inv_mass_[j] * f;
        v.segment<3>(kj + 3) -= inv_inertia_[j] * rb_[i].cross(f);
    }
}

void ContactSystem::multiplyDelassus(const Eigen::VectorXd& impulses, Eigen::VectorXd& out) const {
    Eigen::VectorXd v;
    velocityChange(impulses, v);
    out.resize(static_cast<Eigen::Index>(3 * contacts()));
    parallelRanges(contacts(), threads_, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) out.segment<3>(static_cast<Eigen::Index>(3 * i)) = contactVelocity(i, v);
    });
}

void ContactDynamics::warmStart(const std::vector<RigidContact>& contacts) {
    impulses_.setZero(static_cast<Eigen::Index>(3 * contacts.size()));
    if (!settings.warm_start) return;
    for (std::size_t i = 0; i < contacts.size(); ++i) {
        const auto it = std::lower_bound(previous_keys_.begin(), previous_keys_.end(), contacts[i].key);
        if (it == previous_keys_.end() || !(*it == contacts[i].key)) continue;
        const Vec3& world = previous_impulses_[static_cast<std::size_t>(it - previous_keys_.begin())];
        impulses_.segment<3>(static_cast<Eigen::Index>(3 * i)) = system_.frame(i).transpose() * world;
    }
}

void ContactDynamics::remember(const std::vector<RigidContact>& contacts) {
    std::vector<std::size_t> order(contacts.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return contacts[x].key < contacts[y].key; });
    previous_keys_.resize(order.size());
    previous_impulses_.resize(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        previous_keys_[k] = contacts[order[k]].key;
        previous_impulses_[k] = system_.frame(order[k]) * impulses_.segment<3>(static_cast<Eigen::Index>(3 * order[k]));
    }
}

ContactDynamicsResult ContactDynamics::step(Bodies& bodies, const std::vector<RigidContact>& contacts, Solver& solver,
                                            const Vec3& gravity, double dt, int threads, PostStep* post_step) {
    system_.assemble(bodies, contacts, gravity, dt, settings, threads);
    warmStart(contacts);
    warm_start_ = impulses_;
    ContactDynamicsResult result;
    result.report = solver.solve(system_, impulses_, settings.solver);
    remember(contacts);

    Eigen::VectorXd change;
    system_.velocityChange(impulses_, change);
    if (post_step) result.post_step = post_step->apply(system_, impulses_, settings.solver);
    const Eigen::VectorXd wrench = system_.wrench(impulses_);
    const Eigen::VectorXd& free = system_.freeBodyVelocity();
    bodies.resizeDynamics();
    double dissipated = 0.0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const auto k = static_cast<Eigen::Index>(6 * i);
        bodies.force[i] = wrench.segment<3>(k) / dt;
        bodies.torque[i] = wrench.segment<3>(k + 3) / dt;
        if (bodies.frozen[i] || bodies.inv_mass[i] == 0.0) continue;
        bodies.force[i] += bodies.mass[i] * gravity;
        const Vec3 v_free = free.segment<3>(k), w_free = free.segment<3>(k + 3);
        const Vec3 v = v_free + change.segment<3>(k), w = w_free + change.segment<3>(k + 3);
        const Mat3 r = bodies.orientation[i].toRotationMatrix();
        const Mat3 inertia = r * bodies.inertia[i].asDiagonal() * r.transpose();
        dissipated += 0.5 * bodies.mass[i] * (v_free.squaredNorm() - v.squaredNorm()) +
                      0.5 * (w_free.dot(inertia * w_free) - w.dot(inertia * w));
        bodies.velocity[i] = v;
        bodies.angular_velocity[i] = w;
    }
    result.dissipated = dissipated;
    advancePositions(bodies, dt, threads);
    return result;
}

void advancePositions(Bodies& bodies, double dt, int threads) {
    parallelRanges(bodies.size(), threads, [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (bodies.frozen[i] || bodies.inv_mass[i] == 0.0) continue;
            bodies.position[i] += dt * bodies.velocity[i];
            turnBody(bodies, i, bodies.angular_velocity[i], dt);
        }
    });
}

bool ContactDynamics::restoreWarmStart(std::vector<ContactKey> keys, std::vector<Vec3> impulses) {
    if (keys.size() != impulses.size() || !std::is_sorted(keys.begin(), keys.end())) return false;
    previous_keys_ = std::move(keys);
    previous_impulses_ = std::move(impulses);
    return true;
}

}  // namespace grainlab
