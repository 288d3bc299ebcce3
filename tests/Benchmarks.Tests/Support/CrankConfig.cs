using System.Globalization;
using Fluid;
using Fluid.Values;
using YamlDotNet.Serialization;

namespace Benchmarks.Tests.Support;

/// <summary>
/// Reads this repository's crank configurations the way the crank controller combines them —
/// imports merged, variables from the configuration, the job, the scenario and the profile, in
/// that order, the arguments rendered as Liquid templates by Fluid (the template engine crank
/// itself uses; a variable no scope defines is an error here, where crank would render it empty),
/// <c>localFolder</c> resolved from the file's folder,
/// <c>imports:</c> resolved from the current directory as crank does —
/// so tests can run exactly the jobs <c>crank --config … --scenario … --profile …</c> sends.
/// </summary>
internal sealed class CrankConfig
{
    private static readonly FluidParser s_parser = new();

    private readonly Dictionary<string, object?> _root;

    private CrankConfig(Dictionary<string, object?> root, string directory)
    {
        _root = root;
        Directory = directory;
    }

    public string Directory { get; }

    /// <summary>Loads <paramref name="path"/> as crank does when run from <paramref name="workingDirectory"/> (default: the file's folder).</summary>
    public static CrankConfig Load(string path, string? workingDirectory = null)
    {
        var full = Path.GetFullPath(path, workingDirectory ?? Environment.CurrentDirectory);
        return new CrankConfig(LoadMerged(full, workingDirectory ?? Path.GetDirectoryName(full)!), Path.GetDirectoryName(full)!);
    }

    public IReadOnlyCollection<string> Scenarios => Map(_root, "scenarios").Keys;

    public IReadOnlyCollection<string> Profiles => Map(_root, "profiles").Keys;

    public IReadOnlyCollection<string> Jobs => Map(_root, "jobs").Keys;

    /// <summary>The jobs of a scenario as crank would send them, with variables overridden by <paramref name="overrides"/> (crank's --variable).</summary>
    public IReadOnlyList<CrankJob> Render(string scenario, string profile, IReadOnlyDictionary<string, string>? overrides = null)
    {
        var result = new List<CrankJob>();
        var profileNode = Map(Map(_root, "profiles"), profile);
        foreach (var (name, value) in Map(Map(_root, "scenarios"), scenario))
        {
            var scenarioJob = (Dictionary<string, object?>)value!;
            var jobName = (string)scenarioJob["job"]!;
            var job = Map(Map(_root, "jobs"), jobName);
            var variables = new Dictionary<string, string>(StringComparer.Ordinal);
            foreach (var scope in new[] { Map(_root, "variables"), Map(job, "variables"), Map(scenarioJob, "variables"), Map(profileNode, "variables") })
            {
                foreach (var (key, item) in scope)
                {
                    variables[key] = Convert.ToString(item, CultureInfo.InvariantCulture) ?? "";
                }
            }

            foreach (var (key, item) in overrides ?? new Dictionary<string, string>())
            {
                variables[key] = item;
            }

            var arguments = RenderTemplate(jobName, (string?)job.GetValueOrDefault("arguments") ?? "", variables);
            var source = Map(job, "source");
            var localFolder = (string?)source.GetValueOrDefault("localFolder");
            var profileJob = Map(Map(profileNode, "jobs"), name);
            var endpoints = profileJob.GetValueOrDefault("endpoints") as List<object?> ?? [];
            result.Add(new CrankJob(
                name,
                jobName,
                arguments,
                localFolder is null ? null : Path.GetFullPath(Path.Combine(Directory, localFolder)),
                (string?)source.GetValueOrDefault("project"),
                (string?)job.GetValueOrDefault("executable"),
                (string?)job.GetValueOrDefault("readyStateText"),
                string.Equals((string?)job.GetValueOrDefault("isConsoleApp"), "true", StringComparison.OrdinalIgnoreCase),
                string.Equals((string?)job.GetValueOrDefault("waitForExit"), "true", StringComparison.OrdinalIgnoreCase),
                [.. endpoints.Select(e => (string)e!)],
                Convert.ToString(profileJob.GetValueOrDefault("cpuSet") ?? job.GetValueOrDefault("cpuSet"), CultureInfo.InvariantCulture),
                Map(job, "environmentVariables").ToDictionary(p => p.Key,
                    p => RenderTemplate(jobName, Convert.ToString(p.Value, CultureInfo.InvariantCulture) ?? "", variables))));
        }

        return result;
    }

    private static Dictionary<string, object?> LoadMerged(string path, string workingDirectory)
    {
        if (!File.Exists(path))
        {
            // crank's own words for a configuration it cannot find.
            throw new FileNotFoundException($"Configuration '{path}' could not be loaded.", path);
        }

        var yaml = new DeserializerBuilder().Build().Deserialize<Dictionary<object, object?>>(File.ReadAllText(path)) ?? [];
        var root = Normalize(yaml);
        if (root.Remove("imports", out var imports) && imports is List<object?> list)
        {
            foreach (var import in list)
            {
                Merge(root, LoadMerged(Path.GetFullPath((string)import!, workingDirectory), workingDirectory));
            }
        }

        return root;
    }

    private static Dictionary<string, object?> Normalize(Dictionary<object, object?> node) =>
        node.ToDictionary(p => (string)p.Key, p => p.Value switch
        {
            Dictionary<object, object?> child => Normalize(child),
            List<object?> items => (object?)items.Select(i => i is Dictionary<object, object?> d ? Normalize(d) : i).ToList(),
            var other => other,
        }, StringComparer.Ordinal);

    private static void Merge(Dictionary<string, object?> target, Dictionary<string, object?> source)
    {
        foreach (var (key, value) in source)
        {
            if (target.TryGetValue(key, out var existing) && existing is Dictionary<string, object?> a && value is Dictionary<string, object?> b)
            {
                Merge(a, b);
            }
            else
            {
                target[key] = value;
            }
        }
    }

    private static Dictionary<string, object?> Map(Dictionary<string, object?> node, string key) =>
        node.TryGetValue(key, out var value) && value is Dictionary<string, object?> map ? map : [];

    private static string RenderTemplate(string job, string text, IReadOnlyDictionary<string, string> variables)
    {
        if (!s_parser.TryParse(text, out var template, out var error))
        {
            throw new FormatException($"job {job}: '{text}' is not a Liquid template: {error}");
        }

        var missing = new List<string>();
        var options = new TemplateOptions
        {
            Undefined = name =>
            {
                missing.Add(name);
                return ValueTask.FromResult<FluidValue>(NilValue.Instance);
            },
        };
        var context = new TemplateContext(options);
        foreach (var (name, value) in variables)
        {
            context.SetValue(name, value);
        }

        var rendered = template.Render(context);
        return missing.Count == 0 ? rendered : throw new KeyNotFoundException($"job {job}: no variable '{missing[0]}'");
    }
}
