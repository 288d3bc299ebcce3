namespace Benchmarks.IoUring;

/// <summary>The completions posted between two reads of the completion ring's head and tail.</summary>
internal readonly unsafe struct CompletionBatch
{
    private readonly Cqe* _cqes;
    private readonly uint _mask;
    private readonly uint _head;

    public CompletionBatch(Cqe* cqes, uint mask, uint head, uint tail)
    {
        _cqes = cqes;
        _mask = mask;
        _head = head;
        Count = tail - head;
    }

    public uint Count { get; }

    public ref readonly Cqe this[uint index] => ref _cqes[(_head + index) & _mask];
}
