#include "grainlab/io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <system_error>

#include "grainlab/io/output_error.hpp"

namespace grainlab {
namespace {

std::string reason(int error) { return std::strerror(error); }

// Unique per process and call, so two threads writing the same target never share a temporary.
std::filesystem::path temporaryNameFor(const std::filesystem::path& path) {
    static std::atomic<unsigned long> counter{0};
    std::string name = ".";
    name += path.filename().string();
    name += ".tmp.";
    name += std::to_string(static_cast<long>(::getpid()));
    name += '.';
    name += std::to_string(counter.fetch_add(1));
    return path.parent_path() / name;
}

// Loops because write() may stop early (signals, pipes) without an error.
int writeAll(int fd, std::string_view contents) {
    const char* data = contents.data();
    std::size_t left = contents.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    return 0;
}

// Makes the rename itself durable. Some file systems refuse fsync on folders; that is harmless.
void syncDirectory(const std::filesystem::path& directory) {
    const char* name = directory.empty() ? "." : directory.c_str();
    const int fd = ::open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

void ensureDirectory(const std::filesystem::path& directory) {
    if (directory.empty()) return;  // the current folder
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec) throw OutputError(directory, "cannot create folder: " + ec.message());
    if (!std::filesystem::is_directory(directory, ec))
        throw OutputError(directory, "cannot create folder: a file of that name is in the way");
}

std::size_t removeStaleTemporaries(const std::filesystem::path& directory) {
    std::size_t removed = 0;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const std::size_t tag = name.rfind(".tmp.");
        if (name.empty() || name[0] != '.' || tag == std::string::npos) continue;
        char* after = nullptr;
        const long pid = std::strtol(name.c_str() + tag + 5, &after, 10);
        if (pid <= 0 || *after != '.') continue;
        const bool alive = ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
        std::error_code remove_error;
        if (!alive && std::filesystem::remove(it->path(), remove_error)) ++removed;
    }
    return removed;
}

void writeFileAtomically(const std::filesystem::path& path, std::string_view contents) {
    writeFileAtomically(path, [&](const ByteSink& sink) { sink(contents); });
}

void writeFileAtomically(const std::filesystem::path& path, const std::function<void(const ByteSink&)>& produce) {
    if (path.filename().empty()) throw OutputError(path, "not a file name");
    ensureDirectory(path.parent_path());

    const std::filesystem::path temporary = temporaryNameFor(path);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        const int error = errno;
        throw OutputError(path, "cannot create temporary " + temporary.filename().string() + ": " +
                                    reason(error));
    }

    // The first write error is kept and later pieces skipped; it is reported once produce returns.
    int error = 0;
    try {
        produce([&](std::string_view piece) {
            if (error == 0) error = writeAll(fd, piece);
        });
    } catch (...) {
        ::close(fd);
        ::unlink(temporary.c_str());
        throw;
    }
    if (error == 0 && ::fsync(fd) != 0) error = errno;
    if (::close(fd) != 0 && error == 0) error = errno;  // NFS may report a full disk only here
    if (error == 0 && ::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
    if (error != 0) {
        ::unlink(temporary.c_str());
        throw OutputError(path, "cannot write: " + reason(error));
    }
    syncDirectory(path.parent_path());
}

}  // namespace grainlab
