using System.Diagnostics;
using System.Globalization;
using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// Reads a perf recording (<see cref="PerfTrace"/>) through <c>perf script</c>: each on-CPU
/// sample's stack, every frame named and placed in its layer (managed code, the runtime's native
/// code, other native libraries, the kernel). It gives each function's share at the top of the
/// stack (exclusive) and anywhere on it (inclusive, once per sample), the layers' shares, the TLS
/// share, and the stacks folded one per line with their counts (speedscope, FlameGraph, inferno).
/// </summary>
internal static class PerfProfile
{
    /// <summary>
    /// Runs <c>perf script</c> on <paramref name="dataPath"/>, writes the folded stacks to
    /// <paramref name="foldedPath"/> and returns the profile.
    /// </summary>
    public static async Task<RunTrace> AnalyzeAsync(string dataPath, string foldedPath, double seconds, CancellationToken cancellationToken, int top = 15)
    {
        var info = new ProcessStartInfo(Platform.ToolSearch.Locate("perf")
            ?? "perf") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var argument in new[] { "script", "-i", dataPath, "-F", "comm,tid,ip,sym,dso" })
        {
            info.ArgumentList.Add(argument);
        }

        using var perf = Process.Start(info) ?? throw new InvalidOperationException("perf did not start");
        var error = perf.StandardError.ReadToEndAsync(CancellationToken.None);

        // A perf script that never ends is stopped, which ends its output, and the profile is refused.
        var stopped = false;
        using var bound = new CancellationTokenSource(PerfTrace.Grace);
        using var watch = bound.Token.Register(() =>
        {
            stopped = true;
            try
            {
                perf.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
                // It ended on its own meanwhile.
            }
        });
        RunTrace trace;
        await using (var folded = new StreamWriter(foldedPath))
        {
            trace = Read(perf.StandardOutput, folded, seconds, top);
        }

        await perf.WaitForExitAsync(cancellationToken);
        if (stopped)
        {
            File.Delete(foldedPath);
            throw new InvalidOperationException(string.Create(CultureInfo.InvariantCulture,
                $"perf script did not end within {PerfTrace.Grace.TotalSeconds:0} s: it was stopped"));
        }

        if (perf.ExitCode != 0)
        {
            throw new InvalidOperationException($"perf script exited with code {perf.ExitCode}: " +
                $"{(await error).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).LastOrDefault()}");
        }

        trace.File = Path.GetFileName(foldedPath);
        return trace;
    }

    /// <summary>The profile of <c>perf script</c>'s text (samples separated by blank lines, each a header line and its frames, innermost first).</summary>
    public static RunTrace Read(TextReader script, TextWriter? folded, double seconds, int top = 15)
    {
        ArgumentNullException.ThrowIfNull(script);
        var exclusive = new Dictionary<string, int>(StringComparer.Ordinal);
        var inclusive = new Dictionary<string, int>(StringComparer.Ordinal);
        var layerOf = new Dictionary<string, string>(StringComparer.Ordinal);
        var layers = new Dictionary<string, int>(StringComparer.Ordinal);
        var stacks = new Dictionary<string, int>(StringComparer.Ordinal);
        var frames = new List<PerfFrame>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        int samples = 0, tls = 0;
        var inSample = false;

        void Finish()
        {
            if (frames.Count > 0)
            {
                samples++;
                var leaf = frames[0];
                exclusive[leaf.Name] = exclusive.GetValueOrDefault(leaf.Name) + 1;
                layers[leaf.Layer] = layers.GetValueOrDefault(leaf.Layer) + 1;
                seen.Clear();
                var inTls = false;
                foreach (var frame in frames)
                {
                    layerOf.TryAdd(frame.Name, frame.Layer);
                    if (seen.Add(frame.Name))
                    {
                        inclusive[frame.Name] = inclusive.GetValueOrDefault(frame.Name) + 1;
                        inTls |= frame.Tls;
                    }
                }

                tls += inTls ? 1 : 0;
                var stack = string.Join(';', Enumerable.Range(0, frames.Count).Select(i => frames[frames.Count - 1 - i].Name.Replace(';', ',')));
                stacks[stack] = stacks.GetValueOrDefault(stack) + 1;
            }

            frames.Clear();
            inSample = false;
        }

        while (script.ReadLine() is { } line)
        {
            if (line.Length == 0)
            {
                Finish();
            }
            else if (!inSample)
            {
                inSample = true;
            }
            else if (PerfFrame.Parse(line) is { } frame)
            {
                frames.Add(frame);
            }
        }

        Finish();
        if (folded is not null)
        {
            foreach (var (stack, count) in stacks.OrderByDescending(p => p.Value).ThenBy(p => p.Key, StringComparer.Ordinal))
            {
                folded.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{stack} {count}"));
            }
        }

        double Share(int count) => samples > 0 ? count * 100.0 / samples : 0;
        var trace = new RunTrace
        {
            Profiler = RunTrace.Perf,
            Seconds = seconds,
            Samples = samples,
            TlsPercent = Share(tls),
            Layers = new TraceLayers
            {
                Managed = Share(layers.GetValueOrDefault(TraceLayers.ManagedName)),
                Runtime = Share(layers.GetValueOrDefault(TraceLayers.RuntimeName)),
                Native = Share(layers.GetValueOrDefault(TraceLayers.NativeName)),
                Kernel = Share(layers.GetValueOrDefault(TraceLayers.KernelName)),
                Unknown = Share(layers.GetValueOrDefault(TraceLayers.UnknownName)),
            },
        };
        trace.Methods.AddRange(exclusive.OrderByDescending(p => p.Value).ThenBy(p => p.Key, StringComparer.Ordinal).Take(top)
            .Select(p => new HotMethod { Name = p.Key, Layer = layerOf[p.Key], ExclusivePercent = Share(p.Value),
                InclusivePercent = Share(inclusive[p.Key]) }));
        return trace;
    }
}
