#pragma once
// The hybrid normal law of Gay Neto & Wriggers (seed 003, implementation note 7.1): a penalty or
// Hertz-like force inside a skin gbar, a barrier eps2 g^n2 + c2 below gbb = phi gbar, matched in
// value and slope (C1) at gbb.
#include <algorithm>
#include <cmath>

namespace grainlab::barrier {

struct NormalLaw {
    double eps1 = 1e6, n1 = 1.0, gbar = 1e-3, gbb = 5e-4, n2 = -1.0;
    double eps2 = 0.0, c2 = 0.0, floor = 0.0;  // derived by set()

    void set(double stiffness, double exponent, double skin, double fraction, double barrier_exponent) {
        eps1 = stiffness;
        n1 = exponent;
        gbar = skin;
        gbb = fraction * skin;
        n2 = barrier_exponent;
        eps2 = -eps1 * n1 * std::pow(gbar - gbb, n1 - 1.0) / (n2 * std::pow(gbb, n2 - 1.0));
        c2 = eps1 * std::pow(gbar - gbb, n1) - eps2 * std::pow(gbb, n2);
        // The barrier is infinite at g = 0; gaps are clamped just above it so a squeezed contact
        // pushes very hard instead of producing inf or NaN.
        floor = 1e-6 * gbb;
    }
    double clamp(double g) const { return std::max(g, floor); }
    double force(double g) const {
        if (g >= gbar) return 0.0;
        if (g >= gbb) return eps1 * std::pow(gbar - g, n1);
        return eps2 * std::pow(clamp(g), n2) + c2;
    }
    // k_c = -df/dg
    double stiffness(double g) const {
        if (g >= gbar) return 0.0;
        if (g >= gbb) return eps1 * n1 * std::pow(gbar - g, n1 - 1.0);
        return -eps2 * n2 * std::pow(clamp(g), n2 - 1.0);
    }
    // Work the force does from g out to gbar: the contact's elastic energy.
    double energy(double g) const {
        if (g >= gbar) return 0.0;
        if (g >= gbb) return eps1 * std::pow(gbar - g, n1 + 1.0) / (n1 + 1.0);
        const double at_gbb = eps1 * std::pow(gbar - gbb, n1 + 1.0) / (n1 + 1.0);
        const double x = clamp(g);
        const double barrier = n2 == -1.0 ? eps2 * std::log(gbb / x)
                                          : eps2 * (std::pow(gbb, n2 + 1.0) - std::pow(x, n2 + 1.0)) / (n2 + 1.0);
        return at_gbb + barrier + c2 * (gbb - x);
    }
};

}  // namespace grainlab::barrier
