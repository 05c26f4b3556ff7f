#pragma once
// Counting the set bits of a range of bits stored in 64-bit words (bit b of word w is bit 64 w + b).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace grainlab {

// The set bits of a word without the popcnt instruction, which the baseline x86-64 build lacks
// (std::popcount there is a library call): a dozen instructions and no branch.
constexpr unsigned bitCount(std::uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
    return static_cast<unsigned>((x * 0x0101010101010101u) >> 56);
}

// Set bits among bits [first, end) of `words`.
inline std::size_t countBits(const std::uint64_t* words, std::size_t first, std::size_t end) {
    std::size_t count = 0;
    // Word by word, the first and last cut to [first, end).
    for (std::size_t b = first; b < end;) {
        const std::size_t stop = std::min(end, (b / 64 + 1) * 64);
        std::uint64_t bits = words[b / 64] >> (b % 64);
        if (stop - b < 64) bits &= (std::uint64_t{1} << (stop - b)) - 1;
        count += static_cast<std::size_t>(std::popcount(bits));
        b = stop;
    }
    return count;
}

}  // namespace grainlab
