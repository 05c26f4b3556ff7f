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

#include "grainlab/core/bit_ranges.hpp"

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
};

// The held histories of a range's entries, 64-entry window after window, read from whichever parts
// hold them: the pair loop's ranges follow the threads' times from step to step, so a range rarely
// matches the parts the step before wrote (copying the range's histories into one part first cost a
// pass over them at every move). The bits of a window are cut from the words of its parts; its values
// are the part's own where one part holds them all, else gathered into a buffer. `Size`: doubles per
// history (PairHistory::size), fixed so that the buffer is an array (a vector's clean-up took
// registers from the pair loop around it).
template <std::size_t Size>
class HeldWindows {
public:
    // Windows from entry `first` on.
    HeldWindows(const PairHistory& history, std::uint32_t first) : parts_(history.parts), at_(first) {
        values_ = parts_.empty() ? nullptr : parts_.front().values.data();
        enterPart();
        if (part_ < parts_.size() && at_ > parts_[part_].first)
            values_ += countBits(parts_[part_].held.data(), 0, at_ - parts_[part_].first) * Size;
    }

    // The held bits of the next `count` (<= 64) entries (bit e: the window's entry e) and, in
    // `values`, their histories in entry order, `Size` doubles each.
    [[gnu::always_inline]] std::uint64_t next(std::uint32_t count, const double*& values) {
        if (whole_windows_ == 0 || count != 64) return nextAcrossParts(count, values);
        // A whole window inside the part, which goes on after it: all but a range's last few.
        --whole_windows_;
        const std::uint64_t bits = shift_ == 0 ? word_[0] : (word_[0] >> shift_) | (word_[1] << (64 - shift_));
        ++word_;
        values = values_;
        values_ += bitCount(bits) * Size;
        at_ += 64;
        return bits;
    }

private:
    // The fast path's place in part_ (none where the part starts after at_), past the parts that end
    // at at_ (an empty range's among them).
    void enterPart() {
        whole_windows_ = 0;
        for (; part_ < parts_.size() && parts_[part_].end <= at_; ++part_)
            values_ = part_ + 1 < parts_.size() ? parts_[part_ + 1].values.data() : nullptr;
        if (part_ >= parts_.size() || parts_[part_].first > at_) return;
        const PairHistoryPart& part = parts_[part_];
        const std::uint32_t offset = at_ - part.first;
        word_ = part.held.data() + offset / 64;
        shift_ = offset % 64;
        whole_windows_ = (part.end - at_ - 1) / 64;  // those ending before the part does
    }

    [[gnu::noinline]] std::uint64_t nextAcrossParts(std::uint32_t count, const double*& values) {
        const std::uint32_t end = at_ + count;
        std::uint64_t bits = 0;
        std::size_t gathered = 0;  // values in buffer_, once a second part holds some
        values = nullptr;
        while (part_ < parts_.size() && parts_[part_].first < end) {
            const PairHistoryPart& part = parts_[part_];
            const std::uint32_t lo = std::max(at_, part.first), hi = std::min(end, part.end);
            const std::uint64_t mine = lo < hi ? wordAt(part.held, lo - part.first, hi - lo) : 0;
            const double* const from = values_;
            values_ += bitCount(mine) * Size;
            if (mine != 0) {
                if (bits == 0) {
                    values = from;
                } else {
                    if (gathered == 0) gathered = append(0, values, bits);
                    gathered = append(gathered, from, mine);
                    values = buffer_;
                }
                bits |= mine << (lo - at_);
            }
            if (part.end > end) break;  // the next window starts inside this part
            ++part_;
            values_ = part_ < parts_.size() ? parts_[part_].values.data() : nullptr;
        }
        at_ = end;
        enterPart();
        return bits;
    }
    // `length` (<= 64) bits of `words` from bit `offset`, in the low bits.
    static std::uint64_t wordAt(const std::vector<std::uint64_t>& words, std::uint32_t offset, std::uint32_t length) {
        const std::size_t w = offset / 64, shift = offset % 64;
        std::uint64_t bits = words[w] >> shift;
        if (shift != 0 && w + 1 < words.size()) bits |= words[w + 1] << (64 - shift);
        return length < 64 ? bits & ((std::uint64_t{1} << length) - 1) : bits;
    }
    // The values of the entries in `bits` from `from` on, into buffer_ from `at`; where they end.
    std::size_t append(std::size_t at, const double* from, std::uint64_t bits) {
        for (std::size_t k = bitCount(bits) * Size; k > 0; --k) buffer_[at++] = *from++;
        return at;
    }

    const std::vector<PairHistoryPart>& parts_;
    std::uint32_t at_;                // the next window's first entry
    std::size_t part_ = 0;            // the first part ending after at_
    const double* values_ = nullptr;  // that part's values of its first held entry from at_ on
    // The fast path: the part's word holding at_, the bit of at_ in it, and how many whole windows
    // from at_ end inside the part.
    const std::uint64_t* word_ = nullptr;
    unsigned shift_ = 0;
    std::uint32_t whole_windows_ = 0;
    double buffer_[64 * Size];        // a window's values from several parts
};

}  // namespace grainlab
