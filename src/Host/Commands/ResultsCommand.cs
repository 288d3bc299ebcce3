using System.CommandLine;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Benchmarks.Host.Cli;
using Benchmarks.Host.Runs;
using Benchmarks.Host.Store;
using Benchmarks.Host.Documents;
using Benchmarks.Host.Measurements;
using Benchmarks.Host.Reports;

namespace Benchmarks.Host.Commands;

/// <summary><c>benchmarks results list | show | import | push | export</c>.</summary>
internal static class ResultsCommand
{
    /// <summary>The window's verdict for the list: NOT STEADY stands out; "-" when the run has none.</summary>
    private static string Window(Documents.RunDocument run) => run.Window?.Verdict switch
    {
        "not steady" => "NOT STEADY",
        "empty" => "EMPTY",
        { } verdict => verdict,
        null => "-",
    };

    private static readonly string[] s_headline = [.. MeasurementCatalog.WithRole(MeasurementRole.Headline).Select(m => m.Name)];

    public static Command Create(CliConsole console) => new("results", "Stored runs: list, show, import crank results, push to PostgreSQL, export.")
    {
        List(console), Show(console), Import(console), Push(console), Export(console),
    };

    private static Command List(CliConsole console)
    {
        var stores = new StoreOptionSet();
        var filters = new RunFilterOptionSet();
        var command = new Command("list", "List stored runs, oldest first, with their headline measurement.");
        AddAll(command, stores.All.Concat(filters.All));
        command.SetAction((result, cancellationToken) => StoreCommand.RunAsync(console, async () =>
        {
            var store = stores.Open(result);
            var found = await store.QueryAsync(filters.Query(result), cancellationToken);
            StoreCommand.ReportUnreadable(console, found);
            console.Out.WriteLine($"{"id",-8} {"started (UTC)",-19} {"scenario",-14} {"server",-9} {"load",-5} {"shape",-12} {"os",-8} {"status",-9} " +
                $"{"headline",28}  {"window",-10}  labels");
            foreach (var run in found.Runs)
            {
                var headline = s_headline.FirstOrDefault(run.Measurements.ContainsKey) is { } name
                    ? $"{name} {run.Measurements[name].ToString("N0", CultureInfo.InvariantCulture)}" : "";
                console.Out.WriteLine(TerminalText.Safe($"{RunId.Short(run.Id),-8} {run.StartedAt.UtcDateTime:yyyy-MM-dd HH:mm:ss} {run.Scenario,-14} " +
                    $"{run.Server,-9} {run.Load,-5} {LoadShape.Brief(run),-12} {run.Environment.Os,-8} {run.Status,-9} {headline,28}  {Window(run),-10}  " +
                    $"{string.Join(',', run.Labels)}"));
            }

            console.Out.WriteLine($"{found.Runs.Count} run(s) in {store.Description}");
            return ExitCodes.Success;
        }));
        return command;
    }

    private static Command Show(CliConsole console)
    {
        var stores = new StoreOptionSet();
        var id = new Argument<string>("id") { Description = "Run id as shown (8 characters), the whole id, or any unique prefix of it." };
        var json = new Option<bool>("--json") { Description = "Print the whole run document as JSON." };
        var detail = new Option<bool>("--detail") { Description = "Every measurement, each with its meaning (default: the headline, CPU and network)." };
        var command = new Command("show", "Show one run: its measurements, or its whole document.") { id, json, detail };
        AddAll(command, stores.All);
        command.SetAction((result, cancellationToken) => StoreCommand.RunAsync(console, async () =>
        {
            var store = stores.Open(result);
            var run = await store.FindAsync(result.GetRequiredValue(id), cancellationToken)
                ?? throw new RunLookupException($"no run '{result.GetRequiredValue(id)}' in {store.Description}");
            if (result.GetValue(json))
            {
                console.Out.WriteLine(RunDocumentJson.Serialize(run));
                return ExitCodes.Success;
            }

            console.Out.WriteLine(TerminalText.Safe($"run {run.Id}, started {run.StartedAt:u}, {run.DurationSeconds:0.#} s, load {run.Load}, " +
                $"labels [{string.Join(", ", run.Labels)}]"));
            foreach (var (key, value) in run.Parameters)
            {
                console.Out.WriteLine($"  {key} = {value}");
            }

            ResultTableWriter.Write(console.Out, run, result.GetValue(detail));
            console.Out.WriteLine($"{run.Samples.Count} per-second samples");
            return ExitCodes.Success;
        }));
        return command;
    }

