#include "scene_view.hpp"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

#include "contact_layer.hpp"
#include "particle_layer.hpp"
#include "picking.hpp"
#include "wall_layer.hpp"

namespace grainlab::gui {
namespace {

// What the view frames: bodies and mesh walls (the domain may be far larger), with a margin.
Eigen::AlignedBox3d sceneExtent(const Scene& scene, const Frame& frame) {
    Eigen::AlignedBox3d box;
    for (std::size_t i = 0; i < frame.position.size(); ++i) {
        box.extend(frame.position[i] + Vec3::Constant(frame.radius[i]));
        box.extend(frame.position[i] - Vec3::Constant(frame.radius[i]));
    }
    for (const MeshWall& mesh : scene.meshes)
        for (const Vec3& v : mesh.mesh.vertices) box.extend(v);
    if (box.isEmpty()) box = Eigen::AlignedBox3d(scene.domain.min, scene.domain.max);
    const Vec3 margin = Vec3::Constant(0.1 * box.diagonal().norm());
    return Eigen::AlignedBox3d(box.min() - margin, box.max() + margin);
}

}  // namespace

SceneView::SceneView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(320, 240);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    window_->SetOffScreenRendering(1);
    window_->SetMultiSamples(0);
    window_->SetNumberOfLayers(3);
    renderer_->SetBackground(0.11, 0.12, 0.14);
    renderer_->SetBackground2(0.30, 0.33, 0.38);
    renderer_->GradientBackgroundOn();
    // Translucent particles and walls sorted per pixel.
    renderer_->SetUseDepthPeeling(true);
    renderer_->SetMaximumNumberOfPeels(3);
    window_->SetAlphaBitPlanes(1);
    window_->AddRenderer(renderer_);
    // Axes in the lower-left corner, turned with the main camera.
    axes_renderer_->SetViewport(0.0, 0.0, 0.14, 0.2);
    axes_renderer_->SetLayer(2);
    // Contact arrows are drawn over the particles (their own layer, same camera): the force
    // network inside an opaque packing shows at a glance.
    overlay_renderer_->SetLayer(1);
    overlay_renderer_->InteractiveOff();
    overlay_renderer_->SetActiveCamera(renderer_->GetActiveCamera());
    window_->AddRenderer(overlay_renderer_);
    axes_renderer_->InteractiveOff();
    axes_renderer_->AddActor(axes_);
    window_->AddRenderer(axes_renderer_);
    particles_ = std::make_unique<ParticleLayer>(renderer_);
    contacts_ = std::make_unique<ContactLayer>(overlay_renderer_);
    walls_ = std::make_unique<WallLayer>(renderer_);
    settle_.setSingleShot(true);
    settle_.setInterval(kSettleMilliseconds);
    connect(&settle_, &QTimer::timeout, this, [this] {
        if (dragging_ == Qt::NoButton) setDraft(false);
    });
}

SceneView::~SceneView() = default;

void SceneView::setScene(const Scene& scene) {
    pending_scene_ = std::make_unique<Scene>(scene);
    particles_->setShapes(scene.shapes);
    camera_placed_ = false;
    stale_ = true;
    update();
}

void SceneView::setShapes(const std::vector<ShapeSpec>& shapes) {
    particles_->setShapes(shapes);
    refreshLayers();
}

void SceneView::showSnapshot(std::shared_ptr<const Snapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    refreshLayers();
}

void SceneView::refreshLayers() {
    if (!snapshot_) return;
    if (pending_scene_) {
        walls_->setScene(*pending_scene_, sceneExtent(*pending_scene_, snapshot_->frame));
        pending_scene_.reset();
    }
    particles_->update(*snapshot_);
    contacts_->update(*snapshot_);
    walls_->moveTo(snapshot_->frame.time);
    if (!camera_placed_) {
        resetCamera();
        camera_placed_ = true;
    }
    stale_ = true;
    update();
}

