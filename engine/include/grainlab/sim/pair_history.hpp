#pragma once
// The contact model's history of the Verlet list's pairs (the tangential spring), kept only for the
// pairs that hold one. On the chute one entry in seven touches: the dense array (24 bytes an entry,
// 86 MB at 1,024,000 spheres) was a stream the distance pass read every step to learn which pairs
// hold a history, most of it zeros.
//
// Kept in parts of consecutive entries, each written by one thread of the pair loop (parts in entry
// order, not overlapping; an entry in no part holds none): a bit per entry that holds a history,
// and the held entries' values in entry order.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace grainlab {

struct PairHistoryPart {
    std::uint32_t first = 0, end = 0;  // the entries [first, end)
    std::vector<std::uint64_t> held;   // bit b of word w: entry first + 64 w + b
    // `size` doubles per held entry, in entry order, in the first `used`; the rest is room, kept
    // from pass to pass so that appending neither allocates nor writes zeros first.
    std::vector<double> values;
    std::size_t used = 0;

    // Empty, for the entries [first, end); the arrays keep their room.
    void reset(std::uint32_t first_entry, std::uint32_t end_entry);
    // Room for `more` doubles past `used`; where they go.
    double* room(std::size_t more) {
        if (values.size() < used + more) values.resize(std::max(2 * values.size(), used + more));
        return values.data() + used;
    }
    // Holds `entry` (past every entry held before, inside [first, end)) with `size` values.
    void hold(std::uint32_t entry, const double* v, std::size_t size);
};

struct PairHistory {
    std::size_t size = 0;                 // doubles per pair
    std::vector<PairHistoryPart> parts;   // in entry order
    std::vector<PairHistoryPart> spare;   // the pair loop writes the next parts into these

    // fn(entry, values) for each entry of [first, end) that holds a history, in entry order.
    template <class Fn>
    void forEachHeld(std::uint32_t first, std::uint32_t end, Fn&& fn) const {
        if (size == 0) return;
        for (const PairHistoryPart& part : parts) {
            const std::uint32_t lo = std::max(first, part.first), hi = std::min(end, part.end);
            if (lo >= hi) continue;
            const std::size_t from_word = (lo - part.first) / 64, to_word = (hi - 1 - part.first) / 64;
            const double* v = part.values.data();
            for (std::size_t w = 0; w < from_word; ++w) v += static_cast<std::size_t>(std::popcount(part.held[w])) * size;
            for (std::size_t w = from_word; w <= to_word; ++w)
                for (std::uint64_t bits = part.held[w]; bits != 0; bits &= bits - 1, v += size) {
                    const auto entry = static_cast<std::uint32_t>(part.first + 64 * w + std::countr_zero(bits));
                    if (entry >= lo && entry < hi) fn(entry, v);
                }
        }
    }

    // How many entries of [first, end) hold a history.
    std::size_t heldCount(std::uint32_t first, std::uint32_t end) const;
    void clear() { parts.clear(); }
    // `size` doubles per entry of [0, entries), zero where none is held (the checkpoint's layout).
    std::vector<double> dense(std::size_t entries) const;
    // Held where a pair's values are not all zero in their bits (a -0.0 is held).
    static PairHistory fromDense(const std::vector<double>& dense, std::size_t size);
    // The held entries of [first, end) as one part.
    void sliceInto(std::uint32_t first, std::uint32_t end, PairHistoryPart& out) const;
    // The part of exactly [first, end) (a pair loop's range, as it wrote it the step before), or
    // else that slice in `scratch` (the first step after a rebuild or with other ranges).
    const PairHistoryPart& partFor(std::uint32_t first, std::uint32_t end, PairHistoryPart& scratch) const;
};

}  // namespace grainlab
