#pragma once
// Writes a run's frames as a ParaView time series: particles_<step>.vtp (and contacts_<step>.vtp)
// plus particles.pvd / contacts.pvd that always list exactly the frames already complete.
// Every file is replaced atomically, so a run killed at any moment leaves only valid files.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "grainlab/io/frame.hpp"
#include "grainlab/io/vtp_format.hpp"

namespace grainlab {

class FrameSeriesWriter {
public:
    // Creates `directory` if needed and writes empty collections there, replacing any left by
    // an earlier run (their .vtp files stay, but are no longer listed). Throws OutputError.
    FrameSeriesWriter(std::filesystem::path directory, bool write_contacts);

    // Continues a series: the collections are rewritten to list exactly `particle_frames` and
    // `contact_frames` (frames a killed run wrote after its last checkpoint drop out; they are
    // written again as the run repeats those steps). Throws OutputError.
    FrameSeriesWriter(std::filesystem::path directory, bool write_contacts,
                      std::vector<CollectionEntry> particle_frames, std::vector<CollectionEntry> contact_frames);

    // Writes the frame's files, then the updated collections. Writing the same step again
    // replaces its files and its collection entry. Throws OutputError.
    void write(const FrameView& frame);
    void write(const Frame& frame) { write(viewOf(frame)); }

    std::size_t framesWritten() const { return frames_written_; }
    const std::filesystem::path& directory() const { return directory_; }
    const std::vector<CollectionEntry>& particleFrames() const { return particle_entries_; }
    const std::vector<CollectionEntry>& contactFrames() const { return contact_entries_; }

    static std::string particlesFileName(long step);  // "particles_00000042.vtp"
    static std::string contactsFileName(long step);   // "contacts_00000042.vtp"

private:
    static void record(std::vector<CollectionEntry>& entries, double time, std::string file);

    std::filesystem::path directory_;
    bool write_contacts_;
    std::size_t frames_written_ = 0;
    std::vector<CollectionEntry> particle_entries_, contact_entries_;
};

}  // namespace grainlab
