// Runs that are stopped, killed and resumed continue the same output series and end with exactly
// the files of an uninterrupted run (determinism: the restart repeats the same arithmetic), and a
// run killed at any moment leaves only files that load.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <thread>

#include "grainlab/io/checkpoint.hpp"
#include "grainlab/io/scene_file.hpp"
#include "grainlab/io/vtk_series.hpp"
#include "grainlab/sim/batch_run.hpp"
#include "restart_scene.hpp"
#include "support.hpp"
#include "temp_dir.hpp"
#include "vtp_reader.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The files of a finished run that must not depend on how it got there (the summary holds wall times).
void requireSameSeries(const fs::path& a, const fs::path& b, long last_step) {
    for (const std::string name : {"energy.csv", "particles.pvd", "contacts.pvd"}) {
        INFO(name);
        CHECK(slurp(a / name) == slurp(b / name));
    }
    for (long step = 0; step <= last_step; step += 100) {
        const std::string frame = FrameSeriesWriter::particlesFileName(step);
        INFO(frame);
        CHECK(slurp(a / frame) == slurp(b / frame));
    }
}

struct Exit {
    bool killed = false;
    int code = -1;
};

// Starts the command line with `args`, its output going to `log`.
pid_t startCli(const std::vector<std::string>& args, const fs::path& log = "/dev/null") {
    std::vector<std::string> copy{GRAINLAB_CLI};
    copy.insert(copy.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) { ::dup2(fd, 1); ::dup2(fd, 2); }
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

Exit finished(int status) {
    Exit e;
    e.killed = WIFSIGNALED(status);
    e.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return e;
}

// Runs the command line with `args`; with kill_after > 0 sends SIGKILL then (if still running).
Exit runCli(const std::vector<std::string>& args, double kill_after = 0.0) {
    const pid_t pid = startCli(args);
    int status = 0;
    if (kill_after > 0.0) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kill_after);
        while (std::chrono::steady_clock::now() < deadline && ::waitpid(pid, &status, WNOHANG) == 0)
            std::this_thread::sleep_for(std::chrono::microseconds(500));
        if (::waitpid(pid, &status, WNOHANG) != 0) return finished(status);
        ::kill(pid, SIGKILL);
    }
    ::waitpid(pid, &status, 0);
    return finished(status);
}

// Every file a run leaves in `dir` loads: frames, collections (and the frames they list), the
// energy rows, the summary and the checkpoint. Hidden temporaries of an interrupted write are
// skipped here; the next run removes them.
void requireFilesLoad(const fs::path& dir) {
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        INFO(name);
        if (name[0] == '.' && name.find(".tmp.") != std::string::npos) continue;
        const std::string text = slurp(entry.path());
        if (entry.path().extension() == ".vtp") {
            test::checkLayout(test::parseVtp(text));
        } else if (entry.path().extension() == ".pvd") {
            REQUIRE(text.find("</VTKFile>") != std::string::npos);
            static const std::regex listed("file=\"([^\"]+)\"");
            for (std::sregex_iterator it(text.begin(), text.end(), listed), end; it != end; ++it)
                CHECK(fs::exists(dir / (*it)[1].str()));
        } else if (name == "energy.csv") {
            std::istringstream rows(text);
            std::string row;
            REQUIRE(std::getline(rows, row));
            // Every row complete: as many fields as the header names.
            const auto fields = std::count(row.begin(), row.end(), ',');
            CHECK(row.rfind("step,time,kinetic,", 0) == 0);
            long previous = -1;
            while (std::getline(rows, row)) {
                CHECK(std::count(row.begin(), row.end(), ',') == fields);
                const long step = std::stol(row);
                CHECK(step > previous);
                previous = step;
            }
            CHECK(text.back() == '\n');
        } else if (name == "summary.json") {
            CHECK(nlohmann::json::parse(text).contains("status"));
        } else if (name == kCheckpointFileName) {
            CHECK(readCheckpoint(entry.path()).state.step > 0);
        } else {
            FAIL("unexpected file " << name);
        }
    }
}

}  // namespace

