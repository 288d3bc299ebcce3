using Benchmarks.Host.Cli;

namespace Benchmarks.Host.Commands;

/// <summary>
/// Serves through a published program (<c>serve --publish aot|r2r</c>): publishes it if it is not yet,
/// runs it with the request's arguments until it exits or the signal stops it, and returns its exit code.
/// </summary>
internal delegate Task<int> PublishedServe(PublishedServeRequest request, ShutdownSignal signal);
