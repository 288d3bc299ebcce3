using System.Runtime.InteropServices;

namespace Benchmarks.Servers.Libuv;

/// <summary>
/// libuv's <c>uv_buf_t</c>: <c>{ char* base; size_t len; }</c> on Unix, <c>{ ULONG len; char* base; }</c>
/// on Windows. Explicit layout covers both: the fields are placed per OS at construction.
/// </summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct UvBuffer
{
    private nint _first;
    private nint _second;

    public UvBuffer(byte* data, int length)
    {
        if (OperatingSystem.IsWindows())
        {
            _first = length;
            _second = (nint)data;
        }
        else
        {
            _first = (nint)data;
            _second = length;
        }
    }
}
