#include "particle_layer.hpp"

#include <algorithm>

#include <vtkActor.h>
#include <vtkDoubleArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPointGaussianMapper.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkSphereSource.h>
#include <vtkTextProperty.h>

#include "polyhedron_layer.hpp"

namespace grainlab::gui {

void fillColourMap(vtkLookupTable* lut) {
    lut->SetNumberOfTableValues(256);
    lut->SetHueRange(0.667, 0.0);  // blue to red through green and yellow
    lut->SetSaturationRange(0.85, 0.85);
    lut->SetValueRange(0.95, 0.95);
    lut->Build();
}

ParticleLayer::ParticleLayer(vtkRenderer* renderer) {
    sphere_->SetRadius(1.0);  // scaled by each body's radius
    sphere_->SetThetaResolution(16);
    sphere_->SetPhiResolution(12);
    fillColourMap(lut_);
    mapper_->SetInputData(points_);
    mapper_->SetSourceConnection(sphere_->GetOutputPort());
    mapper_->SetScaleArray("radius");
    mapper_->SetScaleModeToScaleByMagnitude();
    mapper_->SetLookupTable(lut_);
    mapper_->SetScalarModeToUsePointFieldData();
    mapper_->SelectColorArray("value");
    mapper_->SetUseLookupTableScalarRange(true);
    impostors_->SetInputData(points_);
    impostors_->SetScaleArray("radius");
    impostors_->SetScaleFactor(1.0);
    impostors_->SetLookupTable(lut_);
    impostors_->SetScalarModeToUsePointFieldData();
    impostors_->SelectColorArray("value");
    impostors_->SetUseLookupTableScalarRange(true);
    impostors_->EmissiveOff();
    // A disc darkened towards its rim reads as a sphere.
    impostors_->SetSplatShaderCode("//VTK::Color::Impl\n"
                                   "float dist = dot(offsetVCVSOutput.xy, offsetVCVSOutput.xy);\n"
                                   "if (dist > 1.0) { discard; }\n"
                                   "float shade = sqrt(1.0 - dist);\n"
                                   "ambientColor *= shade;\n"
                                   "diffuseColor *= shade;\n");
    draft_points_->SetInputData(points_);
    draft_points_->SetScaleFactor(0.0);  // plain points
    draft_points_->SetLookupTable(lut_);
    draft_points_->SetScalarModeToUsePointFieldData();
    draft_points_->SelectColorArray("value");
    draft_points_->SetUseLookupTableScalarRange(true);
    actor_->SetMapper(mapper_);
    actor_->GetProperty()->SetPointSize(3.0);
    actor_->GetProperty()->SetSpecular(0.3);
    actor_->GetProperty()->SetSpecularPower(20);
    renderer->AddActor(actor_);

    scalar_bar_->SetLookupTable(lut_);
    scalar_bar_->SetNumberOfLabels(5);
    scalar_bar_->SetWidth(0.08);
    scalar_bar_->SetHeight(0.45);
    scalar_bar_->SetPosition(0.9, 0.08);
    scalar_bar_->GetTitleTextProperty()->SetFontSize(12);
    scalar_bar_->GetLabelTextProperty()->SetFontSize(10);
    scalar_bar_->SetUnconstrainedFontSize(true);
    // The top label is centred on the bar's end, so with no gap the title sat on it.
    scalar_bar_->SetVerticalTitleSeparation(8);
    renderer->AddActor2D(scalar_bar_);

    // The picked body: a wireframe shell slightly larger than the particle.
    highlight_mapper_->SetInputData(highlight_points_);
    highlight_mapper_->SetSourceConnection(sphere_->GetOutputPort());
    highlight_mapper_->SetScaleArray("radius");
    highlight_mapper_->SetScaleModeToScaleByMagnitude();
    highlight_mapper_->ScalarVisibilityOff();
    highlight_actor_->SetMapper(highlight_mapper_);
    highlight_actor_->GetProperty()->SetRepresentationToWireframe();
    highlight_actor_->GetProperty()->SetColor(1.0, 1.0, 1.0);
    highlight_actor_->GetProperty()->SetLineWidth(1.5);
    highlight_actor_->GetProperty()->LightingOff();
    renderer->AddActor(highlight_actor_);
    polyhedra_ = std::make_unique<PolyhedronLayer>(renderer, lut_);
}

ParticleLayer::~ParticleLayer() = default;

void ParticleLayer::setShapes(const std::vector<ShapeSpec>& shapes) { polyhedra_->setShapes(shapes); }

void ParticleLayer::setScalarBarVisible(bool visible) { scalar_bar_->SetVisibility(visible); }

void ParticleLayer::setOpacity(double opacity) {
    actor_->SetVisibility(opacity > 0.0);
    actor_->GetProperty()->SetOpacity(opacity);
    polyhedra_->setOpacity(opacity);
}

void ParticleLayer::setDraft(bool draft) {
    draft_ = draft;
    chooseMapper();
}

void ParticleLayer::chooseMapper() {
    if (draft_) actor_->SetMapper(draft_points_);
    else if (spheres_ > kImpostorThreshold) actor_->SetMapper(impostors_);
    else actor_->SetMapper(mapper_);
}

void ParticleLayer::update(const Snapshot& snapshot) {
    const Frame& f = snapshot.frame;
    const auto n = static_cast<vtkIdType>(f.position.size());
    spheres_ = f.position.size();
    chooseMapper();
    // Fewer facets for large scenes: rendering cost grows with triangles, not with particles.
    const int resolution = n < 500 ? 16 : n < 5000 ? 10 : n < 50000 ? 8 : 6;
    if (sphere_->GetThetaResolution() != resolution) {
        sphere_->SetThetaResolution(resolution);
        sphere_->SetPhiResolution(std::max(4, resolution * 3 / 4));
    }

    const std::vector<double> values = bodyValues(snapshot, mode_);
    vtkNew<vtkPoints> points;
    points->SetDataTypeToDouble();
    vtkNew<vtkDoubleArray> radius;
    radius->SetName("radius");
    vtkNew<vtkDoubleArray> value;
    value->SetName("value");
    double low = 0.0, high = 0.0;
    for (vtkIdType i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (i == 0) low = high = values[k];
        low = std::min(low, values[k]);
        high = std::max(high, values[k]);
        if (k < f.shape.size() && polyhedra_->isPolyhedron(f.shape[k])) continue;
        points->InsertNextPoint(f.position[k].data());
        radius->InsertNextValue(f.radius[k]);
        value->InsertNextValue(values[k]);
    }
    polyhedra_->update(f, values);
    if (mode_ != ColourMode::BodyId) low = 0.0;
    if (high <= low) high = low + 1.0;
    lut_->SetTableRange(low, high);
    scalar_bar_->SetTitle(colourModeTitle(mode_).c_str());
    points_->SetPoints(points);
    points_->GetPointData()->Initialize();
    points_->GetPointData()->AddArray(radius);
    points_->GetPointData()->AddArray(value);
    points_->Modified();

    vtkNew<vtkPoints> highlight;
    vtkNew<vtkDoubleArray> highlight_radius;
    highlight_radius->SetName("radius");
    for (std::size_t i = 0; i < f.id.size(); ++i)
        if (f.id[i] == highlighted_) {
            highlight->InsertNextPoint(f.position[i].data());
            highlight_radius->InsertNextValue(1.08 * f.radius[i]);
        }
    highlight_points_->SetPoints(highlight);
    highlight_points_->GetPointData()->Initialize();
    highlight_points_->GetPointData()->AddArray(highlight_radius);
    highlight_points_->Modified();
}

}  // namespace grainlab::gui
