namespace Benchmarks.Load.WebSockets;

/// <summary>One step: the client count and the RTTs (ms, nearest rank) of its sample.</summary>
public sealed record BroadcastStep(int Clients, double PercentileRtt, double MinRtt, double MedianRtt, double MaxRtt);
