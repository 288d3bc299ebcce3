namespace Benchmarks.Load.Tcp;

/// <summary>Shared by the connections of one TCP load run: the run's switches, nothing besides.</summary>
internal sealed class TcpRunState : Core.LoadSwitches;
