#include "grainlab/sim/pair_history.hpp"

#include <algorithm>
#include <bit>

#include "grainlab/core/bit_ranges.hpp"

namespace grainlab {
namespace {

// Whether a pair's history values are not all zero in their bits (a -0.0 counts): a dense
// history (a checkpoint's) holds those.
bool historyHeld(const double* history, std::size_t size) {
    std::uint64_t bits = 0;
    for (std::size_t s = 0; s < size; ++s) bits |= std::bit_cast<std::uint64_t>(history[s]);
    return bits != 0;
}

}  // namespace

void PairHistoryPart::reset(std::uint32_t first_entry, std::uint32_t end_entry) {
    first = first_entry;
    end = std::max(first_entry, end_entry);
    held.assign((end - first + 63) / 64, 0);
    used = 0;
}

void PairHistoryPart::hold(std::uint32_t entry, const double* v, std::size_t size) {
    const std::uint32_t e = entry - first;
    held[e / 64] |= std::uint64_t{1} << (e % 64);
    double* to = room(size);
    for (std::size_t s = 0; s < size; ++s) to[s] = v[s];  // a few values: copy_n called memmove
    used += size;
}

std::size_t PairHistory::heldCount(std::uint32_t first, std::uint32_t end) const {
    std::size_t count = 0;
    for (const PairHistoryPart& part : parts) {
        const std::uint32_t lo = std::max(first, part.first), hi = std::min(end, part.end);
        if (lo < hi) count += countBits(part.held.data(), lo - part.first, hi - part.first);
    }
    return count;
}

std::vector<double> PairHistory::dense(std::size_t entries) const {
    std::vector<double> out(entries * size, 0.0);
    forEachHeld(0, static_cast<std::uint32_t>(entries), [&](std::uint32_t entry, const double* v) {
        std::copy_n(v, size, out.data() + std::size_t{entry} * size);
    });
    return out;
}

PairHistory PairHistory::fromDense(const std::vector<double>& dense, std::size_t size) {
    PairHistory history;
    history.size = size;
    if (size == 0) return history;
    const auto entries = static_cast<std::uint32_t>(dense.size() / size);
    PairHistoryPart& part = history.parts.emplace_back();
    part.reset(0, entries);
    for (std::uint32_t k = 0; k < entries; ++k) {
        const double* v = dense.data() + std::size_t{k} * size;
        if (historyHeld(v, size)) part.hold(k, v, size);
    }
    return history;
}

}  // namespace grainlab
