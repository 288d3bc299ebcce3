using System.Diagnostics;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Agent;

/// <summary>
/// The lab as a user rehearses it with <c>eng/lab.sh</c>: boxes as network namespaces, each with
/// its agent started the way a lab box starts it, the server's box behind a shaped link. A server
/// job on one box and its load on another run through the agents, the load gets no more than the
/// link carries, and <c>down</c> leaves nothing behind, also after a box's agent was killed and its
/// job left running.
/// </summary>
public sealed class LabTests(ITestOutputHelper output)
{
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task A_server_and_its_load_on_two_boxes_meet_the_shaped_link_and_down_leaves_nothing_after_an_agent_is_killed()
    {
        Tools.Require("ip");
        Tools.Require("tc");
        await using var lab = await NetworkNamespaces.CreateAsync(2, "--agents", "--rate", "10mbit", "--benchmarks", TestPaths.HostExecutable);
        var (serverBox, loadBox) = (lab.Addresses[0], lab.Addresses[1]);

        // Each agent in its own box, not in the test's namespace.
        var (_, status, _) = await NetworkNamespaces.LabAsync("status", "--name", lab.Lab);
        var agents = status.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => int.Parse(l.Split(' ')[5],
            System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.Equal(2, agents.Count);
        var ownNetwork = NetworkOf(Environment.ProcessId);
        Assert.All(agents, pid => Assert.NotEqual(ownNetwork, NetworkOf(pid)));
        Assert.NotEqual(NetworkOf(agents[0]), NetworkOf(agents[1]));
        Assert.Contains("rate 10Mbit", status, StringComparison.Ordinal);

        using var serverClient = new AgentClient(new Uri($"http://{serverBox}:5010"));
        using var loadClient = new AgentClient(new Uri($"http://{loadBox}:5010"));
        var server = await serverClient.CreateAsync(AgentClient.Job("application", "lab", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"serve --scenario pipelined --server sockets --urls http://{serverBox}:5000";
            j["ReadyStateText"] = "Application started.";
        }));
        await serverClient.LaunchAsync(server, Wait);
        await serverClient.ReachAsync(server, Wait, null, "Running");
        var load = await loadClient.CreateAsync(AgentClient.Job("load", "lab", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"load --url http://{serverBox}:5000/plaintext --connections 16 --pipeline 16 --duration 3s --warmup 1s --crank-statistics";
            j["IsConsoleApp"] = true;
            j["WaitForExit"] = true;
        }));
        await loadClient.LaunchAsync(load, Wait);
        await loadClient.ReachAsync(load, Wait, [server], "Stopped");

        // The server's answers leave its box through a 10 Mbit/s link: the load reads no more than that, and most of it.
        var results = AgentClient.LastMeasurements(await loadClient.GetAsync(load));
        var megabits = (double)results["http/bytes"]! * 8 / 3 / 1e6;
        output.WriteLine($"lab: {(double)results["http/rps/mean"]!:n0} req/s, {megabits:0.0} Mbit/s of HTTP through a 10 Mbit/s link");
        Assert.InRange(megabits, 5, 10.5);

        // Stopped by the controller, the server job carries its box's verdict: its link, not its CPU, was the limit.
        Assert.Equal(System.Net.HttpStatusCode.Accepted, await serverClient.StopAsync(server));
        await serverClient.ReachAsync(server, Wait, null, "Stopped");
        var verdict = AgentClient.LastMeasurements(await serverClient.GetAsync(server));
        output.WriteLine($"bound: {verdict[Benchmarks.Host.Verdicts.JobVerdict.Bound]}");
        Assert.Equal("wire", (string?)verdict[Benchmarks.Host.Verdicts.JobVerdict.Kinds]);

        // The server box's agent dies; a server job runs on, orphaned in the box. down removes it all the same.
        var orphan = await serverClient.CreateAsync(AgentClient.Job("application", "lab", j =>
        {
            j["Executable"] = TestPaths.HostExecutable;
            j["Arguments"] = $"serve --scenario plaintext --server sockets --urls http://{serverBox}:5001";
            j["ReadyStateText"] = "Application started.";
        }));
        await serverClient.LaunchAsync(orphan, Wait);
        await serverClient.ReachAsync(orphan, Wait, null, "Running");
        var left = await BoxProcessesAsync(lab.Names[0]);
        Assert.True(left.Count >= 2, $"the server box runs {left.Count} processes");
        Process.GetProcessById(agents[0]).Kill();
        var (exit, _, error) = await NetworkNamespaces.LabAsync("down", "--name", lab.Lab);
        Assert.True(exit == 0, error);
        Assert.All(left.Append(agents[1]), pid => Assert.False(Alive(pid), $"process {pid} outlived the lab"));
        var (_, namespaces) = await ExternalTool.RunAsync("ip", "netns", "list");
        var (_, links) = await ExternalTool.RunAsync("ip", "-o", "link", "show");
        Assert.DoesNotContain(lab.Lab + "-box", namespaces, StringComparison.Ordinal);
        Assert.DoesNotContain($"{lab.Lab}h", links, StringComparison.Ordinal);
        Assert.DoesNotContain($"{lab.Lab}br", links, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine("/run/benchmarks-lab", lab.Lab)));
        var (statusExit, _, _) = await NetworkNamespaces.LabAsync("status", "--name", lab.Lab);
        Assert.Equal(3, statusExit);
    }

    [Fact]
    public async Task A_bad_lab_name_or_a_delay_this_kernel_cannot_make_is_one_line_and_leaves_nothing()
    {
        var (exit, _, error) = await NetworkNamespaces.LabAsync("up", "--name", "Has-Caps");
        Assert.Equal(2, exit);
        Assert.StartsWith("error: --name 'Has-Caps' must be", error, StringComparison.Ordinal);
        Assert.Single(error.Trim().Split('\n'));

        // netem is a kernel module this machine may not have; where it has it, the delay is made.
        var tag = Random.Shared.Next(10, 250);
        var name = $"bmd{tag}";
        var (delayExit, _, delayError) = await NetworkNamespaces.LabAsync("up", "--name", name, "--boxes", "1", "--subnet", $"10.214.{tag}", "--delay", "1ms");
        try
        {
            if (delayExit != 0)
            {
                Assert.Equal("error: --delay 1ms: this kernel has no netem queueing discipline (sch_netem), so a link cannot be delayed here",
                    delayError.Trim());
                var (_, namespaces) = await ExternalTool.RunAsync("ip", "netns", "list");
                Assert.DoesNotContain(name + "-box", namespaces, StringComparison.Ordinal);
            }
            else
            {
                var (_, status, _) = await NetworkNamespaces.LabAsync("status", "--name", name);
                Assert.Contains("netem", status, StringComparison.Ordinal);
            }
        }
        finally
        {
            await NetworkNamespaces.LabAsync("down", "--name", name);
        }
    }

    private static string NetworkOf(int pid) => new FileInfo($"/proc/{pid}/ns/net").LinkTarget ?? "";

    /// <summary>Running: a process that has ended but was not reaped yet (a zombie, state Z) is not.</summary>
    private static bool Alive(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..][0] != 'Z';
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static async Task<List<int>> BoxProcessesAsync(string box)
    {
        var (_, pids) = await ExternalTool.RunAsync("ip", "netns", "pids", box);
        return [.. pids.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(p => int.Parse(p, System.Globalization.CultureInfo.InvariantCulture))];
    }
}
