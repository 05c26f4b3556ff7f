#pragma once
// Kinetic energy, contact count and (with a contact-dynamics solver) the solver's residual against
// simulated time, one point per displayed snapshot.
#include <QDockWidget>

#include "runner/snapshot.hpp"

class QChart;
class QLineSeries;
class QValueAxis;
class QLogValueAxis;

namespace grainlab::gui {

class TimeSeriesDock : public QDockWidget {
    Q_OBJECT
public:
    explicit TimeSeriesDock(QWidget* parent = nullptr);
    void showSnapshot(const Snapshot& snapshot);
    void clear();
    int points() const;
    QList<QPointF> kineticEnergy() const;  // (time, kinetic + rotational energy)
    QList<QPointF> solverResidual() const;

private:
    QChart* chart_;
    QLineSeries* kinetic_;
    QLineSeries* contacts_;
    QLineSeries* residual_;         // the solver's final residual per step shown, when one runs
    QLogValueAxis* residual_axis_;
    QValueAxis* time_axis_;
    QValueAxis* energy_axis_;
    QValueAxis* contact_axis_;
    double last_time_ = -1.0;
};

}  // namespace grainlab::gui
