using System.Text;

namespace Benchmarks.Host.Crank;

/// <summary>
/// Collects the stdout lines between <c>#StartJobStatistics</c> and <c>#EndJobStatistics</c>
/// (markers matched anywhere in a line, ignoring case; blocks may repeat) and hands each block's
/// JSON on. Used from one output reader thread.
/// </summary>
internal sealed class StatisticsBlockReader(Action<string> onBlock)
{
    public const string StartMarker = "#StartJobStatistics";
    public const string EndMarker = "#EndJobStatistics";

    private StringBuilder? _block;

    public void OnLine(string line)
    {
        ArgumentNullException.ThrowIfNull(line);
        if (line.Contains(EndMarker, StringComparison.OrdinalIgnoreCase))
        {
            if (_block is not null)
            {
                onBlock(_block.ToString());
            }

            _block = null;
            return;
        }

        if (line.Contains(StartMarker, StringComparison.OrdinalIgnoreCase))
        {
            _block = new StringBuilder();
            return;
        }

        _block?.AppendLine(line);
    }
}
