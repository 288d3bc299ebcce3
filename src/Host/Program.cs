using Benchmarks.Host.Commands;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Platform;

Wine.AvoidRuntimeCompiledHelpers();

return await BenchmarksCli.InvokeAsync(args, CliConsole.System);
