namespace Benchmarks.Load.Core;

/// <summary>
/// A protocol's connections as <see cref="LoadRun"/> drives them: it reads their totals once a
/// second, flips their <see cref="Switches"/>, waits for their loops and ends them. What a
/// connection sends and how it reads and checks the answer stay inside the protocol.
/// </summary>
internal interface ILoadDriver
{
    LoadSwitches Switches { get; }

    /// <summary>Requests or messages completed and errors so far (the per-second series), read without locks.</summary>
    (long Completed, long Errors) Totals();

    /// <summary>Completed during the warm-up, for the warm-up's per-second rate and the adaptive rule; 0 where not counted.</summary>
    long WarmupCompleted();

    /// <summary>Ends when every connection's loop has ended.</summary>
    Task Completion { get; }

    /// <summary>The hard stop, after <see cref="LoadSwitches.AbortNow"/>: closes what is still open. Called more than once.</summary>
    void Abort();

    /// <summary>The window has opened (measuring is set): a protocol's own reading at its start.</summary>
    ValueTask WindowOpenedAsync(CancellationToken cancellationToken) => ValueTask.CompletedTask;

    /// <summary>The window has closed (stopping is set): a protocol's own reading at its end.</summary>
    void WindowClosed()
    {
    }
}
