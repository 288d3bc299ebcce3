using Benchmarks.Host.Platform;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace Benchmarks.Tests.Support;

/// <summary>
/// Replays a recorded crank transcript against a real agent, call by call in crank's order,
/// and checks every answer against what crank's controller does with it (its JobConnection
/// and Program): the states it waits for, the fields it reads, the status codes it treats as
/// errors. Substitutions: job ids (from the agent's Location), the server port (a free one),
/// the agent's endpoint, this repository's folder and sources (uploaded where crank uploaded
/// its zip). Runs of state polls are replayed as crank's polling loops (once a second until
/// a state crank stops on), touches as crank's keep-alive (every 2 s until the job's stop).
/// </summary>
internal sealed partial class TranscriptReplay : IDisposable
{
    private readonly HttpClient _http;
    private readonly Uri _agent;
    private readonly int _serverPort;
    private readonly Action<string> _log;
    private readonly Dictionary<int, int> _ids = [];
    private readonly Dictionary<int, string> _phase = [];
    private readonly Dictionary<int, bool> _waitForExit = [];
    private readonly KeepAlives _keepAlives;
    private readonly System.Diagnostics.Stopwatch _clock = System.Diagnostics.Stopwatch.StartNew();

    /// <param name="serverPort">The port the transcript's server runs on (another replay's, for a second agent of the same run); default: a free one.</param>
    public TranscriptReplay(Uri agent, Action<string> log, int? serverPort = null)
    {
        _agent = agent;
        _log = log;
        _serverPort = serverPort ?? LoopbackPort.Free();
        _http = new HttpClient(new HttpClientHandler { AutomaticDecompression = DecompressionMethods.GZip | DecompressionMethods.Deflate }) {
            BaseAddress = agent, Timeout = TimeSpan.FromSeconds(100) };
        _keepAlives = new KeepAlives(_http, log);
    }

    /// <summary>Every answer that differed from what crank expects, as "seq N METHOD path: why".</summary>
    public List<string> Problems { get; } = [];

    /// <summary>Every exchange replayed and checked, as "seq N METHOD path → answer".</summary>
    public List<string> Checked { get; } = [];

    /// <summary>The job documents the agent returned, by the transcript's sequence number.</summary>
    public Dictionary<int, JsonObject> Jobs { get; } = [];

    /// <summary>The last state crank's polling loop ended on, by the transcript's job id.</summary>
    public Dictionary<int, string> FinalStates { get; } = [];

    /// <summary>The state crank's start loop ended on (Running, or Stopped for a job it waits for), by the transcript's job id.</summary>
    public Dictionary<int, string> StartOutcome { get; } = [];

    /// <summary>The first state crank read after it started a job, by the transcript's job id.</summary>
    public Dictionary<int, string> FirstStateAfterStart { get; } = [];

    /// <summary>Wall-clock time each call was sent, by sequence number.</summary>
    public Dictionary<int, DateTime> SentAt { get; } = [];

    /// <summary>Bodies the agent returned for downloads and listings, by sequence number.</summary>
    public Dictionary<int, (HttpStatusCode Status, byte[] Body, string? FileLength)> Files { get; } = [];

    /// <summary>The agent's <c>/info</c>, as crank stores it in its results' environment.</summary>
    public JsonObject? Info { get; private set; }

    public int ServerPort => _serverPort;

    /// <summary>The agent's id for a job the transcript calls <paramref name="recordedId"/>.</summary>
    public int IdOf(int recordedId) => _ids[recordedId];

    /// <summary>Replays the transcript up to and including sequence number <paramref name="lastSeq"/>.</summary>
    /// <summary>Files crank downloads after a listing (<c>/download</c> of each name <c>/list</c> returned), by name.</summary>
    public Dictionary<string, (HttpStatusCode Status, byte[] Body)> ListedDownloads { get; } = [];

