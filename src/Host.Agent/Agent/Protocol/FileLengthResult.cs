using System.Globalization;
using Microsoft.AspNetCore.Http;

namespace Benchmarks.Host.Agent.Protocol;

/// <summary>A file result that also sends crank's <c>FileLength</c> header (the size, for the controller's progress display).</summary>
internal sealed class FileLengthResult(IResult inner, long length) : IResult
{
    public Task ExecuteAsync(HttpContext httpContext)
    {
        ArgumentNullException.ThrowIfNull(httpContext);
        httpContext.Response.Headers["FileLength"] = length.ToString(CultureInfo.InvariantCulture);
        return inner.ExecuteAsync(httpContext);
    }
}
