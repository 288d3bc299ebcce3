using System.Globalization;
using Xunit.Abstractions;
using Xunit.Sdk;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A measuring test case that runs again when an attempt failed while the hypervisor took
/// <see cref="Threshold"/>% or more of the machine (<see cref="StealTime"/>). A repeated attempt's
/// messages are dropped, and each repeat is noted at the top of the kept attempt's output; an
/// attempt that failed on a machine that kept its CPUs is final.
/// </summary>
public sealed class StolenAttempts : XunitTestCase
{
    /// <summary>Steal during an attempt, % of the machine's CPU time, from which its failure says nothing about the product.</summary>
    public const double Threshold = 5;

    public const int Attempts = 3;

    [Obsolete("Called by the de-serializer; should only be called by deriving classes for de-serialization purposes")]
    public StolenAttempts()
    {
    }

    public StolenAttempts(IMessageSink diagnostics, TestMethodDisplay display, TestMethodDisplayOptions options, ITestMethod testMethod, object[]? arguments = null)
        : base(diagnostics, display, options, testMethod, arguments)
    {
    }

    public override async Task<RunSummary> RunAsync(IMessageSink diagnosticMessageSink, IMessageBus messageBus, object[] constructorArguments, ExceptionAggregator aggregator, CancellationTokenSource cancellationTokenSource)
    {
        var notes = new List<string>();
        for (var attempt = 1; ; attempt++)
        {
            var steal = StealTime.Start();
            var held = new HeldMessages(messageBus);
            var summary = await base.RunAsync(diagnosticMessageSink, held, constructorArguments, new ExceptionAggregator(aggregator), cancellationTokenSource);
            var stolen = steal.Percent();
            if (summary.Failed == 0 || attempt == Attempts || stolen < Threshold || cancellationTokenSource.IsCancellationRequested)
            {
                held.Release(notes);
                return summary;
            }

            notes.Add(string.Create(CultureInfo.InvariantCulture, $"attempt {attempt} of {Attempts} failed while the hypervisor took {stolen:0.#}% of the machine (steal); run again"));
        }
    }
}
