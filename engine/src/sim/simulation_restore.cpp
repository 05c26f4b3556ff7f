// Simulation::fromCheckpoint: a Simulation around a saved state, without re-materialising the scene.
#include "grainlab/io/checkpoint.hpp"
#include "grainlab/sim/simulation.hpp"

namespace grainlab {

Simulation Simulation::fromCheckpoint(Checkpoint checkpoint, const PluginRegistry& registry, int threads) {
    checkpoint.scene.threads = threads > 0 ? threads : checkpoint.threads;
    return Simulation(std::move(checkpoint.scene), registry, std::move(checkpoint.state), std::move(checkpoint.extras),
                      checkpoint.file);
}

}  // namespace grainlab
