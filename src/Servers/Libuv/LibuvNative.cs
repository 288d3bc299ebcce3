using System.Reflection;
using System.Runtime.InteropServices;

namespace Benchmarks.Servers.Libuv;

/// <summary>
/// The part of libuv's C API this server uses. The library is the OS's <c>libuv.so.1</c> on
/// Linux and <c>libuv.dll</c> on Windows, resolved at run time.
/// </summary>
internal static unsafe partial class LibuvNative
{
    public const string Library = "libuv";
    public const int HandleTypeAsync = 1;
    public const int HandleTypeTcp = 12;
    public const int HandleTypeTimer = 13;
    public const int RequestTypeWrite = 3;
    public const int RequestTypeShutdown = 4;
    public const int RunDefault = 0;
    public const int EndOfFile = -4095;

    private static readonly string[] s_candidates = OperatingSystem.IsWindows() ? ["libuv.dll", "uv.dll"]
        : OperatingSystem.IsMacOS() ? ["libuv.1.dylib", "libuv.dylib"]
        : ["libuv.so.1", "libuv.so"];

    private static readonly Lazy<(IntPtr Handle, string? Error)> s_library = new(Load);

    static LibuvNative()
    {
        NativeLibrary.SetDllImportResolver(typeof(LibuvNative).Assembly, Resolve);
    }

    /// <summary>Null when libuv can be loaded; otherwise why not.</summary>
    public static string? LoadError => s_library.Value.Error;

    public static int EAgain => OperatingSystem.IsWindows() ? -4088 : OperatingSystem.IsMacOS() ? -35 : -11;

    public static string Describe(int status) => Marshal.PtrToStringUTF8(uv_strerror(status)) ?? $"libuv error {status}";

    public static void Check(int status, string call)
    {
        if (status < 0)
        {
            throw new IOException($"{call} failed: {Describe(status)} ({status})");
        }
    }

    /// <summary>Set to a library path to use that libuv build instead of the OS's.</summary>
    public const string PathVariable = "BENCHMARKS_LIBUV_PATH";

    private static (IntPtr, string?) Load()
    {
        if (Environment.GetEnvironmentVariable(PathVariable) is { Length: > 0 } path)
        {
            return NativeLibrary.TryLoad(path, out var chosen)
                ? (chosen, null)
                : (IntPtr.Zero, $"libuv could not be loaded from {path} ({PathVariable}).");
        }

        foreach (var name in s_candidates)
        {
            if (NativeLibrary.TryLoad(name, out var handle))
            {
                return (handle, null);
            }
        }

        var hint = OperatingSystem.IsWindows() ? "put libuv.dll next to the plugin or on PATH" : "install it: sudo apt-get install libuv1";
        return (IntPtr.Zero, $"libuv is not installed ({string.Join(" or ", s_candidates)} not found): {hint}.");
    }

    private static IntPtr Resolve(string name, Assembly assembly, DllImportSearchPath? path) =>
        name == Library ? s_library.Value.Handle : IntPtr.Zero;

    [LibraryImport(Library)]
    public static partial IntPtr uv_strerror(int err);

    [LibraryImport(Library)]
    public static partial nuint uv_loop_size();

    [LibraryImport(Library)]
    public static partial nuint uv_handle_size(int type);

    [LibraryImport(Library)]
    public static partial nuint uv_req_size(int type);

    [LibraryImport(Library)]
    public static partial int uv_loop_init(IntPtr loop);

    [LibraryImport(Library)]
    public static partial int uv_loop_close(IntPtr loop);

    [LibraryImport(Library)]
    public static partial int uv_run(IntPtr loop, int mode);

    [LibraryImport(Library)]
    public static partial int uv_tcp_init(IntPtr loop, IntPtr handle);

    [LibraryImport(Library)]
    public static partial int uv_tcp_open(IntPtr handle, nint socket);

    [LibraryImport(Library)]
    public static partial int uv_tcp_nodelay(IntPtr handle, int enable);

    [LibraryImport(Library)]
    public static partial int uv_listen(IntPtr stream, int backlog, delegate* unmanaged[Cdecl]<IntPtr, int, void> callback);

    [LibraryImport(Library)]
    public static partial int uv_accept(IntPtr server, IntPtr client);

    [LibraryImport(Library)]
    public static partial int uv_read_start(IntPtr stream, delegate* unmanaged[Cdecl]<IntPtr, nuint, UvBuffer*, void> alloc, delegate* unmanaged[Cdecl]<IntPtr,
        nint, UvBuffer*, void> read);

    [LibraryImport(Library)]
    public static partial int uv_try_write(IntPtr stream, UvBuffer* buffers, uint count);

    [LibraryImport(Library)]
    public static partial int uv_write(IntPtr request, IntPtr stream, UvBuffer* buffers, uint count, delegate* unmanaged[Cdecl]<IntPtr, int, void> callback);

    [LibraryImport(Library)]
    public static partial void uv_close(IntPtr handle, delegate* unmanaged[Cdecl]<IntPtr, void> callback);

    [LibraryImport(Library)]
    public static partial int uv_async_init(IntPtr loop, IntPtr handle, delegate* unmanaged[Cdecl]<IntPtr, void> callback);

    [LibraryImport(Library)]
    public static partial int uv_async_send(IntPtr handle);

    [LibraryImport(Library)]
    public static partial int uv_read_stop(IntPtr stream);

    [LibraryImport(Library)]
    public static partial int uv_shutdown(IntPtr request, IntPtr stream, delegate* unmanaged[Cdecl]<IntPtr, int, void> callback);

    [LibraryImport(Library)]
    public static partial int uv_timer_init(IntPtr loop, IntPtr handle);

    [LibraryImport(Library)]
    public static partial int uv_timer_start(IntPtr handle, delegate* unmanaged[Cdecl]<IntPtr, void> callback, ulong timeout, ulong repeat);

    /// <summary>libuv's UV_EMFILE and UV_ENFILE (negated errno on Unix).</summary>
    public static bool IsOutOfDescriptors(int status) => OperatingSystem.IsWindows() ? status is -4066 or -4060 : status is -24 or -23;

    /// <summary>Every libuv handle and request begins with <c>void* data</c>.</summary>
    public static IntPtr GetData(IntPtr handle) => *(IntPtr*)handle;

    public static void SetData(IntPtr handle, IntPtr data) => *(IntPtr*)handle = data;

    public static IntPtr Allocate(nuint size) => (IntPtr)NativeMemory.AllocZeroed(size);

    public static void Free(IntPtr memory) => NativeMemory.Free((void*)memory);
}
