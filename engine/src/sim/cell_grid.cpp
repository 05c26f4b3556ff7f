#include "cell_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "grainlab/core/parallel.hpp"
#include "grainlab/state/bodies.hpp"

namespace grainlab {
namespace {

int axisCell(const CellGrid& grid, double x, int k) {
    const int c = static_cast<int>(std::floor((x - grid.lo[k]) / grid.width[k]));
    return std::clamp(c, 0, grid.count[k] - 1);
}

// The bodies' bounding box and largest radius, each thread's range first: serial, this pass and
// the grid's others kept the other threads waiting at every build (1.4% of a two-thread run of the
// 32,000-sphere chute).
struct Extent {
    Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
    Vec3 hi = Vec3::Constant(-std::numeric_limits<double>::infinity());
    double max_radius = 0.0;
    void add(const Extent& e) {
        lo = lo.cwiseMin(e.lo);
        hi = hi.cwiseMax(e.hi);
        max_radius = std::max(max_radius, e.max_radius);
    }
};

Extent extentOf(const Bodies& bodies, int threads) {
    std::vector<Extent> parts(static_cast<std::size_t>(std::max(1, threads)));
    parallelRanges(bodies.size(), threads, [&](int t, std::size_t begin, std::size_t end) {
        Extent e;
        for (std::size_t i = begin; i < end; ++i) {
            e.lo = e.lo.cwiseMin(bodies.position[i]);
            e.hi = e.hi.cwiseMax(bodies.position[i]);
            e.max_radius = std::max(e.max_radius, bodies.radius[i]);
        }
        parts[static_cast<std::size_t>(t)] = e;
    });
    Extent all;
    for (const Extent& e : parts) all.add(e);
    return all;
}

}  // namespace

CellGrid buildCellGrid(const Bodies& bodies, const PeriodicBox& box, double reach, int threads) {
    CellGrid grid;
    const std::size_t n = bodies.size();
    Vec3 lo = Vec3::Constant(0.0), hi = Vec3::Constant(1.0);
    double max_radius = 1.0;
    if (n > 0) {
        const Extent extent = extentOf(bodies, threads);
        lo = extent.lo;
        hi = extent.hi;
        max_radius = extent.max_radius;
    }
    const double cell_size = 2.0 * max_radius + reach;
    for (int k = 0; k < 3; ++k) {
        if (box.periodic[k]) {
            lo[k] = box.min[k];
            hi[k] = box.min[k] + box.length[k];
        }
        const double extent = std::max(hi[k] - lo[k], 1e-300);
        grid.count[k] = std::max(1, static_cast<int>(std::min(extent / cell_size, 1e6)));
    }
    const double cap = std::max(27.0, 4.0 * static_cast<double>(n));
    while (static_cast<double>(grid.count[0]) * grid.count[1] * grid.count[2] > cap) {
        const int k = static_cast<int>(std::max_element(grid.count.begin(), grid.count.end()) - grid.count.begin());
        grid.count[k] = std::max(1, grid.count[k] / 2);
    }
    grid.lo = lo;
    for (int k = 0; k < 3; ++k) grid.width[k] = std::max(hi[k] - lo[k], 1e-300) / grid.count[k];
    const std::size_t cells = grid.index(grid.count[0] - 1, grid.count[1] - 1, grid.count[2] - 1) + 1;

    // Each thread's range counts its bodies per cell. A cell then takes the first range's bodies,
    // the second's, ...: in body order, as one range over all bodies would place them.
    grid.cell_of.resize(n);
    std::vector<std::vector<std::uint32_t>> slot(static_cast<std::size_t>(std::max(1, threads)));
    parallelRanges(n, threads, [&](int t, std::size_t begin, std::size_t end) {
        std::vector<std::uint32_t>& count = slot[static_cast<std::size_t>(t)];
        count.assign(cells, 0);
        for (std::size_t i = begin; i < end; ++i) {
            const Vec3& x = bodies.position[i];
            const auto c = static_cast<std::uint32_t>(grid.index(axisCell(grid, x[0], 0), axisCell(grid, x[1], 1), axisCell(grid, x[2], 2)));
            grid.cell_of[i] = c;
            ++count[c];
        }
    });
    // A region that ran on fewer threads (nested, or threads refused) left the rest unsized.
    std::erase_if(slot, [](const std::vector<std::uint32_t>& count) { return count.empty(); });
    grid.start.resize(cells + 1);
    std::uint32_t at = 0;
    for (std::size_t c = 0; c < cells; ++c) {
        grid.start[c] = at;
        for (std::vector<std::uint32_t>& count : slot) at += std::exchange(count[c], at);
    }
    grid.start[cells] = at;
    grid.bodies.resize(n);
    parallelRanges(n, static_cast<int>(slot.size()), [&](int t, std::size_t begin, std::size_t end) {
        std::vector<std::uint32_t>& next = slot[static_cast<std::size_t>(t)];
        for (std::size_t i = begin; i < end; ++i) grid.bodies[next[grid.cell_of[i]]++] = static_cast<std::uint32_t>(i);
    });
    return grid;
}

// The runs of the distinct cells around `cell` (fewer than 27 cells when a periodic axis has under
// three). The stencil changes with most bodies (bodies in spatial order rarely share a cell with
// their predecessor), so a cell away from the grid's faces takes a short path: nine runs of three.
StencilRuns stencilRuns(const CellGrid& grid, const PeriodicBox& box, std::uint32_t cell) {
    StencilRuns runs;
    const std::uint32_t nx = static_cast<std::uint32_t>(grid.count[0]), ny = static_cast<std::uint32_t>(grid.count[1]);
    const int cx = static_cast<int>(cell % nx);
    const int cy = static_cast<int>((cell / nx) % ny);
    const int cz = static_cast<int>(cell / (nx * ny));
    const std::array<int, 3> c{cx, cy, cz};
    bool interior = true;
    for (int k = 0; k < 3; ++k) interior = interior && c[static_cast<std::size_t>(k)] >= 1 && c[static_cast<std::size_t>(k)] + 1 < grid.count[k];
    if (interior) {
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy) {
                const std::size_t first = grid.index(cx - 1, cy + dy, cz + dz);
                runs.add(grid, first, first + 2);
            }
        return runs;
    }
    // Only a periodic axis of under three cells makes a cell appear twice.
    bool repeats = false;
    for (int k = 0; k < 3; ++k) repeats = repeats || (box.periodic[k] && grid.count[k] < 3);
    std::array<std::size_t, 27> seen{};
    int found = 0;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                std::array<int, 3> n{cx + dx, cy + dy, cz + dz};
                bool inside = true;
                for (int k = 0; k < 3; ++k) {
                    if (n[k] >= 0 && n[k] < grid.count[k]) continue;
                    if (box.periodic[k]) n[k] = (n[k] + grid.count[k]) % grid.count[k];
                    else inside = false;
                }
                if (!inside) continue;
                const std::size_t index = grid.index(n[0], n[1], n[2]);
                if (repeats && std::find(seen.begin(), seen.begin() + found, index) != seen.begin() + found) continue;
                seen[static_cast<std::size_t>(found++)] = index;
                runs.add(grid, index, index);
            }
    return runs;
}

}  // namespace grainlab
