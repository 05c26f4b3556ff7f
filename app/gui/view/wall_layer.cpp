#include "wall_layer.hpp"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkMatrix4x4.h>
#include <vtkOutlineSource.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include "grainlab/sim/wall_placement.hpp"
#include "vtk_mesh.hpp"

namespace grainlab::gui {
namespace {

// A plane is drawn as its cut through `box` (Sutherland-Hodgman: a large square clipped by the
// box's six faces), so a container's walls close around the particles.
vtkSmartPointer<vtkPolyData> planePatch(const PlaneWall& plane, const Eigen::AlignedBox3d& box) {
    const Vec3 n = plane.normal.normalized();
    const Vec3 centre = box.center();
    const Vec3 foot = centre - n * n.dot(centre - plane.point);
    const double half = box.diagonal().norm();
    const Vec3 u = n.unitOrthogonal(), w = n.cross(u);
    std::vector<Vec3> polygon{foot - half * u - half * w, foot + half * u - half * w, foot + half * u + half * w,
                              foot - half * u + half * w};
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side) {
            // Keep the part where s * (x[axis] - bound) <= 0.
            const double bound = side ? box.max()[axis] : box.min()[axis];
            const double s = side ? 1.0 : -1.0;
            std::vector<Vec3> kept;
            for (std::size_t k = 0; k < polygon.size(); ++k) {
                const Vec3& a = polygon[k];
                const Vec3& b = polygon[(k + 1) % polygon.size()];
                const double da = s * (a[axis] - bound), db = s * (b[axis] - bound);
                if (da <= 0.0) kept.push_back(a);
                if ((da < 0.0) != (db < 0.0) && da != db) kept.push_back(a + (b - a) * (da / (da - db)));
            }
            polygon.swap(kept);
        }
    std::vector<std::array<std::uint32_t, 3>> fan;
    for (std::uint32_t k = 1; k + 1 < polygon.size(); ++k) fan.push_back({0, k, k + 1});
    return toPolyData(polygon, fan);
}

vtkSmartPointer<vtkActor> surfaceActor(vtkPolyData* poly, double opacity) {
    vtkNew<vtkPolyDataNormals> normals;
    normals->SetInputData(poly);
    normals->SetFeatureAngle(45.0);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(normals->GetOutputPort());
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(0.72, 0.76, 0.82);
    actor->GetProperty()->SetOpacity(opacity);
    actor->GetProperty()->BackfaceCullingOff();
    return actor;
}

}  // namespace

WallLayer::~WallLayer() { clear(); }

void WallLayer::clear() {
    for (const Placed& p : walls_) renderer_->RemoveActor(p.actor);
    walls_.clear();
    if (outline_) renderer_->RemoveActor(outline_);
    outline_ = nullptr;
}

void WallLayer::setScene(const Scene& scene, const Eigen::AlignedBox3d& extent) {
    clear();
    for (const PlaneWall& plane : scene.planes)
        walls_.push_back({surfaceActor(planePatch(plane, extent), 0.18), plane.motion});
    for (const MeshWall& mesh : scene.meshes)
        walls_.push_back({surfaceActor(toPolyData(mesh.mesh.vertices, mesh.mesh.triangles), 0.3), mesh.motion});
    for (const Placed& p : walls_) renderer_->AddActor(p.actor);
    // A periodic domain's box is part of the physics; other domains are only bounds, not drawn.
    if (!scene.domain.anyPeriodic()) {
        moveTo(0.0);
        return;
    }
    vtkNew<vtkOutlineSource> box;
    box->SetBounds(scene.domain.min.x(), scene.domain.max.x(), scene.domain.min.y(), scene.domain.max.y(),
                   scene.domain.min.z(), scene.domain.max.z());
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(box->GetOutputPort());
    outline_ = vtkSmartPointer<vtkActor>::New();
    outline_->SetMapper(mapper);
    outline_->GetProperty()->SetColor(0.55, 0.58, 0.62);
    renderer_->AddActor(outline_);
    moveTo(0.0);
}

void WallLayer::moveTo(double time) {
    for (const Placed& p : walls_) {
        const Eigen::Matrix4d m = wallPlacement(p.motion, time).matrix();
        vtkNew<vtkMatrix4x4> matrix;
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) matrix->SetElement(r, c, m(r, c));
        p.actor->SetUserMatrix(matrix);
    }
}

}  // namespace grainlab::gui
