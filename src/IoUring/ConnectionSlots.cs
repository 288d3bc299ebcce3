namespace Benchmarks.IoUring;

/// <summary>
/// A loop's connections by slot, for the user data its submissions carry: an operation code in the
/// low byte, the slot in the next three, and the slot's generation in the high four. A slot freed
/// and taken again has a new generation, so a completion still on its way for the old connection
/// finds no one and is dropped.
/// </summary>
internal sealed class ConnectionSlots<T>
    where T : class
{
    private readonly Stack<int> _free = new();
    private T?[] _items = new T?[64];
    private uint[] _generations = new uint[64];

    /// <summary>Slots ever used: every connection is below it.</summary>
    public int Used { get; private set; }

    /// <summary>Connections held.</summary>
    public int Count { get; private set; }

    public static ulong Data(byte op, int slot, uint generation) => op | ((ulong)(uint)slot << 8) | ((ulong)generation << 32);

    /// <summary>A free slot and its generation, for the connection <see cref="Set"/> then puts there.</summary>
    public (int Slot, uint Generation) Reserve()
    {
        if (!_free.TryPop(out var slot))
        {
            slot = Used++;
            if (slot == _items.Length)
            {
                Array.Resize(ref _items, slot * 2);
                Array.Resize(ref _generations, slot * 2);
            }
        }

        return (slot, _generations[slot]);
    }

    public void Set(int slot, T item)
    {
        _items[slot] = item;
        Count++;
    }

    /// <summary>The connection a completion's user data names, or null when its slot has moved on.</summary>
    public T? Get(ulong userData)
    {
        var slot = (int)((userData >> 8) & 0xFFFFFF);
        return slot < Used && _generations[slot] == (uint)(userData >> 32) ? _items[slot] : null;
    }

    /// <summary>The connection in <paramref name="slot"/> now, if any.</summary>
    public T? At(int slot) => _items[slot];

    public void Release(int slot)
    {
        _items[slot] = null;
        _generations[slot]++;
        _free.Push(slot);
        Count--;
    }
}
