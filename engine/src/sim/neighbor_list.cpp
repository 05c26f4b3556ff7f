#include "grainlab/sim/neighbor_list.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "grainlab/core/bit_ranges.hpp"
#include "grainlab/core/huge_pages.hpp"
#include "grainlab/core/parallel.hpp"
#include "grainlab/core/vector_isa.hpp"
#include "grainlab/plugin/entry_tests.hpp"
#include "grainlab/state/bodies.hpp"
#include "cell_grid.hpp"
#include "near_candidates.hpp"

namespace grainlab {
namespace {

// The rows (partners within r_i + r_j + skin, j < i, sorted) collected chunk by chunk of bodies, each
// chunk's by the thread that took it (its range's owner, or another done with its own), into that
// thread's array; joined in chunk order after. The cell grid lives only here: gone before the new
// list is allocated.
struct CollectedRows {
    struct Slice {
        std::uint32_t thread = 0;
        std::size_t from = 0, count = 0;  // in partners[thread]
    };
    std::vector<std::vector<std::uint32_t>> partners;  // per thread
    std::vector<Slice> chunks;                          // per chunk of bodies, in body order
    std::vector<std::uint32_t> length;                  // per body
};

// Bodies per chunk of the search: some sixteen chunks a thread, so that a thread slowed for a while
// hands the rest to the other (with ranges fixed in advance, one range of each build took 20-40%
// longer than the other at 1,024,000 spheres on two threads, and the split fitted to the last
// build's times chased that noise), and no smaller than 64 bodies.
std::size_t searchChunk(std::size_t n, int threads) {
    return std::clamp<std::size_t>(n / (16 * static_cast<std::size_t>(std::max(1, threads))), 64, 8192);
}

CollectedRows collectRows(const Bodies& bodies, const PeriodicBox& box, double skin, int thread_count,
                          std::size_t expected_entries) {
    const std::size_t n = bodies.size();
    const CellGrid grid = buildCellGrid(bodies, box, skin, thread_count);
    const std::size_t chunk = searchChunk(n, thread_count);
    CollectedRows rows{std::vector<std::vector<std::uint32_t>>(static_cast<std::size_t>(thread_count)),
                       std::vector<CollectedRows::Slice>((n + chunk - 1) / chunk), std::vector<std::uint32_t>(n, 0)};
    const CandidateBodies candidates{bodies.position.data(), bodies.radius.data(), bodies.frozen.data(),
                                     NearestImage(box), skin,
                                     contactLoopIsa() == VectorIsa::Avx2 && n <= std::numeric_limits<std::int32_t>::max()};
    // Per thread, on a line of its own: the output and the search's scratch, kept across chunks.
    struct alignas(64) Scratch {
        std::vector<std::uint32_t> out;
        std::vector<std::uint32_t> around;  // the bodies of the cells around a body's, and padding
        std::vector<std::uint32_t> row;     // the kept ones
    };
    std::vector<Scratch> scratch(static_cast<std::size_t>(thread_count));
    // Room for the last list's entries and a margin, on 2 MiB pages, in each thread's array (address
    // space only until written): grown by doubling, the rows were copied twice over and faulted in
    // 4 KiB at a time, each fault taking the process's memory lock the other thread's faults wait on.
    // Outputs are the threads' own arrays, not one shared: every append's update of a shared end
    // bounced its cache line between the cores.
    for (Scratch& s : scratch) reserveOnHugePages(s.out, expected_entries + expected_entries / 16 + 64);
    parallelOwnedChunks(equalChunkedRanges(n, thread_count, chunk), chunk,
                        [&](int t, std::size_t, std::size_t index, std::size_t begin, std::size_t end) {
        Scratch& mine = scratch[static_cast<std::size_t>(t)];
        std::vector<std::uint32_t>& out = mine.out;
        rows.chunks[index] = {static_cast<std::uint32_t>(t), out.size(), 0};
        StencilRuns runs;
        std::uint32_t stencil_cell = ~std::uint32_t{0};
        for (std::size_t i = begin; i < end; ++i) {
            if (grid.cell_of[i] != stencil_cell) {
                stencil_cell = grid.cell_of[i];
                runs = stencilRuns(grid, box, stencil_cell);
                // The nine runs as one array: the vector test then has one short tail, not nine.
                mine.around.resize(runs.bodies + kCandidatePadding);
                mine.row.resize(std::max<std::size_t>(mine.row.size(), runs.bodies + 4));
                std::uint32_t* to = mine.around.data();
                for (int r = 0; r < runs.count; ++r)
                    to = std::copy(grid.bodies.begin() + runs.begin[static_cast<std::size_t>(r)],
                                   grid.bodies.begin() + runs.end[static_cast<std::size_t>(r)], to);
            }
            std::fill(mine.around.end() - kCandidatePadding, mine.around.end(), static_cast<std::uint32_t>(i));
            const std::size_t kept =
                keepNearCandidates(candidates, static_cast<std::uint32_t>(i), mine.around.data(), runs.bodies, mine.row.data());
            std::sort(mine.row.begin(), mine.row.begin() + static_cast<std::ptrdiff_t>(kept));
            out.insert(out.end(), mine.row.begin(), mine.row.begin() + static_cast<std::ptrdiff_t>(kept));
            rows.length[i] = static_cast<std::uint32_t>(kept);
        }
        rows.chunks[index].count = out.size() - rows.chunks[index].from;
    });
    for (std::size_t t = 0; t < scratch.size(); ++t) rows.partners[t] = std::move(scratch[t].out);
    return rows;
}

// The entries of the first `rows` rows that hold a history, in parts of consecutive rows, one
// collected by each thread.
struct RememberedPairs {
    struct Part {
        std::size_t first_row = 0;
        std::vector<std::uint32_t> row_end;  // per row from first_row on, into partner
        std::vector<std::uint32_t> partner;
        std::vector<double> history;
    };
    std::vector<Part> parts;  // per thread
};

RememberedPairs rememberedPairs(const NeighborList& list, std::size_t rows, int threads) {
    const std::size_t h = list.history.size;
    RememberedPairs kept;
    kept.parts.resize(static_cast<std::size_t>(threads));
    parallelRanges(rows, threads, [&](int t, std::size_t begin, std::size_t end) {
        RememberedPairs::Part part;  // a local, moved into place after (as collectRows' rows)
        part.first_row = begin;
        part.row_end.reserve(end - begin);
        // Grown from empty, the arrays were copied and faulted in again at every doubling.
        const std::size_t held = list.history.heldCount(list.row_start[begin], list.row_start[end]);
        part.partner.reserve(held);
        part.history.reserve(held * h);
        std::size_t i = begin;  // the row of the entries held next
        list.history.forEachHeld(list.row_start[begin], list.row_start[end], [&](std::uint32_t k, const double* history) {
            for (; list.row_start[i + 1] <= k; ++i) part.row_end.push_back(static_cast<std::uint32_t>(part.partner.size()));
            part.partner.push_back(list.partner[k]);
            part.history.insert(part.history.end(), history, history + h);
        });
        for (; i < end; ++i) part.row_end.push_back(static_cast<std::uint32_t>(part.partner.size()));
        kept.parts[static_cast<std::size_t>(t)] = std::move(part);
    });
    return kept;
}

}  // namespace

void buildNeighborList(NeighborList& list, const Bodies& bodies, const PeriodicBox& box, double skin,
                       std::size_t history_size, int threads) {
    const std::size_t n = bodies.size();
    // The old list and the new coexist for the history merge, the peak of a run's memory: what the
    // merge does not need is released first (positions at the old build, the grid, the rows
    // collected per thread once joined; 40-50 bytes a body at 1,000,000 spheres), and of the old
    // history only the pairs that have one are kept (below).
    std::vector<Vec3>().swap(list.position_at_build);
    std::vector<double>().swap(list.work_before);
    std::vector<std::uint32_t>().swap(list.owner);
    const int thread_count = std::max(1, threads);
    CollectedRows rows = collectRows(bodies, box, skin, thread_count, list.partner.size());

    NeighborList next;
    next.history.size = history_size;
    next.builds = list.builds + 1;
    reserveOnHugePages(next.row_start, n + 1);
    next.row_start.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) next.row_start[i + 1] = next.row_start[i] + rows.length[i];
    std::vector<std::uint32_t>().swap(rows.length);
    reserveOnHugePages(next.partner, next.row_start[n]);
    for (const CollectedRows::Slice& slice : rows.chunks) {
        const auto from = rows.partners[slice.thread].begin() + static_cast<std::ptrdiff_t>(slice.from);
        next.partner.insert(next.partner.end(), from, from + static_cast<std::ptrdiff_t>(slice.count));
    }
    std::vector<std::vector<std::uint32_t>>().swap(rows.partners);
    // The old pairs with a history are kept apart, by row, and the rest of the old list released
    // before the merge.
    const std::size_t carried = list.row_start.empty() ? 0 : std::min(n, list.row_start.size() - 1);
    const bool carry = list.history.size == history_size && history_size > 0 && carried > 0;
    const RememberedPairs remembered = carry ? rememberedPairs(list, carried, thread_count) : RememberedPairs{};
    std::vector<std::uint32_t>().swap(list.partner);
    list.history = PairHistory{};

