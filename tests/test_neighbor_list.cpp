// The Verlet list against its definition, checked pair by pair with a search over all pairs: every
// pair of spheres whose nearest-image gap is under the skin (and not both frozen) is listed exactly
// once, in the row of its higher index, rows sorted by partner, and no other pair is. Geometry is the
// whole truth here, so any stencil shortcut (runs of cells, faces of the grid, periodic axes of
// under three cells, the candidates' vector test) must reproduce it.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <random>
#include <set>
#include <utility>

#include <catch2/catch.hpp>

#include "grainlab/sim/neighbor_list.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {
namespace {

Bodies randomSpheres(std::size_t n, const PeriodicBox& box, double frozen_below_z, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Bodies b;
    for (std::size_t i = 0; i < n; ++i) {
        const double r = 0.3 + 0.3 * unit(random);
        const Vec3 x(box.min.x() + box.length.x() * unit(random), box.min.y() + box.length.y() * unit(random),
                     box.min.z() + box.length.z() * unit(random));
        b.push(static_cast<std::int64_t>(i), 0, 0, r, 1.0, Vec3::Ones(), x.z() < frozen_below_z, x,
               Quat::Identity(), Vec3::Zero(), Vec3::Zero());
    }
    return b;
}

std::set<std::pair<std::uint32_t, std::uint32_t>> pairsWithin(const Bodies& b, const PeriodicBox& box, double skin) {
    std::set<std::pair<std::uint32_t, std::uint32_t>> out;
    for (std::uint32_t i = 0; i < b.size(); ++i)
        for (std::uint32_t j = i + 1; j < b.size(); ++j) {
            if (b.frozen[i] && b.frozen[j]) continue;
            const double range = b.radius[i] + b.radius[j] + skin;
            if (box.nearestImage(b.position[i] - b.position[j]).squaredNorm() < range * range) out.insert({i, j});
        }
    return out;
}

void checkListAgainstAllPairs(const Bodies& b, const PeriodicBox& box, double skin, int threads) {
    NeighborList list;
    buildNeighborList(list, b, box, skin, 3, threads);
    REQUIRE(list.row_start.size() == b.size() + 1);
    REQUIRE(list.owner.size() == list.partner.size());
    std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
    for (std::uint32_t i = 0; i < b.size(); ++i) {
        REQUIRE(std::is_sorted(list.partner.begin() + list.row_start[i], list.partner.begin() + list.row_start[i + 1]));
        for (std::uint32_t k = list.row_start[i]; k < list.row_start[i + 1]; ++k) {
            REQUIRE(list.owner[k] == i);  // the pair loop's entries know their row, empty rows between
            REQUIRE(list.partner[k] < i);
            REQUIRE(listed.insert({list.partner[k], i}).second);  // listed once
        }
    }
    CHECK(listed == pairsWithin(b, box, skin));
}

// With the candidates tested four at a time (AVX2, where the processor has it) and one at a time.
void checkAgainstAllPairs(const Bodies& b, const PeriodicBox& box, double skin, int threads) {
    checkListAgainstAllPairs(b, box, skin, threads);
    setenv("GRAINLAB_VECTOR_ISA", "baseline", 1);
    checkListAgainstAllPairs(b, box, skin, threads);
    unsetenv("GRAINLAB_VECTOR_ISA");
}

}  // namespace

TEST_CASE("Verlet list holds exactly the pairs within the skin, periodic and open axes", "[neighbors]") {
    PeriodicBox box;
    box.min = Vec3(-3.0, 0.0, 0.0);
    box.length = Vec3(14.0, 2.5, 9.0);  // y: under three cells, so cells repeat around it
    box.periodic = {true, true, false};
    const Bodies b = randomSpheres(700, box, 1.0, 7);
    for (const int threads : {1, 3}) {
        CAPTURE(threads);
        checkAgainstAllPairs(b, box, 0.15, threads);
    }
}

TEST_CASE("Verlet list holds exactly the pairs within the skin whichever thread searched which bodies",
          "[neighbors]") {
    PeriodicBox box;
    box.min = Vec3(-3.0, 0.0, 0.0);
    box.length = Vec3(40.0, 2.5, 30.0);
    box.periodic = {true, true, false};
    // 3,000 bodies: the search's chunks (64 bodies and up, some sixteen a thread) are taken by two and
    // three threads in whatever order they finish, and the rows are joined in body order.
    const Bodies b = randomSpheres(3000, box, 1.0, 13);
    for (const int threads : {2, 3}) {
        CAPTURE(threads);
        checkListAgainstAllPairs(b, box, 0.15, threads);
    }
}

