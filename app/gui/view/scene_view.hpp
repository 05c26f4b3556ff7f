#pragma once
// The 3D view: VTK renders off screen and the widget shows the pixels (DESIGN.md: VTK's Qt widget
// is built against Qt 5, and this path renders the same under Xvfb as on a desktop). Mouse: left
// drag rotates, right drag or wheel zooms, middle drag pans, a click picks a particle.
#include <memory>

#include <QImage>
#include <QPoint>
#include <QTimer>
#include <QWidget>
#include <vtkNew.h>

#include "runner/snapshot.hpp"
#include "colour_mode.hpp"
#include "grainlab/scene/scene.hpp"

class vtkAxesActor;
class vtkRenderWindow;
class vtkRenderer;

namespace grainlab::gui {

class ContactLayer;
class ParticleLayer;
class WallLayer;

class SceneView : public QWidget {
    Q_OBJECT
public:
    static constexpr double kTranslucent = 0.35;
    // While the camera moves, a view whose full redraw takes longer than this is drawn as a draft
    // (particles as points, no arrows, no depth peeling) and redrawn in full once it stops.
    static constexpr double kDraftAboveMilliseconds = 50.0;
    void setDraftAboveMilliseconds(double ms) { draft_above_ms_ = ms; }
    static constexpr int kSettleMilliseconds = 250;  // after the last wheel turn
    explicit SceneView(QWidget* parent = nullptr);
    ~SceneView() override;

    // Walls of the scene, drawn around the bodies of the first snapshot shown after this call.
    void setScene(const Scene& scene);
    void showSnapshot(std::shared_ptr<const Snapshot> snapshot);
    void setShapes(const std::vector<ShapeSpec>& shapes);  // shapes added while running
    void setColourMode(ColourMode mode);
    void setArrowsVisible(bool visible);
    void setForceThreshold(double fraction);
    void setScalarBarVisible(bool visible);
    // 1 opaque, 0 hidden; in between the force network inside the packing shows through.
    void setParticleOpacity(double opacity);
    void setAxesVisible(bool visible);
    void resetCamera();
    void highlight(std::int64_t body_id);

    QImage renderImage();  // the view as it is now, rendered at the widget's size
    double lastFullRenderMilliseconds() const { return last_full_render_ms_; }
    bool drawingDraft() const { return draft_; }
    std::size_t arrowsShown() const;
    // Picks the particle under a widget position (what a click does); -1: none.
    std::int64_t pickAt(const QPoint& position);
    // Where a world point appears in the widget, and where the camera is (for tests and tools).
    QPoint widgetPosition(const Vec3& world);
    Vec3 cameraPosition() const;
    Vec3 cameraFocalPoint() const;

signals:
    void bodyPicked(std::int64_t body_id);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void refreshLayers();
    void render();
    void syncAxesCamera();
    void cameraMoved();  // marks the view stale, drawn as a draft while the motion lasts
    void setDraft(bool draft);

    vtkNew<vtkRenderWindow> window_;
    vtkNew<vtkRenderer> renderer_;
    vtkNew<vtkRenderer> overlay_renderer_;
    vtkNew<vtkRenderer> axes_renderer_;
    vtkNew<vtkAxesActor> axes_;
    std::unique_ptr<ParticleLayer> particles_;
    std::unique_ptr<ContactLayer> contacts_;
    std::unique_ptr<WallLayer> walls_;
    std::shared_ptr<const Snapshot> snapshot_;
    std::unique_ptr<Scene> pending_scene_;  // waits for the first snapshot's extent
    QImage image_;
    bool stale_ = true;
    double last_full_render_ms_ = 0.0;
    bool draft_ = false;
    double draft_above_ms_ = kDraftAboveMilliseconds;
    QTimer settle_;
    bool camera_placed_ = false;
    Qt::MouseButton dragging_ = Qt::NoButton;
    QPoint press_at_, last_at_;
};

}  // namespace grainlab::gui
