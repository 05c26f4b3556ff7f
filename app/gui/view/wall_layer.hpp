#pragma once
// Walls as translucent surfaces placed by their prescribed motion, and the domain's outline.
#include <vector>

#include <Eigen/Geometry>
#include <vtkSmartPointer.h>

#include "grainlab/scene/scene.hpp"

class vtkActor;
class vtkRenderer;

namespace grainlab::gui {

class WallLayer {
public:
    explicit WallLayer(vtkRenderer* renderer) : renderer_(renderer) {}
    ~WallLayer();
    // Rebuilds the actors; planes are drawn where they cut `extent` (around bodies and meshes).
    void setScene(const Scene& scene, const Eigen::AlignedBox3d& extent);
    void moveTo(double time);           // applies each wall's motion

private:
    struct Placed {
        vtkSmartPointer<vtkActor> actor;
        WallMotion motion;
    };
    void clear();
    vtkRenderer* renderer_;
    std::vector<Placed> walls_;
    vtkSmartPointer<vtkActor> outline_;
};

}  // namespace grainlab::gui
