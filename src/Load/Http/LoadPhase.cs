namespace Benchmarks.Load.Http;

public enum LoadPhase
{
    Warmup,
    WindowStarted,
    Window,
    WindowEnded,
}
