#pragma once
// The same frictional contact problem handed to Siconos numerics (fc3d, Debian
// libsiconos-numerics-dev): W = N assembled sparse, column by column from single-contact impulses, q = p,
// the same mu. Siconos solves Coulomb's law with De Saxce's change of variable.
#include <string>

#include <Eigen/Core>

#include "grainlab/sim/contact_dynamics.hpp"

namespace grainlab::bench {

struct SiconosRun {
    double seconds = 0.0;     // fc3d_driver only (W assembled before)
    int iterations = 0;
    double own_error = 0.0;   // Siconos's error measure
    int info = 0;             // 0: converged to its tolerance
};

class SiconosProblem {
public:
    explicit SiconosProblem(const ContactSystem& problem);
    ~SiconosProblem();
    SiconosProblem(const SiconosProblem&) = delete;
    SiconosProblem& operator=(const SiconosProblem&) = delete;
    // solver: "nsgs", "nsn-ac", "nsn-fb", "admm", "prox", "aclmfp", "vi-fpp" or "vi-eg" (defaults).
    // `impulses` holds the initial reactions on entry (3 per contact; empty: zero, a cold start) and the
    // reactions on return.
    SiconosRun solve(const std::string& solver, double tolerance, int max_iterations, Eigen::VectorXd& impulses);

private:
    struct Data;
    Data* data_;
};

}  // namespace grainlab::bench
