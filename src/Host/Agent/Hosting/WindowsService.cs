using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace Benchmarks.Host.Agent.Hosting;

/// <summary>
/// Runs the agent as a Windows service: hands the main thread to the service control manager
/// (StartServiceCtrlDispatcher), reports Running once started, and turns the SCM's Stop and
/// Shutdown controls into cancellation.
/// </summary>
[SupportedOSPlatform("windows")]
internal static unsafe partial class WindowsService
{
    private const int ServiceWin32OwnProcess = 0x10;
    private const int StateStopped = 1;
    private const int StateStartPending = 2;
    private const int StateStopPending = 3;
    private const int StateRunning = 4;
    private const int AcceptStop = 0x1;
    private const int AcceptShutdown = 0x4;
    private const int ControlStop = 1;
    private const int ControlShutdown = 5;

    private static readonly CancellationTokenSource Stop = new();
    private static Func<CancellationToken, Task<int>>? body;
    private static nint statusHandle;
    private static int exitCode;
    private static nint serviceName;

    /// <summary>Blocks until the service stops; returns the agent's exit code.</summary>
    public static int Run(string name, Func<CancellationToken, Task<int>> run)
    {
        body = run;
        serviceName = Marshal.StringToHGlobalUni(name);
        var table = stackalloc ServiceTableEntry[2];
        table[0] = new ServiceTableEntry { Name = (char*)serviceName, Proc = &ServiceMain };
        table[1] = default;
        if (StartServiceCtrlDispatcher(table) == 0)
        {
            throw new InvalidOperationException($"not started by the service control manager (error {Marshal.GetLastPInvokeError()}); run 'benchmarks agent' without --windows-service from a console");
        }

        return exitCode;
    }

    [UnmanagedCallersOnly]
    private static void ServiceMain(int argc, char** argv)
    {
        statusHandle = RegisterServiceCtrlHandlerEx((char*)serviceName, &Handler, 0);
        Report(StateStartPending, 0);
        try
        {
            var task = body!(Stop.Token);
            Report(StateRunning, 0);
            exitCode = task.GetAwaiter().GetResult();
        }
        catch (Exception)
        {
            exitCode = 1;
        }

        Report(StateStopped, exitCode);
    }

    [UnmanagedCallersOnly]
    private static int Handler(int control, int eventType, nint eventData, nint context)
    {
        if (control is ControlStop or ControlShutdown)
        {
            Report(StateStopPending, 0);
            Stop.Cancel();
        }

        return 0;
    }

    private static void Report(int state, int code)
    {
        var status = new ServiceStatus
        {
            ServiceType = ServiceWin32OwnProcess,
            CurrentState = state,
            ControlsAccepted = state == StateRunning ? AcceptStop | AcceptShutdown : 0,
            Win32ExitCode = code,
            WaitHint = state is StateStartPending or StateStopPending ? 30_000 : 0,
        };
        SetServiceStatus(statusHandle, &status);
    }

    [LibraryImport("advapi32.dll", EntryPoint = "StartServiceCtrlDispatcherW", SetLastError = true)]
    private static partial int StartServiceCtrlDispatcher(ServiceTableEntry* table);

    [LibraryImport("advapi32.dll", EntryPoint = "RegisterServiceCtrlHandlerExW", SetLastError = true)]
    private static partial nint RegisterServiceCtrlHandlerEx(char* name, delegate* unmanaged<int, int, nint, nint, int> handler, nint context);

    [LibraryImport("advapi32.dll", EntryPoint = "SetServiceStatus", SetLastError = true)]
    private static partial int SetServiceStatus(nint handle, ServiceStatus* status);

    [StructLayout(LayoutKind.Sequential)]
    private struct ServiceTableEntry
    {
        public char* Name;
        public delegate* unmanaged<int, char**, void> Proc;
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct ServiceStatus
    {
        public int ServiceType;
        public int CurrentState;
        public int ControlsAccepted;
        public int Win32ExitCode;
        public int ServiceSpecificExitCode;
        public int CheckPoint;
        public int WaitHint;
    }
}
