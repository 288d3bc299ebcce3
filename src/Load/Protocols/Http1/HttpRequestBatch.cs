using System.Text;
using Benchmarks.Load.Http;

namespace Benchmarks.Load.Protocols.Http1;

/// <summary>The bytes written per batch: <c>depth</c> copies of one GET request, built once.</summary>
internal static class HttpRequestBatch
{
    public static byte[] Build(HttpLoadOptions options)
    {
        var url = options.Url;
        var request = new StringBuilder();
        request.Append("GET ").Append(url.PathAndQuery).Append(" HTTP/1.1\r\n");
        var headers = new List<KeyValuePair<string, string>>
        {
            new("Host", url.IsDefaultPort ? url.Host : $"{url.Host}:{url.Port}"),
            new("Connection", options.KeepAlive ? "keep-alive" : "close"),
        };
        foreach (var header in options.Headers)
        {
            headers.RemoveAll(h => string.Equals(h.Key, header.Key, StringComparison.OrdinalIgnoreCase));
            headers.Add(header);
        }

        foreach (var (name, value) in headers)
        {
            request.Append(name).Append(": ").Append(value).Append("\r\n");
        }

        request.Append("\r\n");
        var one = Encoding.ASCII.GetBytes(request.ToString());
        var batch = new byte[one.Length * options.PipelineDepth];
        for (var i = 0; i < options.PipelineDepth; i++)
        {
            one.CopyTo(batch, i * one.Length);
        }

        return batch;
    }
}