TEST_CASE("A stopped batch run resumed from an earlier checkpoint continues the same series", "[checkpoint][output]") {
    const test::TempDir scratch("kill-batch");
    const fs::path reference = scratch.path / "reference", resumed = scratch.path / "resumed";
    fs::create_directories(reference);
    fs::create_directories(resumed);
    const fs::path saved = resumed / "at-400.glc";
    auto run = [](const fs::path& dir, BatchOptions options, const Checkpoint* from) {
        options.output = dir;
        options.checkpoint_every = 200;
        if (!from) {
            // One thread: two-thread restarts are covered in test_checkpoint.cpp; this is about the files.
            const auto scene = test::restartSceneJson("velocity-verlet", "hertz-mindlin", 1);
            Simulation sim(parseScene(scene, "restart-scene.json", GRAINLAB_SOURCE_DIR), test::builtPlugins());
            return runBatch(sim, options);
        }
        options.resume = &from->output;
        Simulation sim = Simulation::fromCheckpoint(*from, test::builtPlugins());
        return runBatch(sim, options);
    };
    CHECK(run(reference, {}, nullptr).status == "completed");

    // Stop at step 500 (a checkpoint is written there), keeping a copy of the one from step 400.
    std::atomic<bool> stop{false};
    BatchOptions options;
    options.stop = &stop;
    options.progress = [&](long done, long) {
        if (done == 450) fs::copy_file(resumed / kCheckpointFileName, saved);
        if (done == 500) stop = true;
    };
    const RunSummary interrupted = run(resumed, options, nullptr);
    CHECK(interrupted.status == "interrupted");
    CHECK(interrupted.steps == 500);
    CHECK(readCheckpoint(resumed / kCheckpointFileName).state.step == 500);

    // Resuming from step 400 as after a kill: frames 0..400 stay listed, 500 is written again.
    const Checkpoint from = readCheckpoint(saved);
    REQUIRE(from.state.step == 400);
    REQUIRE(from.output.particle_frames.size() == 5);
    fs::remove(saved);
    const RunSummary rest = run(resumed, {}, &from);
    CHECK(rest.status == "completed");
    CHECK(rest.steps == 400);
    requireSameSeries(reference, resumed, 800);
}

TEST_CASE("A command-line run killed at random moments leaves loadable files and resumes to the same end",
          "[checkpoint][cli][kill]") {
    const test::TempDir scratch("kill-cli");
    const fs::path& dir = scratch.path;
    const fs::path scene = dir / "scene.json", reference = dir / "reference", killed = dir / "killed";
    // One thread: the processes of this test share the cores with others (CTest -j).
    std::ofstream(scene) << test::restartSceneJson("velocity-verlet", "hertz-mindlin", 1).dump(1);
    const auto start = std::chrono::steady_clock::now();
    REQUIRE(runCli({"run", scene.string(), "--output", reference.string()}).code == 0);
    const double duration = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // Kill moments spread over the run; a run that happens to finish first starts over, until three
    // kills have landed. The moments scale with the shortest run seen: on a machine whose load
    // drops after the reference run, later runs are quicker and would otherwise finish first.
    std::mt19937 random(20240611);
    std::uniform_real_distribution<double> moment(0.02, 0.7);
    double shortest = duration;
    const fs::path checkpoint = killed / kCheckpointFileName;
    int kills = 0;
    Exit last;
    for (int attempt = 0; attempt < 20 && kills < 3; ++attempt) {
        std::vector<std::string> args = fs::exists(checkpoint)
            ? std::vector<std::string>{"resume", checkpoint.string()}
            : std::vector<std::string>{"run", scene.string(), "--output", killed.string(), "--checkpoint-every", "50"};
        const auto started = std::chrono::steady_clock::now();
        last = runCli(args, moment(random) * shortest);
        if (!last.killed) {
            REQUIRE(last.code == 0);
            if (args[0] == "run")
                shortest = std::min(shortest, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
            fs::remove_all(killed);
            continue;
        }
        ++kills;
        // Under load an early kill can land before the run has made its output folder: nothing left
        // behind is a valid outcome too.
        if (fs::exists(killed)) requireFilesLoad(killed);
    }
    CHECK(kills == 3);
    last = fs::exists(checkpoint) ? runCli({"resume", checkpoint.string()})
                                  : runCli({"run", scene.string(), "--output", killed.string(), "--checkpoint-every", "50"});
    REQUIRE(last.code == 0);
    requireFilesLoad(killed);
    for (const auto& entry : fs::directory_iterator(killed))
        CHECK(entry.path().filename().string().find(".tmp.") == std::string::npos);
    requireSameSeries(reference, killed, 800);
}

TEST_CASE("SIGTERM finishes the step, writes a checkpoint and prints the command that resumes", "[checkpoint][cli]") {
    const test::TempDir scratch("kill-term");
    const fs::path& dir = scratch.path;
    const fs::path scene = dir / "scene.json", reference = dir / "reference", stopped = dir / "stopped";
    // One thread: the processes of this test share the cores with others (CTest -j).
    std::ofstream(scene) << test::restartSceneJson("velocity-verlet", "hertz-mindlin", 1).dump(1);
    REQUIRE(runCli({"run", scene.string(), "--output", reference.string()}).code == 0);

    const fs::path log = dir / "output.txt";
    const pid_t pid = startCli({"run", scene.string(), "--output", stopped.string()}, log);
    // Wait for the first frames of the run, so the signal arrives mid-run.
    while (!fs::exists(stopped / FrameSeriesWriter::particlesFileName(100)))
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const std::string message = slurp(log);
    INFO(message);
    const Exit exit = finished(status);
    if (exit.code == 0) return;  // the run ended before the signal arrived: nothing to resume
    CHECK(exit.code == 5);
    requireFilesLoad(stopped);
    std::smatch command;
    REQUIRE(std::regex_search(message, command, std::regex("resume with: (\\S+) resume (\\S+)")));
    CHECK(command[1].str() == GRAINLAB_CLI);
    CHECK(command[2].str() == (stopped / kCheckpointFileName).string());
    REQUIRE(runCli({"resume", command[2].str()}).code == 0);
    requireSameSeries(reference, stopped, 800);
}
