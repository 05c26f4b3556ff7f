#pragma once
// SIGINT and SIGTERM ask a run to stop after the current step (it then writes a checkpoint); a
// second signal of the same kind ends the program at once.
#include <atomic>
#include <string>

namespace grainlab::cli {

// Installs the handlers; the returned flag becomes true on the first signal.
const std::atomic<bool>& installStopSignals();

// The path quoted for a POSIX shell, so the printed resume command can be pasted as it is.
std::string shellQuoted(const std::string& text);

}  // namespace grainlab::cli
