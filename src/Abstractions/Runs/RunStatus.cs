using System.Text.Json.Serialization;

namespace Benchmarks.Runs;

[JsonConverter(typeof(JsonStringEnumConverter<RunStatus>))]
public enum RunStatus
{
    Succeeded,
    Failed,
}
