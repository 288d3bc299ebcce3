using System.Diagnostics;
using System.Runtime.InteropServices;
using Benchmarks.IoUring;

// One NOP a turn, N turns, each way alternating for R rounds: nanoseconds per turn, median and range.
var turns = args.Length > 0 ? int.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 1_000_000;
var rounds = args.Length > 1 ? int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture) : 5;
if (!OperatingSystem.IsLinux())
{
    Console.Error.WriteLine("io_uring is Linux's");
    return 2;
}

var raw = new List<double>();
var liburing = new List<double>();
for (var round = 0; round < rounds; round++)
{
    raw.Add(Rings.Raw(turns));
    liburing.Add(Rings.Liburing(turns));
}

Console.WriteLine($"raw system calls (src/IoUring): {Rings.Describe(raw)} ns per turn");
Console.WriteLine($"liburing by P/Invoke (shim):    {Rings.Describe(liburing)} ns per turn");
Console.WriteLine($"liburing / raw: {Rings.Median(liburing) / Rings.Median(raw):0.00}x");
return 0;

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
internal static unsafe partial class Rings
{
    public static double Raw(int turns)
    {
        using var ring = IoUringRing.Create(64, sqPoll: false, out var error) ?? throw new IOException($"io_uring_setup: {error}");
        Turn(ring, 10_000);
        var watch = Stopwatch.StartNew();
        Turn(ring, turns);
        return watch.Elapsed.TotalNanoseconds / turns;
    }

    public static double Liburing(int turns)
    {
        var ring = ShimCreate(64);
        if (ring == 0)
        {
            throw new IOException("io_uring_queue_init failed");
        }

        try
        {
            for (var i = 0; i < 10_000; i++)
            {
                _ = ShimNop(ring);
            }

            var watch = Stopwatch.StartNew();
            for (var i = 0; i < turns; i++)
            {
                if (ShimNop(ring) < 0)
                {
                    throw new IOException("a NOP failed");
                }
            }

            return watch.Elapsed.TotalNanoseconds / turns;
        }
        finally
        {
            ShimDestroy(ring);
        }
    }

    public static double Median(List<double> values) => values.Order().ElementAt(values.Count / 2);

    public static string Describe(List<double> values) => $"{Median(values),6:0} ({values.Min():0}-{values.Max():0})";

    private static void Turn(IoUringRing ring, int turns)
    {
        for (var i = 0; i < turns; i++)
        {
            var sqe = ring.Next();
            sqe->Opcode = 0; // IORING_OP_NOP
            sqe->UserData = 1;
            if (ring.Submit(1) < 0)
            {
                throw new IOException("io_uring_enter failed");
            }

            var batch = ring.Completions();
            ring.Advance(batch.Count);
        }
    }

    [LibraryImport("iouring-shim", EntryPoint = "shim_create")]
    private static partial nint ShimCreate(uint entries);

    [LibraryImport("iouring-shim", EntryPoint = "shim_nop")]
    private static partial int ShimNop(nint ring);

    [LibraryImport("iouring-shim", EntryPoint = "shim_destroy")]
    private static partial void ShimDestroy(nint ring);
}
