#pragma once
// The energy time series as CSV, one row per record. The header is written atomically when the
// writer is created and each row goes to the kernel with a single write(), so a run killed at
// any moment leaves a file of complete rows.
#include <filesystem>
#include <string>

#include "grainlab/io/frame.hpp"

namespace grainlab {

class TimeSeriesWriter {
public:
    // Creates (or replaces) the file with the header line
    // step,time,kinetic,rotational,gravitational,elastic,dissipated,total,contacts,solver_iterations,
    // solver_residual.
    // Throws OutputError.
    explicit TimeSeriesWriter(std::filesystem::path csv_path);

    // Continues an existing series: keeps the header and the complete rows up to and including
    // `last_step` (rows a killed run wrote after its checkpoint are dropped), rewriting the file
    // atomically, then appends. A missing or unreadable file starts with the header. Throws OutputError.
    TimeSeriesWriter(std::filesystem::path csv_path, long last_step);
    ~TimeSeriesWriter();  // syncs and closes; errors there are ignored (call sync() to see them)

    TimeSeriesWriter(const TimeSeriesWriter&) = delete;
    TimeSeriesWriter& operator=(const TimeSeriesWriter&) = delete;
    TimeSeriesWriter(TimeSeriesWriter&& other) noexcept;
    TimeSeriesWriter& operator=(TimeSeriesWriter&& other) noexcept;

    // Appends one row, numbers with full precision (%.17g). If the disk fills mid-row the
    // partial row is cut off again before OutputError is thrown.
    void append(const EnergyRecord& record);

    // Forces written rows to the disk (fsync). Only needed against power loss: rows already
    // appended survive the process being killed. Throws OutputError.
    void sync();

    const std::filesystem::path& path() const { return path_; }

private:
    void openForAppending(const std::string& contents);
    void close() noexcept;

    std::filesystem::path path_;
    int fd_ = -1;
    long long size_ = 0;  // bytes of complete rows, to cut a partial one off again
};

}  // namespace grainlab
