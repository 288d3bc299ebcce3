using System.Net.Sockets;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// The fast tier (<c>[Trait("Tier", "Fast")]</c>, <c>eng/test.sh --fast</c>) starts no process and
/// opens no socket or database connection: read from the compiled tests, every method a fast test
/// reaches in this assembly (its async state machine, its lambdas, the helpers it calls and theirs)
/// is walked, and none may name <see cref="System.Diagnostics.Process"/>, a socket, a listener or
/// Npgsql. The product's code that a fast test calls in process is not walked: the commands a fast
/// test invokes are the ones that read fixture documents.
/// </summary>
public sealed class FastTierTests
{
    private static readonly Type[] s_forbidden =
    [
        typeof(System.Diagnostics.Process), typeof(System.Diagnostics.ProcessStartInfo),
        typeof(Socket), typeof(TcpListener), typeof(TcpClient), typeof(UdpClient),
        typeof(Npgsql.NpgsqlConnection), typeof(Npgsql.NpgsqlDataSource),
    ];

    [Trait("Tier", "Fast")]
    [Fact]
    public void No_fast_test_reaches_a_process_a_socket_or_a_database()
    {
        var assembly = typeof(FastTierTests).Assembly;
        var fast = assembly.GetTypes()
            .SelectMany(t => t.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly))
            .Where(m => IsFast(m.GetCustomAttributesData()) || IsFast(m.DeclaringType!.GetCustomAttributesData()))
            .ToList();
        Assert.True(fast.Count > 250, $"only {fast.Count} fast tests found: the trait is not read");

        var offences = fast.Select(test => (Test: test, Path: Reach(test, assembly))).Where(r => r.Path is not null)
            .Select(r => $"{r.Test.DeclaringType!.Name}.{r.Test.Name}: {r.Path}").ToList();
        Assert.True(offences.Count == 0, string.Join(Environment.NewLine, offences));
    }

    [Trait("Tier", "Fast")]
    [Fact]
    public void A_test_that_starts_a_process_through_a_helper_is_seen()
    {
        var path = Reach(typeof(FastTierTests).GetMethod(nameof(StartsAProcess), BindingFlags.NonPublic | BindingFlags.Static)!,
            typeof(FastTierTests).Assembly);
        Assert.NotNull(path);
        Assert.Contains("Process", path, StringComparison.Ordinal);
        Assert.Null(Reach(typeof(FastTierTests).GetMethod(nameof(StartsNothing), BindingFlags.NonPublic | BindingFlags.Static)!,
            typeof(FastTierTests).Assembly));
    }

    /// <summary>Whether the attributes hold <c>[Trait("Tier", "Fast")]</c> (xunit keeps a trait's name and value in its constructor's arguments).</summary>
    private static bool IsFast(IEnumerable<CustomAttributeData> attributes) =>
        attributes.Any(a => a.AttributeType == typeof(TraitAttribute) && a.ConstructorArguments is [{ Value: "Tier" }, { Value: "Fast" }]);

    /// <summary>The first chain of calls from <paramref name="start"/> to a forbidden type, or null.</summary>
    private static string? Reach(MethodBase start, Assembly assembly)
    {
        var seen = new HashSet<MethodBase> { start };
        var queue = new Queue<(MethodBase Method, string Path)>();
        queue.Enqueue((start, start.Name));
        while (queue.TryDequeue(out var current))
        {
            foreach (var body in Bodies(current.Method))
            {
                foreach (var member in CompiledReferences.BodyMembers(body))
                {
                    var type = member as Type ?? member.DeclaringType;
                    if (type is not null && s_forbidden.Any(f => f == type || f.IsAssignableFrom(type)))
                    {
                        return $"{current.Path} -> {type.Name}.{(member is Type ? "" : member.Name)}";
                    }

                    var next = member switch
                    {
                        MethodBase method when method.Module.Assembly == assembly => [method],
                        Type generated when generated.Assembly == assembly && generated.Name.Contains('<', StringComparison.Ordinal) =>
                            generated.GetMethods(
                                    BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly)
                                .Cast<MethodBase>(),
                        _ => [],
                    };
                    foreach (var method in next.Where(seen.Add))
                    {
                        queue.Enqueue((method, $"{current.Path} -> {method.DeclaringType?.Name}.{method.Name}"));
                    }
                }
            }
        }

        return null;
    }

    /// <summary>The method's own body, and the state machine's that an async method or an iterator runs.</summary>
    private static IEnumerable<MethodBase> Bodies(MethodBase method)
    {
        yield return method;
        var machine = method.GetCustomAttribute<AsyncStateMachineAttribute>()?.StateMachineType
            ?? method.GetCustomAttribute<IteratorStateMachineAttribute>()?.StateMachineType;
        if (machine?.GetMethod("MoveNext", BindingFlags.NonPublic | BindingFlags.Public | BindingFlags.Instance) is { } moveNext)
        {
            yield return moveNext;
        }
    }

    private static void StartsAProcess() => Helper();

    private static void Helper() => System.Diagnostics.Process.GetCurrentProcess().Dispose();

    private static int StartsNothing() => Environment.ProcessorCount;
}
