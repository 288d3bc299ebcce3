using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Verdicts;

/// <summary>
/// A verdict's causes said in one line, the <c>bound:</c> line: a rate not met first, then the
/// machine's cause with its additions (a memory limit, a noisy machine), then "inside the runtime:"
/// and the runtime's causes, then notes. When nothing on the machine saturated and a cause inside
/// the runtime explains why, that cause comes first and the advice to load harder goes.
/// </summary>
internal static class VerdictLine
{
    public static string? Render(IReadOnlyList<VerdictCause> causes)
    {
        ArgumentNullException.ThrowIfNull(causes);
        string Layer(VerdictCause cause) => CauseKinds.Named(cause.Kind)?.Layer ?? CauseKinds.Note;
        var inside = causes.Where(c => Layer(c) == CauseKinds.Runtime).Select(c => c.Text).ToList();
        var runtime = inside.Count == 0 ? null : "inside the runtime: " + string.Join("; ", inside);
        var parts = new List<string>();
        parts.AddRange(causes.Where(c => Layer(c) == CauseKinds.Rate).Select(c => c.Text));
        var machine = causes.Where(c => Layer(c) == CauseKinds.Machine).ToList();
        var idle = machine.FirstOrDefault()?.Kind == CauseKinds.NothingSaturated.Name;
        if (idle && runtime is not null)
        {
            parts.Add(runtime);
        }

        parts.AddRange(machine.Select(c => c.Advice is { } advice && !(idle && runtime is not null) ? $"{c.Text}; {advice}" : c.Text));
        if (!idle && runtime is not null)
        {
            parts.Add(runtime);
        }

        parts.AddRange(causes.Where(c => Layer(c) == CauseKinds.Note).Select(c => c.Text));
        return parts.Count == 0 ? null : string.Join("; ", parts);
    }
}
