using System.Globalization;
using System.IO.Compression;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;

namespace Benchmarks.Tests.Support;

/// <summary>The requests of a crank transcript rebuilt for this machine: jobs pointed here, uploads rebuilt from what the recording logged.</summary>
internal static class TranscriptRequests
{
    /// <summary>This repository's sources as crank zips a localFolder (.gitignore honoured), made once.</summary>
    public static readonly Lazy<byte[]> Sources = new(() => AgentClient.ZipRepository(TestPaths.RepoRoot));

    /// <summary>
    /// The job crank posted, pointed at this machine: this repository, this agent, a free server
    /// port. A replay checks the protocol, not the figures, so a recorded 3-second window after a
    /// second of warm-up becomes 1 second with none: the load's figures are still there to read.
    /// wrk keeps its second of warm-up: it starts on a server that has not answered a request yet,
    /// and a cold Kestrel beside the parallel tests' builds answered none of 256 connections within
    /// a second (the job then fails: wrk reported 0 requests).
    /// </summary>
    public static JsonObject Substitute(JsonObject job, Uri agent, int serverPort)
    {
        ArgumentNullException.ThrowIfNull(job);
        var port = serverPort.ToString(CultureInfo.InvariantCulture);
        var window = job.ToJsonString().Contains("--engine wrk", StringComparison.Ordinal) ? "--duration 1s --warmup 1s" : "--duration 1s --warmup 0s";
        var text = job.ToJsonString()
            .Replace("<repo>", TestPaths.RepoRoot.TrimEnd('/'), StringComparison.Ordinal)
            .Replace("127.0.0.1:5000", "127.0.0.1:" + port, StringComparison.Ordinal)
            .Replace("http://127.0.0.1:5010", agent.ToString().TrimEnd('/'), StringComparison.Ordinal)
            .Replace("http://127.0.0.1:5012", agent.ToString().TrimEnd('/'), StringComparison.Ordinal)
            .Replace("--duration 3s --warmup 1s", window, StringComparison.Ordinal);
        var edited = JsonNode.Parse(text)!.AsObject();
        edited["Port"] = serverPort;
        if (edited["Variables"] is JsonObject variables && variables.ContainsKey("serverPort"))
        {
            variables["serverPort"] = serverPort;
        }

        return edited;
    }

    public static StreamContent BuildFile(JsonObject call)
    {
        var text = (string?)call["requestBody"]?["text"] ?? "";
        using var compressed = new MemoryStream();
        using (var gzip = new GZipStream(compressed, CompressionLevel.Fastest, leaveOpen: true))
        {
            gzip.Write(Encoding.UTF8.GetBytes(text));
        }

        // Sent as crank sends it: gzip, chunked (no Content-Length).
        var content = new StreamContent(new MemoryStream(compressed.ToArray()));
        content.Headers.ContentEncoding.Add("gzip");
        return content;
    }

    public static byte[] Attachment(JsonObject call)
    {
        var names = call["requestBody"]?["zipEntriesSample"]?.AsArray().Select(n => (string)n!).ToList() ?? ["attachment.txt"];
        using var buffer = new MemoryStream();
        using (var zip = new ZipArchive(buffer, ZipArchiveMode.Create, leaveOpen: true))
        {
            foreach (var name in names)
            {
                using var entry = new StreamWriter(zip.CreateEntry(name).Open());
                entry.Write("an output file uploaded by crank (replay)\n");
            }
        }

        return buffer.ToArray();
    }

    public static void CopyHeaders(JsonObject call, HttpRequestMessage request, params string[] names)
    {
        foreach (var name in names)
        {
            if (call["requestHeaders"]?[name] is { } value)
            {
                request.Headers.TryAddWithoutValidation(name, (string)value!);
            }
        }

        request.Content!.Headers.ContentType ??= new MediaTypeHeaderValue("application/octet-stream");
    }

    public static int RecordedLocation(JsonObject call) =>
        int.Parse(((string)call["responseHeaders"]!["Location"]!)["/jobs/".Length..], CultureInfo.InvariantCulture);
}
