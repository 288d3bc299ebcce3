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

    /// <summary>The last lines on one line each, joined for an error message.</summary>
    public string Format(int count = 10)
    {
        var lines = Last(count);
        return lines.Count == 0 ? "(no output)" : string.Join(Environment.NewLine, lines.Select(l => "  | " + l));
    }
}
