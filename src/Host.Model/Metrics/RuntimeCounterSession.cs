using System.Diagnostics.Tracing;
using Benchmarks.Host.Measurements;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// The EventCounters of a running .NET process, read out of process over EventPipe (the runtime's
/// diagnostics port, as dotnet-counters and crank's agent read them), one report per counter per
/// second. What it keeps is what an interval needs whenever it is sampled: each incrementing
/// counter's total so far (the sum of its reports) and each other counter's last value, so two
/// snapshots give the increments between them whatever the phase of the runtime's own timer.
/// </summary>
internal sealed class RuntimeCounterSession : IAsyncDisposable
{
    /// <summary>The runtime's own provider: GC, thread pool, locks, exceptions, JIT, working set.</summary>
    public const string RuntimeProvider = "System.Runtime";

    /// <summary>The runtime's native events, of which the session reads the thread pool's adjustments (the threading keyword, informational).</summary>
    public const string NativeProvider = "Microsoft-Windows-DotNETRuntime";

    private const long ThreadingKeyword = 0x10000;

    private readonly EventPipeSession _session;
    private readonly Task _reading;
    private readonly Lock _lock = new();
    private readonly Dictionary<string, double> _totals = new(StringComparer.Ordinal);
    private readonly Dictionary<string, double> _gauges = new(StringComparer.Ordinal);
    private int _reports;
    private readonly MeterReadings? _meters;

    private readonly Func<string, string, string> _name;

