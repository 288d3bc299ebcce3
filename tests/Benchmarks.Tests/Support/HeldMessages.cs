using Xunit.Sdk;
using Xunit.v3;

namespace Benchmarks.Tests.Support;

/// <summary>
/// A message bus that holds an attempt's messages until it is kept (<see cref="Release"/>), so a
/// repeated attempt reports nothing but the notes the kept one's result carries at the top of its output.
/// </summary>
internal sealed class HeldMessages(IMessageBus inner) : IMessageBus
{
    private readonly List<IMessageSinkMessage> _messages = [];

    public bool QueueMessage(IMessageSinkMessage message)
    {
        lock (_messages)
        {
            _messages.Add(message);
        }

        return true;
    }

    public void Release(IReadOnlyList<string> notes)
    {
        lock (_messages)
        {
            foreach (var message in _messages)
            {
                inner.QueueMessage(notes.Count == 0 ? message : WithNotes(message, string.Join(Environment.NewLine, notes) + Environment.NewLine));
            }

            _messages.Clear();
        }
    }

    private static IMessageSinkMessage WithNotes(IMessageSinkMessage message, string notes) => message switch
    {
        ITestFailed failed => new TestFailed
        {
            AssemblyUniqueID = failed.AssemblyUniqueID,
            TestCollectionUniqueID = failed.TestCollectionUniqueID,
            TestClassUniqueID = failed.TestClassUniqueID,
            TestMethodUniqueID = failed.TestMethodUniqueID,
            TestCaseUniqueID = failed.TestCaseUniqueID,
            TestUniqueID = failed.TestUniqueID,
            ExecutionTime = failed.ExecutionTime,
            FinishTime = failed.FinishTime,
            Output = notes + failed.Output,
            Warnings = failed.Warnings,
            Cause = failed.Cause,
            ExceptionParentIndices = failed.ExceptionParentIndices,
            ExceptionTypes = failed.ExceptionTypes,
            Messages = failed.Messages,
            StackTraces = failed.StackTraces,
        },
        ITestPassed passed => new TestPassed
        {
            AssemblyUniqueID = passed.AssemblyUniqueID,
            TestCollectionUniqueID = passed.TestCollectionUniqueID,
            TestClassUniqueID = passed.TestClassUniqueID,
            TestMethodUniqueID = passed.TestMethodUniqueID,
            TestCaseUniqueID = passed.TestCaseUniqueID,
            TestUniqueID = passed.TestUniqueID,
            ExecutionTime = passed.ExecutionTime,
            FinishTime = passed.FinishTime,
            Output = notes + passed.Output,
            Warnings = passed.Warnings,
        },
        _ => message,
    };

    public void Dispose()
    {
    }
}
