namespace Benchmarks.Host.Jobs;

/// <summary>
/// A published server program (<see cref="NativeServerBuild"/>): the file to start (a NativeAOT
/// executable, or a ReadyToRun program's assembly, which the machine's <c>dotnet</c> starts), the
/// bytes it runs from (no debug symbols), and how long its publish took (null: reused).
/// </summary>
internal sealed record NativeServerProgram(string Executable, long Bytes, TimeSpan? PublishedIn);
