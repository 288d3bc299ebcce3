namespace Benchmarks.Host.Measurements;

/// <summary>
/// What a measurement is to a run's headline. Tables, compare, iterations, the matrix and the
/// HTML reports find a run's rate, tail latency and failures by role, in catalog order, so a new
/// protocol's measurements take their place in every output by being declared.
/// </summary>
internal enum MeasurementRole
{
    None,

    /// <summary>
    /// The number a run of its load is known by: its rate, or what a search or a hold found
    /// (broadcast clients, idle connections). A run reports one.
    /// </summary>
    Headline,

    /// <summary>The tail latency read beside the headline (the 99th percentile).</summary>
    TailLatency,

    /// <summary>A count of failures (errors, bad answers, lost): a run's failures are their sum. Not its parts by cause.</summary>
    Failures,

    /// <summary>The count of what completed in the window (requests answered, echoes returned): the failures' share is of it and them.</summary>
    Completed,
}