TEST_CASE("Verlet list holds exactly the pairs within the skin, no periodic axis", "[neighbors]") {
    PeriodicBox box;
    box.length = Vec3(8.0, 9.0, 10.0);
    const Bodies b = randomSpheres(900, box, -1.0, 11);
    checkAgainstAllPairs(b, box, 0.4, 2);
}

TEST_CASE("Verlet list holds exactly the pairs within the skin, every axis periodic", "[neighbors]") {
    PeriodicBox box;
    box.length = Vec3(7.0, 6.0, 8.0);
    box.periodic = {true, true, true};
    const Bodies b = randomSpheres(600, box, 0.5, 3);
    checkAgainstAllPairs(b, box, 0.1, 1);
}

// The distance tests (pair loop, list build, motion check) take NearestImage::separation, the
// branch-free magnitude of the nearest image: it must be that magnitude to the last bit (the
// geometric identity min(|d|, L - |d|) = |d - L round(d / L)| for |d| < L), or lists and contact
// sets would differ from the definition at their edges.
TEST_CASE("Nearest-image separation is the nearest image's magnitude, bit for bit", "[neighbors]") {
    PeriodicBox box;
    box.min = Vec3(-3.0, 0.0, 0.0);
    box.length = Vec3(14.0, 2.5, 9.0);
    box.periodic = {true, true, false};
    const NearestImage image(box);
    std::mt19937 random(5);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int n = 0; n < 100000; ++n) {
        // Differences of two positions inside the box: below the length along every axis, with
        // the half lengths themselves (ties) among them.
        Vec3 d(box.length.x() * unit(random), box.length.y() * unit(random), box.length.z() * unit(random));
        if (n % 1000 == 0) d = 0.5 * box.length.cwiseProduct(Vec3(n % 2000 ? 1.0 : -1.0, 1.0, -1.0));
        const Vec3 nearest = image(d);
        REQUIRE(image.separation<0>(d.x()) == std::abs(nearest.x()));
        REQUIRE(image.separation<1>(d.y()) == std::abs(nearest.y()));
        REQUIRE(image.separation<2>(d.z()) == std::abs(nearest.z()));
        REQUIRE(image.squaredDistance(d) == nearest.squaredNorm());
    }
}

// The neighbour build sizes the histories it carries over by PairHistory::heldCount: it must count
// exactly the entries forEachHeld walks, for ranges cutting words and parts anywhere.
TEST_CASE("Counting a range's held histories agrees with walking them", "[neighbors]") {
    PairHistory history;
    history.size = 3;
    std::mt19937 random(13);
    std::uniform_int_distribution<int> coin(0, 3);
    const std::uint32_t bounds[] = {5, 100, 230, 231, 500};  // parts [5, 100), [100, 230), ...
    for (std::size_t p = 0; p + 1 < std::size(bounds); ++p) {
        PairHistoryPart& part = history.parts.emplace_back();
        part.reset(bounds[p], bounds[p + 1]);
        const double values[3] = {1.0, 2.0, 3.0};
        for (std::uint32_t e = bounds[p]; e < bounds[p + 1]; ++e)
            if (coin(random) == 0) part.hold(e, values, 3);
    }
    std::uniform_int_distribution<std::uint32_t> entry(0, 520);
    for (int trial = 0; trial < 2000; ++trial) {
        std::uint32_t first = entry(random), end = entry(random);
        if (end < first) std::swap(first, end);
        std::size_t walked = 0;
        history.forEachHeld(first, end, [&](std::uint32_t, const double*) { ++walked; });
        CAPTURE(first, end);
        REQUIRE(history.heldCount(first, end) == walked);
    }
}