    private static Command Import(CliConsole console)
    {
        var stores = new StoreOptionSet(writes: true);
        var files = new Argument<FileInfo[]>("files") { Description = "crank --json output files.", Arity = ArgumentArity.OneOrMore };
        var labels = new Option<string[]>("--label") { Description = "A label stored with each imported run (repeatable).", Arity = ArgumentArity.ZeroOrMore };
        var command = new Command("import", "Import crank's --json result files as run documents (every result kept).") { files, labels };
        AddAll(command, stores.All);
        command.SetAction((result, cancellationToken) => StoreCommand.RunAsync(console, async () =>
        {
            var store = stores.Open(result);
            var failed = 0;
            foreach (var file in result.GetRequiredValue(files))
            {
                try
                {
                    var run = RunFileImporter.Import(file.FullName, result.GetValue(labels) ?? []);
                    var added = await store.SaveAsync(run, cancellationToken);
                    console.Out.WriteLine($"{file.Name}: {(added ? "imported" : "already stored")} as run {run.Id} ({run.Scenario} on {run.Server}, " +
                        $"{run.Measurements.Count} measurements, {run.Samples.Count} samples)");
                }
                catch (InvalidDataException ex)
                {
                    failed++;
                    console.Error.WriteLine($"error: {ex.Message}");
                }
            }

            return failed == 0 ? ExitCodes.Success : ExitCodes.Failed;
        }));
        return command;
    }

    private static Command Push(CliConsole console)
    {
        var stores = new StoreOptionSet(writes: true);
        var command = new Command("push", "Send the runs kept in the results folder to the PostgreSQL store; runs already there are skipped.");
        AddAll(command, stores.All);
        command.SetAction((result, cancellationToken) => StoreCommand.RunAsync(console, async () =>
        {
            if (RunStores.Database(result.GetValue(stores.Store)) is not { } connectionString)
            {
                throw new ArgumentException($"push needs a PostgreSQL store: --store \"Host=…;Database=…\" or ${RunStores.EnvironmentVariable}.");
            }

            var local = stores.Local(result);
            var found = await local.QueryAsync(RunQuery.All, cancellationToken);
            StoreCommand.ReportUnreadable(console, found);
            await using var database = new PostgresRunStore(connectionString);
            int pushed = 0, present = 0;
            foreach (var run in found.Runs)
            {
                if (await database.SaveAsync(run, cancellationToken))
                {
                    pushed++;
                }
                else
                {
                    present++;
                }
            }

            console.Out.WriteLine($"pushed {pushed} run(s) to {database.Description}; {present} already there");
            return ExitCodes.Success;
        }));
        return command;
    }

    private static Command Export(CliConsole console)
    {
        var stores = new StoreOptionSet();
        var filters = new RunFilterOptionSet();
        var format = new Option<string>("--format") { Description = "json (an array of run documents) or csv (one row per run and measurement).",
            DefaultValueFactory = _ => "json" };
        format.AcceptOnlyFromAmong("json", "csv");
        var output = new Option<FileInfo?>("--output", "-o") { Description = "Write here instead of standard output." };
        var command = new Command("export", "Export runs as JSON or CSV.") { format, output };
        AddAll(command, stores.All.Concat(filters.All));
        command.SetAction((result, cancellationToken) => StoreCommand.RunAsync(console, async () =>
        {
            var found = await stores.Open(result).QueryAsync(filters.Query(result), cancellationToken);
            StoreCommand.ReportUnreadable(console, found);
            var text = result.GetRequiredValue(format) == "csv" ? Csv(found.Runs) : Json(found.Runs);
            if (result.GetValue(output) is { } file)
            {
                await File.WriteAllTextAsync(file.FullName, text, cancellationToken);
                console.Out.WriteLine($"exported {found.Runs.Count} run(s) to {file.FullName}");
            }
            else
            {
                console.Out.Write(text);
            }

            return ExitCodes.Success;
        }));
        return command;
    }

    public static string Csv(IEnumerable<RunDocument> runs)
    {
        var csv = new StringBuilder("run_id,started_at,scenario,server,load,load_shape,os,status,labels,measurement,value,unit\n");
        foreach (var run in runs)
        {
            foreach (var (name, value) in run.Measurements)
            {
                var unit = run.Metadata.TryGetValue(name, out var info) ? info.Unit : "";
                csv.Append(string.Join(',', new[]
                {
                    run.Id, run.StartedAt.UtcDateTime.ToString("O", CultureInfo.InvariantCulture), run.Scenario, run.Server, run.Load, LoadShape.Of(run),
                    run.Environment.Os,
                    run.Status.ToString(), string.Join(';', run.Labels), name, value.ToString("R", CultureInfo.InvariantCulture), unit,
                }.Select(CsvField))).Append('\n');
            }
        }

        return csv.ToString();
    }

    private static string Json(IEnumerable<RunDocument> runs)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            writer.WriteStartArray();
            foreach (var run in runs)
            {
                using var document = JsonDocument.Parse(RunDocumentJson.Serialize(run));
                document.WriteTo(writer);
            }

            writer.WriteEndArray();
        }

        return Encoding.UTF8.GetString(stream.ToArray()) + Environment.NewLine;
    }

    private static string CsvField(string field) =>
        field.IndexOfAny([',', '"', '\n', '\r']) >= 0 ? $"\"{field.Replace("\"", "\"\"", StringComparison.Ordinal)}\"" : field;

    private static void AddAll(Command command, IEnumerable<Option> options)
    {
        foreach (var option in options)
        {
            command.Options.Add(option);
        }
    }
}
