namespace Benchmarks.Host.Documents;

/// <summary>Where a run happened, so that runs from different machines are not compared blindly.</summary>
public sealed class RunEnvironment
{
    public string Os { get; set; } = "";

    public string OsVersion { get; set; } = "";

    public string Architecture { get; set; } = "";

    public int Cores { get; set; }

    public string MachineName { get; set; } = "";

    public string Runtime { get; set; } = "";

    public string? Sdk { get; set; }

    public string? GitCommit { get; set; }

    public string ToolVersion { get; set; } = "";
}
