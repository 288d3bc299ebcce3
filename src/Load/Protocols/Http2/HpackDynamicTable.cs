namespace Benchmarks.Load.Protocols.Http2;

/// <summary>
/// HPACK's dynamic table (RFC 7541, 2.3.2 and 4): the fields the peer chose to index, newest
/// first, evicted oldest first so that the sum of their sizes (name + value + 32 bytes each)
/// stays within the maximum. The bytes live in one array twice the maximum: entries are laid end
/// to end, and when the next does not fit, the live ones move back to the start. Nothing is
/// allocated after construction.
/// </summary>
internal sealed class HpackDynamicTable
{
    private const int EntryOverhead = 32;

    private readonly byte[] _bytes;
    private readonly (int Offset, int NameLength, int ValueLength)[] _entries;
    private readonly int _capacity;
    private int _oldest;
    private int _end;

    /// <param name="capacity">The largest maximum size the table may be set to (what this side advertised).</param>
    public HpackDynamicTable(int capacity)
    {
        _capacity = capacity;
        MaxSize = capacity;
        _bytes = new byte[Math.Max(64, capacity * 2)];
        _entries = new (int, int, int)[(capacity / EntryOverhead) + 1];
    }

    public int Count { get; private set; }

    /// <summary>The sum of the entries' sizes.</summary>
    public int Size { get; private set; }

    public int MaxSize { get; private set; }

    /// <summary>A size update from the peer; false when it exceeds what this side allowed.</summary>
    public bool SetMaxSize(int size)
    {
        if (size < 0 || size > _capacity)
        {
            return false;
        }

        MaxSize = size;
        Evict(0);
        return true;
    }

    /// <summary>Empties the table and restores its maximum, for a new connection.</summary>
    public void Clear()
    {
        MaxSize = _capacity;
        Count = 0;
        Size = 0;
        _oldest = 0;
        _end = 0;
    }

    /// <summary>The name of entry <paramref name="index"/> (1 is the newest).</summary>
    public ReadOnlySpan<byte> Name(int index)
    {
        var entry = Entry(index);
        return _bytes.AsSpan(entry.Offset, entry.NameLength);
    }

    /// <summary>The value of entry <paramref name="index"/> (1 is the newest).</summary>
    public ReadOnlySpan<byte> Value(int index)
    {
        var entry = Entry(index);
        return _bytes.AsSpan(entry.Offset + entry.NameLength, entry.ValueLength);
    }

    /// <summary>
    /// Adds a field as the newest entry, evicting as needed; a field larger than the maximum
    /// empties the table and is not added (RFC 7541, 4.4). Neither span may be this table's own bytes.
    /// </summary>
    public void Add(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var size = name.Length + value.Length + EntryOverhead;
        if (size > MaxSize)
        {
            Count = 0;
            Size = 0;
            _end = 0;
            return;
        }

        Evict(size);
        var length = name.Length + value.Length;
        if (_end + length > _bytes.Length)
        {
            Compact();
        }

        name.CopyTo(_bytes.AsSpan(_end));
        value.CopyTo(_bytes.AsSpan(_end + name.Length));
        _entries[(_oldest + Count) % _entries.Length] = (_end, name.Length, value.Length);
        Count++;
        _end += length;
        Size += size;
    }

    private (int Offset, int NameLength, int ValueLength) Entry(int index) => _entries[(_oldest + Count - index) % _entries.Length];

    /// <summary>Evicts the oldest entries until <paramref name="room"/> more bytes of size fit.</summary>
    private void Evict(int room)
    {
        while (Count > 0 && Size + room > MaxSize)
        {
            var oldest = _entries[_oldest];
            Size -= oldest.NameLength + oldest.ValueLength + EntryOverhead;
            _oldest = (_oldest + 1) % _entries.Length;
            Count--;
        }

        if (Count == 0)
        {
            _end = 0;
        }
    }

    /// <summary>Moves the live entries, oldest first, to the start of the bytes (each moves back, so in order is safe).</summary>
    private void Compact()
    {
        var at = 0;
        for (var i = 0; i < Count; i++)
        {
            var slot = (_oldest + i) % _entries.Length;
            var (offset, nameLength, valueLength) = _entries[slot];
            Buffer.BlockCopy(_bytes, offset, _bytes, at, nameLength + valueLength);
            _entries[slot] = (at, nameLength, valueLength);
            at += nameLength + valueLength;
        }

        _end = at;
    }
}
