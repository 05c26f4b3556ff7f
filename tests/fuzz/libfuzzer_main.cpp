// libFuzzer entry point for one parser, chosen at build time (GRAINLAB_FUZZ_TARGET).
#include <cstdio>
#include <cstdlib>

#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const grainlab::fuzz::Target* target = grainlab::fuzz::findTarget(GRAINLAB_FUZZ_TARGET);
    const std::string failure = grainlab::fuzz::runOne(*target, data, size);
    if (!failure.empty()) {
        std::fprintf(stderr, "%s: %s\n", GRAINLAB_FUZZ_TARGET, failure.c_str());
        std::abort();
    }
    return 0;
}
