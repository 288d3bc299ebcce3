using System.Collections;
using System.Reflection;
using System.Text.Json;

namespace Benchmarks.Host.Store;

/// <summary>
/// Finds the first <c>null</c> a run document holds where its type says there is always a value (read from the
/// properties' nullable annotations): a property, a list's item, a dictionary's value, at any depth of the document's
/// own types. JSON that parses may still hold one (a hand-edited file), and every reader would fail on it later.
/// </summary>
internal static class RunDocumentNulls
{
    private const int MaxDepth = 8;

    /// <summary>The path of the first such null ("trace.methods[0]", "spread[http/rps/mean]"), or null when there is none.</summary>
    public static string? First(object document)
    {
        ArgumentNullException.ThrowIfNull(document);
        return InObject(document, "", new NullabilityInfoContext(), 0);
    }

    private static string? InObject(object value, string path, NullabilityInfoContext context, int depth)
    {
        foreach (var property in value.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance))
        {
            if (property.GetIndexParameters().Length > 0 || property.GetMethod is null || property.SetMethod is null)
            {
                continue;
            }

            var name = path + (path.Length == 0 ? "" : ".") + JsonNamingPolicy.CamelCase.ConvertName(property.Name);
            if (Check(property.GetValue(value), context.Create(property), name, context, depth) is { } found)
            {
                return found;
            }
        }

        return null;
    }

    private static string? Check(object? value, NullabilityInfo info, string path, NullabilityInfoContext context, int depth)
    {
        if (value is null)
        {
            return info.ReadState == NullabilityState.NotNull ? path : null;
        }

        if (depth >= MaxDepth || value is string || value.GetType().IsValueType)
        {
            return null;
        }

        if (value is IDictionary dictionary)
        {
            var values = info.GenericTypeArguments.Length == 2 ? info.GenericTypeArguments[1] : null;
            foreach (DictionaryEntry entry in dictionary)
            {
                if (values is not null && Check(entry.Value, values, $"{path}[{entry.Key}]", context, depth + 1) is { } found)
                {
                    return found;
                }
            }

            return null;
        }

        if (value is IList list)
        {
            var items = info.ElementType ?? (info.GenericTypeArguments.Length == 1 ? info.GenericTypeArguments[0] : null);
            for (var i = 0; i < list.Count; i++)
            {
                if (items is not null && Check(list[i], items, $"{path}[{i}]", context, depth + 1) is { } found)
                {
                    return found;
                }
            }

            return null;
        }

        return value.GetType().Namespace == typeof(Documents.RunDocument).Namespace ? InObject(value, path, context, depth + 1) : null;
    }
}