    // Carry history over: both rows are sorted by partner, so a merge finds the common pairs.
    // Bodies appended since the last build only add rows; earlier rows keep their indices.
    if (carry) {
        next.history.parts.resize(static_cast<std::size_t>(thread_count));
        parallelRanges(carried, thread_count, [&](int t, std::size_t begin, std::size_t end) {
            PairHistoryPart held;  // a local, moved into place after (as collectRows' rows)
            held.reset(next.row_start[begin], next.row_start[end]);
            // The same rows as the thread's remembered part: at most its pairs keep a history.
            const RememberedPairs::Part& mine = remembered.parts[static_cast<std::size_t>(t)];
            if (mine.first_row == begin && mine.row_end.size() == end - begin) held.values.reserve(mine.history.size());
            std::size_t p = 0;  // the part holding row i (parts in row order; a thread's may be empty)
            for (std::size_t i = begin; i < end; ++i) {
                while (i >= remembered.parts[p].first_row + remembered.parts[p].row_end.size()) ++p;
                const RememberedPairs::Part& part = remembered.parts[p];
                const std::size_t row = i - part.first_row;
                std::uint32_t a = row == 0 ? 0 : part.row_end[row - 1], b = next.row_start[i];
                const std::uint32_t a_end = part.row_end[row];
                while (a < a_end && b < next.row_start[i + 1]) {
                    if (part.partner[a] < next.partner[b]) ++a;
                    else if (next.partner[b] < part.partner[a]) ++b;
                    else {
                        held.hold(b, part.history.data() + std::size_t{a} * history_size, history_size);
                        ++a;
                        ++b;
                    }
                }
            }
            next.history.parts[static_cast<std::size_t>(t)] = std::move(held);
        });
    }
    reserveOnHugePages(next.position_at_build, n);
    next.position_at_build = bodies.position;
    list = std::move(next);
    // Here, into the memory the old list just gave back: indexed later (by the pair loop, on
    // demand), the owners raised the 1,024,000-sphere chute's two-thread peak from 549,528 to
    // 563,244 KB.
    indexOwners(list, thread_count);
}

