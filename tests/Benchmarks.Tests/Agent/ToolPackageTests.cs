using System.Diagnostics;
using System.IO.Compression;
using System.Net;
using System.Text.Json.Nodes;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The agent installed the way .NET users install crank's: <c>dotnet pack</c> makes the tool
/// package, <c>dotnet tool install --tool-path</c> installs it from a local folder, and the
/// installed command serves, lists its plugins and runs as an agent.
/// </summary>
public sealed class ToolPackageTests
{
    [Fact]
    public async Task The_packed_tool_installs_from_a_local_folder_with_its_plugins_and_runs_servers_and_the_agent()
    {
        var root = TestPaths.NewTempDirectory();
        var packages = Path.Combine(root, "packages");
        var tools = Path.Combine(root, "tools");

        // Packed from the build the tests run (no second build of the same output folder).
        var (packExit, packOutput) = await RunAsync("dotnet",
            ["pack", Path.Combine(TestPaths.RepoRoot, "src", "Host"), "-c", "Release", "--no-build", "-o", packages, "--nologo"], root);
        Assert.True(packExit == 0, packOutput);
        var package = Assert.Single(Directory.GetFiles(packages, "Benchmarks.Tool.*.nupkg"));
        using (var zip = ZipFile.OpenRead(package))
        {
            var entries = zip.Entries.Select(e => e.FullName).ToList();
            Assert.Contains(entries, e => e.EndsWith("/DotnetToolSettings.xml", StringComparison.Ordinal));
            foreach (var plugin in new[] { "Benchmarks.Servers.Kestrel", "Benchmarks.Servers.Sockets", "Benchmarks.Servers.Libuv",
                "Benchmarks.Scenarios.Plaintext", "Benchmarks.Scenarios.WebSockets" })
            {
                Assert.Contains(entries, e => e.Contains($"/plugins/{plugin}/{plugin}.dll", StringComparison.Ordinal));
            }
        }

        // Installed from that folder only: no other feed is asked.
        var config = Path.Combine(root, "nuget.config");
        await File.WriteAllTextAsync(config, $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <clear />
                <add key="local" value="{packages}" />
              </packageSources>
            </configuration>
            """);
        var (installExit, installOutput) = await RunAsync("dotnet", ["tool", "install", "Benchmarks.Tool", "--tool-path", tools, "--configfile", config], root);
        Assert.True(installExit == 0, installOutput);
        var installed = Path.Combine(tools, OperatingSystem.IsWindows() ? "benchmarks.exe" : "benchmarks");
        Assert.True(File.Exists(installed), installOutput);

        var (serversExit, servers) = await RunAsync(installed, ["servers"], root);
        Assert.True(serversExit == 0, servers);
        Assert.Matches(@"(?m)^kestrel .*\[available\]", servers);
        Assert.Matches(@"(?m)^sockets .*\[available\]", servers);

        await using var agent = await AgentProcess.StartAsync(executable: installed, options: ["--hardware-version", "lab box 7"]);
        using var client = new AgentClient(agent.Url);
        var (status, body) = await client.GetRawAsync("/info");
        Assert.Equal(HttpStatusCode.OK, status);
        var info = JsonNode.Parse(body)!.AsObject();
        Assert.Equal("lab box 7", (string?)info["env"]);
        Assert.Equal("benchmarks", (string?)info["agent"]);
        Assert.Equal(0, await agent.StopAsync());
    }

    private static async Task<(int ExitCode, string Output)> RunAsync(string fileName, IReadOnlyList<string> arguments, string workingDirectory)
    {
        var info = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false,
            WorkingDirectory = workingDirectory };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        info.Environment["DOTNET_NOLOGO"] = "1";
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await stdout + await stderr);
    }
}