void SceneView::setColourMode(ColourMode mode) {
    particles_->setColourMode(mode);
    refreshLayers();
}
void SceneView::setArrowsVisible(bool visible) {
    contacts_->setVisible(visible);
    stale_ = true;
    update();
}
void SceneView::setForceThreshold(double fraction) {
    contacts_->setThreshold(fraction);
    refreshLayers();
}
void SceneView::setParticleOpacity(double opacity) {
    particles_->setOpacity(opacity);
    stale_ = true;
    update();
}
void SceneView::setScalarBarVisible(bool visible) {
    particles_->setScalarBarVisible(visible);
    stale_ = true;
    update();
}
void SceneView::setAxesVisible(bool visible) {
    axes_->SetVisibility(visible);
    stale_ = true;
    update();
}
void SceneView::highlight(std::int64_t body_id) {
    particles_->setHighlighted(body_id);
    refreshLayers();
}
std::size_t SceneView::arrowsShown() const { return contacts_->arrowsShown(); }

void SceneView::resetCamera() {
    vtkCamera* camera = renderer_->GetActiveCamera();
    camera->SetFocalPoint(0, 0, 0);
    camera->SetPosition(1.0, -2.2, 1.1);  // a three-quarter view from the front, z up
    camera->SetViewUp(0, 0, 1);
    renderer_->ResetCamera();
    camera->Zoom(1.15);
    stale_ = true;
    update();
}

void SceneView::syncAxesCamera() {
    vtkCamera* main = renderer_->GetActiveCamera();
    vtkCamera* axes = axes_renderer_->GetActiveCamera();
    double direction[3];
    main->GetDirectionOfProjection(direction);
    axes->SetFocalPoint(0, 0, 0);
    axes->SetPosition(-4 * direction[0], -4 * direction[1], -4 * direction[2]);
    axes->SetViewUp(main->GetViewUp());
    axes_renderer_->ResetCameraClippingRange();
}

void SceneView::render() {
    QElapsedTimer clock;
    clock.start();
    const int w = std::max(1, width()), h = std::max(1, height());
    const int scale = static_cast<int>(devicePixelRatioF());
    window_->SetSize(w * scale, h * scale);
    renderer_->ResetCameraClippingRange();
    overlay_renderer_->ResetCameraClippingRange();
    syncAxesCamera();
    window_->Render();
    vtkNew<vtkUnsignedCharArray> pixels;
    window_->GetRGBACharPixelData(0, 0, w * scale - 1, h * scale - 1, 0, pixels);
    // VTK's rows run bottom to top.
    image_ = QImage(pixels->GetPointer(0), w * scale, h * scale, QImage::Format_RGBA8888).mirrored().copy();
    image_.setDevicePixelRatio(scale);
    stale_ = false;
    if (!draft_) last_full_render_ms_ = clock.nsecsElapsed() * 1e-6;
}

void SceneView::setDraft(bool draft) {
    if (draft == draft_) return;
    draft_ = draft;
    particles_->setDraft(draft);
    overlay_renderer_->SetDraw(!draft);
    renderer_->SetUseDepthPeeling(!draft);
    stale_ = true;
    update();
}

void SceneView::cameraMoved() {
    if (last_full_render_ms_ > draft_above_ms_) setDraft(true);
    settle_.start();
    stale_ = true;
    update();
}

QImage SceneView::renderImage() {
    render();
    return image_;
}

void SceneView::paintEvent(QPaintEvent*) {
    if (stale_ || image_.size() != size() * static_cast<int>(devicePixelRatioF())) render();
    QPainter painter(this);
    painter.drawImage(0, 0, image_);
}

