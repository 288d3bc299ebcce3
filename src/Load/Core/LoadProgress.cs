namespace Benchmarks.Load.Core;

/// <summary>One event of a load run as it goes: a second of warm-up or window, or a window boundary.</summary>
/// <param name="Phase">Where the run is.</param>
/// <param name="Second">Seconds since the phase began.</param>
/// <param name="RequestsPerSecond">Responses completed in that second (window only).</param>
/// <param name="Errors">Socket errors in that second (window only).</param>
public sealed record LoadProgress(LoadPhase Phase, int Second, double RequestsPerSecond, long Errors);
