using Xunit.Sdk;
using Xunit.v3;

namespace Benchmarks.Tests.Support;

/// <summary>Discovers a <see cref="MeasuredFactAttribute"/> test as one <see cref="StolenAttempts"/> case.</summary>
public sealed class MeasuredFactDiscoverer : IXunitTestCaseDiscoverer
{
    public ValueTask<IReadOnlyCollection<IXunitTestCase>> Discover(ITestFrameworkDiscoveryOptions discoveryOptions, IXunitTestMethod testMethod,
        IFactAttribute factAttribute)
    {
        var details = TestIntrospectionHelper.GetTestCaseDetails(discoveryOptions, testMethod, factAttribute);
        return new([new StolenAttempts(
            details.ResolvedTestMethod, details.TestCaseDisplayName, details.UniqueID, details.Explicit, details.SkipExceptions, details.SkipReason,
            details.SkipType, details.SkipUnless, details.SkipWhen, StolenAttempts.TraitsOf(testMethod), null, details.Timeout)]);
    }
}
