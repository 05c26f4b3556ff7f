#include "grainlab/state/bodies.hpp"

#include "grainlab/core/huge_pages.hpp"

namespace grainlab {

void Bodies::reserve(std::size_t n) {
    reserveOnHugePages(id, n); reserveOnHugePages(shape, n); reserveOnHugePages(material, n);
    reserveOnHugePages(radius, n); reserveOnHugePages(mass, n); reserveOnHugePages(inv_mass, n);
    reserveOnHugePages(inertia, n); reserveOnHugePages(inv_inertia, n);
    reserveOnHugePages(isotropic_inv_inertia, n); reserveOnHugePages(frozen, n);
    reserveOnHugePages(position, n); reserveOnHugePages(orientation, n); reserveOnHugePages(velocity, n);
    reserveOnHugePages(angular_velocity, n); reserveOnHugePages(image, n);
}

void Bodies::resizeDynamics() {
    reserveOnHugePages(force, position.size());
    reserveOnHugePages(torque, position.size());
    force.assign(position.size(), Vec3::Zero());
    torque.assign(position.size(), Vec3::Zero());
}

void Bodies::deriveIsotropicInertia() {
    isotropic_inv_inertia.resize(inv_inertia.size());
    for (std::size_t i = 0; i < inv_inertia.size(); ++i) isotropic_inv_inertia[i] = isotropicValue(inv_inertia[i]);
}

void Bodies::push(std::int64_t body_id, std::uint32_t shape_index, std::uint32_t material_index,
                  double body_radius, double body_mass, const Vec3& principal_inertia, bool is_frozen,
                  const Vec3& x, const Quat& q, const Vec3& v, const Vec3& w) {
    id.push_back(body_id);
    shape.push_back(shape_index);
    material.push_back(material_index);
    radius.push_back(body_radius);
    mass.push_back(body_mass);
    // Frozen bodies take no force: infinite mass and inertia.
    inv_mass.push_back(is_frozen ? 0.0 : 1.0 / body_mass);
    inertia.push_back(principal_inertia);
    inv_inertia.push_back(is_frozen ? Vec3::Zero() : Vec3(principal_inertia.cwiseInverse()));
    isotropic_inv_inertia.push_back(isotropicValue(inv_inertia.back()));
    frozen.push_back(is_frozen ? 1 : 0);
    position.push_back(x);
    orientation.push_back(q);
    velocity.push_back(is_frozen ? Vec3::Zero() : v);
    angular_velocity.push_back(is_frozen ? Vec3::Zero() : w);
    image.push_back({0, 0, 0});
}

}  // namespace grainlab
