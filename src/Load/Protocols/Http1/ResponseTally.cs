using System.Diagnostics;
using System.Runtime.CompilerServices;
using Benchmarks.Load.Http;
using Benchmarks.Load.Statistics;

namespace Benchmarks.Load.Protocols.Http1;

/// <summary>
/// The bytes of one read, parsed into the responses a batch is owed and counted: good or bad,
/// warm-up or measured, their latency recorded once for all the responses the read held (they
/// share one receive time). Shared by every engine of the HTTP load.
/// </summary>
internal static class ResponseTally
{
    private static readonly double s_nanosecondsPerTick = 1_000_000_000.0 / Stopwatch.Frequency;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static ResponseOutcome Process(
        HttpResponseParser parser, ReadOnlySpan<byte> data, ref ConnectionCounters counters, LatencyHistogram histogram, LatencyHistogram? uncorrected,
        BatchTimes times, bool measured, ref int outstanding)
    {
        var completed = 0;
        var outcome = ResponseOutcome.Continue;
        while (!data.IsEmpty)
        {
            if (outstanding == 0)
            {
                outcome = ResponseOutcome.UnexpectedData;
                break;
            }

            var status = parser.Parse(ref data);
            if (status == ResponseParseStatus.NeedMoreData)
            {
                break;
            }

            if (status == ResponseParseStatus.Invalid)
            {
                outcome = ResponseOutcome.Invalid;
                break;
            }

            outstanding--;
            completed++;
            if (measured)
            {
                if (parser.IsSuccess)
                {
                    counters.Good++;
                }
                else
                {
                    counters.Bad++;
                }
            }
            else
            {
                counters.WarmupCompleted++;
            }

            if (parser.ConnectionClose)
            {
                outcome = ResponseOutcome.ServerClosing;
                break;
            }
        }

        if (measured && completed > 0)
        {
            histogram.Record((long)((times.Now - times.TimedFrom) * s_nanosecondsPerTick), completed);
            uncorrected?.Record((long)((times.Now - times.SentAt) * s_nanosecondsPerTick), completed);
        }

        return outcome;
    }
}
