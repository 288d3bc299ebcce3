namespace Benchmarks.Host.Commands;

/// <summary>The help headings <c>run</c> and <c>load</c> share: the load's shape and each protocol's own options.</summary>
internal static class LoadHelpGroups
{
    public static (string Title, IReadOnlyList<string> Names) Shape { get; } =
        (LoadJobs.LoadParameters.ShapeGroup, ["--generator", .. LoadJobs.LoadParameters.Flags(LoadJobs.LoadParameters.ShapeGroup)]);

    /// <summary>The open model's heading: the load's rate, then the command's own options for it.</summary>
    public static (string Title, IReadOnlyList<string> Names) OpenModel(params string[] more) =>
        (LoadJobs.LoadParameters.OpenModelGroup, [.. LoadJobs.LoadParameters.Flags(LoadJobs.LoadParameters.OpenModelGroup), .. more]);

    public static (string Title, IReadOnlyList<string> Names) WebSocket { get; } =
        ("WebSocket load", ["--ws", "--ws-mode", "--message", "--window", "--message-size", "--local-address"]);

    public static (string Title, IReadOnlyList<string> Names) Broadcast { get; } =
        ("WebSocket broadcast", ["--initial-clients", "--step-size", "--sample-size", "--concurrent", "--payload-padding", "--limit-percentile", "--limit-rtt",
            "--total-steps", "--binary"]);

    public static (string Title, IReadOnlyList<string> Names) Tcp { get; } =
        ("TCP load", ["--tcp", "--tcp-mode", "--linger-zero"]);
}
