namespace Benchmarks.Servers.Http;

internal static class StatusReasons
{
    public static ReadOnlySpan<byte> Get(int statusCode) => statusCode switch
    {
        200 => "OK"u8,
        201 => "Created"u8,
        204 => "No Content"u8,
        400 => "Bad Request"u8,
        404 => "Not Found"u8,
        405 => "Method Not Allowed"u8,
        408 => "Request Timeout"u8,
        413 => "Content Too Large"u8,
        414 => "URI Too Long"u8,
        431 => "Request Header Fields Too Large"u8,
        500 => "Internal Server Error"u8,
        503 => "Service Unavailable"u8,
        505 => "HTTP Version Not Supported"u8,
        _ => "Unknown"u8,
    };
}
