using System.Reflection;
using System.Reflection.Emit;

namespace Benchmarks.Tests.Architecture;

/// <summary>
/// The folder-to-folder references of a compiled assembly, read from what the compiler emitted
/// rather than from the source text: every type's base type, interfaces, fields, properties,
/// method signatures and every member its method bodies touch (IL tokens resolved through the
/// module). A name written partly qualified, an alias or a <c>global::</c> prefix compiles to the
/// same reference, so none of them escapes. A folder is the namespace segment after
/// <paramref name="root"/> (<c>Benchmarks.Host.Runs</c> → <c>Runs</c>), or its first two where the
/// first groups folders (<c>Benchmarks.Load.Engines.Epoll</c> → <c>Engines.Epoll</c>); types directly
/// in the root namespace belong to no folder.
/// </summary>
internal static class CompiledReferences
{
    private static readonly Dictionary<short, OpCode> s_opCodes = typeof(OpCodes).GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!).ToDictionary(o => o.Value);

    /// <summary>Each reference from one folder to another: (from, to) → the first type seen making it.</summary>
    public static IReadOnlyDictionary<(string From, string To), string> Edges(Assembly assembly, string root, params string[] groups) =>
        Edges([assembly], root, groups);

    /// <summary>The same over several assemblies that share the root namespace (the host's projects).</summary>
    public static IReadOnlyDictionary<(string From, string To), string> Edges(IEnumerable<Assembly> assemblies, string root, params string[] groups)
    {
        var edges = new Dictionary<(string, string), string>();
        foreach (var type in assemblies.SelectMany(a => a.GetTypes()))
        {
            if (Folder(type, root, groups) is not { } from)
            {
                continue;
            }

            foreach (var used in Used(type))
            {
                if (Folder(used, root, groups) is { } to && to != from)
                {
                    edges.TryAdd((from, to), type.FullName ?? type.Name);
                }
            }
        }

        return edges;
    }

    /// <summary>The folder a type belongs to (nested and generated types by their outermost type's namespace); null outside the root.</summary>
    public static string? Folder(Type type, string root, params string[] groups)
    {
        while (type.IsNested)
        {
            type = type.DeclaringType!;
        }

        var name = type.Namespace ?? "";
        if (!name.StartsWith(root + ".", StringComparison.Ordinal))
        {
            return null;
        }

        var rest = name[(root.Length + 1)..];
        var parts = rest.Split('.');
        return parts.Length > 1 && groups.Contains(parts[0], StringComparer.Ordinal) ? parts[0] + "." + parts[1] : parts[0];
    }

    /// <summary>Every type a compiled type refers to (signatures and method bodies).</summary>
    public static IEnumerable<Type> Uses(Type type) => Used(type);

    private static IEnumerable<Type> Used(Type type)
    {
        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        var found = new List<Type>();
        if (type.BaseType is { } baseType)
        {
            found.Add(baseType);
        }

        found.AddRange(type.GetInterfaces());
        found.AddRange(type.GetFields(all).Select(f => f.FieldType));
        found.AddRange(type.GetProperties(all).Select(p => p.PropertyType));
        foreach (var method in type.GetMethods(all).Cast<MethodBase>().Concat(type.GetConstructors(all)))
        {
            found.AddRange(method.GetParameters().Select(p => p.ParameterType));
            if (method is MethodInfo info)
            {
                found.Add(info.ReturnType);
            }

            found.AddRange(BodyReferences(method));
        }

        return found.SelectMany(Expand);
    }

    /// <summary>A type with its element type and generic arguments, recursively.</summary>
    private static IEnumerable<Type> Expand(Type type)
    {
        yield return type;
        if (type.HasElementType && type.GetElementType() is { } element)
        {
            foreach (var inner in Expand(element))
            {
                yield return inner;
            }
        }

        if (type.IsGenericType && !type.IsGenericTypeDefinition)
        {
            foreach (var argument in type.GetGenericArguments().SelectMany(Expand))
            {
                yield return argument;
            }
        }
    }

    /// <summary>The types whose members (or which themselves) the method's IL names.</summary>
    private static IEnumerable<Type> BodyReferences(MethodBase method)
    {
        foreach (var member in BodyMembers(method))
        {
            if (member is Type named)
            {
                yield return named;
            }
            else if (member.DeclaringType is { } declaring)
            {
                yield return declaring;
            }
        }
    }

    /// <summary>The types, methods and fields the method's IL names (calls, loads, tokens), resolved through its module.</summary>
    public static IEnumerable<MemberInfo> BodyMembers(MethodBase method)
    {
        ArgumentNullException.ThrowIfNull(method);
        byte[]? il;
        try
        {
            il = method.GetMethodBody()?.GetILAsByteArray();
        }
        catch (Exception ex) when (ex is InvalidOperationException or BadImageFormatException)
        {
            yield break;
        }

        if (il is null)
        {
            yield break;
        }

        var typeArguments = method.DeclaringType?.IsGenericType == true ? method.DeclaringType.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        for (var i = 0; i < il.Length;)
        {
            var code = il[i] == 0xFE ? s_opCodes[(short)(0xFE00 | il[i + 1])] : s_opCodes[il[i]];
            i += code.Size;
            switch (code.OperandType)
            {
                case OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineType or OperandType.InlineTok:
                    var token = BitConverter.ToInt32(il, i);
                    MemberInfo? member = null;
                    try
                    {
                        member = method.Module.ResolveMember(token, typeArguments, methodArguments);
                    }
                    catch (Exception ex) when (ex is ArgumentException or BadImageFormatException or TypeLoadException)
                    {
                    }

                    if (member is not null)
                    {
                        yield return member;
                    }

                    i += 4;
                    break;
                case OperandType.InlineSwitch:
                    i += 4 + (BitConverter.ToInt32(il, i) * 4);
                    break;
                case OperandType.InlineNone:
                    break;
                case OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar:
                    i += 1;
                    break;
                case OperandType.InlineVar:
                    i += 2;
                    break;
                case OperandType.InlineI8 or OperandType.InlineR:
                    i += 8;
                    break;
                default:
                    i += 4;
                    break;
            }
        }
    }
}
