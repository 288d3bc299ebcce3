using System.Globalization;
using System.Text.Json.Nodes;
using Benchmarks.Host.Agent.Protocol;
using Microsoft.AspNetCore.Http;

namespace Benchmarks.Host.Agent.Api;

/// <summary>crank's <c>POST /jobs/{id}/measurement?name=…&amp;value=…&amp;timestamp=…</c>: a measurement a job reports for itself.</summary>
internal static class JobMeasurementEndpoint
{
    public static IResult Post(AgentJob job, IQueryCollection query)
    {
        var name = query["name"].ToString();
        if (string.IsNullOrEmpty(name))
        {
            return Results.BadRequest("name is required");
        }

        var text = query["value"].ToString();
        var numeric = double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var number);
        if (numeric && !double.IsFinite(number))
        {
            // JSON has no NaN or infinity: stored, it would make every later answer about the job fail.
            return Results.BadRequest($"value '{text}' is not a finite number");
        }

        JsonNode? value = numeric ? number : text;
        var timestamp = DateTime.TryParse(query["timestamp"], CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal,
            out var parsed) ? parsed : DateTime.UtcNow;
        job.AddMeasurement(name, value, timestamp);
        return Results.Ok();
    }
}
