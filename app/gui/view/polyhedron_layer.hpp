#pragma once
// Polyhedral particles: each shape's mesh drawn at every body of that shape, turned by the body's
// orientation and coloured like the spheres.
#include <vector>

#include <vtkSmartPointer.h>

#include "grainlab/io/frame.hpp"
#include "grainlab/scene/scene.hpp"

class vtkActor;
class vtkGlyph3DMapper;
class vtkLookupTable;
class vtkPolyData;
class vtkRenderer;

namespace grainlab::gui {

class PolyhedronLayer {
public:
    PolyhedronLayer(vtkRenderer* renderer, vtkLookupTable* lut) : renderer_(renderer), lut_(lut) {}
    ~PolyhedronLayer();
    void setShapes(const std::vector<ShapeSpec>& shapes);  // rebuilds one actor per polyhedral shape
    bool isPolyhedron(std::uint32_t shape) const { return shape < actor_of_shape_.size() && actor_of_shape_[shape] >= 0; }
    void update(const Frame& frame, const std::vector<double>& values);
    void setOpacity(double opacity);

private:
    struct ShapeActor {
        vtkSmartPointer<vtkPolyData> instances;
        vtkSmartPointer<vtkGlyph3DMapper> mapper;
        vtkSmartPointer<vtkActor> actor;
    };
    void clear();
    vtkRenderer* renderer_;
    vtkLookupTable* lut_;
    std::vector<ShapeActor> actors_;
    std::vector<int> actor_of_shape_;  // -1: not a polyhedron
};

}  // namespace grainlab::gui
