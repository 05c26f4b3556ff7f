#include "progress.hpp"

#include <string>

namespace grainlab::cli {

ProgressBar::ProgressBar(long total_steps, bool enabled)
    : total_(total_steps), enabled_(enabled), start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

void ProgressBar::update(long done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    draw(done);
}

void ProgressBar::finish(long done) {
    if (!enabled_) return;
    draw(done);
    std::fputc('\n', stderr);
}

void ProgressBar::draw(long done) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
    const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
    const int width = 30;
    const int filled = total_ > 0 ? static_cast<int>(width * static_cast<double>(done) / static_cast<double>(total_)) : width;
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '-');
    std::fprintf(stderr, "\r[%s] %ld/%ld steps  %.0f steps/s  ETA %.1f s   ", bar.c_str(), done, total_, rate, eta);
    std::fflush(stderr);
}

}  // namespace grainlab::cli
