using System.IO.Compression;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json.Nodes;

namespace Benchmarks.Tests.Support;

/// <summary>
/// Makes the agent calls crank's controller makes (crank-agent-protocol.md §3), one call per
/// method, so that a test can follow the controller's sequence step by step and check each reply.
/// </summary>
internal sealed class AgentClient(Uri agent) : IDisposable
{
    private readonly HttpClient _http = new(new HttpClientHandler { AutomaticDecompression = DecompressionMethods.GZip }) { BaseAddress = agent,
        Timeout = TimeSpan.FromSeconds(60) };

    public Uri Agent { get; } = agent;

    /// <summary>A job as crank writes it: PascalCase names, DriverVersion 2, State New, Id 0.</summary>
    public static JsonObject Job(string service, string runId, Action<JsonObject>? configure = null)
    {
        var job = new JsonObject
        {
            ["DriverVersion"] = 2,
            ["ServerVersion"] = 5,
            ["Id"] = 0,
            ["RunId"] = runId,
            ["Service"] = service,
            ["State"] = "New",
            ["Scheme"] = "Http",
            ["Port"] = 5000,
            ["Path"] = "/",
            ["MeasurementsIntervalSec"] = 1,
            ["EnvironmentVariables"] = new JsonObject(),
            ["Options"] = new JsonObject { ["DisplayOutput"] = false, ["RequiredOperatingSystem"] = null, ["DownloadFiles"] = new JsonArray() },
            ["Variables"] = new JsonObject { ["serverPort"] = 5000 },
            ["Timeout"] = 0,
            ["StartTimeout"] = "00:00:00",
            ["BuildTimeout"] = "00:00:00",
            ["Features"] = new JsonArray(),
        };
        configure?.Invoke(job);
        return job;
    }

    /// <summary>A job that runs this build's <c>serve</c> of a scenario on Kestrel at <paramref name="port"/>, ready on its start line.</summary>
    public static JsonObject ServeJob(string runId, string scenario, int port, Action<JsonObject>? configure = null) => Job("application", runId, j =>
    {
        j["Executable"] = TestPaths.HostExecutable;
        j["Arguments"] = $"serve --scenario {scenario} --server kestrel --urls http://127.0.0.1:{port}";
        j["Port"] = port;
        j["ReadyStateText"] = "Application started.";
        configure?.Invoke(j);
    });

    public async Task<(HttpStatusCode Status, string? Location)> PostJobAsync(JsonObject job)
    {
        // The controller lists the agent URL it uses among the job's endpoints.
        job["Endpoints"] ??= new JsonArray(Agent.ToString().TrimEnd('/'));
        using var content = new StringContent(job.ToJsonString(), Encoding.UTF8, "application/json");
        using var response = await _http.PostAsync("/jobs", content);
        return (response.StatusCode, response.Headers.Location?.OriginalString);
    }

    /// <summary>Posts a job and returns its id, as the controller does (202 with a relative Location).</summary>
    public async Task<int> CreateAsync(JsonObject job)
    {
        var (status, location) = await PostJobAsync(job);
        if (status != HttpStatusCode.Accepted || location is null || !location.StartsWith("/jobs/", StringComparison.Ordinal))
        {
            throw new InvalidOperationException($"POST /jobs answered {(int)status} with Location '{location}'");
        }

        return int.Parse(location["/jobs/".Length..], System.Globalization.CultureInfo.InvariantCulture);
    }

    public async Task<string> StateAsync(int id)
    {
        using var response = await _http.GetAsync($"/jobs/{id}/state");
        return response.StatusCode == HttpStatusCode.NotFound ? "404" : await response.Content.ReadAsStringAsync();
    }

    public async Task<JsonObject> GetAsync(int id) => (JsonObject)JsonNode.Parse(await _http.GetStringAsync($"/jobs/{id}"))!;

    /// <summary>
    /// Polls the state every 200 ms (touching the other jobs of the run, as the controller's
    /// keep-alive does) until it is one of <paramref name="states"/>.
    /// </summary>
    public async Task<string> WaitForStateAsync(int id, TimeSpan timeout, IReadOnlyList<int>? keepAlive, params string[] states)
    {
        var deadline = DateTime.UtcNow + timeout;
        var state = "";
        while (DateTime.UtcNow < deadline)
        {
            state = await StateAsync(id);
            if (states.Contains(state))
            {
                return state;
            }

            foreach (var other in keepAlive ?? [])
            {
                await TouchAsync(other);
            }

            await Task.Delay(200);
        }

        throw new TimeoutException($"job {id} stayed {state}, not {string.Join('/', states)}, for {timeout}; error: {(await GetAsync(id))["error"]}");
    }

    /// <summary>Waits for <paramref name="state"/>; a job that fails instead fails the test with the job's own error, the one line a reader needs.</summary>
    public async Task ReachAsync(int id, TimeSpan timeout, IReadOnlyList<int>? keepAlive, string state)
    {
        var reached = await WaitForStateAsync(id, timeout, keepAlive, state, "Failed");
        if (reached != state)
        {
            Xunit.Assert.Fail($"job {id} ended {reached}, not {state}: {(await GetAsync(id))["error"]}");
        }
    }

