using Benchmarks.Host.LoadJobs;

namespace Benchmarks.Host.Commands;

/// <summary>
/// <c>load --warmup-gate</c>: whether the server is warm, as the run that started this load last
/// wrote on its input (<see cref="LoadProtocol.ServerWarm"/>). Closed until the first line says
/// warm; open for good once the input ends, so a run that stops writing cannot hold the warm-up
/// past its maximum.
/// </summary>
internal sealed class InputWarmupGate
{
    private volatile bool _open;

    private InputWarmupGate()
    {
    }

    public bool IsOpen => _open;

    public static InputWarmupGate Start(TextReader input, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(input);
        var gate = new InputWarmupGate();
        _ = Task.Run(() => gate.ReadAsync(input, cancellationToken), CancellationToken.None);
        return gate;
    }

    private async Task ReadAsync(TextReader input, CancellationToken cancellationToken)
    {
        try
        {
            while (await input.ReadLineAsync(cancellationToken) is { } line)
            {
                if (LoadProtocol.ParseServerWarm(line) is { } warm)
                {
                    _open = warm;
                }
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or IOException or ObjectDisposedException)
        {
        }

        _open = true;
    }
}
