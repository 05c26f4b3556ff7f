#include "time_series_dock.hpp"

#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include "chart_style.hpp"

namespace grainlab::gui {
namespace {

constexpr int kMaxPoints = 4000;  // older points are dropped from the front

void append(QLineSeries* series, double x, double y) {
    if (series->count() >= kMaxPoints) series->removePoints(0, series->count() - kMaxPoints + 1);
    series->append(x, y);
}

void fitRange(QValueAxis* axis, const QLineSeries* series, double least_top) {
    double top = 0.0;
    for (const QPointF& p : series->points()) top = std::max(top, p.y());
    axis->setRange(0.0, std::max(top * 1.1, least_top));
    axis->applyNiceNumbers();
}

}  // namespace

TimeSeriesDock::TimeSeriesDock(QWidget* parent) : QDockWidget(tr("Time series"), parent) {
    setObjectName("TimeSeriesDock");
    chart_ = new QChart;
    chart_->legend()->setAlignment(Qt::AlignTop);
    kinetic_ = new QLineSeries;
    kinetic_->setName(tr("kinetic energy [J]"));
    contacts_ = new QLineSeries;
    contacts_->setName(tr("contacts"));
    residual_ = new QLineSeries;
    residual_->setName(tr("solver residual"));
    chart_->addSeries(kinetic_);
    chart_->addSeries(contacts_);
    chart_->addSeries(residual_);
    time_axis_ = new QValueAxis;
    time_axis_->setTitleText(tr("time [s]"));
    time_axis_->setLabelFormat("%.3g");
    energy_axis_ = new QValueAxis;
    energy_axis_->setTitleText(tr("kinetic energy [J]"));
    energy_axis_->setLabelFormat("%.3g");
    contact_axis_ = new QValueAxis;
    contact_axis_->setTitleText(tr("contacts"));
    contact_axis_->setLabelFormat("%d");
    chart_->addAxis(time_axis_, Qt::AlignBottom);
    chart_->addAxis(energy_axis_, Qt::AlignLeft);
    chart_->addAxis(contact_axis_, Qt::AlignRight);
    kinetic_->attachAxis(time_axis_);
    kinetic_->attachAxis(energy_axis_);
    contacts_->attachAxis(time_axis_);
    contacts_->attachAxis(contact_axis_);
    residual_axis_ = new QLogValueAxis;
    residual_axis_->setTitleText(tr("solver residual"));
    residual_axis_->setLabelFormat("%.0e");
    residual_axis_->setRange(1e-10, 1.0);
    chart_->addAxis(residual_axis_, Qt::AlignRight);
    residual_->attachAxis(time_axis_);
    residual_->attachAxis(residual_axis_);
    compactChart(chart_);
    auto* view = new QChartView(chart_);
    view->setRenderHint(QPainter::Antialiasing);
    setWidget(view);
}

int TimeSeriesDock::points() const { return kinetic_->count(); }
QList<QPointF> TimeSeriesDock::kineticEnergy() const { return kinetic_->points(); }
QList<QPointF> TimeSeriesDock::solverResidual() const { return residual_->points(); }

void TimeSeriesDock::clear() {
    kinetic_->clear();
    contacts_->clear();
    residual_->clear();
    last_time_ = -1.0;
}

void TimeSeriesDock::showSnapshot(const Snapshot& snapshot) {
    const double t = snapshot.energy.time;
    if (t < last_time_) clear();  // a reset or a new scene
    if (t == last_time_) return;
    last_time_ = t;
    append(kinetic_, t, snapshot.energy.kinetic + snapshot.energy.rotational);
    append(contacts_, t, static_cast<double>(snapshot.energy.contacts));
    const bool solving = !snapshot.solver.empty();
    residual_axis_->setVisible(solving);
    residual_->setVisible(solving);
    if (solving && snapshot.solver_report.residual > 0.0) {
        append(residual_, t, snapshot.solver_report.residual);
        double low = 1.0, high = 1e-300;
        for (const QPointF& p : residual_->points()) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
        residual_axis_->setRange(low / 2.0, high * 2.0);
    }
    time_axis_->setRange(kinetic_->at(0).x(), std::max(t, kinetic_->at(0).x() + 1e-12));
    fitRange(energy_axis_, kinetic_, 1e-12);
    fitRange(contact_axis_, contacts_, 5.0);  // integer ticks even with no contacts
}

}  // namespace grainlab::gui
