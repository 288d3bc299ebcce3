using Xunit.Abstractions;
using Xunit.Sdk;

namespace Benchmarks.Tests.Support;

/// <summary>Discovers each row of a <see cref="MeasuredTheoryAttribute"/> theory as one <see cref="StolenAttempts"/> case.</summary>
public sealed class MeasuredTheoryDiscoverer(IMessageSink diagnostics) : TheoryDiscoverer(diagnostics)
{
    protected override IEnumerable<IXunitTestCase> CreateTestCasesForDataRow(ITestFrameworkDiscoveryOptions discoveryOptions, ITestMethod testMethod, IAttributeInfo theoryAttribute, object[] dataRow) =>
        [new StolenAttempts(DiagnosticMessageSink, discoveryOptions.MethodDisplayOrDefault(), discoveryOptions.MethodDisplayOptionsOrDefault(), testMethod, dataRow)];
}