std::int64_t SceneView::pickAt(const QPoint& position) {
    if (!snapshot_) return -1;
    // VTK's display coordinates start at the bottom-left corner.
    const double scale = devicePixelRatioF();
    const double x = position.x() * scale, y = (height() - position.y()) * scale;
    double near_point[4], far_point[4];
    renderer_->SetDisplayPoint(x, y, 0.0);
    renderer_->DisplayToWorld();
    renderer_->GetWorldPoint(near_point);
    renderer_->SetDisplayPoint(x, y, 1.0);
    renderer_->DisplayToWorld();
    renderer_->GetWorldPoint(far_point);
    const Vec3 origin = Vec3(near_point[0], near_point[1], near_point[2]) / near_point[3];
    const Vec3 end = Vec3(far_point[0], far_point[1], far_point[2]) / far_point[3];
    const Frame& f = snapshot_->frame;
    const auto hit = pickSphere(origin, end - origin, f.position, f.radius);
    return hit ? f.id[*hit] : -1;
}

QPoint SceneView::widgetPosition(const Vec3& world) {
    renderer_->SetWorldPoint(world.x(), world.y(), world.z(), 1.0);
    renderer_->WorldToDisplay();
    double display[3];
    renderer_->GetDisplayPoint(display);
    const double scale = devicePixelRatioF();
    return QPoint(static_cast<int>(std::lround(display[0] / scale)), height() - static_cast<int>(std::lround(display[1] / scale)));
}

Vec3 SceneView::cameraPosition() const {
    double p[3];
    renderer_->GetActiveCamera()->GetPosition(p);
    return Vec3(p[0], p[1], p[2]);
}

Vec3 SceneView::cameraFocalPoint() const {
    double p[3];
    renderer_->GetActiveCamera()->GetFocalPoint(p);
    return Vec3(p[0], p[1], p[2]);
}

void SceneView::mousePressEvent(QMouseEvent* event) {
    dragging_ = event->button();
    press_at_ = last_at_ = event->position().toPoint();
}

void SceneView::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_ == Qt::NoButton) return;
    const QPoint at = event->position().toPoint();
    const QPoint delta = at - last_at_;
    last_at_ = at;
    vtkCamera* camera = renderer_->GetActiveCamera();
    if (dragging_ == Qt::LeftButton) {
        camera->Azimuth(-0.4 * delta.x());
        camera->Elevation(0.4 * delta.y());
        camera->OrthogonalizeViewUp();
    } else if (dragging_ == Qt::RightButton) {
        camera->Dolly(std::pow(1.01, -delta.y()));
    } else if (dragging_ == Qt::MiddleButton) {
        // Move focal point and position together by the drag, in the view plane.
        double focal[3], position[3], up[3];
        camera->GetFocalPoint(focal);
        camera->GetPosition(position);
        camera->GetViewUp(up);
        const Vec3 f(focal[0], focal[1], focal[2]), p(position[0], position[1], position[2]), u(up[0], up[1], up[2]);
        const Vec3 right = (f - p).cross(u).normalized();
        const double per_pixel = 2.0 * (f - p).norm() * std::tan(0.5 * camera->GetViewAngle() * kPi / 180.0) / height();
        const Vec3 shift = per_pixel * (-delta.x() * right + delta.y() * u.normalized());
        const Vec3 new_focal = f + shift, new_position = p + shift;
        camera->SetFocalPoint(new_focal.data());
        camera->SetPosition(new_position.data());
    }
    cameraMoved();
}

void SceneView::mouseReleaseEvent(QMouseEvent* event) {
    const bool click = (event->position().toPoint() - press_at_).manhattanLength() < 4;
    if (click && dragging_ == Qt::LeftButton) {
        const std::int64_t id = pickAt(event->position().toPoint());
        highlight(id);
        emit bodyPicked(id);
    }
    dragging_ = Qt::NoButton;
    setDraft(false);
}

void SceneView::wheelEvent(QWheelEvent* event) {
    renderer_->GetActiveCamera()->Dolly(std::pow(1.1, event->angleDelta().y() / 120.0));
    cameraMoved();
}

}  // namespace grainlab::gui
