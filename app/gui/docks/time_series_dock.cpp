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

void keepEveryOther(QLineSeries* series) {
    QList<QPointF> kept;
    const QList<QPointF> points = series->points();
    for (qsizetype i = 0; i < points.size(); i += 2) kept.append(points[i]);
    series->replace(kept);
}

void fitRange(QValueAxis* axis, const QLineSeries* series, double least_top, double least_step) {
    double top = 0.0;
    for (const QPointF& p : series->points()) top = std::max(top, p.y());
    roundAxis(axis, std::max(top * 1.05, least_top), least_step);
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
    energy_axis_->setLabelFormat("%.4g");
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
    stride_ = 1;
    skipped_ = 0;
}

void TimeSeriesDock::thin() {
    keepEveryOther(kinetic_);
    keepEveryOther(contacts_);
    keepEveryOther(residual_);
    stride_ *= 2;
}

void TimeSeriesDock::addSamples(const std::vector<EnergyRecord>& samples, bool solving) {
    residual_axis_->setVisible(solving);
    residual_->setVisible(solving);
    if (samples.empty()) return;
    if (samples.front().time < last_time_) clear();  // a reset or a new scene
    QList<QPointF> kinetic, contacts, residual;
    for (const EnergyRecord& e : samples) {
        if (e.time <= last_time_) continue;
        // The newest sample is always shown, so the curve ends where the status bar is.
        const bool newest = &e == &samples.back();
        if (++skipped_ < stride_ && !newest) continue;
        skipped_ = 0;
        last_time_ = e.time;
        kinetic.append({e.time, e.kinetic + e.rotational});
        contacts.append({e.time, static_cast<double>(e.contacts)});
        if (e.solver_residual > 0.0) residual.append({e.time, e.solver_residual});
    }
    kinetic_->append(kinetic);
    contacts_->append(contacts);
    residual_->append(residual);
    while (kinetic_->count() > kMaxPoints) thin();
    fitAxes();
}

void TimeSeriesDock::fitAxes() {
    if (kinetic_->count() == 0) return;
    const double start = kinetic_->at(0).x();
    roundTicks(time_axis_, start, std::max(last_time_, start + 1e-12));
    fitRange(energy_axis_, kinetic_, 1e-12, 0.0);
    fitRange(contact_axis_, contacts_, 5.0, 1.0);  // integer ticks even with no contacts
    if (residual_->count() > 0) {
        double low = 1.0, high = 1e-300;
        for (const QPointF& p : residual_->points()) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
        residual_axis_->setRange(low / 2.0, high * 2.0);
    }
}

}  // namespace grainlab::gui