    /// <summary>Waits until the agent has picked the job up (Initializing), then starts it, as the controller does after its uploads.</summary>
    public async Task LaunchAsync(int id, TimeSpan timeout, IReadOnlyList<int>? keepAlive = null)
    {
        await WaitForStateAsync(id, timeout, keepAlive, "Initializing");
        var status = await StartAsync(id);
        if (status != HttpStatusCode.OK)
        {
            throw new InvalidOperationException($"POST /jobs/{id}/start answered {(int)status}");
        }
    }

    public async Task TouchAsync(int id)
    {
        using var response = await _http.GetAsync($"/jobs/{id}/touch");
    }

    public async Task<HttpStatusCode> UploadSourceAsync(int id, string sourceName, byte[] zip)
    {
        using var content = new ByteArrayContent(zip);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/octet-stream");
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/jobs/{id}/source?sourceName={Uri.EscapeDataString(sourceName)}") { Content = content };
        request.Headers.Add("id", id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        request.Headers.Add("destinationFilename", sourceName);
        using var response = await _http.SendAsync(request);
        return response.StatusCode;
    }

    /// <summary>Sends a build file gzip-compressed, as the controller does with a server version of 5.</summary>
    public async Task<HttpStatusCode> UploadBuildFileAsync(int id, string destination, byte[] bytes)
    {
        using var compressed = new MemoryStream();
        await using (var gzip = new GZipStream(compressed, CompressionLevel.Fastest, leaveOpen: true))
        {
            await gzip.WriteAsync(bytes);
        }

        using var content = new ByteArrayContent(compressed.ToArray());
        content.Headers.ContentEncoding.Add("gzip");
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/jobs/{id}/build") { Content = content };
        request.Headers.Add("destinationFilename", destination);
        using var response = await _http.SendAsync(request);
        return response.StatusCode;
    }

    public async Task<HttpStatusCode> PostAsync(string path, HttpContent? content = null)
    {
        using var response = await _http.PostAsync(path, content);
        return response.StatusCode;
    }

    public async Task<HttpStatusCode> StartAsync(int id) => await PostAsync($"/jobs/{id}/start");

    public async Task<HttpStatusCode> StopAsync(int id) => await PostAsync($"/jobs/{id}/stop");

    public async Task<HttpStatusCode> DeleteAsync(int id)
    {
        using var response = await _http.DeleteAsync($"/jobs/{id}");
        return response.StatusCode;
    }

    public async Task<(HttpStatusCode Status, string Body)> GetRawAsync(string path)
    {
        using var response = await _http.GetAsync(path);
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }

    /// <summary>The last value of each measurement in a job document.</summary>
    public static Dictionary<string, JsonNode?> LastMeasurements(JsonObject job)
    {
        var values = new Dictionary<string, JsonNode?>(StringComparer.Ordinal);
        foreach (var measurement in job["measurements"]!.AsArray().OfType<JsonObject>())
        {
            values[(string)measurement["name"]!] = measurement["value"];
        }

        return values;
    }

    /// <summary>Every value a job reported under <paramref name="name"/>.</summary>
    public static List<double> Values(JsonObject job, string name) =>
        [.. job["measurements"]!.AsArray().OfType<JsonObject>().Where(m => (string?)m["name"] == name).Select(m => (double)m["value"]!)];

    /// <summary>A zip of the files git would commit in <paramref name="folder"/> (what crank uploads for a localFolder: .gitignore honoured).</summary>
    public static byte[] ZipRepository(string folder)
    {
        var files = new System.Diagnostics.ProcessStartInfo("git", ["-C", folder, "ls-files", "-co", "--exclude-standard"]) { RedirectStandardOutput = true,
            UseShellExecute = false };
        using var git = System.Diagnostics.Process.Start(files)!;
        var list = git.StandardOutput.ReadToEnd().Split('\n', StringSplitOptions.RemoveEmptyEntries);
        git.WaitForExit();
        using var buffer = new MemoryStream();
        using (var zip = new ZipArchive(buffer, ZipArchiveMode.Create, leaveOpen: true))
        {
            foreach (var file in list)
            {
                var path = Path.Combine(folder, file);
                if (File.Exists(path))
                {
                    zip.CreateEntryFromFile(path, file.Replace('\\', '/'));
                }
            }
        }

        return buffer.ToArray();
    }

    /// <summary>A zip made of the given entries, written as given (including names a safe agent must refuse).</summary>
    public static byte[] Zip(params (string Name, string Content)[] entries)
    {
        using var buffer = new MemoryStream();
        using (var zip = new ZipArchive(buffer, ZipArchiveMode.Create, leaveOpen: true))
        {
            foreach (var (name, content) in entries)
            {
                using var writer = new StreamWriter(zip.CreateEntry(name).Open());
                writer.Write(content);
            }
        }

        return buffer.ToArray();
    }

    public void Dispose() => _http.Dispose();
}
