using Benchmarks.Scenarios;

namespace Benchmarks.Host.Verify;

/// <summary>
/// The fortunes page checked against the rows the database holds (<see cref="FortunesPageCheck"/>),
/// for every check the verifier makes of it when it can read the database: a database with other
/// fortunes than TechEmpower's twelve is judged by its own rows, not by the scenario's list.
/// </summary>
internal sealed class StoredFortunesValidator(IReadOnlyList<(int Id, string Message)> stored) : IResponseValidator
{
    public int MaxBodyLength => 1024 * 1024;

    public bool IsValid(ReadOnlySpan<byte> body) => FortunesPageCheck.Problem(body.ToArray(), stored) is null;
}
