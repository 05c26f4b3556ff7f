#include "grainlab/io/time_series.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "grainlab/io/atomic_file.hpp"
#include "grainlab/io/output_error.hpp"

namespace grainlab {
namespace {

constexpr std::string_view kHeader =
    "step,time,kinetic,rotational,gravitational,elastic,dissipated,total,contacts,solver_iterations,solver_residual\n";

// The header and the complete rows of `text` whose step is at most `last_step`.
std::string rowsThrough(const std::string& text, long last_step) {
    std::string kept(kHeader);
    if (text.compare(0, kHeader.size(), kHeader) != 0) return kept;
    for (std::size_t at = kHeader.size(); at < text.size();) {
        const std::size_t end = text.find('\n', at);
        if (end == std::string::npos) break;  // a partial last row
        char* after = nullptr;
        const long step = std::strtol(text.c_str() + at, &after, 10);
        if (after == text.c_str() + at || *after != ',' || step > last_step) break;
        kept.append(text, at, end + 1 - at);
        at = end + 1;
    }
    return kept;
}

}  // namespace

TimeSeriesWriter::TimeSeriesWriter(std::filesystem::path csv_path) : path_(std::move(csv_path)) {
    openForAppending(std::string(kHeader));
}

TimeSeriesWriter::TimeSeriesWriter(std::filesystem::path csv_path, long last_step) : path_(std::move(csv_path)) {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    openForAppending(rowsThrough(text.str(), last_step));
}

void TimeSeriesWriter::openForAppending(const std::string& contents) {
    writeFileAtomically(path_, contents);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) {
        const int error = errno;
        throw OutputError(path_, std::string("cannot open for appending: ") + std::strerror(error));
    }
    size_ = static_cast<long long>(contents.size());
}

TimeSeriesWriter::~TimeSeriesWriter() {
    if (fd_ >= 0) ::fsync(fd_);
    close();
}

TimeSeriesWriter::TimeSeriesWriter(TimeSeriesWriter&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), size_(other.size_) {}

TimeSeriesWriter& TimeSeriesWriter::operator=(TimeSeriesWriter&& other) noexcept {
    if (this != &other) {
        close();
        path_ = std::move(other.path_);
        fd_ = std::exchange(other.fd_, -1);
        size_ = other.size_;
    }
    return *this;
}

void TimeSeriesWriter::close() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void TimeSeriesWriter::append(const EnergyRecord& r) {
    if (fd_ < 0) throw OutputError(path_, "writer is closed");
    char row[512];  // 7 doubles of at most 24 characters each, three integers: far below this
    const int length = std::snprintf(
        row, sizeof row, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%zu,%d,%.17g\n", r.step, r.time,
        r.kinetic, r.rotational, r.gravitational, r.elastic, r.dissipated, r.total(), r.contacts,
        r.solver_iterations, r.solver_residual);

    // One write() per row: once it returns, the row belongs to the kernel and survives a kill.
    ssize_t written;
    do {
        written = ::write(fd_, row, static_cast<std::size_t>(length));
    } while (written < 0 && errno == EINTR);
    if (written == length) {
        size_ += length;
        return;
    }
    const int error = written < 0 ? errno : ENOSPC;  // a short write to a file means it is full
    std::string message = std::string("cannot append row: ") + std::strerror(error);
    if (written > 0 && ::ftruncate(fd_, size_) != 0)
        message += " (the file now ends with a partial row)";
    throw OutputError(path_, message);
}

void TimeSeriesWriter::sync() {
    if (fd_ >= 0 && ::fsync(fd_) != 0) {
        const int error = errno;
        throw OutputError(path_, std::string("cannot flush to disk: ") + std::strerror(error));
    }
}

}  // namespace grainlab
