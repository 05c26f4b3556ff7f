#pragma once
// Commands the window queues for the worker; the worker applies them between steps.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "grainlab/scene/scene.hpp"

namespace grainlab::gui {

struct RunCommand {};
struct PauseCommand {};
struct StepCommand { long steps = 1; };
struct RunUntilCommand { double time = 0.0; };              // runs, then pauses at `time`
struct RealTimeFactorCommand { double factor = 0.0; };      // 0: as fast as possible
struct SwapContactModelCommand { PluginChoice choice; };    // also how parameters change
struct SwapIntegratorCommand { PluginChoice choice; };
struct SwapSolverCommand { std::optional<PluginChoice> choice; };  // none: back to soft contacts
struct AddBodiesCommand {
    std::vector<BodySpec> bodies;
    std::vector<ShapeSpec> shapes;  // new shapes the bodies use, added first
};
struct PublishCommand {};                                   // publish a snapshot now
// Writes a VTK frame series (ParaView) every `every_steps` steps; an empty directory stops it.
struct WriteCheckpointCommand { std::string path; };          // the full state, to resume later
struct RecordFramesCommand { std::string directory; long every_steps = 100; };

using Command = std::variant<RunCommand, PauseCommand, StepCommand, RunUntilCommand, RealTimeFactorCommand,
                             SwapContactModelCommand, SwapIntegratorCommand, SwapSolverCommand, AddBodiesCommand, PublishCommand,
                             RecordFramesCommand, WriteCheckpointCommand>;

}  // namespace grainlab::gui
