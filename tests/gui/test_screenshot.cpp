// Screenshot test: the 3D view of the settled pile is not blank and shows particles and the
// contact-force arrows, judged from pixel statistics. The images are saved for a person to look at
// (build/test-output/screenshot-*.png).
#include <QDir>
#include <QImage>
#include <QStandardPaths>
#include <QTest>
#include <cmath>

#include "gui_test_support.hpp"
#include "main_window.hpp"
#include "view/scene_view.hpp"

using namespace grainlab::gui;
using namespace grainlab::gui::testing;

namespace {

double luminanceSpread(const QImage& image) {
    double sum = 0.0, sum2 = 0.0;
    const double n = double(image.width()) * image.height();
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const double l = qGray(image.pixel(x, y));
            sum += l;
            sum2 += l * l;
        }
    return std::sqrt(std::max(0.0, sum2 / n - (sum / n) * (sum / n)));
}

// Fraction of pixels whose colour differs clearly between two renderings of the same view.
double changedFraction(const QImage& a, const QImage& b) {
    long changed = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            if (std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q)) > 30) ++changed;
        }
    return double(changed) / (double(a.width()) * a.height());
}

}  // namespace

class ScreenshotTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void settledPileShowsParticlesAndArrows() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openScene(examplePath("pile.json")));
        window.step(6000);
        QVERIFY(waitForStep(window, 6000));
        SceneView* view = window.view();

        const QImage shown = view->renderImage();
        view->setArrowsVisible(false);
        const QImage no_arrows = view->renderImage();
        view->setParticleOpacity(0.0);
        const QImage empty = view->renderImage();
        view->setArrowsVisible(true);
        view->setParticleOpacity(1.0);

        QDir().mkpath(GRAINLAB_TEST_OUTPUT_DIR);
        const QString out = QString(GRAINLAB_TEST_OUTPUT_DIR) + "/screenshot-";
        QVERIFY(shown.save(out + "pile-view.png"));
        QVERIFY(window.grab().save(out + "pile-window.png"));

        const double spread = luminanceSpread(shown);
        const double particles = changedFraction(no_arrows, empty);
        const double arrows = changedFraction(shown, no_arrows);
        qInfo("luminance spread %.1f, particle pixels %.3f, arrow pixels %.3f", spread, particles, arrows);
        QVERIFY2(spread > 10.0, "the view is blank");
        QVERIFY2(particles > 0.03, "particles cover too little of the view");
        QVERIFY2(arrows > 0.005, "contact-force arrows are not visible");
    }
};

QTEST_MAIN(ScreenshotTest)
#include "test_screenshot.moc"