    /// <summary>
    /// Replays the transcript up to and including sequence number <paramref name="lastSeq"/>;
    /// <paramref name="beforeCall"/> runs before each call, given its sequence number.
    /// </summary>
    /// <param name="sources">The sources a job uploads, by the transcript's job id, where not this repository's (null: the repository's).</param>
    public async Task RunAsync(CrankTranscript transcript, int lastSeq = int.MaxValue, Func<JsonObject, JsonObject>? editJob = null,
        Func<TranscriptReplay, int, Task>? beforeCall = null, Func<int, byte[]?>? sources = null)
    {
        ArgumentNullException.ThrowIfNull(transcript);
        var calls = transcript.Exchanges
            .Where(e => e["observer"] is null && !CrankTranscript.Path(e).EndsWith("/touch", StringComparison.Ordinal) && CrankTranscript.Seq(e) <= lastSeq)
            .ToList();
        for (var i = 0; i < calls.Count; i++)
        {
            var call = calls[i];
            var method = CrankTranscript.Method(call);
            var path = CrankTranscript.Path(call);
            var seq = CrankTranscript.Seq(call);
            if (beforeCall is not null)
            {
                await beforeCall(this, seq);
            }

            SentAt[seq] = DateTime.UtcNow;
            if (method == "GET" && StatePath().Match(path) is { Success: true } statePoll)
            {
                // A run of polls on one job is one of crank's loops.
                var recorded = int.Parse(statePoll.Groups[1].Value, CultureInfo.InvariantCulture);
                while (i + 1 < calls.Count && CrankTranscript.Method(calls[i + 1]) == "GET" && CrankTranscript.Path(calls[i + 1]) == path)
                {
                    i++;
                }

                // A replay cut short inside a loop (a controller killed while polling) reads once.
                var cut = i == calls.Count - 1 && lastSeq != int.MaxValue;
                await PollAsync(seq, recorded, once: cut);
                continue;
            }

            await SendAsync(call, seq, method, path, editJob, sources);
        }
    }

    /// <summary>Stops every keep-alive, as a controller that died would.</summary>
    public void StopKeepAlives() => _keepAlives.StopAll();

    public void Dispose()
    {
        _keepAlives.Dispose();
        _http.Dispose();
    }

    private async Task PollAsync(int seq, int recorded, bool once)
    {
        var id = _ids[recorded];
        var phase = _phase.GetValueOrDefault(recorded, "created");
        var waitForExit = _waitForExit.GetValueOrDefault(recorded);
        (string[] Until, TimeSpan Limit) loop = phase switch
        {
            // JobConnection.StartAsync: until the agent selects the job.
            "created" => (["Initializing", "Failed", "Deleted"], TimeSpan.FromSeconds(60)),
            // The start loop returns on Running (a waitForExit job is then polled until it ends).
            "started" =>
                (waitForExit ? ["Stopped", "Failed", "Deleted", "NotSupported"] : ["Running", "Failed", "NotSupported", "Stopped"], TimeSpan.FromMinutes(5)),
            // StopAsync gives up after 30 s.
            "stopped" => (["Stopped", "Failed"], TimeSpan.FromSeconds(30)),
            _ => ([], TimeSpan.Zero),
        };

        var deadline = DateTime.UtcNow + loop.Limit;
        var first = true;
        while (true)
        {
            using var response = await _http.GetAsync($"/jobs/{id}/state");
            var state = await response.Content.ReadAsStringAsync();
            if (!response.IsSuccessStatusCode || !CrankAnswers.JobStates.Contains(state))
            {
                // crank counts a 404, an empty body or a name it cannot parse as Failed.
                Problem(seq, "GET", $"/jobs/{id}/state", $"answered {(int)response.StatusCode} '{state}', which crank reads as Failed");
                FinalStates[recorded] = "Failed";
                return;
            }

            if (first && phase == "started")
            {
                FirstStateAfterStart[recorded] = state;
                if (state == "Running")
                {
                    Problem(seq, "GET", $"/jobs/{id}/state",
                        "the first state after /start is already Running: crank never sees the job start (no 'is running', no timeout clock)");
                }
            }

            first = false;
            if (once || loop.Until.Length == 0 || loop.Until.Contains(state))
            {
                FinalStates[recorded] = state;
                if (phase == "started")
                {
                    // crank's start loop is over: later reads of this job are single reads.
                    StartOutcome[recorded] = state;
                    _phase[recorded] = "running";
                }

                Checked.Add($"seq {seq} GET /jobs/{{id}}/state ({phase}) → {state}");
                _log(string.Create(CultureInfo.InvariantCulture, $"[{_clock.Elapsed.TotalSeconds:0.0} s] seq {seq}: job {recorded} {state} ({phase})"));
                return;
            }

            if (DateTime.UtcNow > deadline)
            {
                Problem(seq, "GET", $"/jobs/{id}/state", $"still {state} after {loop.Limit} ({phase})");
                FinalStates[recorded] = state;
                return;
            }

            // crank polls once a second; a quarter of that reads the same states sooner.
            await Task.Delay(250);
        }
    }

