namespace Benchmarks.Host.Jobs;

/// <summary>
/// The last lines a process printed (a server's output for its error messages, an agent job's
/// output and build log for crank), at most a capacity of them; each line keeps its index since
/// the first, so a reader can ask for the lines after the ones it has.
/// </summary>
internal sealed class OutputTail
{
    private readonly Queue<string> _lines = new();
    private readonly int _capacity;
    private readonly Lock _lock = new();
    private long _dropped;

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
                _dropped++;
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

    /// <summary>The kept lines whose index is <paramref name="start"/> or later.</summary>
    public IReadOnlyList<string> From(long start)
    {
        lock (_lock)
        {
            var skip = Math.Max(0, start - _dropped);
            return [.. _lines.Skip((int)Math.Min(skip, int.MaxValue))];
        }
    }

    /// <summary>Every kept line, one per line of text.</summary>
    public string Text() => string.Join(Environment.NewLine, Last(_capacity));

    /// <summary>The last <paramref name="count"/> lines as they were printed, one per line of text.</summary>
    public string Tail(int count) => string.Join(Environment.NewLine, Last(count));

    /// <summary>Drops every line (a deleted job keeps none); later indexes continue from where they were.</summary>
    public void Clear()
    {
        lock (_lock)
        {
            _dropped += _lines.Count;
            _lines.Clear();
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
