#pragma once
// The engine's narrow phase on feature meshes: body pairs from the Verlet list (bounding spheres,
// inflated by the contact range) and walls, each pair through collideSurfaces / collidePlane.
// History of a contact is carried to the next step when the same bodies touch with the same
// sub-region pair.
#include <memory>
#include <vector>

#include "grainlab/geometry/polyhedron.hpp"
#include "grainlab/scene/scene.hpp"
#include "grainlab/sim/neighbor_list.hpp"
#include "grainlab/sim/polyhedral_contacts.hpp"
#include "grainlab/sim/walls.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

class PolyhedralNarrowPhase {
public:
    void setup(const Scene& scene, const Bodies& bodies);
    // Replaces contacts.contacts with the contacts at the current positions and carries history.
    void find(const Bodies& bodies, const NeighborList& pairs, const WallSet& walls, int threads,
              PolyhedralContactList& contacts);

    // After find(): the first listed body pair whose surfaces interpenetrate, if any.
    bool firstInterpenetration(const Bodies& bodies, const NeighborList& pairs, std::uint32_t& a,
                               std::uint32_t& b) const;

private:
    ContactSurface surfaceOf(const Bodies& bodies, std::size_t i) const;

    std::vector<std::shared_ptr<const Polyhedron>> shape_of_;  // per body; null for spheres
    std::vector<FeatureMesh> placed_;                          // per body, world frame
    std::vector<FeatureMesh> wall_meshes_;                     // world frame
    std::vector<ContactSurface> wall_surfaces_;
    std::vector<std::vector<FeatureContact>> scratch_;
    std::vector<PolyhedralContact> previous_;
    std::vector<double> previous_history_;
};

}  // namespace grainlab
