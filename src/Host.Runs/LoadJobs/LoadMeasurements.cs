using Benchmarks.Load.Http;
using Benchmarks.Host.Measurements;

namespace Benchmarks.Host.LoadJobs;

/// <summary>A load result under the measurement names of <see cref="MeasurementCatalog"/>.</summary>
internal static class LoadMeasurements
{
    public static SortedDictionary<string, double> From(LoadResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        var measurements = new SortedDictionary<string, double>(StringComparer.Ordinal)
        {
            [HttpMeasures.RpsMean.Name] = result.RequestsPerSecond,
            [HttpMeasures.Requests.Name] = result.Requests,
            [HttpMeasures.BadResponses.Name] = result.Bad,
            [HttpMeasures.Errors.Name] = result.Errors.Total,
            [HttpMeasures.Lost.Name] = result.Lost,
            [HttpMeasures.Throughput.Name] = result.ThroughputMegabytesPerSecond,
            [HttpMeasures.Bytes.Name] = result.BytesReceived,
        };
        LatencyMeasures.Http.Add(measurements, result.Latency);
        GrpcMeasures.Add(measurements, result);
        WindowMeasurements.Add(measurements, result, result.RequestsPerSecond, OpenModelMeasures.Http);
        if (result.ThreadsBusyPercent is { } busy)
        {
            measurements[SystemMeasures.LoadThreadsBusy.Name] = busy;
        }

        if (!result.KeepAlive)
        {
            ConnectMeasures.Http.Add(measurements, result.Connects, result.ConnectsPerSecond, result.Connect);
            if (result.FirstByte is { } firstByte)
            {
                measurements[HttpMeasures.FirstByteMean.Name] = firstByte.Mean;
                measurements[HttpMeasures.FirstByte50.Name] = firstByte.P50;
                measurements[HttpMeasures.FirstByte99.Name] = firstByte.P99;
            }
        }

        if (result.Tls is not null)
        {
            ConnectMeasures.TlsHandshake.Add(measurements, result.Handshakes, result.Handshakes > 0 ? result.HandshakesPerSecond : null, result.Handshake);
            measurements[HttpMeasures.HandshakeErrors.Name] = result.HandshakeErrors;
        }

        if (result.FlowControlWaitPercent is { } waited)
        {
            measurements[HttpMeasures.FlowControlWait.Name] = waited;
        }

        if (result.Requests > 0)
        {
            measurements[SystemMeasures.LoadCpuPerRequest.Name] = (result.CpuUserSeconds + result.CpuKernelSeconds) / result.Requests * 1_000_000;
        }

        return measurements;
    }
}
