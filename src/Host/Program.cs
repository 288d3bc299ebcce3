using Benchmarks.Host.Commands;
using Benchmarks.Host.Cli;

return await BenchmarksCli.InvokeAsync(args, CliConsole.System);
