#pragma once
// What a contact model sees while computing forces: bodies, candidate pairs with their history,
// wall contacts found by the narrow phase, material pair properties, and per-thread accumulators.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "grainlab/core/math.hpp"
#include "grainlab/sim/neighbor_list.hpp"
#include "grainlab/sim/periodic_box.hpp"
#include "grainlab/sim/polyhedral_contacts.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {

// Material properties of a pair, mixed once per scene (see MaterialPairTable).
struct PairProperties {
    double friction = 0.5;
    double restitution = 0.5;
    double effective_youngs = 1e7;   // E* = 1 / ((1-nu_a^2)/E_a + (1-nu_b^2)/E_b)
    double effective_shear = 4e6;    // G* = 1 / (2(2-nu_a)(1+nu_a)/E_a + 2(2-nu_b)(1+nu_b)/E_b)
    double rolling_friction = 0.0;
};

struct MaterialPairTable {
    std::size_t count = 0;
    std::vector<PairProperties> table;
    const PairProperties& operator()(std::size_t a, std::size_t b) const { return table[a * count + b]; }
};

// A sphere touching a wall, found by the engine's narrow phase this step.
struct WallContact {
    std::uint32_t body = 0;
    std::uint32_t wall = 0;         // index over all walls: planes first, then meshes
    std::uint32_t feature = 0;      // triangle index (0 for planes)
    std::uint32_t material = 0;     // wall material
    Vec3 normal = Vec3::UnitZ();    // unit, from the wall towards the body centre
    double overlap = 0.0;
    Vec3 point = Vec3::Zero();      // closest point on the wall surface
    Vec3 wall_velocity = Vec3::Zero();  // velocity of the wall surface at `point`
};

// A touching contact as recorded for frames and the GUI (only when ForceContext::record is set).
struct ContactRecord {
    std::uint32_t body_a = 0;
    std::int64_t body_b = 0;        // >= 0 body index; < 0: wall -1 - body_b
    Vec3 point = Vec3::Zero();      // contact point
    Vec3 normal = Vec3::UnitZ();    // from b to a
    Vec3 force = Vec3::Zero();      // on a
    double overlap = 0.0;
};

// A pair's force and torque on a body outside the range of the thread that computed it.
struct OutsideForce {
    std::size_t body;
    Vec3 force, torque;
};

// One thread's share of a force evaluation. force/torque are bodies-sized: with one thread the
// bodies' own arrays, otherwise this thread's (zero on entry; the engine sums them after, in thread
// order, where a loop said it wrote them). A loop over a range of bodies claims it with ownRange(): no
// other thread writes those bodies, so their forces go straight into own_force/own_torque (the
// bodies' arrays), and add() lists those of the pairs reaching outside it in `outside`, which the
// engine adds after, in thread order. Listed, not summed into the thread's arrays: the thread owning
// those bodies read and cleared the slots, and on a host whose two cores sit on different caches
// each such line crossed between them twice a step (two threads ran a quarter slower).
struct ThreadAccumulator {
    Vec3* force = nullptr;
    Vec3* torque = nullptr;
    Vec3* own_force = nullptr;
    Vec3* own_torque = nullptr;
    std::size_t own_begin = 0, own_end = 0;
    bool touched = false;  // force/torque were written (by a loop over contacts, touchAll)
    std::vector<OutsideForce> outside;   // add()'s forces on bodies outside the own range, in order
    double elastic_energy = 0.0;
    double dissipated = 0.0;    // energy dissipated during this force evaluation
    std::size_t contacts = 0;
    std::vector<ContactRecord> records;
    // The thread's time on its range of the pair loop (applyContactLaw), for the engine's next split
    // of the work; left at zero by a model without that loop.
    double range_seconds = 0.0;
    // The pair loop's stretches of rows, each run in order by this thread: its own range's chunks,
    // then each chunk it took from the end of another's (parallelOwnedChunks). The engine adds the
    // listed forces and joins the records of all threads' stretches in row order, the order of one
    // thread's pass. Empty for a model without that loop: then each thread's lists in thread order.
    struct Stretch {
        std::size_t first_row = 0, end_row = 0;  // the rows [first_row, end_row) this thread ran
        std::size_t outside_begin = 0, outside_end = 0;  // in `outside`
        std::size_t records_begin = 0, records_end = 0;  // in `records`
    };
    std::vector<Stretch> stretches;

