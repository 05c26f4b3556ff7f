#pragma once
// Spatial re-sorting of bodies (as LAMMPS's atom sort): bodies are renumbered in Morton order of
// small cells, so neighbours lie close in memory and the force loop, the neighbour build and the
// thread ranges touch few cache lines. Everything the state indexes by body is renumbered with them.
#include <cstdint>
#include <vector>

#include "grainlab/sim/periodic_box.hpp"

namespace grainlab {

struct State;
struct Bodies;
struct NeighborList;
class ContactModel;

// order[new] = old: bodies by the Morton code of their cell (edge `cell`), ties by index.
std::vector<std::uint32_t> spatialOrder(const Bodies& bodies, const PeriodicBox& box, double cell);

// Renumbers bodies and the wall contacts (with their history) by `order`, on `threads` threads, and
// keeps of the Verlet list only its pairs holding a history, renumbered (turned round by `model`
// where a pair's bodies exchange roles), for the list's rebuild, which must follow: the list no
// longer fits the bodies. Feature contacts (polyhedra) are not renumbered: callers sort only scenes
// without them.
void reorderState(State& state, const std::vector<std::uint32_t>& order, const ContactModel& model, int threads);

// Moves every pair listed in the row of its lower index (lists saved before 2026-11-26) to the row
// of its higher, its history turned round by `model`; a list already so is left as it is.
void orientPairRows(NeighborList& list, const ContactModel& model);

}  // namespace grainlab
