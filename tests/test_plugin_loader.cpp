// The plugin loader refuses broken libraries, each with its own reason, and checks parameters.
#include <catch2/catch.hpp>

#include "grainlab/core/error.hpp"
#include "grainlab/plugin/contact_model.hpp"
#include "support.hpp"

using namespace grainlab;
using Catch::Matchers::Contains;

namespace {

std::string refusal(const std::string& library) {
    PluginRegistry registry;
    const std::string path = std::string(GRAINLAB_TEST_PLUGIN_DIR) + "/libtest-plugin-" + library + ".so";
    CHECK_FALSE(registry.load(path));
    REQUIRE(registry.refused().size() == 1);
    CHECK(registry.plugins().empty());
    return registry.refused()[0].reason;
}

}  // namespace

TEST_CASE("Plugin loader refuses each broken library with its own message", "[plugins]") {
    CHECK_THAT(refusal("no-entry"), Contains("no entry point grainlab_plugin_entry_v13"));
    CHECK_THAT(refusal("wrong-version"), Contains("interface version 14") && Contains("loads version 13"));
    CHECK_THAT(refusal("future-symbol"), Contains("grainlab_plugin_entry_v14") && Contains("loads version 13"));
    CHECK_THAT(refusal("wrong-kind"), Contains("kind 7"));
    CHECK_THAT(refusal("bad-parameter"), Contains("'stiffness' has unknown type 99"));
    PluginRegistry registry;
    CHECK_FALSE(registry.load("/nonexistent/libnothing.so"));
    CHECK_THAT(registry.refused()[0].reason, Contains("cannot be loaded"));
}

TEST_CASE("Built plugins load with their descriptors", "[plugins]") {
    const PluginRegistry& registry = test::builtPlugins();
    CHECK(registry.refused().empty());
    for (const char* name : {"hooke", "hertz-mindlin"}) CHECK(registry.find(name, PluginKind::ContactModel));
    for (const char* name : {"velocity-verlet", "semi-implicit-euler"}) CHECK(registry.find(name, PluginKind::Integrator));
    const PluginInfo* hooke = registry.find("hooke", PluginKind::ContactModel);
    REQUIRE(hooke);
    CHECK(hooke->parameters.size() == 4);
    CHECK(hooke->parameters[0].name == "kn");
    CHECK(hooke->parameters[0].unit == "force/length");
}

TEST_CASE("Plugin choice errors name the field and what is available", "[plugins][input]") {
    const PluginRegistry& registry = test::builtPlugins();
    PluginChoice unknown_parameter{"hooke", {{"kk", 1.0}}};
    CHECK_THROWS_WITH(registry.createContactModel(unknown_parameter, "s.json"),
                      Contains("s.json: /plugins/contact_model/parameters/kk") && Contains("no parameter 'kk'") &&
                          Contains("kn, kt, gamma_n, gamma_t"));
    PluginChoice out_of_range{"hooke", {{"kn", -5.0}}};
    CHECK_THROWS_WITH(registry.createContactModel(out_of_range, "s.json"), Contains("outside the range"));
    PluginChoice missing{"hookee", {}};
    CHECK_THROWS_WITH(registry.createContactModel(missing, "s.json"),
                      Contains("no contact model plugin named 'hookee'") && Contains("hooke") && Contains("hertz-mindlin"));
    PluginChoice wrong_kind{"velocity-verlet", {}};
    CHECK_THROWS_WITH(registry.createContactModel(wrong_kind, "s.json"), Contains("'velocity-verlet' is an integrator"));
}
