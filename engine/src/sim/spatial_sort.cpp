#include "grainlab/sim/spatial_sort.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <utility>

#include "grainlab/core/huge_pages.hpp"
#include "grainlab/core/parallel.hpp"
#include "grainlab/sim/simulation.hpp"

namespace grainlab {
namespace {

// The lower 21 bits of v spread to every third bit.
std::uint64_t spread(std::uint64_t v) {
    v &= 0x1fffff;
    v = (v | v << 32) & 0x1f00000000ffffULL;
    v = (v | v << 16) & 0x1f0000ff0000ffULL;
    v = (v | v << 8) & 0x100f00f00f00f00fULL;
    v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
    v = (v | v << 2) & 0x1249249249249249ULL;
    return v;
}

// Where reorderState's arrays are gathered before they are copied back: one buffer for all of
// them. Gathered into fresh arrays, each was faulted in page by page (25 ms of the 52 a 2000-step
// run of the 32,000-sphere chute spent sorting; 8-9 now).
struct Gather {
    const std::vector<std::uint32_t>& order;  // order[new] = old
    int threads;
    std::vector<std::byte> scratch;

    explicit Gather(const std::vector<std::uint32_t>& new_to_old, int thread_count = 1)
        : order(new_to_old), threads(thread_count) {}

    // values[k] becomes the old values[order[k]]. The element types are plain storage (numbers,
    // Eigen's fixed-size vectors and quaternions), copied as bytes.
    template <class T>
    void operator()(std::vector<T>& values) {
        const std::size_t n = order.size();
        if (values.size() != n) return;  // e.g. forces not sized yet
        if (scratch.size() < n * sizeof(T)) {
            std::vector<std::byte>().swap(scratch);
            reserveOnHugePages(scratch, n * sizeof(T));
            scratch.resize(n * sizeof(T));
        }
        std::byte* const out = scratch.data();
        const T* const in = values.data();
        parallelRanges(n, threads, [&](int, std::size_t begin, std::size_t end) {
            for (std::size_t k = begin; k < end; ++k) std::memcpy(out + k * sizeof(T), in + order[k], sizeof(T));
        });
        // A second region: the gather reads the old values anywhere in the array.
        parallelRanges(n, threads, [&](int, std::size_t begin, std::size_t end) {
            std::memcpy(static_cast<void*>(values.data() + begin), out + begin * sizeof(T), (end - begin) * sizeof(T));
        });
    }
};

// The largest elements first (quaternions): the scratch buffer is then allocated once, not grown.
void reorderBodies(Bodies& b, Gather& gather) {
    gather(b.orientation); gather(b.id); gather(b.shape); gather(b.material); gather(b.radius); gather(b.mass);
    gather(b.inv_mass); gather(b.inertia); gather(b.inv_inertia);
    gather(b.isotropic_inv_inertia); gather(b.frozen); gather(b.position);
    gather(b.velocity); gather(b.angular_velocity); gather(b.force); gather(b.torque); gather(b.image);
}

// Which pairs renumberPairs keeps.
enum class Pairs { All, Held };

// Each pair moves to the row of its higher new index (neighbor_list.hpp); rows stay sorted by partner.
// Pairs::Held keeps only the pairs holding a history, for a rebuild that follows at once: it needs
// no more to carry the histories over, and sorting every entry (3.6 a body on the chute) took 20 ms
// of the 52 above (3-4 now). The list then no longer fits the bodies (no positions at the build).
void renumberPairs(NeighborList& list, const std::vector<std::uint32_t>& new_of_old, const ContactModel& model,
                   Pairs which) {
    const std::size_t n = new_of_old.size();
    if (list.row_start.size() != n + 1) return;
    const std::size_t h = list.history.size;
    // held: the entry's number among those holding a history, or kNone.
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    struct Entry { std::uint32_t row, partner, held; bool swapped; };
    std::vector<Entry> entries;
    std::vector<std::uint32_t> held_entries;
    std::vector<const double*> held_values;
    list.history.forEachHeld(0, static_cast<std::uint32_t>(list.entries()), [&](std::uint32_t k, const double* v) {
        held_entries.push_back(k);
        held_values.push_back(v);
    });
    auto renumbered = [&](std::size_t i, std::uint32_t k, std::uint32_t held) {
        const std::uint32_t a = new_of_old[i], b = new_of_old[list.partner[k]];
        return Entry{std::max(a, b), std::min(a, b), held, b > a};
    };
    if (which == Pairs::Held) {
        entries.reserve(held_entries.size());
        std::size_t i = 0;  // the row of held entry e
        for (std::uint32_t e = 0; e < held_entries.size(); ++e) {
            while (list.row_start[i + 1] <= held_entries[e]) ++i;
            entries.push_back(renumbered(i, held_entries[e], e));
        }
    } else {
        entries.reserve(list.entries());
        std::uint32_t next_held = 0;
        for (std::size_t i = 0; i < n; ++i)
            for (std::uint32_t k = list.row_start[i]; k < list.row_start[i + 1]; ++k) {
                const bool held = next_held < held_entries.size() && held_entries[next_held] == k;
                entries.push_back(renumbered(i, k, held ? next_held++ : kNone));
            }
    }
    std::sort(entries.begin(), entries.end(),
              [](const Entry& x, const Entry& y) { return x.row != y.row ? x.row < y.row : x.partner < y.partner; });
    std::vector<std::uint32_t> row_start, partner;
    reserveOnHugePages(row_start, n + 1);
    reserveOnHugePages(partner, entries.size());
    row_start.assign(n + 1, 0);
    partner.resize(entries.size());
    PairHistory history;
    history.size = h;
    PairHistoryPart& held = history.parts.emplace_back();
    held.reset(0, static_cast<std::uint32_t>(entries.size()));
    held.room(held_values.size() * h);
    for (std::size_t e = 0; e < entries.size(); ++e) {
        ++row_start[entries[e].row + 1];
        partner[e] = entries[e].partner;
        if (entries[e].held == kNone) continue;
        held.hold(static_cast<std::uint32_t>(e), held_values[entries[e].held], h);
        if (entries[e].swapped) model.swapHistoryRoles(held.values.data() + held.used - h);
    }
    for (std::size_t i = 0; i < n; ++i) row_start[i + 1] += row_start[i];
    list.row_start = std::move(row_start);
    list.work_before.clear();  // per old body index; the next build estimates it again
    list.reach_by_block.clear();
    list.partner = std::move(partner);
    list.history = std::move(history);
    list.owner.clear();  // indexed again before the pair loop runs
    if (which == Pairs::Held) {
        std::vector<Vec3>().swap(list.position_at_build);
        return;
    }
    std::vector<std::uint32_t> order(n);
    for (std::size_t old = 0; old < n; ++old) order[new_of_old[old]] = static_cast<std::uint32_t>(old);
    Gather gather(order);
    gather(list.position_at_build);
}

// Wall contacts stay in body order (the history carry-over relies on it), each with its history.
void renumberWallContacts(std::vector<WallContact>& contacts, std::vector<double>& history, std::size_t h,
                          const std::vector<std::uint32_t>& new_of_old) {
    const bool with_history = history.size() == contacts.size() * h && h > 0;
    std::vector<std::uint32_t> by_body(contacts.size());
    for (std::size_t c = 0; c < contacts.size(); ++c) {
        contacts[c].body = new_of_old[contacts[c].body];
        by_body[c] = static_cast<std::uint32_t>(c);
    }
    std::stable_sort(by_body.begin(), by_body.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return contacts[x].body < contacts[y].body; });
    std::vector<WallContact> sorted;
    std::vector<double> sorted_history;
    sorted.reserve(contacts.size());
    if (with_history) sorted_history.reserve(history.size());
    for (const std::uint32_t c : by_body) {
        sorted.push_back(contacts[c]);
        if (with_history) sorted_history.insert(sorted_history.end(), history.begin() + c * h, history.begin() + (c + 1) * h);
    }
    contacts = std::move(sorted);
    if (with_history) history = std::move(sorted_history);
}

}  // namespace

