using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Servers.Libuv;

/// <summary>
/// A second descriptor for the listening socket, so a loop can close its libuv listener while out
/// of descriptors and open a new one later without losing the socket or its backlog.
/// </summary>
[UnsupportedOSPlatform("windows")]
internal static partial class UnixDescriptors
{
    /// <summary>A duplicate of <paramref name="descriptor"/>, or -1 (EMFILE) when none is free.</summary>
    public static int Duplicate(nint descriptor) => Dup((int)descriptor);

    [LibraryImport("libc", EntryPoint = "dup")]
    private static partial int Dup(int descriptor);
}
