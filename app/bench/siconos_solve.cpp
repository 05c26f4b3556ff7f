#include "siconos_solve.hpp"

#include <chrono>
#include <stdexcept>
#include <vector>

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

SiconosProblem::SiconosProblem(const ContactProblem& problem) : data_(new Data) {
    const int n = static_cast<int>(3 * problem.contacts());
    data_->n = n;
    // Columns of N from products with unit vectors; only non-zeros are stored (sparse triplets).
    std::vector<int> rows, cols;
    std::vector<double> values;
    Eigen::VectorXd unit = Eigen::VectorXd::Zero(n), column;
    for (int k = 0; k < n; ++k) {
        unit[k] = 1.0;
        problem.multiplyDelassus(unit, column);
        unit[k] = 0.0;
        for (int i = 0; i < n; ++i)
            if (column[i] != 0.0) { rows.push_back(i); cols.push_back(k); values.push_back(column[i]); }
    }
    data_->w = NM_create(NM_SPARSE, n, n);
    NM_triplet_alloc(data_->w, static_cast<CS_INT>(values.size()));
    data_->w->matrix2->origin = NSM_TRIPLET;
    for (std::size_t e = 0; e < values.size(); ++e) NM_zentry(data_->w, rows[e], cols[e], values[e], 0.0);
    data_->q.assign(problem.freeVelocity().data(), problem.freeVelocity().data() + n);
    for (std::size_t i = 0; i < problem.contacts(); ++i) data_->mu.push_back(problem.friction(i));
    data_->problem = frictionContactProblem_new_with_data(3, static_cast<int>(problem.contacts()), data_->w,
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
    int id = SICONOS_FRICTION_3D_NSGS;
    if (solver == "nsn-ac") id = SICONOS_FRICTION_3D_NSN_AC;
    else if (solver == "admm") id = SICONOS_FRICTION_3D_ADMM;
    else if (solver != "nsgs") throw std::invalid_argument("unknown Siconos solver " + solver);
    SolverOptions* options = solver_options_create(id);
    options->dparam[SICONOS_DPARAM_TOL] = tolerance;
    options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
    impulses = Eigen::VectorXd::Zero(data_->n);
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
