#include "polyhedron_layer.hpp"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include "grainlab/geometry/polyhedron.hpp"
#include "vtk_mesh.hpp"

namespace grainlab::gui {
namespace {

// The shape in its body frame, with normals split at creases so faces shade flat.
vtkSmartPointer<vtkPolyData> bodyFrameMesh(const Polyhedron& p) {
    vtkSmartPointer<vtkPolyData> mesh = toPolyData(p.features.vertices, p.features.triangles);
    vtkNew<vtkPolyDataNormals> normals;
    normals->SetInputData(mesh);
    normals->SetFeatureAngle(30.0);
    normals->SplittingOn();
    normals->Update();
    return normals->GetOutput();
}

}  // namespace

PolyhedronLayer::~PolyhedronLayer() { clear(); }

void PolyhedronLayer::clear() {
    for (const ShapeActor& a : actors_) renderer_->RemoveActor(a.actor);
    actors_.clear();
    actor_of_shape_.clear();
}

void PolyhedronLayer::setShapes(const std::vector<ShapeSpec>& shapes) {
    clear();
    for (const ShapeSpec& shape : shapes) {
        if (shape.kind != ShapeSpec::Kind::Polyhedron || !shape.polyhedron) {
            actor_of_shape_.push_back(-1);
            continue;
        }
        ShapeActor a;
        a.instances = vtkSmartPointer<vtkPolyData>::New();
        a.mapper = vtkSmartPointer<vtkGlyph3DMapper>::New();
        a.mapper->SetInputData(a.instances);
        a.mapper->SetSourceData(bodyFrameMesh(*shape.polyhedron));
        a.mapper->ScalingOff();
        a.mapper->SetOrientationModeToQuaternion();
        a.mapper->SetOrientationArray("orientation");
        a.mapper->SetLookupTable(lut_);
        a.mapper->SetScalarModeToUsePointFieldData();
        a.mapper->SelectColorArray("value");
        a.mapper->SetUseLookupTableScalarRange(true);
        a.actor = vtkSmartPointer<vtkActor>::New();
        a.actor->SetMapper(a.mapper);
        a.actor->GetProperty()->SetSpecular(0.2);
        renderer_->AddActor(a.actor);
        actor_of_shape_.push_back(static_cast<int>(actors_.size()));
        actors_.push_back(a);
    }
}

void PolyhedronLayer::setOpacity(double opacity) {
    for (const ShapeActor& a : actors_) {
        a.actor->SetVisibility(opacity > 0.0);
        a.actor->GetProperty()->SetOpacity(opacity);
    }
}

void PolyhedronLayer::update(const Frame& frame, const std::vector<double>& values) {
    for (const ShapeActor& a : actors_) {
        vtkNew<vtkPoints> points;
        points->SetDataTypeToDouble();
        vtkNew<vtkDoubleArray> orientation, value;
        orientation->SetName("orientation");
        orientation->SetNumberOfComponents(4);  // VTK's order: w, x, y, z
        value->SetName("value");
        a.instances->SetPoints(points);
        a.instances->GetPointData()->Initialize();
        a.instances->GetPointData()->AddArray(orientation);
        a.instances->GetPointData()->AddArray(value);
    }
    for (std::size_t i = 0; i < frame.position.size() && i < frame.shape.size(); ++i) {
        if (!isPolyhedron(frame.shape[i])) continue;
        vtkPolyData* instances = actors_[static_cast<std::size_t>(actor_of_shape_[frame.shape[i]])].instances;
        const Quat& q = frame.orientation[i];
        const double wxyz[4] = {q.w(), q.x(), q.y(), q.z()};
        instances->GetPoints()->InsertNextPoint(frame.position[i].data());
        instances->GetPointData()->GetArray("orientation")->InsertNextTuple(wxyz);
        instances->GetPointData()->GetArray("value")->InsertNextTuple1(values[i]);
    }
    for (const ShapeActor& a : actors_) a.instances->Modified();
}

}  // namespace grainlab::gui
