namespace Benchmarks.IoUring;

/// <summary>What a loop does with each completion of its ring's turn (<see cref="LoopRing.Turn(ILoopCompletions)"/>).</summary>
internal interface ILoopCompletions
{
    void OnCompletion(ulong userData, int result, uint flags);
}
