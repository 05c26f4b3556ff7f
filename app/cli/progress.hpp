#pragma once
// A one-line progress bar with steps/s and ETA, redrawn in place on a terminal.
#include <chrono>
#include <cstdio>

namespace grainlab::cli {

class ProgressBar {
public:
    ProgressBar(long total_steps, bool enabled);
    void update(long done);  // redraws at most ~10 times a second
    void finish(long done);

private:
    void draw(long done);
    long total_;
    bool enabled_;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace grainlab::cli
