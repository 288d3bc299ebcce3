using System.Globalization;
using System.Security.Cryptography;
using System.Text.Json;
using System.Text.RegularExpressions;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Verdicts;
using Benchmarks.Host.Documents;
using Benchmarks.Host.LoadJobs;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Host.Store;

/// <summary>
/// Turns crank's <c>--json</c> output into a run document, keeping every result. The job named
/// <c>application</c> (else the first) is the server: its results keep their names; another job's
/// result keeps its name too unless that name is taken, then it becomes <c>job/name</c> (crank's load
/// and application both report <c>benchmarks/cpu</c>). Numeric measurements become per-second samples.
/// The run id is a hash of the file, so importing the same file twice stores it once.
/// </summary>
internal static partial class CrankResultImporter
{
    private static readonly string[] s_shapeVariables = ["connections", "pipeline", "proxy"];

    public static RunDocument Import(string path, IReadOnlyList<string> labels)
    {
        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new InvalidDataException($"{path}: {ex.Message}", ex);
        }

        JsonDocument json;
        try
        {
            json = JsonDocument.Parse(bytes, new JsonDocumentOptions { AllowTrailingCommas = true, CommentHandling = JsonCommentHandling.Skip });
        }
        catch (JsonException ex)
        {
            throw new InvalidDataException($"{path}: not JSON ({ex.Message})", ex);
        }

