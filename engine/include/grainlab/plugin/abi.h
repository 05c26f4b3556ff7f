/* The binary interface between GrainLab and a plugin library.
 *
 * A plugin is a shared library exporting one C function, GRAINLAB_PLUGIN_ENTRY_NAME, that returns a
 * descriptor. The interface version is in the symbol's name and again in the descriptor, so a library
 * built for another version is refused with a message instead of being called with the wrong layout. */
#ifndef GRAINLAB_PLUGIN_ABI_H
#define GRAINLAB_PLUGIN_ABI_H

#include <stdint.h>

/* 2: StepContext::compute_forces_around (explicit integrators' updates inside the force passes).
 * 3: NeighborList::owner (the pair loop over entries) and ThreadAccumulator::touched (flags per
 *    block of bodies instead of one touched range).
 * 4: NeighborList::history (PairHistory: only the touching pairs' history), ThreadAccumulator::outside
 *    (forces on other threads' bodies listed) and ThreadAccumulator::touched (one flag).
 * 5: StepContext::compute_forces_around's `after` may run in the next step's `before` pass, so an
 *    integrator's step may read or change no body before it calls compute_forces_around.
 * 6: ForceContext::energy_blocks (the pair loop's energies summed per block of bodies, the same for
 *    any split of the bodies between threads).
 * 7: ForceContext::work_shares and ThreadAccumulator::range_seconds (the pair loop's split of the
 *    work follows its threads' measured times).
 * 8: ThreadAccumulator::stretches (a thread of the pair loop takes chunks from the end of others'
 *    ranges once its own is done).
 * 9: ThreadAccumulator::Stretch::end_row (the work each thread did, for the engine's next split).
 * 10: KickDrift (kicks.hpp), whose fields the engine reads from an explicit integrator's updates
 *    (std::function::target) to run them in one loop with its passes' own jobs.
 * 11: ForceContext::sweep and ContactModel::sweepsInPairLoop (the engine's sweep over the bodies run
 *    chunk by chunk inside the pair loop).
 * 12: ChunkSweep::beforeLoop and ChunkSweep::sweepChunk, NeighborList::reach_by_block (that sweep
 *    on several threads).
 * 13: Bodies::isotropic_inv_inertia (what the kicks read of a sphere's inertia). */
#define GRAINLAB_PLUGIN_ABI_VERSION 13u
#define GRAINLAB_PLUGIN_ENTRY grainlab_plugin_entry_v13
#define GRAINLAB_PLUGIN_ENTRY_NAME "grainlab_plugin_entry_v13"
#define GRAINLAB_PLUGIN_ENTRY_PREFIX "grainlab_plugin_entry_v"

#ifdef __cplusplus
extern "C" {
#endif

enum GrainlabPluginKind {
    GRAINLAB_KIND_INTEGRATOR = 1,
    GRAINLAB_KIND_CONTACT_MODEL = 2,
    GRAINLAB_KIND_SOLVER = 3,
    GRAINLAB_KIND_POST_STEP = 4
};

enum GrainlabParameterType { GRAINLAB_PARAM_REAL = 1, GRAINLAB_PARAM_INTEGER = 2, GRAINLAB_PARAM_BOOLEAN = 3 };

typedef struct GrainlabParameter {
    const char* name;
    const char* unit;        /* "" for dimensionless */
    int type;                /* GrainlabParameterType */
    double default_value;
    double min_value;
    double max_value;
    const char* description;
} GrainlabParameter;

typedef struct GrainlabPluginDescriptor {
    uint32_t abi_version;    /* GRAINLAB_PLUGIN_ABI_VERSION */
    int kind;                /* GrainlabPluginKind */
    const char* name;        /* as scenes name it, e.g. "hooke" */
    const char* version;     /* the plugin's own version, e.g. "1.0.0" */
    const char* description;
    const GrainlabParameter* parameters;
    uint32_t parameter_count;
    /* Returns a new object of the C++ interface matching `kind` (grainlab::Integrator,
     * grainlab::ContactModel, grainlab::Solver or grainlab::PostStep), released with `destroy`. */
    void* (*create)(void);
    void (*destroy)(void*);
} GrainlabPluginDescriptor;

typedef const GrainlabPluginDescriptor* (*GrainlabPluginEntry)(void);

#ifdef __cplusplus
}
#endif

#if defined(__GNUC__)
#define GRAINLAB_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define GRAINLAB_PLUGIN_EXPORT
#endif

#endif
