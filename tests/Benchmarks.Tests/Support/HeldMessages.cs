using Xunit.Abstractions;
using Xunit.Sdk;

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
        ITestFailed failed => new TestFailed(failed.Test, failed.ExecutionTime, notes + failed.Output, failed.ExceptionTypes, failed.Messages, failed.StackTraces, failed.ExceptionParentIndices),
        ITestPassed passed => new TestPassed(passed.Test, passed.ExecutionTime, notes + passed.Output),
        _ => message,
    };

    public void Dispose()
    {
    }
}
