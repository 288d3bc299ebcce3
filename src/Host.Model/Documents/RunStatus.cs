using System.Text.Json.Serialization;

namespace Benchmarks.Host.Documents;

[JsonConverter(typeof(JsonStringEnumConverter<RunStatus>))]
public enum RunStatus
{
    Succeeded,
    Failed,
}
