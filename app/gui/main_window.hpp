#pragma once
// The GrainLab window: a 3D view of the running scene, menus, docks and a status bar. The engine
// runs in a SimulationRunner; the window posts commands and shows the latest snapshot.
#include <memory>

#include <QElapsedTimer>
#include <QMainWindow>
#include <QString>

#include "grainlab/plugin/loader.hpp"
#include "grainlab/scene/scene.hpp"
#include "runner/simulation_runner.hpp"
#include "view/colour_mode.hpp"

class QActionGroup;
class QLabel;
class QMenu;
class QSlider;
class QTimer;

namespace grainlab::gui {

class HistogramDock;
class InspectorDock;
class MessagesDock;
class ParameterDock;
class SceneTreeDock;
class SceneView;
class TimeSeriesDock;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a scene file and starts a paused run of it; false (and a message) when it is refused.
    bool openScene(const QString& path);
    bool saveScene(const QString& path);
    void saveCheckpoint(const QString& path);  // written by the worker between steps
    bool openCheckpoint(const QString& path);  // continues a saved run exactly
    void newScene();
    void reset();

    // What the menus do, callable from tests.
    void run();
    void pause();
    void step(long steps = 1);
    void runUntil(double time);
    void setRealTimeFactor(double factor);
    bool swapPlugin(PluginKind kind, const PluginChoice& choice);
    void useSoftContacts();  // no solver: contact model + integrator
    void setColourMode(ColourMode mode);
    void recordFrames(const QString& directory, long every_steps);
    void recordMovie(const QString& directory);  // empty: stop (and encode when ffmpeg exists)
    void inspect(std::int64_t body_id);
    void addBodies(const std::vector<BodySpec>& bodies, const std::vector<ShapeSpec>& new_shapes = {});
    void importShape();  // the import dialog

    // Shows the newest snapshot now instead of at the next timer tick.
    void refresh();

    const Scene& scene() const { return scene_; }
    const QString& scenePath() const { return scene_path_; }
    const PluginRegistry& registry() const { return registry_; }
    SimulationRunner* runner() const { return runner_.get(); }
    std::shared_ptr<const Snapshot> shownSnapshot() const { return shown_; }
    SceneView* view() const { return view_; }
    HistogramDock* histogramDock() const { return histogram_; }
    TimeSeriesDock* timeSeriesDock() const { return time_series_; }
    InspectorDock* inspectorDock() const { return inspector_; }
    ParameterDock* parameterDock() const { return parameters_; }
    MessagesDock* messagesDock() const { return messages_; }
    QMenu* pluginMenu(PluginKind kind) const;
    QString statusText() const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildFileMenu();
    void buildSimulationMenu();
    void buildViewMenu();
    void buildHelpMenu();
    void rebuildPluginMenus();
    void rebuildRecentMenu();
    void rememberRecent(const QString& path);
    void start(std::unique_ptr<Simulation> simulation, const QString& path);
    void showPluginsInDock();
    void drainMessages();
    void message(int level, const QString& text);
    void saveMovieFrame();
    void finishMovie();
    void showPluginInformation();
    QString examplesFolder() const;

    PluginRegistry registry_;
    Scene scene_;
    QString scene_path_;
    std::unique_ptr<SimulationRunner> runner_;
    std::shared_ptr<const Snapshot> shown_;

    SceneView* view_ = nullptr;
    HistogramDock* histogram_ = nullptr;
    TimeSeriesDock* time_series_ = nullptr;
    InspectorDock* inspector_ = nullptr;
    ParameterDock* parameters_ = nullptr;
    SceneTreeDock* scene_tree_ = nullptr;
    MessagesDock* messages_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QMenu* integrator_menu_ = nullptr;
    QMenu* contact_model_menu_ = nullptr;
    QMenu* solver_menu_ = nullptr;
    QSlider* threshold_ = nullptr;
    QTimer* refresh_timer_ = nullptr;
    QString state_text_, time_text_, rate_text_, count_text_, factor_text_;
    QLabel* status_label_ = nullptr;  // shows the five above
    QElapsedTimer since_display_;  // since the last snapshot was shown
    double display_ms_ = 0.0;      // the docks' and layers' share of showing one
    QString movie_directory_;
    int movie_frames_ = 0;
};

}  // namespace grainlab::gui
