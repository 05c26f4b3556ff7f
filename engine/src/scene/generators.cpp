#include "grainlab/scene/generators.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "grainlab/core/error.hpp"
#include "random_fill.hpp"

namespace grainlab {
namespace {

// Sites of a lattice, counts[0] fastest. For hcp, layers ABAB... with nearest centres `spacing`
// apart: rows offset by half a spacing, every other layer shifted into the hollows below.
std::vector<Vec3> latticeSites(const Lattice& lattice) {
    const double d = lattice.spacing;
    const bool hcp = lattice.kind == Lattice::Kind::HexagonalClosePacked;
    std::vector<Vec3> sites;
    sites.reserve(static_cast<std::size_t>(lattice.counts[0]) * lattice.counts[1] *
                  lattice.counts[2]);
    for (int k = 0; k < lattice.counts[2]; ++k)
        for (int j = 0; j < lattice.counts[1]; ++j)
            for (int i = 0; i < lattice.counts[0]; ++i) {
                Vec3 offset(i, j, k);
                if (hcp) {
                    offset =
                        Vec3(i + 0.5 * ((j + k) % 2), std::sqrt(3.0) / 2.0 * (j + (k % 2) / 3.0),
                             std::sqrt(6.0) / 3.0 * k);
                }
                sites.push_back(lattice.origin + d * offset);
            }
    return sites;
}

std::vector<BodySpec> latticeBodies(const Lattice& lattice) {
    std::vector<BodySpec> bodies;
    for (const Vec3& site : latticeSites(lattice)) {
        BodySpec body;
        body.shape = lattice.shape;
        body.material = lattice.material;
        body.radius = lattice.radius;
        body.position = site;
        body.velocity = lattice.velocity;
        body.frozen = lattice.frozen;
        bodies.push_back(body);
    }
    return bodies;
}

void addObstacles(std::vector<detail::Sphere>& obstacles, const std::vector<BodySpec>& bodies) {
    for (const auto& b : bodies) obstacles.push_back({b.position, b.radius});
}

// Sort key putting generators in file order; those made in code follow, fills first, as the
// scene writer places them.
long orderKey(int source_index, std::size_t k, bool fill) {
    if (source_index >= 0) return source_index;
    return (fill ? (1L << 40) : (1L << 41)) + static_cast<long>(k);
}

// Where a generator sits in the file; generators made in code have no position, so they are
// named by their place in scene.fills / scene.lattices.
std::string pointerOf(int source_index, std::size_t fallback) {
    return "/generators/" +
           std::to_string(source_index >= 0 ? static_cast<std::size_t>(source_index) : fallback);
}

}  // namespace

std::vector<BodySpec> generateBodies(const Scene& scene, const std::vector<BodySpec>& existing) {
    // Each generator's bodies, in one list: lattices then fills.
    const std::size_t n_lattices = scene.lattices.size();
    std::vector<std::vector<BodySpec>> made(n_lattices + scene.fills.size());
    std::vector<long> order_key(made.size());

    std::vector<detail::Sphere> obstacles;
    addObstacles(obstacles, existing);
    // Lattices first, whatever their place in the file, so that every fill keeps clear of them.
    for (std::size_t k = 0; k < n_lattices; ++k) {
        const Lattice& lattice = scene.lattices[k];
        if (scene.materialIndex(lattice.material) < 0)
            throw InputError(scene.source_file, pointerOf(lattice.source_index, k) + "/material",
                             "unknown material '" + lattice.material + "'");
        made[k] = latticeBodies(lattice);
        addObstacles(obstacles, made[k]);
        order_key[k] = orderKey(lattice.source_index, k, false);
    }

    // Fills in file order, each avoiding the ones before it.
    std::vector<std::size_t> fills(scene.fills.size());
    for (std::size_t k = 0; k < fills.size(); ++k) {
        fills[k] = k;
        order_key[n_lattices + k] = orderKey(scene.fills[k].source_index, k, true);
    }
    std::stable_sort(fills.begin(), fills.end(), [&](std::size_t a, std::size_t b) {
        return order_key[n_lattices + a] < order_key[n_lattices + b];
    });
    for (std::size_t k : fills) {
        const RandomFill& fill = scene.fills[k];
        const std::string pointer = pointerOf(fill.source_index, k);
        if (scene.materialIndex(fill.material) < 0)
            throw InputError(scene.source_file, pointer + "/material",
                             "unknown material '" + fill.material + "'");
        made[n_lattices + k] = detail::randomFill(fill, obstacles, scene.source_file, pointer);
        addObstacles(obstacles, made[n_lattices + k]);
    }

    std::vector<std::size_t> output(made.size());
    for (std::size_t k = 0; k < output.size(); ++k) output[k] = k;
    std::stable_sort(output.begin(), output.end(),
                     [&](std::size_t a, std::size_t b) { return order_key[a] < order_key[b]; });

    std::int64_t next_id = static_cast<std::int64_t>(existing.size());
    for (const auto& b : existing) next_id = std::max(next_id, b.id);
    std::vector<BodySpec> bodies;
    for (std::size_t k : output)
        for (BodySpec& body : made[k]) {
            body.id = ++next_id;
            bodies.push_back(std::move(body));
        }
    return bodies;
}

}  // namespace grainlab
