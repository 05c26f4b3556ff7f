#pragma once
// A running simulation: the scene (fixed), the state (changed by steps) and the plugins chosen.
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "grainlab/core/adaptive_split.hpp"
#include "grainlab/core/zeroed_array.hpp"
#include "grainlab/io/frame.hpp"
#include "grainlab/plugin/contact_model.hpp"
#include "grainlab/plugin/integrator.hpp"
#include "grainlab/plugin/loader.hpp"
#include "grainlab/plugin/post_step.hpp"
#include "grainlab/plugin/solver.hpp"
#include "grainlab/scene/scene.hpp"
#include "grainlab/sim/contact_dynamics.hpp"
#include "grainlab/sim/neighbor_list.hpp"
#include "grainlab/sim/periodic_box.hpp"
#include "grainlab/sim/phase_seconds.hpp"
#include "grainlab/sim/polyhedral_narrow_phase.hpp"
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
    PolyhedralContactList polyhedral;  // feature contacts, when the contact model uses them
};

// Adds prescribed loads to bodies.force / bodies.torque after contacts and gravity; `time` is the
// time of the configuration being evaluated.
using ExternalLoad = std::function<void(double time, Bodies& bodies)>;

// Engine bookkeeping outside State that decides what the next step does; a checkpoint keeps it so
// a restart repeats the uninterrupted run exactly.
struct RestartExtras {
    bool forces_current = false;    // false: the next step evaluates forces first
    WallCandidates wall_candidates;
    std::vector<ContactKey> warm_start_keys;  // contact dynamics: the next solve's warm start
    std::vector<Vec3> warm_start_impulses;
    // Feature contacts (State::polyhedral) come from the checkpoint rather than a new search:
    // false for files written before they were saved.
    bool feature_contacts_saved = false;
};

struct Checkpoint;  // grainlab/io/checkpoint.hpp
struct KickDrift;   // grainlab/plugin/kicks.hpp

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
    std::vector<IntegratorStatistic> integratorStatistics() const { return integrator_->statistics(); }
    TimeStepLimit timeStepLimit() const;
    // Contact dynamics: when the scene names a solver, steps solve for impulses with it instead of
    // integrating the contact model's forces (the materials still give friction).
    bool usesSolver() const { return static_cast<bool>(solver_); }
    const std::string& solverName() const { return solver_.name(); }
    const SolverReport& solverReport() const { return solver_report_; }  // of the last step
    const SolverReport& postStepReport() const { return post_step_report_; }
    const ContactDynamics& contactDynamics() const { return contact_dynamics_; }
    // The step last taken (the scene's time_step unless the contact model adapts it).
    double lastTimeStep() const { return step_dt_; }
    // True when the contact model may shorten steps (feature contacts): runs by time end by time.
    bool adaptsTimeStep() const { return state_.polyhedral.range > 0.0; }

    // One step. Throws SimulationError (naming body and step) on non-finite or runaway motion;
    // the state is left as it was after the failing step.
    //
    // With `another_follows` (batch runs between outputs) an explicit integrator's closing update
    // (velocity Verlet's second kick), the other threads' listed forces and the motion check may
    // be left pending and done in the next step's first pass over the bodies, which then reads
    // each body from memory once a step instead of twice (same numbers bit for bit). Until the
    // next step() or settle(), velocities and forces are not the step's: settle() before reading
    // them. A runaway in the pending step is then reported by the next step() or settle(), the
    // former leaving the state part-way into its step.
    void step(bool another_follows = false);
    // Finishes the step step(true) left pending, if any.
    void settle();

    // Computes forces at the current positions unless they are current already. Contact history
    // and dissipation do not advance: no time passes (a step's own evaluations advance them).
    void updateForces() {
        settle();
        if (!forces_current_ && !solver_) evaluateForces(0.0);
    }

    // Record touching contacts (for frames) at the next force evaluations.
    void setRecordContacts(bool record) { record_contacts_ = record; }
    // Prescribed forces and torques (loads, test drivers); an empty function removes them.
    void setExternalLoad(ExternalLoad load) {
        settle();
        external_load_ = std::move(load);
        forces_current_ = false;
    }
    void setThreads(int threads);
    int threads() const { return threads_; }
    // The seconds spent in each phase of the steps so far (grainlab/sim/phase_seconds.hpp).
    const PhaseSeconds& phaseSeconds() const { return phases_; }

    // Swaps take effect at the next step; history of the old model is dropped if its size differs.
    void setContactModel(const PluginChoice& choice);
    void setIntegrator(const PluginChoice& choice);
    // A solver switches steps to contact dynamics; none returns them to the contact model and the
    // integrator (refused when the time step is above the contact model's limit). A post-step
    // needs a solver and goes with it.
    void setSolver(const std::optional<PluginChoice>& choice);

    // Adds bodies between steps (they also join the scene, so a saved scene keeps them). Refused
    // with InputError, leaving the state as it was, when one overlaps a body beyond the allowance.
    void addBodies(const std::vector<BodySpec>& specs);
    // Adds a particle shape (a polyhedron is loaded unless given loaded). InputError when the name
    // is taken or the mesh is refused.
    void addShape(ShapeSpec shape);

    RestartExtras restartExtras() const {
        return {forces_current_, walls_.candidates(), contact_dynamics_.warmStartKeys(), contact_dynamics_.warmStartImpulses(),
                true};
    }

    EnergyRecord energy() const;
    Frame frame() const;  // contacts: those recorded at the last force evaluation
    // The same without copying the bodies: valid until the simulation next changes.
    FrameView frameView() const;

