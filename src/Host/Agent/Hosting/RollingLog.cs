
namespace Benchmarks.Host.Agent.Hosting;

/// <summary>The last lines of a job's output or build log; each line keeps its index since the job began.</summary>
internal sealed class RollingLog
{
    private readonly Queue<string> _lines = new();
    private readonly int _capacity;
    private readonly Lock _lock = new();
    private long _dropped;

    public RollingLog(int capacity = 10_000)
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

    /// <summary>Every kept line, one per line of text.</summary>
    public string Text()
    {
        lock (_lock)
        {
            return string.Join(Environment.NewLine, _lines);
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

    /// <summary>Drops every line (a deleted job keeps none); later indexes continue from where they were.</summary>
    public void Clear()
    {
        lock (_lock)
        {
            _dropped += _lines.Count;
            _lines.Clear();
        }
    }

    /// <summary>The last <paramref name="count"/> lines, for an error message.</summary>
    public string Tail(int count)
    {
        lock (_lock)
        {
            return string.Join(Environment.NewLine, _lines.Skip(Math.Max(0, _lines.Count - count)));
        }
    }
}
