#pragma once
// Kinetic energy, contact count and (with a contact-dynamics solver) the solver's residual against
// simulated time, from the worker's samples (every few steps). The whole run stays in view: when a
// curve reaches kMaxPoints, every other point is dropped and later samples are taken half as often.
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
    static constexpr int kMaxPoints = 4000;
    void addSamples(const std::vector<EnergyRecord>& samples, bool solving);
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
    void thin();
    void fitAxes();
    double last_time_ = -1.0;
    long stride_ = 1;    // keep one sample in stride_
    long skipped_ = 0;
};

}  // namespace grainlab::gui
