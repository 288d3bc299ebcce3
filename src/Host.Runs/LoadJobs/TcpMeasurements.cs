using Benchmarks.Host.Measurements;
using Benchmarks.Load.Tcp;

namespace Benchmarks.Host.LoadJobs;

/// <summary>A TCP load result under the <c>tcp/...</c> names of <see cref="MeasurementCatalog"/>.</summary>
internal static class TcpMeasurements
{
    public static SortedDictionary<string, double> From(TcpLoadResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var m = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            [TcpMeasures.ResponsesRate.Name] = result.ResponsesPerSecond,
            [TcpMeasures.RequestsRate.Name] = result.RequestsPerSecond,
            [TcpMeasures.Responses.Name] = result.Answered,
            [TcpMeasures.Requests.Name] = result.Sent,
            [TcpMeasures.Unfinished.Name] = result.Unfinished,
            [TcpMeasures.Errors.Name] = result.FailedTotal + result.ConnectFailedTotal,
        };
        LatencyMeasures.Tcp.Add(m, result.RoundTrip);
        foreach (var (cause, measurement) in TcpMeasures.ErrorsByCause)
        {
            m[measurement.Name] = result.Failed.GetValueOrDefault(cause) + result.ConnectFailed.GetValueOrDefault(cause);
        }

        ConnectMeasures.Tcp.Add(m, result.Connects, result.ConnectsPerSecond, result.Connect);
        WindowMeasurements.Add(m, result, result.ResponsesPerSecond, OpenModelMeasures.Tcp);
        return m;
    }
}
