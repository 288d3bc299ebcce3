using Xunit.Abstractions;
using Xunit.Sdk;

namespace Benchmarks.Tests.Support;

/// <summary>Discovers a <see cref="MeasuredFactAttribute"/> test as one <see cref="StolenAttempts"/> case.</summary>
public sealed class MeasuredFactDiscoverer(IMessageSink diagnostics) : IXunitTestCaseDiscoverer
{
    public IEnumerable<IXunitTestCase> Discover(ITestFrameworkDiscoveryOptions discoveryOptions, ITestMethod testMethod, IAttributeInfo factAttribute) =>
        [new StolenAttempts(diagnostics, discoveryOptions.MethodDisplayOrDefault(), discoveryOptions.MethodDisplayOptionsOrDefault(), testMethod)];
}
