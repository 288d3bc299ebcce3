using System.Diagnostics;

namespace Benchmarks.Tests.Support;

/// <summary>
/// Network namespaces joined by veth links to one bridge in the test's namespace: each namespace
/// is a separate "machine" with its own interface and address, reachable from the test.
/// Needs root (CI runs as root); removed on dispose.
/// </summary>
internal sealed class NetworkNamespaces : IAsyncDisposable
{
    private readonly string _bridge;

    private NetworkNamespaces(string bridge, IReadOnlyList<string> names, IReadOnlyList<string> hostLinks, IReadOnlyList<string> addresses, string subnet)
    {
        _bridge = bridge;
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

    public static async Task<NetworkNamespaces> CreateAsync(int count)
    {
        var tag = Random.Shared.Next(10, 250);
        var bridge = $"bmbr{tag}";
        var subnet = $"10.213.{tag}.0/24";
        var names = new List<string>();
        var hostLinks = new List<string>();
        var addresses = new List<string>();
        await IpAsync("link", "add", bridge, "type", "bridge");
        await IpAsync("addr", "add", $"10.213.{tag}.1/24", "dev", bridge);
        await IpAsync("link", "set", bridge, "up");
        var created = new NetworkNamespaces(bridge, names, hostLinks, addresses, subnet);
        try
        {
            for (var i = 0; i < count; i++)
            {
                var name = $"bm{tag}n{i}";
                var host = $"bm{tag}h{i}";
                var inside = $"bm{tag}v{i}";
                var address = $"10.213.{tag}.{i + 2}";
                await IpAsync("netns", "add", name);
                names.Add(name);
                await IpAsync("link", "add", host, "type", "veth", "peer", "name", inside);
                hostLinks.Add(host);
                await IpAsync("link", "set", inside, "netns", name);
                await IpAsync("link", "set", host, "master", bridge);
                await IpAsync("link", "set", host, "up");
                await IpAsync("netns", "exec", name, "ip", "addr", "add", address + "/24", "dev", inside);
                await IpAsync("netns", "exec", name, "ip", "link", "set", inside, "up");
                await IpAsync("netns", "exec", name, "ip", "link", "set", "lo", "up");
                addresses.Add(address);
            }
        }
        catch
        {
            await created.DisposeAsync();
            throw;
        }

        return created;
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var name in Names)
        {
            await IpAsync(false, "netns", "del", name);
        }

        await IpAsync(false, "link", "del", _bridge);
    }

    private static Task IpAsync(params string[] arguments) => IpAsync(true, arguments);

    private static async Task IpAsync(bool check, params string[] arguments)
    {
        var info = new ProcessStartInfo("ip") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        using var process = Process.Start(info)!;
        var error = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        if (check && process.ExitCode != 0)
        {
            throw new InvalidOperationException($"ip {string.Join(' ', arguments)} failed (exit {process.ExitCode}): {error.Trim()}; network namespaces need root and iproute2 (eng/test.sh installs it)");
        }
    }
}
