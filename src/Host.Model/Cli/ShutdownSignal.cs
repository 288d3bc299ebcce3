using System.Runtime.InteropServices;

namespace Benchmarks.Host.Cli;

/// <summary>
/// Cancels a token on Ctrl+C or SIGTERM, and when a watched parent process disappears, so a
/// child never outlives the run that started it.
/// </summary>
internal sealed class ShutdownSignal : IDisposable
{
    private readonly CancellationTokenSource _source;
    private readonly List<PosixSignalRegistration> _registrations = [];
    private static readonly Platform.IProcessControl Processes = Platform.OsPlatform.CreateProcessControl();
    private readonly Timer? _parentWatch;

    public ShutdownSignal(CancellationToken linked, int? parentProcessId = null)
    {
        _source = CancellationTokenSource.CreateLinkedTokenSource(linked);
        foreach (var signal in new[] { PosixSignal.SIGINT, PosixSignal.SIGTERM })
        {
            _registrations.Add(PosixSignalRegistration.Create(signal, context =>
            {
                context.Cancel = true;
                Reason ??= signal == PosixSignal.SIGINT ? "interrupted (Ctrl+C)" : "terminated (SIGTERM)";
                _source.Cancel();
            }));
        }

        if (parentProcessId is { } parent)
        {
            _parentWatch = new Timer(_ => CheckParent(parent), null, TimeSpan.FromMilliseconds(500), TimeSpan.FromMilliseconds(500));
        }
    }

    public CancellationToken Token => _source.Token;

    public string? Reason { get; private set; }

    /// <summary>The exit code of a run or load that did not succeed: interrupted when a signal or the parent's exit stopped it, else failed.</summary>
    public int FailureCode => Reason is null ? ExitCodes.Failed : ExitCodes.Interrupted;

    public void Dispose()
    {
        _parentWatch?.Dispose();
        foreach (var registration in _registrations)
        {
            registration.Dispose();
        }

        _source.Dispose();
    }

    private void CheckParent(int parent)
    {
        // A parent killed while its own parent does not reap it stays a zombie: ended all the same.
        if (!Processes.HasEnded(parent))
        {
            return;
        }

        Reason ??= $"parent process {parent} exited";
        try
        {
            _source.Cancel();
        }
        catch (ObjectDisposedException)
        {
        }
    }
}
