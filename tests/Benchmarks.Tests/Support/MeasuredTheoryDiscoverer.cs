using Xunit.Sdk;
using Xunit.v3;

namespace Benchmarks.Tests.Support;

/// <summary>Discovers each row of a <see cref="MeasuredTheoryAttribute"/> theory as one <see cref="StolenAttempts"/> case.</summary>
public sealed class MeasuredTheoryDiscoverer : TheoryDiscoverer
{
    protected override ValueTask<IReadOnlyCollection<IXunitTestCase>> CreateTestCasesForDataRow(
        ITestFrameworkDiscoveryOptions discoveryOptions, IXunitTestMethod testMethod, ITheoryAttribute theoryAttribute, ITheoryDataRow dataRow,
        object?[] testMethodArguments, string? index)
    {
        var details = TestIntrospectionHelper.GetTestCaseDetailsForTheoryDataRow(discoveryOptions, testMethod, theoryAttribute, dataRow, testMethodArguments,
            index);
        return new([new StolenAttempts(
            details.ResolvedTestMethod, details.TestCaseDisplayName, details.UniqueID, details.Explicit, details.SkipExceptions, details.SkipReason,
            details.SkipType, details.SkipUnless, details.SkipWhen, StolenAttempts.TraitsOf(testMethod), testMethodArguments, details.Timeout)]);
    }
}
