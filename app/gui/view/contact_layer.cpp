#include "contact_layer.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkDoubleArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>


namespace grainlab::gui {

ContactLayer::ContactLayer(vtkRenderer* renderer) {
    arrow_->SetTipResolution(6);
    arrow_->SetShaftResolution(4);  // thousands of arrows: few facets each
    arrow_->SetShaftRadius(0.05);
    arrow_->SetTipRadius(0.12);
    arrow_->SetTipLength(0.3);
    // Weak contacts pale, strong ones saturated red: a colour map apart from the particles'.
    lut_->SetNumberOfTableValues(256);
    lut_->SetHueRange(0.16, 0.0);
    lut_->SetSaturationRange(0.1, 1.0);
    lut_->SetValueRange(0.95, 0.95);
    lut_->Build();
    mapper_->SetInputData(arrows_);
    mapper_->SetSourceConnection(arrow_->GetOutputPort());
    mapper_->SetOrientationArray("force");
    mapper_->SetOrientationModeToDirection();
    mapper_->SetScaleArray("length");
    mapper_->SetScaleModeToScaleByMagnitude();
    mapper_->SetLookupTable(lut_);
    mapper_->SetScalarModeToUsePointFieldData();
    mapper_->SelectColorArray("magnitude");
    mapper_->SetUseLookupTableScalarRange(true);
    actor_->SetMapper(mapper_);
    actor_->GetProperty()->SetAmbient(0.3);
    renderer->AddActor(actor_);
}

ContactLayer::~ContactLayer() = default;

void ContactLayer::setVisible(bool visible) { actor_->SetVisibility(visible); }

void ContactLayer::update(const Snapshot& snapshot) {
    const Frame& f = snapshot.frame;
    double largest = 0.0, sum = 0.0;
    for (const FrameContact& c : f.contacts) {
        largest = std::max(largest, c.force.norm());
        sum += c.force.norm();
    }
    // An arrow of the mean force is half a mean diameter long; the strongest reach two diameters
    // and turn red at three times the mean, so the strong network stands out.
    const double mean = f.contacts.empty() ? 1.0 : std::max(sum / static_cast<double>(f.contacts.size()), 1e-300);
    const double diameter = f.radius.empty() ? 1.0
                                             : 2.0 * std::accumulate(f.radius.begin(), f.radius.end(), 0.0) /
                                                   static_cast<double>(f.radius.size());
    vtkNew<vtkPoints> points;
    points->SetDataTypeToDouble();
    vtkNew<vtkDoubleArray> force, length, magnitude;
    force->SetName("force");
    force->SetNumberOfComponents(3);
    length->SetName("length");
    magnitude->SetName("magnitude");
    // Large packings: only the strongest arrows, so a frame stays cheap to draw in software OpenGL
    // (and the strong network is what the arrows are for).
    double floor = threshold_ * largest;
    if (f.contacts.size() > kMaxArrows) {
        std::vector<double> magnitudes;
        magnitudes.reserve(f.contacts.size());
        for (const FrameContact& c : f.contacts) magnitudes.push_back(c.force.norm());
        std::nth_element(magnitudes.begin(), magnitudes.end() - kMaxArrows, magnitudes.end());
        floor = std::max(floor, *(magnitudes.end() - kMaxArrows));
    }
    shown_ = 0;
    for (const FrameContact& c : f.contacts) {
        const double m = c.force.norm();
        if (m <= 0.0 || m < floor || shown_ == kMaxArrows) continue;
        // Pairs: the middle of the centre line; walls: the wall point.
        const Vec3 at = c.body_b >= 0 ? 0.5 * (c.point_a + c.point_b) : c.point_b;
        points->InsertNextPoint(at.data());
        force->InsertNextTuple(c.force.data());
        length->InsertNextValue(std::min(2.0 * diameter, 0.5 * diameter * m / mean));
        magnitude->InsertNextValue(m);
        ++shown_;
    }
    lut_->SetTableRange(0.0, 3.0 * mean);
    arrows_->SetPoints(points);
    arrows_->GetPointData()->Initialize();
    arrows_->GetPointData()->AddArray(force);
    arrows_->GetPointData()->AddArray(length);
    arrows_->GetPointData()->AddArray(magnitude);
    arrows_->Modified();
}

}  // namespace grainlab::gui
