using System.Reflection;
using Benchmarks.Tests.Support;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// Every test of the measuring collection that is not in the fast tier is a
/// <see cref="MeasuredFactAttribute"/> or <see cref="MeasuredTheoryAttribute"/>, so a failure while
/// the hypervisor took the machine is measured again instead of failing the suite, and a test moved
/// into the collection cannot forget it.
/// </summary>
public sealed class MeasuringTierTests
{
    [Trait("Tier", "Fast")]
    [Fact]
    public void Every_measuring_test_is_repeated_when_the_machine_was_taken_away()
    {
        var measuring = typeof(MeasuringTierTests).Assembly.GetTypes()
            .Where(t => t.GetCustomAttribute<CollectionAttribute>() is not null
                && t.GetCustomAttributesData().Any(a => a.AttributeType == typeof(CollectionAttribute)
                    && a.ConstructorArguments is [{ Value: Measuring.Name }]))
            .ToList();
        Assert.True(measuring.Count >= 15, $"only {measuring.Count} measuring classes found: the collection is not read");

        var plain = measuring
            .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly))
            .Where(m => m.GetCustomAttribute<FactAttribute>() is { } fact && fact is not MeasuredFactAttribute and not MeasuredTheoryAttribute)
            .Where(m => !m.GetCustomAttributesData().Any(a => a.AttributeType == typeof(TraitAttribute) && a.ConstructorArguments is [{ Value: "Tier" },
                { Value: "Fast" }]))
            .Select(m => $"{m.DeclaringType!.Name}.{m.Name}")
            .ToList();
        Assert.True(plain.Count == 0, "measuring tests on [Fact] or [Theory] instead of [MeasuredFact] or [MeasuredTheory]: " + string.Join(", ", plain));
    }
}
