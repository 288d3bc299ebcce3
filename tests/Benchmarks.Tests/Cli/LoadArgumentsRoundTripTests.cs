using Benchmarks.Host.Cli;
using Benchmarks.Host.Commands;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Load.Http;

namespace Benchmarks.Tests.Cli;

/// <summary>
/// A run hands its HTTP load to a child <c>benchmarks load</c> as arguments: every setting written
/// must read back as the value the run resolved, or the child measures another load than the run
/// stores. Checked on the real command's parser, over seeded random settings.
/// </summary>
public sealed class LoadArgumentsRoundTripTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_http_load_setting_a_run_writes_for_its_load_child_reads_back_as_the_same_value()
    {
        var random = new Random(20261129);
        var (command, read) = LoadCommand.Build(new CliConsole(TextWriter.Null, TextWriter.Null));
        for (var i = 0; i < 200; i++)
        {
            var sent = ValidOptions(random);
            var start = new HttpLoadJob().Main(new LoadLaunch("plaintext", sent), Path.GetTempPath());
            // The host's own program (its apphost, or dotnet and its assembly), then the command.
            var load = start.Arguments.ToList().IndexOf("load");
            Assert.True(load >= 0, start.CommandLine);

            // The scenario names the check the child applies to every response: not a setting, and its plugins are not here.
            var arguments = start.Arguments.Skip(load + 1).ToList();
            var scenario = arguments.IndexOf("--scenario");
            arguments.RemoveRange(scenario, 2);
            var parsed = command.Parse(arguments);
            Assert.True(parsed.Errors.Count == 0, string.Join("; ", parsed.Errors.Select(e => e.Message)) + " in " + string.Join(' ', arguments));
            var got = read(parsed);

            var because = string.Join(' ', arguments);
            Assert.True(sent.Url == got.Url, because);
            Assert.True((sent.Connections, sent.Threads, sent.PipelineDepth, sent.Http2) == (got.Connections, got.Threads, got.PipelineDepth, got.Http2),
                because);
            Assert.True((sent.Duration, sent.Warmup, sent.WarmupMax, sent.Timeout) == (got.Duration, got.Warmup, got.WarmupMax, got.Timeout), because);
            Assert.True((sent.KeepAlive, sent.TlsResume, sent.Rate, sent.Engine) == (got.KeepAlive, got.TlsResume, got.Rate, got.Engine), because);
            Assert.Equal(sent.Headers, got.Headers);
            Assert.Equal(sent.Grpc, got.Grpc);
            Assert.Equal(sent.Threads.ToString(System.Globalization.CultureInfo.InvariantCulture),
                start.Environment![Benchmarks.Servers.SocketEngineSwitches.ThreadCount]);

            // Whatever the declarations hold, the child's options write and store as the run's did.
            foreach (var parameter in LoadParameters.All)
            {
                Assert.True(parameter.Arguments(sent).SequenceEqual(parameter.Arguments(got)), $"{parameter.Flag}: {because}");
                Assert.True(parameter.Parameter(sent) == parameter.Parameter(got), $"{parameter.Flag}: {because}");
            }
        }
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_declared_load_setting_is_an_option_of_run_and_load_listed_under_its_heading_and_sweeps_on_its_axis()
    {
        var cli = BenchmarksCli.Create(new CliConsole(TextWriter.Null, TextWriter.Null));
        foreach (var name in (string[])["run", "load"])
        {
            var command = cli.Subcommands.Single(c => c.Name == name);
            var groups = HelpGroups.Of(command) ?? throw new InvalidOperationException($"{name} declares no help headings");
            foreach (var parameter in LoadParameters.All)
            {
                var option = command.Options.SingleOrDefault(o => o.Name == parameter.Flag);
                Assert.True(option is not null, $"{name} has no {parameter.Flag}");
                Assert.Equal(parameter.Aliases.Order(StringComparer.Ordinal), option.Aliases.Order(StringComparer.Ordinal));
                Assert.Contains(groups, g => g.Title == parameter.HelpGroup && g.Names.Contains(parameter.Flag));
            }
        }

        foreach (var parameter in LoadParameters.All)
        {
            var plan = Benchmarks.Host.Sweeps.SweepPlan.TryCreate(["run", "plaintext", parameter.Flag, "1,2"]);
            Assert.Equal(parameter.SweepAxis, plan?.Axes.Single().Name);
        }
    }

    /// <summary>Settings as a run resolves them: each within its range and together valid (a run validates before it starts).</summary>
    private static HttpLoadOptions ValidOptions(Random random)
    {
        while (true)
        {
            var options = RandomOptions(random);
            try
            {
                options.Validate();
                return options;
            }
            catch (ArgumentException)
            {
            }
        }
    }

    /// <summary>Each setting within its range, in the units the command line speaks.</summary>
    private static HttpLoadOptions RandomOptions(Random random)
    {
        var http2 = random.Next(3) == 0;
        var tls = random.Next(2) == 0;
        return new HttpLoadOptions
        {
            Url = new Uri($"{(tls ? "https" : "http")}://127.0.0.1:{random.Next(1024, 65536)}/{(random.Next(2) == 0 ? "plaintext" : "json")}"),
            Http2 = http2,
            Connections = random.Next(1, 5_000),
            Threads = random.Next(1, 64),
            PipelineDepth = random.Next(1, 256),
            Duration = TimeSpan.FromSeconds(random.Next(1, 600)),
            Warmup = TimeSpan.FromMilliseconds(random.Next(0, 60) * 500),
            WarmupMax = random.Next(2) == 0 ? null : TimeSpan.FromSeconds(random.Next(61, 120)),
            Timeout = TimeSpan.FromMilliseconds(random.Next(1, 20) * 250),
            KeepAlive = random.Next(4) != 0,
            TlsResume = random.Next(4) != 0,
            Rate = random.Next(2) == 0 ? null : random.Next(1, 2_000) * 500,
            Headers = [.. Enumerable.Range(0, random.Next(3)).Select(h => new KeyValuePair<string, string>($"X-Test-{h}", $"value {random.Next()}"))],
            Engine = (HttpLoadEngine)random.Next(4),
            Grpc = http2 && random.Next(2) == 0 ? RandomCall(random) : null,
        };
    }

    /// <summary>A call of any kind; a client stream of 1 to 100 messages.</summary>
    private static Benchmarks.Load.Protocols.Grpc.GrpcCall RandomCall(Random random)
    {
        var kind = (Benchmarks.Scenarios.GrpcCallKind)random.Next(4);
        return new Benchmarks.Load.Protocols.Grpc.GrpcCall([.. Enumerable.Range(0, random.Next(0, 64)).Select(_ => (byte)random.Next(256))])
        {
            Kind = kind,
            Messages = kind == Benchmarks.Scenarios.GrpcCallKind.ClientStreaming ? random.Next(1, 101) : 1,
        };
    }
}
