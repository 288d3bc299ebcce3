namespace Benchmarks.Host.Jobs;

/// <summary>A published NativeAOT server: its executable, the bytes it runs from (no debug symbols), and how long its publish took (null: reused).</summary>
internal sealed record NativeServerProgram(string Executable, long Bytes, TimeSpan? PublishedIn);