// The pair loop reads the histories of its range, which moves from step to step, window by window
// from the parts the step before wrote (HeldWindows): each window must give exactly the entries and
// values forEachHeld walks, for ranges starting anywhere, windows cutting parts, and gaps no part covers.
TEST_CASE("A range's history windows give the held entries and values of the parts under them", "[neighbors]") {
    PairHistory history;
    history.size = 3;
    std::mt19937 random(29);
    std::uniform_int_distribution<int> coin(0, 3);
    // Parts [5, 100), [100, 230), [230, 231), an empty one (a thread's empty range), [231, 500) and,
    // after a gap, [600, 700).
    const std::pair<std::uint32_t, std::uint32_t> spans[] = {{5, 100}, {100, 230}, {230, 231}, {231, 231}, {231, 500}, {600, 700}};
    for (const auto& [first, end] : spans) {
        PairHistoryPart& part = history.parts.emplace_back();
        part.reset(first, end);
        for (std::uint32_t e = first; e < end; ++e)
            if (coin(random) == 0) {
                const double values[3] = {1.0 * e, 2.0 * e, 3.0 * e};
                part.hold(e, values, 3);
            }
    }
    std::uniform_int_distribution<std::uint32_t> entry(0, 720);
    for (int trial = 0; trial < 4000; ++trial) {
        std::uint32_t first = entry(random), end = entry(random);
        if (end < first) std::swap(first, end);
        std::vector<std::uint32_t> walked, windowed;
        history.forEachHeld(first, end, [&](std::uint32_t k, const double* v) {
            REQUIRE(v[1] == 2.0 * k);
            walked.push_back(k);
        });
        HeldWindows<3> windows(history, first);
        for (std::uint32_t at = first; at < end; at += 64) {
            const std::uint32_t count = std::min<std::uint32_t>(64, end - at);
            const double* values = nullptr;
            for (std::uint64_t bits = windows.next(count, values); bits != 0; bits &= bits - 1, values += 3) {
                const std::uint32_t k = at + static_cast<std::uint32_t>(std::countr_zero(bits));
                CAPTURE(first, end, at, k);
                REQUIRE(values[0] == 1.0 * k);
                REQUIRE(values[2] == 3.0 * k);
                windowed.push_back(k);
            }
        }
        CAPTURE(first, end);
        REQUIRE(windowed == walked);
    }
}

}  // namespace grainlab

namespace grainlab {
namespace {

// The pair loop's split between threads weighs each row by its entries and its touching pairs
// (estimatePairWork). It finds the touching pairs among those holding a history where the list
// carries one, by distance otherwise: for spheres at rest, whose touching pairs are exactly those
// holding a history, both must give each row 1 + entries + 7 x the pairs the geometry puts in contact.
TEST_CASE("The pair loop's work estimate counts a row's touching pairs, from the histories or the distances", "[neighbors]") {
    PeriodicBox box;
    box.min = Vec3(0.0, 0.0, 0.0);
    box.length = Vec3(9.0, 7.0, 8.0);
    box.periodic = {true, true, false};
    const Bodies b = randomSpheres(900, box, 0.5, 13);
    for (const int threads : {1, 2}) {
        CAPTURE(threads);
        NeighborList by_distance;
        buildNeighborList(by_distance, b, box, 0.2, 3, threads);
        std::vector<std::uint32_t> touching(b.size(), 0);
        std::vector<double> dense(3 * by_distance.entries(), 0.0);
        for (std::uint32_t k = 0; k < by_distance.entries(); ++k) {
            const std::uint32_t i = by_distance.owner[k], j = by_distance.partner[k];
            const double contact = b.radius[i] + b.radius[j];
            if (box.nearestImage(b.position[i] - b.position[j]).squaredNorm() < contact * contact) {
                ++touching[i];
                dense[3 * k] = 1.0;  // a tangential spring, as a touching pair holds after a pass
            }
        }
        NeighborList by_history = by_distance;
        by_history.history = PairHistory::fromDense(dense, 3);
        REQUIRE(by_distance.history.parts.empty());  // a first build carries none
        estimatePairWork(by_distance, b, box, threads);
        estimatePairWork(by_history, b, box, threads);
        std::size_t touching_rows = 0;
        for (std::size_t i = 0; i < b.size(); ++i) {
            CAPTURE(i);
            const double expected = 1.0 + (by_distance.row_start[i + 1] - by_distance.row_start[i]) + 7.0 * touching[i];
            REQUIRE(by_distance.work_before[i + 1] - by_distance.work_before[i] == expected);
            REQUIRE(by_history.work_before[i + 1] - by_history.work_before[i] == expected);
            touching_rows += touching[i] > 0 ? 1 : 0;
        }
        CHECK(touching_rows > 200);  // random spheres overlap often: the count is exercised
        CHECK(by_history.reach_by_block == by_distance.reach_by_block);
    }
}

}  // namespace
}  // namespace grainlab
