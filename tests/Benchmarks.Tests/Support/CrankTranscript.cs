using System.Text.Json.Nodes;

namespace Benchmarks.Tests.Support;

/// <summary>
/// One recording of the real crank controller talking to an agent (tests/Fixtures/crank-transcripts):
/// a header line, then one JSON line per HTTP exchange, in the order crank sent them.
/// </summary>
internal sealed class CrankTranscript
{
    private CrankTranscript(string name, JsonObject header, IReadOnlyList<JsonObject> exchanges)
    {
        Name = name;
        Header = header;
        Exchanges = exchanges;
    }

    public string Name { get; }

    public JsonObject Header { get; }

    public IReadOnlyList<JsonObject> Exchanges { get; }

    /// <summary>The crank command line that was recorded.</summary>
    public string Command => (string?)Header["command"] ?? "";

    public static CrankTranscript Load(string name)
    {
        var path = System.IO.Path.Combine(TestPaths.CrankTranscripts, name + ".jsonl");
        if (!File.Exists(path))
        {
            throw new FileNotFoundException($"the crank transcript {path} is missing: restore tests/Fixtures/crank-transcripts (eng/refresh-transcripts.sh)",
                path);
        }

        var lines = File.ReadAllLines(path).Where(l => l.Length > 0).Select(l => JsonNode.Parse(l)!.AsObject()).ToList();
        return new CrankTranscript(name, lines[0], lines.Skip(1).OrderBy(e => (int)e["seq"]!).ToList());
    }

    /// <summary>The job documents the controller posted (<c>POST /jobs</c>), in order: the application's, then the load's.</summary>
    public IEnumerable<JsonObject> PostedJobs() => Exchanges
        .Where(e => Method(e) == "POST" && Path(e) == "/jobs")
        .Select(e => e["requestBody"] is JsonObject body ? body : JsonNode.Parse((string)e["requestBody"]!)!.AsObject());

    public static string Method(JsonObject exchange) => (string)exchange["method"]!;

    public static string Path(JsonObject exchange) => (string)exchange["path"]!;

    public static int Seq(JsonObject exchange) => (int)exchange["seq"]!;
}
