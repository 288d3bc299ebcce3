using System.Buffers;

namespace Benchmarks.Tests.Support;

/// <summary>Builds a multi-segment <see cref="ReadOnlySequence{T}"/>, as a pipe delivers bytes that arrived in pieces.</summary>
internal static class Segments
{
    public static ReadOnlySequence<byte> Split(byte[] bytes, params int[] cuts)
    {
        var bounds = cuts.Where(c => c > 0 && c < bytes.Length).Distinct().Order().Prepend(0).Append(bytes.Length).ToArray();
        if (bounds.Length == 2)
        {
            return new ReadOnlySequence<byte>(bytes);
        }

        Segment? first = null, last = null;
        for (var i = 0; i < bounds.Length - 1; i++)
        {
            var memory = bytes.AsMemory(bounds[i], bounds[i + 1] - bounds[i]).ToArray();
            var segment = new Segment(memory, last?.RunningIndex + last?.Memory.Length ?? 0);
            if (last is null)
            {
                first = segment;
            }
            else
            {
                last.Next = segment;
            }

            last = segment;
        }

        return new ReadOnlySequence<byte>(first!, 0, last!, last!.Memory.Length);
    }

    private sealed class Segment : ReadOnlySequenceSegment<byte>
    {
        public Segment(ReadOnlyMemory<byte> memory, long runningIndex)
        {
            Memory = memory;
            RunningIndex = runningIndex;
        }

        public new Segment? Next
        {
            get => (Segment?)base.Next;
            set => base.Next = value;
        }
    }
}
