#pragma once
// Messages from loading, the worker and the plugins, newest last.
#include <QDockWidget>

class QPlainTextEdit;

namespace grainlab::gui {

class MessagesDock : public QDockWidget {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    explicit MessagesDock(QWidget* parent = nullptr);
    void add(Level level, const QString& text);
    QString text() const;

private:
    QPlainTextEdit* log_;
};

}  // namespace grainlab::gui
