#pragma once
// Particles coloured by a per-body value: spheres as glyphs scaled by radius (impostors in large
// scenes), polyhedra as their meshes (PolyhedronLayer).
#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <memory>

#include "colour_mode.hpp"
#include "grainlab/scene/scene.hpp"

class vtkActor;
class vtkGlyph3DMapper;
class vtkPointGaussianMapper;
class vtkLookupTable;
class vtkPolyData;
class vtkRenderer;
class vtkScalarBarActor;
class vtkSphereSource;

namespace grainlab::gui {

class ParticleLayer {
public:
    // Above this many bodies spheres are drawn as impostors: software OpenGL renders 50,000
    // tessellated spheres in about a second, impostors in a fraction of that.
    static constexpr std::size_t kImpostorThreshold = 20000;
    explicit ParticleLayer(vtkRenderer* renderer);
    ~ParticleLayer();
    void setShapes(const std::vector<ShapeSpec>& shapes);
    void update(const Snapshot& snapshot);
    void setColourMode(ColourMode mode) { mode_ = mode; }
    ColourMode colourMode() const { return mode_; }
    void setScalarBarVisible(bool visible);
    void setOpacity(double opacity);
    void setHighlighted(std::int64_t body_id) { highlighted_ = body_id; }
    // Draft: spheres as a few pixels each, for redraws while the camera moves (filling 50,000
    // impostors costs most of a software-OpenGL frame, points almost nothing).
    void setDraft(bool draft);

private:
    void chooseMapper();
    bool draft_ = false;
    std::size_t spheres_ = 0;
    ColourMode mode_ = ColourMode::Speed;
    std::int64_t highlighted_ = -1;
    vtkNew<vtkPolyData> points_;
    vtkNew<vtkSphereSource> sphere_;
    vtkNew<vtkGlyph3DMapper> mapper_;
    vtkNew<vtkPointGaussianMapper> impostors_;  // large scenes: one shaded quad per sphere
    vtkNew<vtkPointGaussianMapper> draft_points_;
    vtkNew<vtkActor> actor_;
    vtkNew<vtkLookupTable> lut_;
    vtkNew<vtkScalarBarActor> scalar_bar_;
    vtkNew<vtkPolyData> highlight_points_;
    vtkNew<vtkGlyph3DMapper> highlight_mapper_;
    vtkNew<vtkActor> highlight_actor_;
    std::unique_ptr<class PolyhedronLayer> polyhedra_;
};

// The colour map shared by particles and arrows: blue (low) to red (high).
void fillColourMap(vtkLookupTable* lut);

}  // namespace grainlab::gui
