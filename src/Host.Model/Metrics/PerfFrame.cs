using Benchmarks.Host.Documents;

namespace Benchmarks.Host.Metrics;

/// <summary>
/// One frame of a <c>perf script</c> stack (<c>ADDRESS SYMBOL (DSO)</c>), named as a person reads
/// it and placed in its layer: JIT-compiled code, which perf names from the runtime's perf map
/// (<c>/tmp/perf-PID.map</c>), and ReadyToRun code in its <c>.dll</c> image, which it cannot name,
/// are managed; the runtime's generated stubs (named <c>stub …</c> in the map), <c>libcoreclr</c>,
/// <c>libclrjit</c>, the GC and <c>libSystem.*</c> are the runtime;
/// <c>[kernel.kallsyms]</c> is the kernel; any other library is native.
/// </summary>
internal sealed record PerfFrame(string Name, string Layer, bool Tls)
{
    private static readonly string[] s_runtimeLibraries = ["libcoreclr", "libclrjit", "libclrgc", "libSystem.", "libhostpolicy", "libhostfxr",
        "libmscordaccore"];

    /// <summary>The frame of one line, or null when the line is not one.</summary>
    public static PerfFrame? Parse(string line)
    {
        ArgumentNullException.ThrowIfNull(line);
        var text = line.Trim();
        var space = text.IndexOf(' ', StringComparison.Ordinal);
        var open = DsoStart(text);
        if (space <= 0 || open < space)
        {
            return null;
        }

        var symbol = text[(space + 1)..open].Trim();
        var dso = text[(open + 2)..^1];
        var file = Path.GetFileName(dso);
        if (dso.StartsWith("[kernel", StringComparison.Ordinal))
        {
            return new PerfFrame(symbol == "[unknown]" ? "[kernel]" : symbol + " [kernel]", TraceLayers.KernelName, false);
        }

        if ((file.StartsWith("perf-", StringComparison.Ordinal) && file.EndsWith(".map", StringComparison.Ordinal))
            || dso.StartsWith("/memfd:doublemapper", StringComparison.Ordinal))
        {
            // The runtime's own generated code (write barriers, precode, thunks) is named "stub …" in its map.
            if (symbol.StartsWith("stub ", StringComparison.Ordinal))
            {
                return new PerfFrame("[stub] " + symbol[5..], TraceLayers.RuntimeName, false);
            }

            var name = symbol == "[unknown]" ? "[jitted code]" : ManagedName(symbol);
            return new PerfFrame(name, TraceLayers.ManagedName, TraceProfile.IsTls(name));
        }

        if (file.EndsWith(".dll", StringComparison.OrdinalIgnoreCase))
        {
            var name = symbol == "[unknown]" ? $"[precompiled code] ({file})" : ManagedName(symbol);
            return new PerfFrame(name, TraceLayers.ManagedName, TraceProfile.IsTls(name));
        }

        if (dso == "[unknown]")
        {
            return new PerfFrame("[unknown]", TraceLayers.UnknownName, false);
        }

        var layer = s_runtimeLibraries.Any(l => file.StartsWith(l, StringComparison.Ordinal)) ? TraceLayers.RuntimeName : TraceLayers.NativeName;
        var tls = file.StartsWith("libssl", StringComparison.Ordinal)
            || file.StartsWith("libcrypto", StringComparison.Ordinal)
            || file.StartsWith("libSystem.Security.Cryptography.Native", StringComparison.Ordinal);
        return new PerfFrame($"{(symbol == "[unknown]" ? "[unknown]" : symbol)} ({file})", layer, tls);
    }

    /// <summary>
    /// Where the frame's <c>(DSO)</c> starts: the parenthesis that the line's last one closes (a
    /// DSO may hold its own, as <c>(/memfd:doublemapper (deleted))</c>), or -1.
    /// </summary>
    private static int DsoStart(string text)
    {
        if (!text.EndsWith(')'))
        {
            return -1;
        }

        var depth = 0;
        for (var i = text.Length - 1; i > 0; i--)
        {
            depth += text[i] switch { ')' => 1, '(' => -1, _ => 0 };
            if (depth == 0)
            {
                return text[i - 1] == ' ' ? i - 1 : -1;
            }
        }

        return -1;
    }

    /// <summary>
    /// A perf map's method name as an EventPipe trace names it: without the return type, the
    /// assembly, the signature and the code's tier (<c>instance void [System.Private.CoreLib]
    /// System.Threading.Thread::StartCallback()[OptimizedTier1]</c> is
    /// <c>System.Threading.Thread.StartCallback</c>). The method's assembly is the last
    /// bracketed name followed by a space: a return type's (<c>class [System.Runtime]System.String</c>)
    /// has none.
    /// </summary>
    public static string ManagedName(string symbol)
    {
        ArgumentNullException.ThrowIfNull(symbol);
        var name = symbol;
        var paren = name.IndexOf('(', StringComparison.Ordinal);
        if (paren > 0)
        {
            name = name[..paren];
        }

        var assembly = name.LastIndexOf("] ", StringComparison.Ordinal);
        if (assembly >= 0)
        {
            name = name[(assembly + 2)..];
        }
        else if (name.LastIndexOf(' ') is var last and >= 0)
        {
            name = name[(last + 1)..];
        }

        return name.Replace("::", ".", StringComparison.Ordinal).Trim();
    }
}