    private async Task SendAsync(JsonObject call, int seq, string method, string path, Func<JsonObject, JsonObject>? editJob, Func<int, byte[]?>? sources)
    {
        var recordedId = JobIdPath().Match(path) is { Success: true } m ? int.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture) : (int?)null;
        var localPath = recordedId is { } r ? JobIdPath().Replace(path, $"/jobs/{_ids[r]}", 1) : path;
        using var request = new HttpRequestMessage(new HttpMethod(method), localPath);
        if (method == "POST" && path == "/jobs")
        {
            var job = TranscriptRequests.Substitute((JsonObject)call["requestBody"]!.DeepClone(), _agent, _serverPort);
            job = editJob?.Invoke(job) ?? job;
            request.Content = new StringContent(job.ToJsonString(), Encoding.UTF8, "application/json");
            _waitForExit[TranscriptRequests.RecordedLocation(call)] = (bool?)job["WaitForExit"] ?? false;
        }
        else if (path.Contains("/source", StringComparison.Ordinal))
        {
            request.Content = new ByteArrayContent((recordedId is { } job ? sources?.Invoke(job) : null) ?? TranscriptRequests.Sources.Value);
            TranscriptRequests.CopyHeaders(call, request, "id", "destinationFilename");
        }
        else if (path.EndsWith("/build", StringComparison.Ordinal))
        {
            request.Content = TranscriptRequests.BuildFile(call);
            request.Headers.TransferEncodingChunked = true;
            TranscriptRequests.CopyHeaders(call, request, "id", "destinationFilename");
        }
        else if (path.Contains("/attachment", StringComparison.Ordinal))
        {
            request.Content = new ByteArrayContent(TranscriptRequests.Attachment(call));
            TranscriptRequests.CopyHeaders(call, request, "id", "destinationFilename");
        }
        else if (method == "POST")
        {
            request.Content = new StringContent("", Encoding.UTF8, "text/plain");
        }

        using var response = await _http.SendAsync(request);
        var body = await response.Content.ReadAsByteArrayAsync();
        var text = Encoding.UTF8.GetString(body);
        var status = response.StatusCode;
        var ok = response.IsSuccessStatusCode;
        string Describe() => $"{(int)status} {text[..Math.Min(text.Length, 200)]}";

