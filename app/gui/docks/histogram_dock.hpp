#pragma once
// Live histogram of normal and tangential contact-force magnitudes.
#include <QDockWidget>

#include "runner/snapshot.hpp"
#include "force_statistics.hpp"

class QCheckBox;
class QChart;
class QLineSeries;
class QValueAxis;
class QLogValueAxis;

namespace grainlab::gui {

class HistogramDock : public QDockWidget {
    Q_OBJECT
public:
    explicit HistogramDock(QWidget* parent = nullptr);
    void showSnapshot(const Snapshot& snapshot);
    const Histogram& histogram() const { return histogram_; }
    void setLogScale(bool log);

private:
    void redraw();
    Histogram histogram_;
    QChart* chart_;
    QLineSeries* normal_;
    QLineSeries* tangential_;
    QValueAxis* force_axis_;
    QValueAxis* linear_counts_;
    QLogValueAxis* log_counts_;
    QCheckBox* log_scale_;
};

}  // namespace grainlab::gui
