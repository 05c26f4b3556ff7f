#pragma once
// The neighbour build's uniform cell grid and the runs of bodies around a cell.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "grainlab/core/math.hpp"
#include "grainlab/sim/periodic_box.hpp"

namespace grainlab {

struct Bodies;

// Uniform cell grid over the bodies; cells at least twice the largest radius and `reach` wide, so
// the bodies within `reach` of touching one lie in the 27 cells around its own. The cell count is capped so a body far away cannot blow up memory.
struct CellGrid {
    Vec3 lo;
    Vec3 width;
    std::array<int, 3> count{1, 1, 1};
    std::vector<std::uint32_t> start;   // per cell, into `bodies`
    std::vector<std::uint32_t> bodies;  // by cell, in body order within a cell
    std::vector<std::uint32_t> cell_of;

    std::size_t index(int cx, int cy, int cz) const {
        return (static_cast<std::size_t>(cz) * static_cast<std::size_t>(count[1]) + static_cast<std::size_t>(cy)) *
                   static_cast<std::size_t>(count[0]) + static_cast<std::size_t>(cx);
    }
};

// The grid of the bodies' positions, built on `threads` threads (the same grid on any count).
CellGrid buildCellGrid(const Bodies& bodies, const PeriodicBox& box, double reach, int threads);

// The bodies of the cells around a cell, as runs of grid.bodies: cells whose indices follow each
// other are stored one after the other, so a row of three along x is one run.
struct StencilRuns {
    std::array<std::uint32_t, 27> begin, end;  // not zeroed: the stencil is rebuilt for most bodies
    int count = 0;
    std::uint32_t bodies = 0;  // in all runs
    void add(const CellGrid& grid, std::size_t first_cell, std::size_t last_cell) {
        const std::uint32_t b = grid.start[first_cell], e = grid.start[last_cell + 1];
        if (count > 0 && end[static_cast<std::size_t>(count - 1)] == b) {
            end[static_cast<std::size_t>(count - 1)] = e;
        } else {
            begin[static_cast<std::size_t>(count)] = b;
            end[static_cast<std::size_t>(count)] = e;
            ++count;
        }
        bodies += e - b;
    }
};

// The runs of the distinct cells around `cell` (fewer than 27 cells when a periodic axis has under
// three).
StencilRuns stencilRuns(const CellGrid& grid, const PeriodicBox& box, std::uint32_t cell);

}  // namespace grainlab
