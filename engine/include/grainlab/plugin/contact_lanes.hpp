#pragma once
// A batch of touching contacts as columns, one lane per contact, for laws written per lane.
//
// A law is then a loop over lanes of plain arithmetic with selects in place of branches, which the
// compiler turns into vector code across contacts; the scalar law ran about 250 instructions per
// contact one contact at a time, half the pair loop (docs/performance.md).
#include <cstddef>

#include "grainlab/plugin/force_context.hpp"

namespace grainlab {

struct ContactLanes {
    static constexpr std::size_t kCapacity = 64;
    // Doubles of history a lane carries: a contact model on the pair loop keeps exactly these.
    static constexpr std::size_t kHistory = 3;
    // Inputs. Pair loop convention: n points from b to a; the relative velocity is that of a's
    // surface point with respect to b's at the contact.
    double nx[kCapacity], ny[kCapacity], nz[kCapacity];
    double overlap[kCapacity];               // > 0 when touching
    double vx[kCapacity], vy[kCapacity], vz[kCapacity];  // relative velocity at the contact
    double wx[kCapacity], wy[kCapacity], wz[kCapacity];  // relative angular velocity w_a - w_b
    double effective_mass[kCapacity];        // m_a m_b / (m_a + m_b); m_a against a wall
    double effective_radius[kCapacity];
    const PairProperties* properties[kCapacity];
    // In and out: the contact's history.
    double history[kHistory][kCapacity];
    // Outputs: force and extra torque (beyond arm x force) on a; b gets the opposite.
    double fx[kCapacity], fy[kCapacity], fz[kCapacity];
    double tx[kCapacity], ty[kCapacity], tz[kCapacity];
    double elastic_energy[kCapacity];
    double dissipated[kCapacity];           // during dt
    double dt = 0.0;
};

}  // namespace grainlab