    void ownRange(std::size_t begin, std::size_t end) { own_begin = begin; own_end = end; }
    // A loop that writes force/torque directly (over contacts rather than bodies) says so.
    void touchAll() { touched = true; }
    void add(std::size_t k, const Vec3& f, const Vec3& t) {
        if (k >= own_begin && k < own_end) {
            own_force[k] += f;
            own_torque[k] += t;
            return;
        }
        outside.push_back({k, f, t});
    }
};

// Bodies per block of the pair loop's energy sums: each block's elastic and dissipated energy is
// summed in pair order by one thread, and the blocks in order after, so the totals do not depend on
// where the threads' ranges split the bodies.
constexpr std::size_t kEnergyBlock = 256;

// The engine's sweep over the bodies (the integrator's kick and drift, the Verlet check, the forces
// started at the weight), handed to a pair loop that runs it chunk by chunk just before the chunk's
// rows (ForceContext::sweep): a row's partners are bodies below it (neighbor_list.hpp), so they are
// swept by then, and the rows find the chunk's bodies still in the cache rather than in memory.
// Once the sweep has stopped (a body moved far enough that the list is stale, or ran away) the loop
// runs no more rows and leaves the list's histories as they were, and the engine sweeps the rest and
// evaluates the forces again in full.
class ChunkSweep {
public:
    // Before the loop, with the bounds of its threads' ranges: the bodies of a range that rows of a
    // higher range reach, swept by all threads at once. False once the sweep has stopped.
    virtual bool beforeLoop(const std::vector<std::size_t>& bounds) = 0;
    // On thread `thread`, before the rows [begin, end) of range `range`: sweeps the bodies of
    // [begin, end) not swept yet and sees every body of the range below `begin` swept (the owner,
    // taking its chunks in order, has swept them; a thread that took a chunk from the end sweeps
    // those still free and waits for those another thread is sweeping). False once the sweep has
    // stopped.
    virtual bool sweepChunk(int thread, std::size_t range, std::size_t begin, std::size_t end) = 0;
    virtual bool stopped() const = 0;

protected:
    ~ChunkSweep() = default;
};

struct ForceContext {
    Bodies& bodies;
    NeighborList& pairs;
    std::vector<WallContact>& wall_contacts;
    std::vector<double>& wall_history;   // history_size doubles per wall contact
    const MaterialPairTable& materials;
    const PeriodicBox& box;
    std::vector<ThreadAccumulator>& accumulators;  // one per thread
    double dt = 0.0;
    int threads = 1;
    bool record = false;
    // Feature contacts (polyhedra, and spheres and walls alike) when the model asked for them
    // (ContactModel::featureContactRange() > 0); nullptr otherwise.
    PolyhedralContactList* polyhedral = nullptr;
    // Per energy block: elastic energy at [2b], dissipated at [2b + 1], summed by the engine in
    // block order; nullptr: the pair loop adds its totals to accumulators[0].
    std::vector<double>* energy_blocks = nullptr;
    // Where the pair loop's threads split the list's work estimate: thread t takes the part from
    // work_shares[t] to work_shares[t + 1] of it (0 ... 1, from the threads' measured times);
    // nullptr or another size: equal parts.
    const std::vector<double>* work_shares = nullptr;
    // Set only for a model whose ContactModel::sweepsInPairLoop(); nullptr: the engine swept the
    // bodies before.
    ChunkSweep* sweep = nullptr;
};

}  // namespace grainlab
