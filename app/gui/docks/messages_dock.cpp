#include "messages_dock.hpp"

#include <QPlainTextEdit>
#include <QTime>

namespace grainlab::gui {

MessagesDock::MessagesDock(QWidget* parent) : QDockWidget(tr("Messages"), parent) {
    setObjectName("MessagesDock");
    log_ = new QPlainTextEdit;
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    setWidget(log_);
}

void MessagesDock::add(Level level, const QString& text) {
    const char* tag = level == Level::Error ? "error" : level == Level::Warning ? "warning" : "info";
    log_->appendPlainText(QString("%1  %2: %3").arg(QTime::currentTime().toString("HH:mm:ss"), tag, text));
}

QString MessagesDock::text() const { return log_->toPlainText(); }

}  // namespace grainlab::gui
