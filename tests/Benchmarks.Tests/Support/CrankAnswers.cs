using System.IO.Compression;
using System.Text.Json.Nodes;

namespace Benchmarks.Tests.Support;

/// <summary>
/// What crank's controller (JobConnection, Program) requires of an agent's answers, one method per
/// kind of answer; each returns what crank would misread or reject, empty when the answer is fine.
/// </summary>
internal static class CrankAnswers
{
    public static readonly string[] JobStates = ["New", "Initializing", "Waiting", "Starting", "Running", "Failed", "Stopping", "Stopped", "TraceCollecting",
        "TraceCollected", "Deleting", "Deleted", "NotSupported"];
    private static readonly string[] ActiveStates = ["New", "Initializing", "Waiting", "Starting", "Running"];
    private static readonly string[] HardwareKinds = ["Unknown", "Cloud", "Physical", "ARM64", "AMD64"];
    private static readonly string[] Operations = ["First", "Last", "Avg", "Sum", "Median", "Max", "Min", "Count", "All", "Delta"];

    /// <summary><c>GET /jobs</c>: a JSON array; crank's agent lists only active jobs, with id, runId and state.</summary>
    public static IEnumerable<string> JobList(JsonNode? answer)
    {
        if (answer is not JsonArray list)
        {
            yield return "crank reads a JSON array";
            yield break;
        }

        foreach (var item in list.OfType<JsonObject>().Where(i => i["id"] is null || i["runId"] is null || !ActiveStates.Contains((string?)i["state"])))
        {
            yield return $"crank's agent lists only active jobs with id, runId and state: {item.ToJsonString()}";
        }
    }

    /// <summary><c>GET /jobs/{id}</c>: the job crank deserializes and then acts on.</summary>
    public static IEnumerable<string> Job(JsonObject job, bool expectInitializing)
    {
        if ((int?)job["serverVersion"] is not >= 4)
        {
            yield return "serverVersion must be 4 or more";
        }

        if ((string?)job["operatingSystem"] is not ("Linux" or "Windows" or "OSX"))
        {
            yield return $"operatingSystem '{job["operatingSystem"]}' is not one of crank's OperatingSystem names";
        }

        if (job["hardware"] is { } hardware && !HardwareKinds.Contains((string?)hardware))
        {
            yield return $"hardware '{hardware}' is not one of crank's Hardware names (Newtonsoft would throw)";
        }

        if (!JobStates.Contains((string?)job["state"]))
        {
            yield return $"state '{job["state"]}' is not a JobState";
        }

        if (expectInitializing && (string?)job["state"] != "Initializing")
        {
            yield return $"crank uploads only once the job it reads is Initializing, not {job["state"]}";
        }

        if (job["measurements"]?.AsArray().OfType<JsonObject>().FirstOrDefault(m => m["name"] is null || m["timestamp"] is null) is { } measurement)
        {
            yield return $"a measurement without a name or timestamp: {measurement.ToJsonString()}";
        }

        if (job["metadata"]?.AsArray().OfType<JsonObject>().FirstOrDefault(m => !Operations.Contains((string?)m["aggregate"])
            || !Operations.Contains((string?)m["reduce"])) is { } metadata)
        {
            yield return $"metadata whose aggregate or reduce is not one of crank's Operation names: {metadata.ToJsonString()}";
        }
    }

    /// <summary><c>GET /info</c>: crank reads os and arch and stores the whole object as its results' environment.</summary>
    public static IEnumerable<string> Info(JsonObject info, JsonObject? lastJob)
    {
        if (info["os"] is null || info["arch"] is null)
        {
            yield return "crank reads os and arch";
        }

        // The environment must describe the machine as the jobs do.
        if (lastJob is not null && ((string?)lastJob["hardware"] != (string?)info["hw"] || (string?)lastJob["hardwareVersion"] != (string?)info["env"]))
        {
            yield return $"hw/env ({info["hw"]}, {info["env"]}) differ from the jobs' hardware/hardwareVersion ({lastJob["hardware"]}, " +
                $"{lastJob["hardwareVersion"]})";
        }
    }

    /// <summary><c>GET /fetch</c>: a zip crank saves and unpacks.</summary>
    public static IEnumerable<string> Zip(byte[] body)
    {
        string? problem = null;
        try
        {
            using var zip = new ZipArchive(new MemoryStream(body), ZipArchiveMode.Read);
            problem = zip.Entries.Count == 0 ? "the zip is empty" : null;
        }
        catch (InvalidDataException ex)
        {
            problem = $"not a zip: {ex.Message}";
        }

        return problem is null ? [] : [problem];
    }
}
