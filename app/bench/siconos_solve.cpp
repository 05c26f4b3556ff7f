#include "siconos_solve.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <vector>

#include "grainlab/core/error.hpp"

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/NumericsSparseMatrix.h>
#include <siconos/numerics/SolverOptions.h>

namespace grainlab::bench {

struct SiconosProblem::Data {
    NumericsMatrix* w = nullptr;
    std::vector<double> q, mu;
    FrictionContactProblem* problem = nullptr;
    int n = 0;
};

SiconosProblem::SiconosProblem(const ContactSystem& problem) : data_(new Data) {
    const std::size_t nc = problem.contacts();
    const int n = static_cast<int>(3 * nc);
    data_->n = n;
    // N column by column, sparse: an impulse on contact i moves its two bodies only, so only the
    // contacts of those bodies see it.
    const std::size_t bodies = problem.velocitySize() / 6;
    std::vector<std::vector<std::size_t>> of_body(bodies);
    for (std::size_t i = 0; i < nc; ++i) {
        of_body[problem.bodyA(i)].push_back(i);
        if (problem.bodyB(i) >= 0) of_body[static_cast<std::size_t>(problem.bodyB(i))].push_back(i);
    }
    std::vector<int> rows, cols;
    std::vector<double> values;
    Eigen::VectorXd velocities = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(problem.velocitySize()));
    std::vector<std::size_t> touched;
    for (std::size_t i = 0; i < nc; ++i) {
        touched = of_body[problem.bodyA(i)];
        if (problem.bodyB(i) >= 0) {
            const auto& more = of_body[static_cast<std::size_t>(problem.bodyB(i))];
            touched.insert(touched.end(), more.begin(), more.end());
        }
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
        for (int c = 0; c < 3; ++c) {
            problem.addImpulse(i, Eigen::Vector3d::Unit(c), velocities);
            for (std::size_t j : touched) {
                const Eigen::Vector3d column = problem.contactVelocity(j, velocities);
                for (int r = 0; r < 3; ++r)
                    if (column[r] != 0.0) {
                        rows.push_back(static_cast<int>(3 * j) + r);
                        cols.push_back(static_cast<int>(3 * i) + c);
                        values.push_back(column[r]);
                    }
            }
            for (std::int64_t body : {static_cast<std::int64_t>(problem.bodyA(i)), problem.bodyB(i)})
                if (body >= 0) velocities.segment<6>(static_cast<Eigen::Index>(6 * body)).setZero();
        }
    }
    data_->w = NM_create(NM_SPARSE, n, n);
    NM_triplet_alloc(data_->w, static_cast<CS_INT>(values.size()));
    data_->w->matrix2->origin = NSM_TRIPLET;
    for (std::size_t e = 0; e < values.size(); ++e) NM_zentry(data_->w, rows[e], cols[e], values[e], 0.0);
    data_->q.assign(problem.freeVelocity().data(), problem.freeVelocity().data() + n);
    for (std::size_t i = 0; i < nc; ++i) data_->mu.push_back(problem.friction(i));
    data_->problem = frictionContactProblem_new_with_data(3, static_cast<int>(nc), data_->w,
                                                          data_->q.data(), data_->mu.data());
}

SiconosProblem::~SiconosProblem() {
    // The problem holds pointers to our q and mu: detach them before Siconos frees it.
    data_->problem->q = nullptr;
    data_->problem->mu = nullptr;
    frictionContactProblem_free(data_->problem);
    delete data_;
}

SiconosRun SiconosProblem::solve(const std::string& solver, double tolerance, int max_iterations,
                                 Eigen::VectorXd& impulses) {
    static const std::map<std::string, int> ids{
        {"nsgs", SICONOS_FRICTION_3D_NSGS},       {"nsn-ac", SICONOS_FRICTION_3D_NSN_AC},
        {"nsn-fb", SICONOS_FRICTION_3D_NSN_FB},   {"admm", SICONOS_FRICTION_3D_ADMM},
        {"prox", SICONOS_FRICTION_3D_PROX},       {"aclmfp", SICONOS_FRICTION_3D_ACLMFP},
        {"vi-fpp", SICONOS_FRICTION_3D_VI_FPP},   {"vi-eg", SICONOS_FRICTION_3D_VI_EG}};
    const auto found = ids.find(solver);
    if (found == ids.end()) throw InputError("", "--siconos-solvers", "unknown Siconos solver '" + solver + "'");
    const int id = found->second;
    SolverOptions* options = solver_options_create(id);
    options->dparam[SICONOS_DPARAM_TOL] = tolerance;
    options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
    if (impulses.size() != data_->n) impulses = Eigen::VectorXd::Zero(data_->n);
    std::vector<double> velocity(static_cast<std::size_t>(data_->n), 0.0);
    SiconosRun run;
    const auto start = std::chrono::steady_clock::now();
    run.info = fc3d_driver(data_->problem, impulses.data(), velocity.data(), options);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
    run.own_error = options->dparam[SICONOS_DPARAM_RESIDU];
    solver_options_delete(options);
    return run;
}

}  // namespace grainlab::bench
