namespace Benchmarks.Host.Verdicts;

/// <summary>One kind of cause a verdict can name: its name in the run document, where it sits, and what it means.</summary>
/// <param name="Name">As stored (<c>VerdictCause.Kind</c>) and as <c>compare</c> and the reports group by.</param>
/// <param name="Layer">Where the limit was: <c>machine</c> (a resource of the machine or a process
/// on it), <c>runtime</c> (inside the .NET server), <c>rate</c> (an open model's rate not met),
/// <c>note</c> (a share worth knowing, not a limit).</param>
/// <param name="Description">What the cause means, for the docs and <c>--help</c>.</param>
internal sealed record CauseKind(string Name, string Layer, string Description);