std::vector<std::uint32_t> spatialOrder(const Bodies& bodies, const PeriodicBox& box, double cell) {
    const std::size_t n = bodies.size();
    std::vector<std::uint32_t> order(n);
    if (n == 0) return order;
    Vec3 lo = bodies.position[0], hi = lo;
    for (const Vec3& x : bodies.position) {
        lo = lo.cwiseMin(x);
        hi = hi.cwiseMax(x);
    }
    for (int k = 0; k < 3; ++k)
        if (box.periodic[k]) {
            lo[k] = box.min[k];
            hi[k] = box.min[k] + box.length[k];
        }
    // Each axis in a power of two of cells no longer than `cell`: the curve's blocks are then
    // halves, quarters, ... of the bodies' extent. Over a count that is not a power of two, the
    // cells past the highest power came last as thin slabs, whose bodies' neighbours across the
    // slab lay far away in memory.
    Vec3 inv;
    for (int k = 0; k < 3; ++k) {
        const double cells = std::clamp(std::ceil((hi[k] - lo[k]) / cell), 1.0, 2097152.0);
        inv[k] = std::exp2(std::ceil(std::log2(cells))) / std::max(hi[k] - lo[k], cell);
    }
    std::vector<std::pair<std::uint64_t, std::uint32_t>> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t code = 0;
        for (int k = 0; k < 3; ++k) {
            const double c = std::clamp(std::floor((bodies.position[i][k] - lo[k]) * inv[k]), 0.0, 2097151.0);
            code |= spread(static_cast<std::uint64_t>(c)) << k;
        }
        keys[i] = {code, static_cast<std::uint32_t>(i)};
    }
    std::sort(keys.begin(), keys.end());
    for (std::size_t k = 0; k < n; ++k) order[k] = keys[k].second;
    return order;
}

void orientPairRows(NeighborList& list, const ContactModel& model) {
    const std::size_t n = list.row_start.empty() ? 0 : list.row_start.size() - 1;
    bool oriented = true;
    for (std::size_t i = 0; i < n && oriented; ++i)
        for (std::uint32_t k = list.row_start[i]; k < list.row_start[i + 1]; ++k) oriented = oriented && list.partner[k] < i;
    if (oriented) return;
    std::vector<std::uint32_t> same(n);
    for (std::size_t i = 0; i < n; ++i) same[i] = static_cast<std::uint32_t>(i);
    renumberPairs(list, same, model, Pairs::All);
}

void reorderState(State& state, const std::vector<std::uint32_t>& order, const ContactModel& model, int threads) {
    std::vector<std::uint32_t> new_of_old(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) new_of_old[order[k]] = static_cast<std::uint32_t>(k);
    Gather gather(order, threads);
    reorderBodies(state.bodies, gather);
    renumberPairs(state.pairs, new_of_old, model, Pairs::Held);
    renumberWallContacts(state.wall_contacts, state.wall_history, state.pairs.history.size, new_of_old);
}

}  // namespace grainlab
