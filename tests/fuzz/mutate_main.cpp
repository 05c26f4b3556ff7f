// Seeded mutation fuzzing without libFuzzer, for CI: mutates the corpus of one parser for a bounded
// time and fails on a crash (the process dies), a hang (an input that takes over 10 s) or an
// improper rejection (see runOne). The same seed gives the same inputs, so a failure reproduces.
//   grainlab-fuzz-mutate TARGET CORPUS_DIR SECONDS [SEED]
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "fuzz_targets.hpp"

namespace {

namespace fs = std::filesystem;
using Bytes = std::string;

const char* const kTokens[] = {"0", "-1", "1e308", "-1e308", "nan", "inf", "4294967296", "18446744073709551616",
                               "2147483648", "\"", "{", "}", "[", "]", ",", ":", "\n", " ", "null", "true",
                               "99999999999", "1e-320", "-0", "\\u0000", "/*", "//", "\r\n"};

Bytes mutate(Bytes input, const std::vector<Bytes>& corpus, std::mt19937_64& random) {
    auto below = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(random() % n); };
    const int rounds = 1 + static_cast<int>(below(4));
    for (int r = 0; r < rounds; ++r) {
        const std::size_t at = below(input.size() + 1);
        switch (below(8)) {
            case 0: if (!input.empty()) input[below(input.size())] ^= static_cast<char>(1u << below(8)); break;
            case 1: if (!input.empty()) input[below(input.size())] = static_cast<char>(random()); break;
            case 2: input.insert(at, 1, static_cast<char>(random())); break;
            case 3: input.erase(at, below(std::min<std::size_t>(64, input.size() - at) + 1)); break;
            case 4: input.insert(at, kTokens[below(std::size(kTokens))]); break;
            case 5: {  // copy a stretch of the input somewhere else
                const std::size_t from = below(input.size() + 1);
                input.insert(at, input.substr(from, below(128)));
                break;
            }
            case 6: input.resize(at); break;
            default: {  // splice in a part of another corpus file
                const Bytes& other = corpus[below(corpus.size())];
                const std::size_t from = below(other.size() + 1);
                input.replace(at, below(input.size() - at + 1), other.substr(from, below(256)));
            }
        }
    }
    return input;
}

// The input being parsed and where to save it if it hangs (only async-signal-safe calls there).
const std::string* current_input = nullptr;
char hang_file[256] = "fuzz-hang";

extern "C" void onHang(int) {
    const char message[] = "grainlab-fuzz-mutate: an input took more than 10 s (hang); saved to fuzz-hang-<target>\n";
    (void)!::write(2, message, sizeof message - 1);
    const int fd = ::open(hang_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0 && current_input) (void)!::write(fd, current_input->data(), current_input->size());
    ::_exit(3);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: grainlab-fuzz-mutate TARGET CORPUS_DIR SECONDS [SEED]\n";
        return 2;
    }
    const grainlab::fuzz::Target* target = grainlab::fuzz::findTarget(argv[1]);
    if (!target) {
        std::cerr << "grainlab-fuzz-mutate: unknown target " << argv[1] << "\n";
        return 2;
    }
    std::vector<Bytes> corpus;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(argv[2], ec)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        corpus.push_back(text.str());
    }
    if (corpus.empty()) {
        std::cerr << "grainlab-fuzz-mutate: no corpus files in " << argv[2] << "\n";
        return 2;
    }
    const double seconds = std::atof(argv[3]);
    const std::uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
    std::mt19937_64 random(seed);
    std::snprintf(hang_file, sizeof hang_file, "fuzz-hang-%s", target->name.c_str());
    ::signal(SIGALRM, onHang);

    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    long runs = 0;
    auto check = [&](const Bytes& input) {
        current_input = &input;
        ::alarm(10);
        const std::string failure =
            grainlab::fuzz::runOne(*target, reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
        ::alarm(0);
        ++runs;
        if (failure.empty()) return true;
        const fs::path saved = fs::absolute(std::string("fuzz-failure-") + target->name);
        std::ofstream(saved, std::ios::binary) << input;
        std::cerr << "grainlab-fuzz-mutate: " << target->name << " (seed " << seed << ", input " << runs
                  << "): " << failure << "\n  input saved to " << saved.string() << "\n";
        return false;
    };
    for (const Bytes& input : corpus)
        if (!check(input)) return 1;  // the corpus itself first
    while (std::chrono::steady_clock::now() < end) {
        const Bytes input = mutate(corpus[static_cast<std::size_t>(random() % corpus.size())], corpus, random);
        if (!check(input)) return 1;
    }
    std::cout << target->name << ": " << runs << " inputs, no failure (seed " << seed << ")\n";
    return 0;
}
