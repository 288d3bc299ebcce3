using System.Text;

namespace Benchmarks.Micro;

/// <summary>The bytes the hot paths see under TechEmpower's pipelined plaintext load.</summary>
public static class Payloads
{
    public const int Depth = 16;

    public static byte[] Request { get; } = Encoding.ASCII.GetBytes(
        "GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:5000\r\nAccept: " +
        "text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7\r\nConnection: keep-alive\r\n\r\n");

    public static byte[] Requests { get; } = [.. Enumerable.Repeat(Request, Depth).SelectMany(r => r)];

    public static byte[] Response { get; } = Encoding.ASCII.GetBytes(
        "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\nDate: Sat, 21 Nov 2026 05:11:54 GMT\r\nServer: Kestrel\r\n\r\nHello, World!");

    public static byte[] Responses { get; } = [.. Enumerable.Repeat(Response, Depth).SelectMany(r => r)];
}