void indexOwners(NeighborList& list, int threads) {
    const std::size_t n = list.row_start.empty() ? 0 : list.row_start.size() - 1;
    reserveOnHugePages(list.owner, list.partner.size());
    list.owner.resize(list.partner.size());
    parallelRanges(n, std::max(1, threads), [&](int, std::size_t begin, std::size_t end) {
        // Each row's first entry counts one row more than the entry before it (rows left empty
        // count at the next one's), and a running sum over the entries gives each its row: a fill
        // per row of 3.5 entries took some 300 us more of a 32,000-sphere chute build on one thread.
        const std::uint32_t first = list.row_start[begin], last = list.row_start[end];
        std::uint32_t* const owner = list.owner.data();
        std::fill(owner + first, owner + last, 0u);
        for (std::size_t i = begin + 1; i < end; ++i)
            if (list.row_start[i] < last) ++owner[list.row_start[i]];
        auto row = static_cast<std::uint32_t>(begin);
        for (std::uint32_t k = first; k < last; ++k) owner[k] = row += owner[k];
    });
}

void estimatePairWork(NeighborList& list, const Bodies& bodies, const PeriodicBox& box, int threads) {
    const std::size_t n = bodies.radius.size();
    reserveOnHugePages(list.work_before, n + 1);
    list.work_before.assign(n + 1, 0.0);
    if (list.row_start.size() != n + 1 || list.position_at_build.size() != n) return;
    if (list.owner.size() != list.partner.size()) indexOwners(list, threads);
    const detail::EntryArrays entries{list.owner.data(), list.partner.data(), static_cast<std::uint32_t>(list.partner.size()),
                                      list.position_at_build.data(), bodies.radius.data(), NearestImage(box)};
    const bool avx2 = contactLoopIsa() == VectorIsa::Avx2;
    // The touching entries are those holding a history where the list carries one (the pairs that
    // touched at the last pass, carried over by the build): counting them spares the distance tests,
    // which took two thirds of this pass (some 1% of a 32,000-sphere two-thread run). Otherwise
    // (a first build, a model without history) the entries are tested as the pair loop's first pass
    // tests them, 64 at a time into bits.
    const bool by_history = list.history.size > 0 && !list.history.parts.empty();
    // Each body's own work in parallel (a pass over the whole list, which on one thread kept the
    // other waiting at every build), then the running sum.
    const std::size_t blocks = n / kReachBlock + 1;
    std::vector<std::vector<std::uint32_t>> reach(static_cast<std::size_t>(std::max(1, threads)));
    parallelRanges(n, std::max(1, threads), [&](int t, std::size_t begin, std::size_t end) {
        const std::uint32_t first = list.row_start[begin], last = list.row_start[end];
        // Rows in order, so an entry's row is the highest yet to reach its partner's block.
        std::vector<std::uint32_t>& reached = reach[static_cast<std::size_t>(t)];
        reached.assign(blocks, 0);
        for (std::uint32_t k = first; k < last; ++k) reached[entries.partner[k] / kReachBlock] = entries.owner[k];
        // Touching entries per row.
        std::vector<std::uint32_t> touching(end - begin, 0);
        if (by_history) {
            list.history.forEachHeld(first, last, [&](std::uint32_t k, const double*) { ++touching[entries.owner[k] - begin]; });
        } else {
            std::vector<std::uint64_t> bits((last - first + 63) / 64);
            for (std::uint32_t chunk = first; chunk < last; chunk += 64)
                bits[(chunk - first) / 64] = detail::classifyChunk(entries, chunk, std::min(64u, last - chunk), avx2);
            for (std::size_t i = begin; i < end; ++i)
                touching[i - begin] = static_cast<std::uint32_t>(
                    countBits(bits.data(), list.row_start[i] - first, list.row_start[i + 1] - first));
        }
        // An entry costs 1, a touching one 8.
        for (std::size_t i = begin; i < end; ++i)
            list.work_before[i + 1] = 1.0 + static_cast<double>(list.row_start[i + 1] - list.row_start[i]) +
                                      7.0 * static_cast<double>(touching[i - begin]);
    });
    for (std::size_t i = 0; i < n; ++i) list.work_before[i + 1] += list.work_before[i];
    list.reach_by_block.assign(blocks, 0);
    for (const std::vector<std::uint32_t>& reached : reach)
        for (std::size_t b = 0; b < reached.size(); ++b)
            list.reach_by_block[b] = std::max(list.reach_by_block[b], reached[b]);
}

}  // namespace grainlab
