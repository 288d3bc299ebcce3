using System.Net;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// An agent on a box with no route to the package feed, as lab boxes often are: a job whose
/// packages are in the machine's NuGet cache builds and runs though its package audit cannot
/// reach the feed (a warning in its build log, where the project treats warnings as errors);
/// with the cache hidden, the job fails with one line naming the package and the feed.
/// </summary>
public sealed class AgentOfflineBuildTests
{
    private static readonly TimeSpan Wait = TimeSpan.FromMinutes(3);

    [Fact]
    public async Task An_agent_cut_off_from_the_feed_builds_from_the_cache_and_names_a_package_the_cache_lacks()
    {
        // A package the repository's own build has restored, so any machine that built it has it in its cache.
        var props = File.ReadAllText(Path.Combine(TestPaths.RepoRoot, "Directory.Packages.props"));
        var version = Regex.Match(props, @"Include=""YamlDotNet"" Version=""([^""]+)""").Groups[1].Value;
        Assert.NotEmpty(version);
        var zip = AgentClient.Zip(
            ("Offline.csproj", $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework></PropertyGroup>
                  <PropertyGroup><TreatWarningsAsErrors>true</TreatWarningsAsErrors><NuGetAudit>true</NuGetAudit></PropertyGroup>
                  <ItemGroup><PackageReference Include="YamlDotNet" Version="{version}" /></ItemGroup>
                </Project>
                """),
            ("Program.cs", """
                System.Console.WriteLine(new YamlDotNet.Serialization.SerializerBuilder().Build().Serialize(new { offline = true }).Trim());
                System.Console.WriteLine("Application started.");
                System.Threading.Thread.Sleep(System.Threading.Timeout.Infinite);
                """));

        await using var network = await NetworkNamespaces.CreateAsync(2);
        var allow = new[] { "--allow", network.Subnet };

        // An empty HTTP cache: the audit has no vulnerability data kept from an earlier restore and must ask the feed.
        var warm = new Dictionary<string, string> { ["NUGET_HTTP_CACHE_PATH"] = TestPaths.NewTempDirectory() };
        await using (var agent = await AgentProcess.StartAsync(url: $"http://{network.Addresses[0]}:5010", options: allow, networkNamespace: network.Names[0],
            environment: warm))
        {
            var (state, error, buildLog, output) = await RunAsync(agent, zip);
            Assert.True(state == "Running", $"{state}: {error}\n{buildLog}");
            Assert.Contains("warning NU1900", buildLog, StringComparison.Ordinal);
            Assert.Contains("offline: true", output, StringComparison.Ordinal);
        }

        // The cache hidden: the package cannot be had, and the job's error says which and from where.
        var cold = new Dictionary<string, string>(warm) { ["NUGET_PACKAGES"] = TestPaths.NewTempDirectory() };
        await using (var agent = await AgentProcess.StartAsync(url: $"http://{network.Addresses[1]}:5010", options: allow, networkNamespace: network.Names[1],
            environment: cold))
        {
            var (state, error, _, _) = await RunAsync(agent, zip);
            Assert.Equal("Failed", state);
            var first = error.Split('\n')[0];
            Assert.StartsWith("the build failed (exit code 1): packages not in this machine's NuGet cache (" + cold["NUGET_PACKAGES"], first,
                StringComparison.Ordinal);
            Assert.Contains($"YamlDotNet {version}", first, StringComparison.Ordinal);
            Assert.Contains("and not to be had from http", first, StringComparison.Ordinal);
            Assert.Contains("error NU1301", error, StringComparison.Ordinal);
        }
    }

    private static async Task<(string State, string Error, string BuildLog, string Output)> RunAsync(AgentProcess agent, byte[] zip)
    {
        using var client = new AgentClient(agent.Url);
        var id = await client.CreateAsync(AgentClient.Job("application", "offline", j =>
        {
            j["Project"] = "app/Offline.csproj";
            j["ReadyStateText"] = "Application started.";
            j["Sources"] = new JsonObject { ["app"] = new JsonObject { ["LocalFolder"] = "/somewhere/app", ["DestinationFolder"] = null } };
        }));
        await client.WaitForStateAsync(id, Wait, null, "Initializing");
        Assert.Equal(HttpStatusCode.OK, await client.UploadSourceAsync(id, "app", zip));
        await client.StartAsync(id);
        var state = await client.WaitForStateAsync(id, Wait, null, "Failed", "Running");
        var error = (string?)(await client.GetAsync(id))["error"] ?? "";
        var (_, buildLog) = await client.GetRawAsync($"/jobs/{id}/buildlog");
        var (_, output) = await client.GetRawAsync($"/jobs/{id}/output");
        await client.DeleteAsync(id);
        return (state, error, buildLog, output);
    }
}
