using System.Diagnostics;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A lab of boxes made by <c>eng/lab.sh</c>, the script a user rehearses a lab with: network
/// namespaces joined by veth links to one bridge in the test's namespace, each a separate
/// "machine" with its own interface and address, reachable from the test. Each lab has a name and
/// a /24 of its own, so tests in parallel do not meet. Needs root (CI runs as root); removed on dispose.
/// </summary>
internal sealed class NetworkNamespaces : IAsyncDisposable
{
    private readonly string _lab;

    private NetworkNamespaces(string lab, IReadOnlyList<string> names, IReadOnlyList<string> hostLinks, IReadOnlyList<string> addresses, string subnet)
    {
        _lab = lab;
        Names = names;
        HostLinks = hostLinks;
        Addresses = addresses;
        Subnet = subnet;
    }

    public IReadOnlyList<string> Names { get; }

    /// <summary>Each namespace's link as the test's namespace sees it: the veth end on the bridge.</summary>
    public IReadOnlyList<string> HostLinks { get; }

    public IReadOnlyList<string> Addresses { get; }

    public string Subnet { get; }

    /// <param name="count">How many boxes.</param>
    /// <param name="options">More of <c>eng/lab.sh up</c>'s options (<c>--rate 200mbit</c>, <c>--agents</c>).</param>
    public static async Task<NetworkNamespaces> CreateAsync(int count, params string[] options)
    {
        var tag = Random.Shared.Next(10, 250);
        var lab = $"bm{tag}";
        var (exit, output, error) = await LabAsync(["up", "--name", lab, "--boxes", count.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "--subnet", $"10.213.{tag}", .. options]);
        if (exit != 0)
        {
            throw new InvalidOperationException($"eng/lab.sh up failed (exit {exit}): {error.Trim()}; a lab needs root and iproute2 (eng/tools.list)");
        }

        // One line per box: "box NAME ADDRESS LINK".
        var boxes = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(l => l.Split(' ')).Where(p => p is ["box", _, _, _]).ToList();
        return new NetworkNamespaces(lab, [.. boxes.Select(b => b[1])], [.. boxes.Select(b => b[3])], [.. boxes.Select(b => b[2])], $"10.213.{tag}.0/24");
    }

    /// <summary>The lab's name, for <c>eng/lab.sh status|down --name</c>.</summary>
    public string Lab => _lab;

    public async ValueTask DisposeAsync() => await LabAsync("down", "--name", _lab);

    /// <summary>Runs <c>eng/lab.sh</c> with <paramref name="arguments"/>.</summary>
    public static async Task<(int Exit, string Output, string Error)> LabAsync(params string[] arguments)
    {
        var info = new ProcessStartInfo("bash") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        info.ArgumentList.Add(Path.Combine(TestPaths.RepoRoot, "eng", "lab.sh"));
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        using var process = Process.Start(info)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        return (process.ExitCode, await output, await error);
    }
}