        switch (method, Route(path))
        {
            case ("GET", "/"):
                Expect(ok, seq, method, path, "crank's endpoint check needs a 2xx", Describe);
                break;
            case ("GET", "/jobs"):
                Record(seq, method, path, ok ? CrankAnswers.JobList(JsonNode.Parse(text)) : [$"crank reads a JSON array: {Describe()}"]);
                break;
            case ("POST", "/jobs"):
                var location = response.Headers.Location?.OriginalString;
                if (!ok || location is null || !JobLocation().IsMatch(location))
                {
                    Problem(seq, method, path, $"crank needs a 2xx with Location /jobs/N: {Describe()}");
                    throw new InvalidOperationException(string.Join(Environment.NewLine, Problems));
                }

                var recorded = TranscriptRequests.RecordedLocation(call);
                _ids[recorded] = int.Parse(location["/jobs/".Length..], CultureInfo.InvariantCulture);
                _phase[recorded] = "created";
                _keepAlives.Start(recorded, _ids[recorded]);
                break;
            case ("GET", "/jobs/{id}"):
                if (ok && JsonNode.Parse(text) is JsonObject job)
                {
                    Jobs[seq] = job;
                    Record(seq, method, path, CrankAnswers.Job(job, expectInitializing: (string?)call["responseBody"]?["state"] == "Initializing"));
                }
                else
                {
                    Problem(seq, method, path, $"crank deserializes the job: {Describe()}");
                }

                break;
            case ("POST", "/jobs/{id}/source") or ("POST", "/jobs/{id}/build") or ("POST", "/jobs/{id}/attachment/zip"):
                // crank ignores the answer; an upload that is not taken would still break the run.
                Expect(ok, seq, method, path, "the upload was not taken", Describe);
                break;
            case ("POST", "/jobs/{id}/start"):
                Expect(ok, seq, method, path, "crank calls EnsureSuccessStatusCode", Describe);
                _phase[recordedId!.Value] = "started";
                break;
            case ("POST", "/jobs/{id}/stop"):
                _phase[recordedId!.Value] = "stopped";
                _keepAlives.Stop(recordedId.Value);
                break;
            case ("DELETE", "/jobs/{id}"):
                Expect(ok, seq, method, path, "crank prints 'Server job was not found' on 404 and throws on any other error", Describe);
                _phase[recordedId!.Value] = "deleted";
                _keepAlives.Stop(recordedId.Value);
                break;
            case ("POST", "/jobs/{id}/resetstats") or ("POST", "/jobs/{id}/measurements/flush"):
                Expect(ok, seq, method, path, "crank calls EnsureSuccessStatusCode", Describe);
                _phase[recordedId!.Value] = "reset";
                break;
            case ("GET", "/jobs/{id}/buildlog") or ("GET", "/jobs/{id}/output"):
                Expect(ok, seq, method, path, "crank saves the body of a 2xx only", Describe);
                Files[seq] = (status, body, null);
                break;
            case ("GET", "/jobs/{id}/fetch"):
                Files[seq] = (status, body, response.Headers.TryGetValues("FileLength", out var lengths) ? lengths.First() : null);
                Expect(ok, seq, method, path, "'Error while fetching published assets'", Describe);
                if (ok)
                {
                    Record(seq, method, path, CrankAnswers.Zip(body));
                }

                break;
            case ("GET", "/jobs/{id}/list"):
                Files[seq] = (status, body, null);
                Expect(ok, seq, method, path, "'Error while downloading file …, skipping'", Describe);
                if (ok && (JsonNode.Parse(text) is not JsonArray names || names.Any(n => n?.GetValueKind() != System.Text.Json.JsonValueKind.String)))
                {
                    Problem(seq, method, path, $"crank reads a JSON array of paths: {Describe()}");
                }
                else if (ok)
                {
                    // crank then downloads each listed file by the name it got back.
                    foreach (var name in JsonNode.Parse(text)!.AsArray().Select(n => (string)n!))
                    {
                        using var file = await _http.GetAsync($"{localPath.Split('?')[0][..^"/list".Length]}/download?path={Uri.EscapeDataString(name)}");
                        ListedDownloads[name] = (file.StatusCode, await file.Content.ReadAsByteArrayAsync());
                        Expect(file.IsSuccessStatusCode, seq, "GET", $"/download?path={name}", "a listed file could not be downloaded",
                            () => ((int)file.StatusCode).ToString(CultureInfo.InvariantCulture));
                    }
                }

                break;
            case ("GET", "/jobs/{id}/download"):
                Files[seq] = (status, body, response.Headers.TryGetValues("FileLength", out var fileLengths) ? fileLengths.First() : null);
                Expect(ok, seq, method, path, "'Error while downloading file …, skipping'", Describe);
                break;
            case ("GET", "/info"):
                if (ok && JsonNode.Parse(text) is JsonObject info)
                {
                    Info = info;
                    Record(seq, method, path, CrankAnswers.Info(info, Jobs.Values.LastOrDefault()));
                }
                else
                {
                    Problem(seq, method, path, $"crank reads a JSON object: {Describe()}");
                }

                break;
            default:
                Expect(ok, seq, method, path, "an unexpected call failed", Describe);
                break;
        }

        Checked.Add($"seq {seq} {method} {Route(path)} → {(int)status}");
    }

    private void Expect(bool condition, int seq, string method, string path, string why, Func<string> describe)
    {
        if (!condition)
        {
            Problem(seq, method, path, $"{why}: {describe()}");
        }
    }

    private void Record(int seq, string method, string path, IEnumerable<string> problems)
    {
        foreach (var problem in problems)
        {
            Problem(seq, method, path, problem);
        }
    }

    private void Problem(int seq, string method, string path, string why)
    {
        var line = $"seq {seq} {method} {path}: {why}";
        Problems.Add(line);
        _log(line);
    }

    /// <summary>The route a path takes, with the job id and the query left out.</summary>
    private static string Route(string path)
    {
        var withoutQuery = path.Split('?', 2)[0];
        return JobIdPath().Replace(withoutQuery, "/jobs/{id}", 1);
    }

    [GeneratedRegex(@"^/jobs/([0-9]+)/state$")]
    private static partial Regex StatePath();

    [GeneratedRegex(@"/jobs/([0-9]+)")]
    private static partial Regex JobIdPath();

    [GeneratedRegex(@"^/jobs/[0-9]+$")]
    private static partial Regex JobLocation();
}
