#pragma once
// Checkpoints: everything a run needs to continue exactly as if it had never stopped.
//
// File layout (format "grainlab-checkpoint", version 2; docs/robustness.md describes it):
//   line 1   "GRAINLAB-CHECKPOINT\n"
//   line 2   the byte length of the JSON header, in decimal, then "\n"
//   header   JSON: format, version, byte order, the scene (plugin choices and parameters, time step,
//            walls; bodies are not listed there), scalar state, output progress, and a table of
//            named binary sections (type, count, offset, FNV-1a checksum)
//   payload  the sections' raw little-endian arrays (bodies, neighbour list with contact history,
//            wall contacts with history, wall candidates, wall meshes, feature contacts of
//            polyhedra with history)
// Readers ignore sections they do not know and refuse a missing required one, so later additions
// (solver warm starts as "solver/impulses", plugin state) are new sections in the same version.
// A change that old readers must not ignore raises the version, which readers check. Version 2
// added the feature contacts ("polyhedral/*"): a version-1 reader would drop their history and
// restart polyhedra differently, so it refuses them; version-1 files still load (contacts found again).
#include <filesystem>
#include <string>
#include <vector>

#include "grainlab/io/vtp_format.hpp"
#include "grainlab/sim/simulation.hpp"

namespace grainlab {

inline constexpr const char* kCheckpointFormatName = "grainlab-checkpoint";
inline constexpr int kCheckpointFormatVersion = 2;

// Where a batch run's output series stands, so a resumed run appends to the same series.
struct OutputProgress {
    std::filesystem::path directory;            // absolute
    long end_step = 0;                          // the step the run is heading for
    long frame_every = 1;                       // frames at multiples of this and at end_step
    long row_every = 1;                         // energy rows likewise
    long checkpoint_every = 0;                  // 0: only on request and at the end
    bool contacts = true;                       // contact frames written
    std::vector<CollectionEntry> particle_frames, contact_frames;  // listed in the .pvd files
};

struct Checkpoint {
    std::string file;         // where it was read from (messages)
    std::string scene_file;   // the scene the run began from
    Scene scene;              // with wall meshes loaded; bodies come from `state`
    State state;
    RestartExtras extras;
    int threads = 1;          // the thread count of the saved run
    OutputProgress output;
};

// Writes the simulation's full state atomically (temporary file, then rename). Throws OutputError.
void writeCheckpoint(const Simulation& simulation, const std::filesystem::path& path,
                     const OutputProgress& output = {});

// Reads and checks a checkpoint. Throws InputError naming the file and the section or header field.
Checkpoint readCheckpoint(const std::filesystem::path& path);

// Whether the file begins with the checkpoint's magic line (tools that take a scene or a checkpoint).
bool isCheckpointFile(const std::filesystem::path& path);

// The same as readCheckpoint, from bytes already in memory (`file` is used in messages).
Checkpoint parseCheckpoint(const std::string& bytes, const std::string& file);

}  // namespace grainlab
