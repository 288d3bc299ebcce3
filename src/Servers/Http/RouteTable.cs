using System.Text;

namespace Benchmarks.Servers.Http;

/// <summary>A scenario's routes as bytes, matched against a request path without decoding it.</summary>
public sealed class RouteTable
{
    private readonly byte[][] _routes;

    public RouteTable(IEnumerable<string> routes)
    {
        _routes = [.. routes.Select(Encoding.ASCII.GetBytes)];
    }

    /// <summary>The route's index, or -1.</summary>
    public int Match(ReadOnlySpan<byte> path)
    {
        for (var i = 0; i < _routes.Length; i++)
        {
            if (path.SequenceEqual(_routes[i]))
            {
                return i;
            }
        }

        return -1;
    }
}
