namespace Benchmarks.Host.Jobs;

/// <summary>The last lines a process printed, kept for error messages.</summary>
internal sealed class OutputTail
{
    private readonly Queue<string> _lines = new();
    private readonly int _capacity;
    private readonly Lock _lock = new();

    public OutputTail(int capacity = 200)
    {
        _capacity = capacity;
    }

    public void Add(string line)
    {
        lock (_lock)
        {
            if (_lines.Count == _capacity)
            {
                _lines.Dequeue();
            }

            _lines.Enqueue(line);
        }
    }

    public IReadOnlyList<string> Last(int count)
    {
        lock (_lock)
        {
            return [.. _lines.Skip(Math.Max(0, _lines.Count - count))];
        }
    }

    /// <summary>
    /// The last lines on one line each, joined for an error message; a crank statistics block (a
    /// JSON line of kilobytes, its values already read) shows as one line saying it was there.
    /// </summary>
    public string Format(int count = 10)
    {
        var shown = new List<string>();
        var inBlock = false;
        foreach (var line in Last(count))
        {
            if (line.Contains("#StartJobStatistics", StringComparison.Ordinal))
            {
                inBlock = true;
                shown.Add("(the crank statistics block: its values are the run's measurements)");
            }
            else if (!inBlock)
            {
                shown.Add(line);
            }

            inBlock &= !line.Contains("#EndJobStatistics", StringComparison.Ordinal);
        }

        return shown.Count == 0 ? "(no output)" : string.Join(Environment.NewLine, shown.Select(l => "  | " + l));
    }
}
