#include "grainlab/io/vtk_series.hpp"

#include <cstdio>
#include <utility>

#include "grainlab/io/atomic_file.hpp"

namespace grainlab {
namespace {

std::string stepFileName(const char* prefix, long step) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%08ld.vtp", prefix, step);
    return name;
}

}  // namespace

std::string FrameSeriesWriter::particlesFileName(long step) {
    return stepFileName("particles", step);
}

std::string FrameSeriesWriter::contactsFileName(long step) {
    return stepFileName("contacts", step);
}

FrameSeriesWriter::FrameSeriesWriter(std::filesystem::path directory, bool write_contacts)
    : FrameSeriesWriter(std::move(directory), write_contacts, {}, {}) {}

FrameSeriesWriter::FrameSeriesWriter(std::filesystem::path directory, bool write_contacts,
                                     std::vector<CollectionEntry> particle_frames,
                                     std::vector<CollectionEntry> contact_frames)
    : directory_(std::move(directory)), write_contacts_(write_contacts),
      particle_entries_(std::move(particle_frames)), contact_entries_(std::move(contact_frames)) {
    ensureDirectory(directory_);
    // Collections left by an earlier run here would list frames this run never wrote.
    writeFileAtomically(directory_ / "particles.pvd", encodePvd(particle_entries_));
    if (write_contacts_)
        writeFileAtomically(directory_ / "contacts.pvd", encodePvd(contact_entries_));
}

void FrameSeriesWriter::write(const FrameView& frame) {
    // Data files first, collections last: a collection never names a file that is not complete.
    const std::string particles = particlesFileName(frame.step);
    // Streamed to disk: a frame of 1e6 spheres built in memory first was a run's peak memory.
    writeFileAtomically(directory_ / particles, [&](const ByteSink& sink) { writeParticlesVtp(frame, sink); });
    std::string contacts;
    if (write_contacts_) {
        contacts = contactsFileName(frame.step);
        writeFileAtomically(directory_ / contacts, [&](const ByteSink& sink) { writeContactsVtp(frame, sink); });
    }

    record(particle_entries_, frame.time, particles);
    writeFileAtomically(directory_ / "particles.pvd", encodePvd(particle_entries_));
    if (write_contacts_) {
        record(contact_entries_, frame.time, contacts);
        writeFileAtomically(directory_ / "contacts.pvd", encodePvd(contact_entries_));
    }
    ++frames_written_;
}

void FrameSeriesWriter::record(std::vector<CollectionEntry>& entries, double time,
                               std::string file) {
    // Search from the back: a repeated step is almost always the latest one.
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        if (it->file == file) {
            it->time = time;
            return;
        }
    }
    entries.push_back({time, std::move(file)});
}

}  // namespace grainlab
