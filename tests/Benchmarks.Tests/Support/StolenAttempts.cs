using System.ComponentModel;
using System.Globalization;
using Xunit.Sdk;
using Xunit.v3;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A measuring test case that runs again when an attempt failed while the hypervisor took
/// <see cref="Threshold"/>% or more of the machine (<see cref="StealTime"/>). A repeated attempt's
/// messages are dropped, and each repeat is noted at the top of the kept attempt's output; an
/// attempt that failed on a machine that kept its CPUs is final.
/// </summary>
public sealed class StolenAttempts : XunitTestCase, ISelfExecutingXunitTestCase
{
    /// <summary>Steal during an attempt, % of the machine's CPU time, from which its failure says nothing about the product.</summary>
    public const double Threshold = 5;

    public const int Attempts = 3;

    [EditorBrowsable(EditorBrowsableState.Never)]
    [Obsolete("Called by the de-serializer; should only be called by deriving classes for de-serialization purposes")]
    public StolenAttempts()
    {
    }

    public StolenAttempts(
        IXunitTestMethod testMethod,
        string displayName,
        string uniqueId,
        bool @explicit,
        Type[]? skipExceptions,
        string? skipReason,
        Type? skipType,
        string? skipUnless,
        string? skipWhen,
        Dictionary<string, HashSet<string>> traits,
        object?[]? arguments,
        int timeout)
        : base(testMethod, displayName, uniqueId, @explicit, skipExceptions, skipReason, skipType, skipUnless, skipWhen, traits, arguments, timeout: timeout)
    {
    }

    /// <summary>The traits of <paramref name="testMethod"/>, as a test case keeps them.</summary>
    public static Dictionary<string, HashSet<string>> TraitsOf(IXunitTestMethod testMethod) =>
        testMethod.Traits.ToDictionary(t => t.Key, t => new HashSet<string>(t.Value, StringComparer.OrdinalIgnoreCase), StringComparer.OrdinalIgnoreCase);

    public async ValueTask<RunSummary> Run(
        ExplicitOption explicitOption,
        IMessageBus messageBus,
        object?[] constructorArguments,
        ExceptionAggregator aggregator,
        CancellationTokenSource cancellationTokenSource,
        ParallelMode parallelMode,
        ExecutionScheduler scheduler,
        FixtureMappingManager methodFixtureMappings)
    {
        var notes = new List<string>();
        for (var attempt = 1; ; attempt++)
        {
            var steal = StealTime.Start();
            var held = new HeldMessages(messageBus);
            var summary = await XunitRunnerHelper.RunXunitTestCase(
                this, held, cancellationTokenSource, parallelMode, scheduler, aggregator.Clone(), explicitOption, constructorArguments, methodFixtureMappings);
            var stolen = steal.Percent();
            if (summary.Failed == 0 || attempt == Attempts || stolen < Threshold || cancellationTokenSource.IsCancellationRequested)
            {
                held.Release(notes);
                return summary;
            }

            notes.Add(string.Create(CultureInfo.InvariantCulture,
                $"attempt {attempt} of {Attempts} failed while the hypervisor took {stolen:0.#}% of the machine (steal); run again"));
        }
    }
}