    private RuntimeCounterSession(EventPipeSession session, Func<string, string, string> name, MeterReadings? meters, bool threadPoolAdjustments)
    {
        _session = session;
        _name = name;
        _meters = meters;
        if (threadPoolAdjustments)
        {
            // Present from the start, so a run whose pool never starved says 0 rather than nothing.
            _totals[RuntimeMeasures.StarvationAdjustments.Name] = 0;
            _totals[RuntimeMeasures.BlockingAdjustments.Name] = 0;
        }

        _reading = Task.Factory.StartNew(Read, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
    }

    /// <summary>Reports read so far (one per counter per second).</summary>
    public int Reports => Volatile.Read(ref _reports);

    /// <summary>Why the counters stopped coming before the session ended (the platform could not parse them), or null.</summary>
    public string? Failure { get; private set; }

    /// <summary>
    /// Opens a session on <paramref name="processId"/> for the given providers' counters, every
    /// <paramref name="intervalSeconds"/> (a fraction of a second keeps a sample's increments
    /// within that much of its own second); null with the reason when the process has no
    /// diagnostics port (not .NET, diagnostics disabled, gone). Each counter is kept under the
    /// measurement name <paramref name="name"/> gives its provider and name (crank's, by default).
    /// The instruments of <paramref name="meters"/> (System.Diagnostics.Metrics) come in the same
    /// session at the same interval, each snapshot the mean of the values since the one before
    /// (<see cref="MeterReadings"/>).
    /// </summary>
    /// <remarks>
    /// With <paramref name="threadPoolAdjustments"/> the session also reads why the thread pool
    /// changed its thread count (<see cref="RuntimeMeasures.StarvationAdjustments"/>,
    /// <see cref="RuntimeMeasures.BlockingAdjustments"/>): the runtime's own judgement that work waited
    /// with no thread free, which the thread count alone cannot tell from hill climbing.
    /// </remarks>
    public static async Task<(RuntimeCounterSession? Session, string? Error)> StartAsync(int processId, IReadOnlyCollection<string> providers,
        double intervalSeconds, CancellationToken cancellationToken, Func<string, string, string>? name = null, IReadOnlyCollection<string>? meters = null,
        bool threadPoolAdjustments = false)
    {
        ArgumentNullException.ThrowIfNull(providers);
        var arguments = new Dictionary<string, string> { ["EventCounterIntervalSec"] = intervalSeconds.ToString("0.###",
            System.Globalization.CultureInfo.InvariantCulture) };
        var readings = meters is { Count: > 0 } ? new MeterReadings() : null;
        var pipeProviders = providers.Distinct(StringComparer.Ordinal).Select(p => new EventPipeProvider(p, EventLevel.Critical, 0, arguments))
            .Concat(readings is null ? [] : [readings.ProviderFor(meters!, intervalSeconds)])
            .Concat(threadPoolAdjustments ? [new EventPipeProvider(NativeProvider, EventLevel.Informational, ThreadingKeyword)] : []).ToArray();
        if (Platform.Wine.IsHost)
        {
            // TraceEvent parses the counters' events with the OS's event decoder (tdh.dll) on Windows; Wine has it as a stub.
            return (null,
                $"no runtime counters from process {processId}: under Wine, whose tdh.dll (the event decoder they are parsed with on Windows) is a stub");
        }

        if (EventPipeRequest.TooLarge(pipeProviders) is { } tooLarge)
        {
            return (null, $"no runtime counters from process {processId}: {tooLarge}");
        }

        try
        {
            var client = new DiagnosticsClient(processId);
            var session = await client.StartEventPipeSessionAsync(pipeProviders, requestRundown: false, circularBufferMB: 16, cancellationToken);
            return (new RuntimeCounterSession(session, name ?? RuntimeMeasures.NameOf, readings, threadPoolAdjustments), null);
        }
        catch (Exception ex) when (ex is ServerNotAvailableException or UnsupportedCommandException or ServerErrorException or TimeoutException or IOException
            or UnauthorizedAccessException or ArgumentException or System.Net.Sockets.SocketException)
        {
            return (null, $"no runtime counters from process {processId}: {Reason(ex)}");
        }
    }

    /// <summary>The totals of the incrementing counters and the last values of the others, by measurement name.</summary>
    public RuntimeCounterSnapshot Snapshot()
    {
        lock (_lock)
        {
            var gauges = new Dictionary<string, double>(_gauges, StringComparer.Ordinal);
            _meters?.AddTo(gauges);
            return new RuntimeCounterSnapshot(new Dictionary<string, double>(_totals, StringComparer.Ordinal), gauges);
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await _session.StopAsync(timeout.Token);
        }
        catch (Exception ex) when (ex is OperationCanceledException or ServerNotAvailableException or ServerErrorException or IOException
            or EndOfStreamException or TimeoutException)
        {
            // The process has gone: its stream has ended with it.
        }

        await Task.WhenAny(_reading, Task.Delay(TimeSpan.FromSeconds(5)));
        _session.Dispose();
    }

    private void Read()
    {
        try
        {
            using var source = new EventPipeEventSource(_session.EventStream);
            source.Dynamic.All += OnEvent;
            source.Clr.ThreadPoolWorkerThreadAdjustmentAdjustment += OnAdjustment;
            source.Process();
        }
        catch (Exception ex) when (ex is IOException or EndOfStreamException or ObjectDisposedException or InvalidOperationException or FormatException)
        {
            // The stream ends with the session or the process.
        }
        catch (Exception ex) when (ex is System.Runtime.InteropServices.SEHException or EntryPointNotFoundException or DllNotFoundException
            or System.ComponentModel.Win32Exception)
        {
            // The events are parsed with the platform's help (TDH on Windows, which Wine lacks): none will come.
            Failure = $"{ex.GetType().Name}: {ex.Message}";
        }
    }

    private void OnEvent(TraceEvent data)
    {
        if (_meters is not null && data.ProviderName == MeterReadings.Provider)
        {
            lock (_lock)
            {
                if (_meters.Read(data.EventName, field => data.PayloadByName(field)))
                {
                    Interlocked.Increment(ref _reports);
                }
            }

            return;
        }

        // The event's one field holds {"Payload": {Name, CounterType, Mean or Increment, …}}.
        if (data.EventName != "EventCounters" || data.PayloadValue(0) is not IDictionary<string, object> outer
            || outer.TryGetValue("Payload", out var inner) is false || inner is not IDictionary<string, object> payload)
        {
            return;
        }

        if (payload.TryGetValue("Name", out var nameValue) is false || nameValue is not string name)
        {
            return;
        }

        var key = _name(data.ProviderName, name);
        var incrementing = payload.TryGetValue("CounterType", out var type) && type is "Sum";
        if (payload.TryGetValue(incrementing ? "Increment" : "Mean", out var raw) is false || !TryNumber(raw, out var value))
        {
            return;
        }

        lock (_lock)
        {
            if (incrementing)
            {
                _totals[key] = _totals.GetValueOrDefault(key) + value;
            }
            else
            {
                _gauges[key] = value;
            }
        }

        Interlocked.Increment(ref _reports);
    }

    /// <summary>The pool changed its thread count: counted when it added threads because work waited with none free, or because one blocked.</summary>
    private void OnAdjustment(ThreadPoolWorkerThreadAdjustmentTraceData data)
    {
        var key = data.Reason switch
        {
            ThreadAdjustmentReason.Starvation => RuntimeMeasures.StarvationAdjustments.Name,
            ThreadAdjustmentReason.CooperativeBlocking => RuntimeMeasures.BlockingAdjustments.Name,
            _ => null,
        };
        if (key is null)
        {
            return;
        }

        lock (_lock)
        {
            _totals[key] = _totals.GetValueOrDefault(key) + 1;
        }
    }

    /// <summary>Why a process has no diagnostics session, in a line: the client's first sentence, and what usually causes it.</summary>
    public static string Reason(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        var message = exception.Message;
        var end = message.IndexOf(". ", StringComparison.Ordinal);
        var first = end > 0 ? message[..(end + 1)] : message;
        return exception is ServerNotAvailableException
            ? $"{first} (not a .NET process, its diagnostics port off: DOTNET_EnableDiagnostics=0, or gone)"
            : first;
    }

    private static bool TryNumber(object raw, out double value)
    {
        value = raw switch
        {
            double d => d,
            float f => f,
            int i => i,
            long l => l,
            _ => double.NaN,
        };
        return double.IsFinite(value);
    }
}
