using System.Diagnostics;
using System.Globalization;

namespace Benchmarks.Tests.Support;

/// <summary>
/// What used the machine's CPU over a window (Linux /proc): the machine's busy share and the
/// processes that used the most, so a measuring test that ran slow says what it shared the machine
/// with in its first line.
/// </summary>
internal sealed class MachineLoad
{
    private readonly (long Busy, long Steal, long Total) _machine;
    private readonly Dictionary<int, long> _processes;
    private readonly Stopwatch _clock = Stopwatch.StartNew();

    private MachineLoad((long Busy, long Steal, long Total) machine, Dictionary<int, long> processes)
    {
        _machine = machine;
        _processes = processes;
    }

    public static MachineLoad Start() => new(ReadMachine(), ReadProcesses());

    /// <summary>"machine 97% busy (steal 0%) over 12.1 s; most CPU: 4711 nginx 8.2 s, 4712 dotnet 3.1 s, …".</summary>
    public string Describe()
    {
        if (!OperatingSystem.IsLinux())
        {
            return "machine load unknown";
        }

        var machine = ReadMachine();
        var total = machine.Total - _machine.Total;
        var busy = total <= 0 ? 0 : 100.0 * (machine.Busy - _machine.Busy) / total;
        var steal = total <= 0 ? 0 : 100.0 * (machine.Steal - _machine.Steal) / total;
        var ticks = 100.0;
        var top = ReadProcesses()
            .Select(p => (Pid: p.Key, Ticks: p.Value - _processes.GetValueOrDefault(p.Key)))
            .Where(p => p.Ticks > 0)
            .OrderByDescending(p => p.Ticks)
            .Take(5)
            .Select(p => string.Create(CultureInfo.InvariantCulture, $"{p.Pid} {Name(p.Pid)} {p.Ticks / ticks:0.0} s"));
        return string.Create(CultureInfo.InvariantCulture,
            $"machine {busy:0}% busy (steal {steal:0}%) over {_clock.Elapsed.TotalSeconds:0.0} s; most CPU: {string.Join(", ", top)}");
    }

    private static (long Busy, long Steal, long Total) ReadMachine()
    {
        try
        {
            var fields = File.ReadLines("/proc/stat").First().Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Select(long.Parse).ToArray();
            var idle = fields[3] + (fields.Length > 4 ? fields[4] : 0);
            return (fields.Sum() - idle, fields.Length > 7 ? fields[7] : 0, fields.Sum());
        }
        catch (IOException)
        {
            return (0, 0, 0);
        }
    }

    private static Dictionary<int, long> ReadProcesses()
    {
        var times = new Dictionary<int, long>();
        if (!OperatingSystem.IsLinux())
        {
            return times;
        }

        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), out var pid))
            {
                continue;
            }

            try
            {
                var stat = File.ReadAllText(Path.Combine(directory, "stat"));
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                times[pid] = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
            }
            catch (IOException)
            {
            }
            catch (UnauthorizedAccessException)
            {
            }
        }

        return times;
    }

    private static string Name(int pid)
    {
        try
        {
            var commandLine = File.ReadAllText($"/proc/{pid}/cmdline").Split('\0', StringSplitOptions.RemoveEmptyEntries);
            return commandLine.Length == 0 ? "?" : string.Join(' ', commandLine.Take(3).Select(a => a.Length > 40 ? a[^40..] : a));
        }
        catch (IOException)
        {
            return "gone";
        }
        catch (UnauthorizedAccessException)
        {
            return "?";
        }
    }
}
