using System.CommandLine;
using System.Security.Cryptography.X509Certificates;
using Benchmarks.Host.Cli;
using Benchmarks.Servers;

namespace Benchmarks.Host.Commands;

/// <summary>
/// How HTTP travels, for <c>serve</c>, <c>run</c> and <c>verify</c>: <c>--protocol</c>,
/// <c>--tls</c>, and the certificate a TLS server presents (<c>--certificate</c>, or one made at
/// start-up with <c>--certificate-key</c>).
/// </summary>
internal sealed class WireOptionSet
{
    public WireOptionSet()
    {
        Protocol.AcceptOnlyFromAmong([.. HttpWire.Names]);
        Key.AcceptOnlyFromAmong([.. ServerCertificates.KeyNames]);
    }

    public Option<string> Protocol { get; } = new("--protocol") { Description = "http1, https (HTTP/1.1 over TLS, as --tls), h2 (HTTP/2 over TLS, " +
        "chosen by ALPN) or h2c (HTTP/2 without TLS, prior knowledge); a comma list on run is a sweep over them.", DefaultValueFactory = _ => "http1" };

    public Option<bool> Tls { get; } = new("--tls") { Description = "Serve and load over TLS 1.2/1.3 (https://); implied by --protocol h2." };

    public Option<string?> Certificate { get; } = new("--certificate") { Description = "FILE[:password]: the PKCS#12 certificate a TLS server presents; " +
        "default: one made at start-up for localhost." };

    public Option<string> Key { get; } = new("--certificate-key") {
        Description = "The key of the certificate made at start-up: rsa2048, rsa4096 or ecdsa-p256.", DefaultValueFactory = _ => "rsa2048" };

    public IEnumerable<Option> All => [Protocol, Tls, Certificate, Key];

    /// <summary>The wire the options (and an https:// address) ask for.</summary>
    public HttpWire Wire(ParseResult result, bool httpsAddress = false)
    {
        ArgumentNullException.ThrowIfNull(result);
        var wire = Parsed(Protocol, () => HttpWire.Parse(result.GetValue(Protocol) ?? "http1", result.GetValue(Tls) || httpsAddress));
        if (!wire.Tls && (result.GetValue(Certificate) is not null || result.GetResult(Key) is { Implicit: false }))
        {
            throw new UsageException("--certificate and --certificate-key are for a TLS server: add --tls (or --protocol h2).");
        }

        if (wire.Tls && result.GetValue(Certificate) is { Length: > 0 } file)
        {
            // Opened here too, so that a wrong file or password is said before a server starts.
            Parsed(Certificate, () => ServerCertificates.Load(file)).Dispose();
        }

        return wire;
    }

    /// <summary>The certificate a TLS server presents: the file given, or one made now.</summary>
    public X509Certificate2 ServerCertificate(ParseResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        return result.GetValue(Certificate) is { Length: > 0 } file
            ? Parsed(Certificate, () => ServerCertificates.Load(file))
            : ServerCertificates.Create(Parsed(Key, () => ServerCertificates.ParseKey(result.GetValue(Key) ?? "rsa2048")));
    }

    /// <summary>
    /// A value read by the layer that knows it, whose <see cref="ArgumentException"/> begins with the
    /// value and says what is wrong with it; the command line puts the option that gave it in front:
    /// "--protocol 'h3' is not a wire: …".
    /// </summary>
    private static T Parsed<T>(Option option, Func<T> read)
    {
        try
        {
            return read();
        }
        catch (ArgumentException ex)
        {
            throw new UsageException($"{option.Name} {ex.Message}");
        }
    }
}