        using (json)
        {
            var root = json.RootElement;
            if (root.ValueKind != JsonValueKind.Object || Property(root, "jobResults") is not { ValueKind: JsonValueKind.Object } jobResults
                || Property(jobResults, "jobs") is not { ValueKind: JsonValueKind.Object } jobs)
            {
                throw new InvalidDataException($"{path}: not a crank --json file (no jobResults.jobs)");
            }

            var jobList = jobs.EnumerateObject().ToList();
            if (jobList.Count == 0)
            {
                throw new InvalidDataException($"{path}: crank's file holds no job");
            }

            var primary = jobList.FirstOrDefault(j => j.Name.Equals("application", StringComparison.OrdinalIgnoreCase));
            if (primary.Value.ValueKind == JsonValueKind.Undefined)
            {
                primary = jobList[0];
            }

            var properties = Property(jobResults, "properties") is { ValueKind: JsonValueKind.Object } p
                ? p.EnumerateObject().ToDictionary(x => x.Name, x => x.Value.ToString(), StringComparer.OrdinalIgnoreCase)
                : new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
            var returnCode = Property(root, "returnCode") is { ValueKind: JsonValueKind.Number } rc ? rc.GetInt32() : 0;
            var document = new RunDocument
            {
                Id = Convert.ToHexStringLower(SHA256.HashData(bytes))[..32],
                Scenario = properties.GetValueOrDefault("scenario")
                    ?? Variable(primary.Value, "scenario")
                    ?? ScenarioFromCommandLine(properties.GetValueOrDefault("command-line"))
                    ?? "crank",
                Server = properties.GetValueOrDefault("server") ?? Variable(primary.Value, "serverModel") ?? primary.Name,
                Load = "crank",
                Labels = [.. labels.Append("crank").Distinct(StringComparer.Ordinal)],
                Status = returnCode == 0 ? RunStatus.Succeeded : RunStatus.Failed,
                Error = returnCode == 0 ? null : $"crank returned {returnCode}",
            };
            foreach (var (key, value) in properties)
            {
                document.Parameters[$"crank/property/{key}"] = value;
            }

            // The load's shape under the names a local run stores it by, so a sweep driven by crank
            // (one crank call per cell, imported with one label) has the same axes as a local sweep.
            foreach (var name in s_shapeVariables)
            {
                if ((properties.GetValueOrDefault(name) ?? jobList.Select(j => Scalar(j.Value, name)).FirstOrDefault(v => v is not null)) is { } shape)
                {
                    document.Parameters[name] = shape;
                }
            }

            var owners = new Dictionary<string, string>(StringComparer.Ordinal);
            var timestamps = new List<(DateTimeOffset At, string Name, double Value)>();
            foreach (var job in new[] { primary }.Concat(jobList.Where(j => j.Name != primary.Name)))
            {
                ImportJob(document, job, job.Name == primary.Name, owners, timestamps);
            }

            document.StartedAt = timestamps.Count > 0 ? timestamps.Min(t => t.At) : new DateTimeOffset(File.GetLastWriteTimeUtc(path), TimeSpan.Zero);
            document.DurationSeconds = timestamps.Count > 0 ? (timestamps.Max(t => t.At) - document.StartedAt).TotalSeconds : 0;
            foreach (var second in timestamps.GroupBy(t => Math.Floor((t.At - document.StartedAt).TotalSeconds)).OrderBy(g => g.Key))
            {
                var sample = new RunSample { Time = second.Key };
                foreach (var value in second)
                {
                    sample.Values[value.Name] = value.Value;
                }

                document.Samples.Add(sample);
            }

            return document;
        }
    }

    private static void ImportJob(RunDocument document, JsonProperty job, bool primary, Dictionary<string, string> owners,
        List<(DateTimeOffset, string, double)> timestamps)
    {
        string NameFor(string name)
        {
            if (owners.TryGetValue(name, out var owner) && owner != job.Name)
            {
                return $"{job.Name}/{name}";
            }

            owners[name] = job.Name;
            return name;
        }

        var descriptions = new Dictionary<string, (string Description, string Format)>(StringComparer.Ordinal);
        if (Property(job.Value, "metadata") is { ValueKind: JsonValueKind.Array } metadata)
        {
            foreach (var item in metadata.EnumerateArray())
            {
                if (Property(item, "name") is { ValueKind: JsonValueKind.String } name)
                {
                    descriptions[name.GetString()!] = (Property(item, "description")?.ToString() ?? "", Property(item, "format")?.ToString() ?? "");
                }
            }
        }

        var renamed = new Dictionary<string, string>(StringComparer.Ordinal);
        if (Property(job.Value, "results") is { ValueKind: JsonValueKind.Object } results)
        {
            foreach (var result in results.EnumerateObject())
            {
                var name = NameFor(result.Name);
                renamed[result.Name] = name;
                if (result.Value.ValueKind == JsonValueKind.Number)
                {
                    document.Measurements[name] = result.Value.GetDouble();
                    var (description, format) = descriptions.GetValueOrDefault(result.Name, (result.Name, ""));
                    // crank's file keeps a description and a display format, not how values were aggregated:
                    // the catalog says it for this tool's own names, else it is left unstated.
                    document.Metadata[name] = MeasurementCatalog.Find(result.Name)?.Info ?? new MeasurementInfo
                    {
                        Description = description,
                        Unit = UnitOf(result.Name, description),
                        HigherIsBetter = MeasurementDirection.Infer(result.Name),
                        Format = format.Length > 0 ? format : null,
                    };
                }
                else if (primary && result.Name == JobVerdict.Bound && result.Value.ValueKind == JsonValueKind.String)
                {
                    // The server box's verdict its agent judged (the load's figures were not there): the run's bound: line.
                    document.Bottleneck = result.Value.GetString();
                }
                else if (primary && result.Name == JobVerdict.Causes)
                {
                    document.Causes = RunDocumentJson.DeserializeCauses(result.Value);
                }
                else if (primary && result.Name is JobVerdict.Kinds or JobVerdict.Brief)
                {
                    // Said again by the causes.
                }
                else if (primary
                    && result.Value.ValueKind == JsonValueKind.String
                    && result.Name.StartsWith(RuntimeReportMeasures.Prefix, StringComparison.Ordinal))
                {
                    // What the server's runtime said it ran with: the environment's serverRuntime, as a local run stores it.
                    document.Environment.ServerRuntime ??= new SortedDictionary<string, string>(StringComparer.Ordinal);
                    document.Environment.ServerRuntime[result.Name[RuntimeReportMeasures.Prefix.Length..]] = result.Value.GetString()!;
                }
                else
                {
                    // Text, arrays and objects are kept verbatim as parameters.
                    document.Parameters[$"crank/{job.Name}/{result.Name}"] = result.Value.GetRawText();
                }
            }
        }

        if (Property(job.Value, "measurements") is { ValueKind: JsonValueKind.Array } endpoints)
        {
            MergeLatency(document, job.Name, endpoints, NameFor);
            Together(document, job.Name, endpoints);
            foreach (var endpoint in endpoints.EnumerateArray().Where(e => e.ValueKind == JsonValueKind.Array))
            {
                foreach (var m in endpoint.EnumerateArray())
                {
                    if (Property(m, "name") is { ValueKind: JsonValueKind.String } n && Property(m, "value") is { ValueKind: JsonValueKind.Number } v
                        && Timestamp(m) is { } at)
                    {
                        var name = renamed.GetValueOrDefault(n.GetString()!) ?? NameFor(n.GetString()!);
                        timestamps.Add((at, name, v.GetDouble()));
                    }
                }
            }
        }

        if (Property(job.Value, "environment") is { ValueKind: JsonValueKind.Object } box && Box(box) is { } named)
        {
            document.Parameters[$"crank/{job.Name}/box"] = named;
        }

        if (primary && Property(job.Value, "environment") is { ValueKind: JsonValueKind.Object } environment)
        {
            document.Environment.Os = Property(environment, "os")?.ToString() ?? "";
            document.Environment.Architecture = Property(environment, "arch")?.ToString() ?? "";
            // The machine's CPUs (what its "% of the machine" divides by) where the agent says them, else the CPUs it may use.
            document.Environment.Cores = Property(environment, "machineCpus") is { ValueKind: JsonValueKind.Number } all ? all.GetInt32()
                : Property(environment, "proc") is { ValueKind: JsonValueKind.Number } proc ? proc.GetInt32() : 0;
            document.Environment.Network = Network(environment);

            document.Environment.MachineName = Property(environment, "machineName") is { ValueKind: JsonValueKind.String } host
                ? host.GetString()!
                : Property(environment, "hw")?.ToString() ?? "";
            document.Environment.ToolVersion = "crank " + (Property(environment, "version")?.ToString() ?? "");
        }

        // collectDependencies: the application's frameworks and packages, by name, as a local run records its own.
        if (primary && Property(job.Value, "dependencies") is { ValueKind: JsonValueKind.Array } dependencies && dependencies.GetArrayLength() > 0)
        {
            document.Environment.Dependencies = new(StringComparer.Ordinal);
            foreach (var dependency in dependencies.EnumerateArray().Where(d => d.ValueKind == JsonValueKind.Object))
            {
                var name = Property(dependency, "id")?.ToString() is { Length: > 0 } id
                    ? id
                    : Property(dependency, "names") is { ValueKind: JsonValueKind.Array } names && names.GetArrayLength() > 0 ? names[0].ToString() : null;
                if (name is not null && Property(dependency, "version")?.ToString() is { Length: > 0 } version)
                {
                    var commit = Property(dependency, "commitHash")?.ToString() ?? "";
                    document.Environment.Dependencies[name] = version + (commit.Length > 0 ? "+" + commit[..Math.Min(9, commit.Length)] : "");
                }
            }
        }
    }

    /// <summary>
    /// The box a job ran on, from what its agent's <c>/info</c> said (crank stores it as the job's
    /// <c>environment</c>): "10.77.0.11:5010 (host), CPUs 0 of 2, eth0 at 200 Mbit/s (qdisc)"; null
    /// for an agent that does not say (crank's own).
    /// </summary>
    private static string? Box(JsonElement environment)
    {
        if (Property(environment, "address") is not { ValueKind: JsonValueKind.String } address)
        {
            return null;
        }

        var c = CultureInfo.InvariantCulture;
        var parts = new List<string> { $"{address.GetString()} ({Property(environment, "machineName")?.ToString() ?? "?"})" };
        if (Property(environment, "cpus") is { ValueKind: JsonValueKind.String } cpus)
        {
            var of = Property(environment, "machineCpus") is { ValueKind: JsonValueKind.Number } all ? string.Create(c, $" of {all.GetInt32()}") : "";
            parts.Add($"CPUs {cpus.GetString()}{of}");
        }

        if (Network(environment) is { } network)
        {
            parts.Add(network.Loopback ? $"{network.Interface} (loopback)"
                : network.LinkSpeed is { } speed ? string.Create(c, $"{network.Interface} at {speed:0.##} Mbit/s ({network.LinkSpeedSource ?? "?"})")
                : $"{network.Interface}, speed unknown");
        }

        return string.Join(", ", parts);
    }

    /// <summary>When a measurement of crank's file was taken; null when it says no time it can be read as.</summary>
    private static DateTimeOffset? Timestamp(JsonElement measurement) =>
        Property(measurement, "timestamp") is { ValueKind: JsonValueKind.String } t
            && DateTimeOffset.TryParse(t.GetString(), CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at) ? at : null;

    /// <summary>The interface the agent's box is on, as its <c>/info</c> wrote it (a run document's network); null when it did not.</summary>
    private static RunNetwork? Network(JsonElement environment) =>
        Property(environment, "network") is { } network ? RunDocumentJson.DeserializeNetwork(network) : null;

    /// <summary>
    /// Whether a job's instances (crank's <c>--load.endpoints</c>) ran at the same time, from the
    /// timestamps of each one's samples: crank starts them together, but each agent builds first and
    /// an agent that builds longer starts its load later, after the others may have ended. Their sum
    /// (crank's reduce of a rate) is a rate the server served only when they overlapped; a
    /// parameter says how long they all ran at once against the shortest instance's time.
    /// </summary>
    private static void Together(RunDocument document, string job, JsonElement endpoints)
    {
        var spans = endpoints.EnumerateArray().Where(e => e.ValueKind == JsonValueKind.Array)
            .Select(i => i.EnumerateArray()
                .Select(Timestamp)
                .OfType<DateTimeOffset>()
                .ToList())
            .Where(times => times.Count >= 2)
            .Select(times => (From: times.Min(), To: times.Max()))
            .ToList();
        if (spans.Count < 2)
        {
            return;
        }

        var together = Math.Max(0, (spans.Min(s => s.To) - spans.Max(s => s.From)).TotalSeconds);
        var shortest = spans.Min(s => (s.To - s.From).TotalSeconds);
        var c = CultureInfo.InvariantCulture;
        document.Parameters[$"crank/{job}/instances/together"] = together >= TogetherShare * shortest
            ? string.Create(c, $"{together:0} s of the shortest instance's {shortest:0} s: the {spans.Count} instances ran at once")
            : string.Create(c,
                $"{together:0} s of the shortest instance's {shortest:0} s: the {spans.Count} instances did not run at once (an agent that built longer " +
                $"started later), so crank's sum of their rates is not a rate the server served");
    }

    /// <summary>The share of the shortest instance's time the instances must have run together for their sum to be said to be one rate.</summary>
    private const double TogetherShare = 0.9;

    /// <summary>
    /// A job run on several load machines (crank's <c>--load.endpoints</c>, one measurement list per
    /// instance): each instance's latency histogram (<see cref="LatencyMeasures.Histogram"/>, the last it
    /// printed) decoded and added into one, whose percentiles are written under the merged family
    /// (<c>http/latency/merged/99</c>) — those of every request of every instance, beside crank's reduce
    /// of the instances' own. Nothing for one instance (its own figures are the merged ones), nor for
    /// a family whose histogram an instance lacks (a merge of some would be none of them); an
    /// instance's histogram that does not decode is a parameter saying so.
    /// </summary>
    private static void MergeLatency(RunDocument document, string job, JsonElement endpoints, Func<string, string> nameFor)
    {
        var instances = endpoints.EnumerateArray().Where(e => e.ValueKind == JsonValueKind.Array).ToList();
        if (instances.Count < 2)
        {
            return;
        }

        foreach (var (family, merged) in LatencyMeasures.Mergeable)
        {
            var texts = instances
                .Select(i => i.EnumerateArray().LastOrDefault(m => Property(m, "name") is { ValueKind: JsonValueKind.String } n
                    && n.GetString() == family.Histogram
                    && Property(m, "value") is { ValueKind: JsonValueKind.String }))
                .Select(m => m.ValueKind == JsonValueKind.Object ? Property(m, "value")!.Value.GetString() : null)
                .ToList();
            if (texts.Any(t => t is null))
            {
                continue;
            }

            var all = new LatencyHistogram();
            try
            {
                foreach (var text in texts)
                {
                    all.Add(LatencyDistribution.Decode(text!));
                }
            }
            catch (FormatException ex)
            {
                document.Parameters[$"crank/{job}/{family.Histogram}"] = $"not merged: {ex.Message}";
                continue;
            }

            var values = new Dictionary<string, double>(StringComparer.Ordinal);
            merged.Add(values, LatencySummary.From(all));
            foreach (var (name, value) in values)
            {
                var stored = nameFor(name);
                document.Measurements[stored] = value;
                document.Metadata[stored] = MeasurementCatalog.Describe(name);
            }

            document.Parameters[$"crank/{job}/{merged.Prefix}/instances"] = texts.Count.ToString(CultureInfo.InvariantCulture);
        }
    }

    private static string UnitOf(string name, string description)
    {
        var unit = UnitPattern().Match(description);
        if (unit.Success)
        {
            return unit.Groups[1].Value;
        }

        return name.Contains("rps", StringComparison.OrdinalIgnoreCase) ? "req/s" : name.Contains("latency", StringComparison.OrdinalIgnoreCase) ? "ms" : "";
    }

    /// <summary>A job's crank variable that is a number or text, as text (<c>connections</c> = 256).</summary>
    private static string? Scalar(JsonElement job, string name) =>
        Property(job, "variables") is { ValueKind: JsonValueKind.Object } variables && Property(variables, name) is { } value
            ? value.ValueKind switch
            {
                JsonValueKind.Number => value.GetRawText(),
                JsonValueKind.String when value.GetString() is { Length: > 0 } text => text,
                _ => null,
            }
            : null;

    /// <summary>A job's crank variable (<c>scenario</c>, <c>serverModel</c>), as the job ran it.</summary>
    private static string? Variable(JsonElement job, string name) =>
        Property(job, "variables") is { ValueKind: JsonValueKind.Object } variables && Property(variables, name) is { ValueKind: JsonValueKind.String } value
            && value.GetString() is { Length: > 0 } text
            ? text
            : null;

    private static string? ScenarioFromCommandLine(string? commandLine)
    {
        var match = commandLine is null ? null : ScenarioPattern().Match(commandLine);
        return match is { Success: true } ? match.Groups[1].Value : null;
    }

    private static JsonElement? Property(JsonElement element, string name)
    {
        if (element.ValueKind != JsonValueKind.Object)
        {
            return null;
        }

        foreach (var property in element.EnumerateObject())
        {
            if (property.Name.Equals(name, StringComparison.OrdinalIgnoreCase))
            {
                return property.Value;
            }
        }

        return null;
    }

    [GeneratedRegex(@"\(([^()]+)\)\s*$")]
    private static partial Regex UnitPattern();

    [GeneratedRegex(@"--scenario[=\s]+""?([^\s""]+)")]
    private static partial Regex ScenarioPattern();
}
