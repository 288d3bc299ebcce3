using Benchmarks.Load.Http;
using Benchmarks.Load.Protocols.Grpc;
using Benchmarks.Scenarios;

namespace Benchmarks.Host.LoadJobs;

/// <summary>
/// What wrk and h2load cannot do that the built-in load can, in one line each: the same words
/// whether <c>run</c> or <c>load</c> asks, said before anything starts.
/// </summary>
internal static class ExternalToolRefusals
{
    /// <summary>Why <paramref name="tool"/> cannot drive <paramref name="options"/>; null when it can.</summary>
    public static string? Of(string tool, HttpLoadOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (!options.KeepAlive)
        {
            return $"{tool} keeps its connections alive: --keep-alive false needs the built-in load (--generator builtin).";
        }

        if (options.Engine != HttpLoadEngine.Auto)
        {
            return $"{tool} is a client of its own: --load-engine picks the built-in load's engine (--generator builtin).";
        }

        // A client stream's messages are one request body, which an external tool posts as it is.
        return options.Grpc is { Kind: var kind } && !GrpcCall.AnsweredOnce(kind)
            ? $"{tool} cannot keep a gRPC stream open: --grpc-call {GrpcCall.NameOf(kind)} needs the built-in load (--generator builtin)."
            : null;
    }
}
