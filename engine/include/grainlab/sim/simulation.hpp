#pragma once
// A running simulation: the scene (fixed), the state (changed by steps) and the plugins chosen.
#include <memory>
#include <string>
#include <vector>

#include "grainlab/io/frame.hpp"
#include "grainlab/plugin/contact_model.hpp"
#include "grainlab/plugin/integrator.hpp"
#include "grainlab/plugin/loader.hpp"
#include "grainlab/scene/scene.hpp"
#include "grainlab/sim/neighbor_list.hpp"
#include "grainlab/sim/periodic_box.hpp"
#include "grainlab/sim/walls.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

struct State {
    Bodies bodies;
    NeighborList pairs;
    std::vector<WallContact> wall_contacts;
    std::vector<double> wall_history;
    long step = 0;
    double time = 0.0;
    double dissipated = 0.0;       // cumulative
    double elastic = 0.0;          // at the last force evaluation
    std::size_t contacts = 0;      // at the last force evaluation
};

// Engine bookkeeping outside State that decides what the next step does; a checkpoint keeps it so
// a restart repeats the uninterrupted run exactly.
struct RestartExtras {
    bool forces_current = false;    // false: the next step evaluates forces first
    WallCandidates wall_candidates;
};

struct Checkpoint;  // grainlab/io/checkpoint.hpp

class Simulation {
public:
    // Materialises the scene (generators, LAMMPS data, meshes), loads the plugins it names and checks
    // overlaps and the time step. Throws InputError naming the scene file and field.
    Simulation(Scene scene, const PluginRegistry& registry);

    // Continues a run saved by writeCheckpoint (grainlab/io/checkpoint.hpp) with the saved thread
    // count unless `threads` > 0 overrides it (bit-for-bit continuation needs the same count).
    // Throws InputError naming the checkpoint file when its state does not fit the plugins.
    static Simulation fromCheckpoint(Checkpoint checkpoint, const PluginRegistry& registry, int threads = 0);

    const Scene& scene() const { return scene_; }
    const State& state() const { return state_; }
    const Bodies& bodies() const { return state_.bodies; }
    const std::string& contactModelName() const { return contact_model_.name(); }
    const std::string& integratorName() const { return integrator_.name(); }
    TimeStepLimit timeStepLimit() const;

    // One step. Throws SimulationError (naming body and step) on non-finite or runaway motion;
    // the state is left as it was after the failing step.
    void step();

    // Computes forces at the current positions unless they are current already. Contact history
    // and dissipation do not advance: no time passes (a step's own evaluations advance them).
    void updateForces() { if (!forces_current_) evaluateForces(0.0); }

    // Record touching contacts (for frames) at the next force evaluations.
    void setRecordContacts(bool record) { record_contacts_ = record; }
    void setThreads(int threads);
    int threads() const { return threads_; }

    // Swaps take effect at the next step; history of the old model is dropped if its size differs.
    void setContactModel(const PluginChoice& choice);
    void setIntegrator(const PluginChoice& choice);

    RestartExtras restartExtras() const { return {forces_current_, walls_.candidates()}; }

    EnergyRecord energy() const;
    Frame frame() const;  // contacts: those recorded at the last force evaluation

private:
    Simulation(Scene scene, const PluginRegistry& registry, State state, RestartExtras extras,
               const std::string& checkpoint_file);
    void setUpPlugins();
    void setUpDomain();
    void computeForces();
    void evaluateForces(double dt);
    void carryWallHistory(const std::vector<WallContact>& previous, const std::vector<double>& previous_history);
    void checkMotion() const;

    Scene scene_;
    const PluginRegistry& registry_;
    State state_;
    PeriodicBox box_;
    WallSet walls_;
    MaterialPairTable material_pairs_;
    PluginInstance<ContactModel> contact_model_;
    PluginInstance<Integrator> integrator_;
    std::vector<ThreadAccumulator> accumulators_;
    std::vector<std::vector<Vec3>> thread_buffers_;
    std::vector<ContactRecord> records_;
    std::vector<WallContact> previous_wall_contacts_;
    std::vector<double> previous_wall_history_;
    double skin_ = 0.0;
    int threads_ = 1;
    bool forces_current_ = false;
    bool record_contacts_ = false;
};

}  // namespace grainlab