private:
    Simulation(Scene scene, const PluginRegistry& registry, State state, RestartExtras extras,
               const std::string& checkpoint_file);
    void setUpPlugins();
    void setUpDomain();
    void computeForces();
    // An integrator's updates run inside a force evaluation's passes (StepContext::compute_forces_around).
    struct AroundForces {
        const BodyRangeUpdate& before;
        const BodyRangeUpdate& after;
    };
    // true: the Verlet list is stale. `before`, when given, updates the bodies first.
    bool sweepBodies(bool start_forces, const BodyRangeUpdate* before = nullptr, bool find_wall_contacts = false);
    // start_forces: forces begin at the weight. True when the wall contacts the sweep found (when
    // asked to) still hold after the refresh.
    bool refreshNeighbours(bool start_forces, const BodyRangeUpdate* before = nullptr, bool find_wall_contacts = false);
    // The neighbour work after a sweep (stale: it found the list stale), with refreshNeighbours's result.
    bool afterSweep(bool stale, bool find_wall_contacts);
    struct SweepPass;      // one sweep's settings and findings (simulation_sweep.cpp)
    class PairLoopSweep;   // the sweep run inside the pair loop (ChunkSweep)
    bool sweepFitsPairLoop(const BodyRangeUpdate& before) const;
    void evaluateWithSweepInPairLoop(double dt, const AroundForces& around);
    void findContacts(bool walls_found);
    void runContactModel(double dt, ChunkSweep* sweep);
    void gatherForceResults();
    bool sortDue() const;
    void sortBodies();  // spatial order (grainlab/sim/spatial_sort.hpp)
    void setupSolver(const PluginChoice& choice);
    void setupPostStep(const PluginChoice& choice);
    void stepContactDynamics();
    void evaluateForces(double dt, const AroundForces* around = nullptr);
    void finishForces(double dt, const BodyRangeUpdate* after);
    // The closing work on bodies, shared by finishForces and a sweep that runs a pending close: the
    // forces the pair loop's threads listed (ThreadAccumulator::outside), grouped by chunk of the
    // pass before it (groupListedForces) and added per chunk in the row order of their stretches,
    // then per block the threads' arrays summed in (`reduce`), `after` and, with it, the motion
    // check (`runaway`: the first runaway body, left as is once it holds one; the body count until
    // then; `avx2`: its vector code may run, body_passes.hpp).
    // A stretch of one thread's listed forces and records; orderStretches gives all threads' in the
    // order one thread's pass makes them (by first row; a model without stretches: thread order).
    struct ListedStretch {
        const ThreadAccumulator* acc;
        std::size_t first_row, outside_begin, outside_end, records_begin, records_end;
    };
    std::vector<ListedStretch> orderStretches() const;
    void groupListedForces(std::size_t chunk);
    void addListedForces(std::size_t chunk_index);
    // `fused`: `after` as the kick it is, to run with the runaway check in one loop (fusedKickDrift),
    // found once a pass; null otherwise.
    void closeBlock(bool reduce, const BodyRangeUpdate* after, const KickDrift* fused, std::size_t begin,
                    std::size_t end, std::size_t& runaway, bool avx2);
    void reevaluateForces();  // after a change between steps
    void carryWallHistory(const std::vector<WallContact>& previous, const std::vector<double>& previous_history);
    void checkMotion() const;
    [[noreturn]] void throwRunaway(std::size_t body) const;
    void setupFeatureContacts();
    void takeStep(bool another_follows);  // step() without its timing
    void fixedStep();
    void adaptiveStep();
    static constexpr int kMaxStepHalvings = 8;
    double listReach() const { return skin_ + state_.polyhedral.range; }

    Scene scene_;
    const PluginRegistry& registry_;
    State state_;
    PeriodicBox box_;
    WallSet walls_;
    MaterialPairTable material_pairs_;
    PluginInstance<ContactModel> contact_model_;
    PluginInstance<Integrator> integrator_;
    PluginInstance<Solver> solver_;
    PluginInstance<PostStep> post_step_;
    ContactDynamics contact_dynamics_;
    std::vector<RigidContact> rigid_contacts_;
    SolverReport solver_report_, post_step_report_;
    std::vector<ThreadAccumulator> accumulators_;
    std::vector<ZeroedArray<Vec3>> thread_buffers_;  // per thread: force, torque (several threads)
    std::vector<ContactRecord> records_;
    // frameView's contacts and shapes, which it converts and keeps for the view to point at.
    mutable std::vector<FrameContact> frame_contacts_;
    mutable std::vector<std::shared_ptr<const Polyhedron>> frame_polyhedra_;
    std::vector<WallContact> previous_wall_contacts_;
    std::vector<double> previous_wall_history_;
    std::vector<std::vector<WallContact>> wall_parts_;  // per chunk of the sweep, found by sweepBodies
    std::vector<std::size_t> listed_start_;             // groupListedForces: per chunk, into listed_
    std::vector<const OutsideForce*> listed_;
    std::vector<std::vector<OutsideForce>> listed_before_;  // the sweep inside the pair loop: the last pass's lists
    std::vector<WallContact> frozen_wall_contacts_;  // for integrators that need the step's contact set
    PolyhedralNarrowPhase feature_phase_;
    ExternalLoad external_load_;
    double skin_ = 0.0;
    double step_dt_ = 0.0;  // the step being taken: the scene's, or less when adapted
    int threads_ = 1;
    bool forces_current_ = false;
    // Set by a force evaluation that checked the bodies' motion after the integrator's last update,
    // with the first body that ran away (the body count when none did).
    bool motion_checked_ = false;
    std::size_t runaway_ = 0;
    // The pair loop's shares of the list's work (ForceContext::work_shares), from its threads' times
    // in the pass before (phases_'s sums less those at the last share: pair_loop_at_share_), moved
    // before every pass: moved only at rebuilds, they were off for tens of steps after a virtual core
    // changed speed or a share overshot (one thread 30 ms a step, the other 23, at 1,024,000 spheres).
    AdaptiveSplit pair_split_;  // smoothed over about five steps: one step's times carry interrupts' jitter
    std::vector<double> pair_loop_at_share_, pair_shares_;
    std::vector<double> loop_sweep_per_thread_;  // running sums: each thread's sweep inside the pair loop
    std::vector<double> pair_done_;  // each thread's part of the last pass's work, in the split's units
    void sharePairWork();
    void measurePairWorkDone();
    std::vector<double> energy_blocks_;  // the pair loop's energies per block (ForceContext::energy_blocks)
    // step(true) lets its force evaluation leave the closing work in pending_after_ (the
    // integrator's `after`, possibly empty) for the next sweep or settle().
    bool may_defer_close_ = false;
    bool close_pending_ = false;
    BodyRangeUpdate pending_after_;
    // A bound on how far any body has moved (nearest image) since the neighbour list's build,
    // infinite while not known: the sweep reads the positions at the build only for the blocks where
    // the bound could pass half the skin (DriftReach in body_passes.hpp). At 1,024,000 spheres those
    // reads took a sixth of the passes' time.
    double moved_since_build_ = std::numeric_limits<double>::infinity();
    // The largest drift in the last sweep that carried that bound (infinite after any other).
    double last_drift_ = std::numeric_limits<double>::infinity();
    bool record_contacts_ = false;
    PhaseSeconds phases_;
};

}  // namespace grainlab
