namespace Benchmarks.Scenarios;

/// <summary>What <see cref="ITcpExchange.Read"/> found in the bytes it was given.</summary>
public enum TcpAnswer
{
    /// <summary>The answer has not ended yet: every byte given belongs to it so far.</summary>
    Incomplete,

    /// <summary>The answer ended, and it is the one expected.</summary>
    Complete,

    /// <summary>The bytes are not the answer expected: the request fails as a mismatch and the connection is made again.</summary>
    Invalid,
}
