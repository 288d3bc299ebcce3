using Benchmarks.Host.Cli;
using Benchmarks.Host.Crank;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Host.Platform;
using Benchmarks.Host.Runs;
using Benchmarks.Load.Core;
using Benchmarks.Load.Http;

namespace Benchmarks.Tests.Cli;

public sealed class CliParsingTests
{
    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("15s", 15_000)]
    [InlineData("500ms", 500)]
    [InlineData("1m", 60_000)]
    [InlineData("2h", 7_200_000)]
    [InlineData("10", 10_000)]
    [InlineData("1.5s", 1_500)]
    [InlineData(" 3s ", 3_000)]
    public void Durations_parse_like_wrk(string text, double milliseconds)
    {
        Assert.True(DurationParser.TryParse(text, out var duration));
        Assert.Equal(milliseconds, duration.TotalMilliseconds, 6);
    }

    [Trait("Tier", "Fast")]
    [Theory]
    [InlineData("")]
    [InlineData("s")]
    [InlineData("15x")]
    [InlineData("-1s")]
    [InlineData("1e9999s")]
    [InlineData("ten")]
    public void Malformed_durations_are_rejected(string text)
    {
        Assert.False(DurationParser.TryParse(text, out _));
        var error = Assert.Throws<FormatException>(() => DurationParser.Parse(text));
        Assert.Contains("15s", error.Message, StringComparison.Ordinal);
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Durations_format_back_to_what_parses()
    {
        foreach (var text in new[] { "15s", "500ms", "60s" })
        {
            var duration = DurationParser.Parse(text);
            Assert.Equal(duration, DurationParser.Parse(DurationParser.Format(duration)));
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Cpu_lists_parse_ranges_and_singles()
    {
        Assert.Equal([0], CpuSet.Parse("0"));
        if (Environment.ProcessorCount >= 2)
        {
            Assert.Equal([0, 1], CpuSet.Parse("0-1"));
            Assert.Equal([0, 1], CpuSet.Parse("1,0"));
        }

        Assert.Throws<FormatException>(() => CpuSet.Parse("999"));
        Assert.Throws<FormatException>(() => CpuSet.Parse("a"));
        Assert.Equal((nint)0b101, CpuSet.ToMask([0, 2]));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Load_progress_lines_round_trip()
    {
        foreach (var progress in new[]
        {
            new LoadProgress(LoadPhase.Warmup, 2, 0, 0),
            new LoadProgress(LoadPhase.WindowStarted, 0, 0, 0),
            new LoadProgress(LoadPhase.Window, 7, 123456.5, 3),
            new LoadProgress(LoadPhase.WindowEnded, 0, 0, 0),
        })
        {
            Assert.Equal(progress, LoadProtocol.Parse(LoadProtocol.Format(progress)));
        }

        Assert.Null(LoadProtocol.Parse("Requests/sec: 12"));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void The_crank_statistics_block_carries_metadata_and_measurements_as_json()
    {
        var block = CrankStatistics.Format(new Dictionary<string, double> { ["http/rps/mean"] = 1234.5, ["http/requests"] = 99 }, DateTimeOffset.UnixEpoch);
        var lines = block.Split('\n').Select(l => l.TrimEnd('\r')).ToArray();
        Assert.Equal("#StartJobStatistics", lines[0]);
        Assert.Equal("#EndJobStatistics", lines[^1]);
        using var json = System.Text.Json.JsonDocument.Parse(string.Join('\n', lines[1..^1]));
        var metadata = json.RootElement.GetProperty("metadata").EnumerateArray().ToList();
        var measurements = json.RootElement.GetProperty("measurements").EnumerateArray().ToList();
        Assert.Equal(2, metadata.Count);
        Assert.Contains(metadata,
            m =>
                m.GetProperty("name").GetString() == "http/rps/mean"
                    && m.GetProperty("aggregate").GetString() == "Max"
                    && m.GetProperty("reduce").GetString() == "Sum");
        Assert.Contains(measurements, m => m.GetProperty("name").GetString() == "http/requests" && m.GetProperty("value").GetDouble() == 99);
    }
}
