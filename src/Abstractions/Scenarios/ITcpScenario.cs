using System.Buffers;

namespace Benchmarks.Scenarios;

/// <summary>
/// A scenario below HTTP: the server parses nothing, hands the scenario every byte a connection
/// receives, in order, and sends back what it writes. The connection ends when the client closes
/// it. Served on <c>tcp://</c> addresses by the server models that serve raw TCP.
/// </summary>
public interface ITcpScenario : IScenario
{
    /// <summary>
    /// Answers bytes just received by writing into <paramref name="reply"/>. Called once per read,
    /// possibly from many threads at once (one connection at a time); must not block.
    /// </summary>
    void Receive(ReadOnlySpan<byte> received, IBufferWriter<byte> reply);

    /// <summary>
    /// The TCP load's client for this scenario's protocol, one per connection (<paramref name="connection"/>
    /// numbers them from 0); null: the built-in echo client, whose messages of <c>--message-size</c>
    /// bytes come back byte for byte.
    /// </summary>
    ITcpExchange? CreateLoadClient(int connection) => null;
}
