namespace Benchmarks.Load.Core;

public enum LoadPhase
{
    Warmup,
    WindowStarted,
    Window,
    WindowEnded,
}
