using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The crank configurations' arguments are rendered by Fluid, the Liquid engine crank uses: tags
/// and filters work as crank's do, a missing variable is an error.
/// </summary>
public sealed class CrankTemplateTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Arguments_render_liquid_tags_and_filters_and_a_variable_no_scope_defines_is_an_error()
    {
        var folder = TestPaths.NewTempDirectory();
        var path = Path.Combine(folder, "liquid.yml");
        File.WriteAllText(path, """
            jobs:
              load:
                variables:
                  rate: 0
                  connections: 64
                arguments: "load{% if rate != '0' %} --rate {{ rate }}{% endif %} -c {{ connections | plus: 1 }} --url {{ url | downcase }}"
              broken:
                arguments: "load -c {{ nobody }}"
            scenarios:
              closed:
                load:
                  job: load
                  variables:
                    url: HTTP://HOST/
              open:
                load:
                  job: load
                  variables:
                    url: http://host/
                    rate: 2000
              broken:
                load:
                  job: broken
            profiles:
              local: {}
            """);
        var config = CrankConfig.Load(path);

        Assert.Equal("load -c 65 --url http://host/", Assert.Single(config.Render("closed", "local")).Arguments);
        Assert.Equal("load --rate 2000 -c 65 --url http://host/", Assert.Single(config.Render("open", "local")).Arguments);
        var error = Assert.Throws<KeyNotFoundException>(() => config.Render("broken", "local"));
        Assert.Contains("no variable 'nobody'", error.Message, StringComparison.Ordinal);
    }
}
