using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Benchmarks.Servers;

/// <summary>
/// The certificate a TLS server presents: one given as a PKCS#12 file, or one made at start-up,
/// self-signed for localhost and the loopback addresses. The load does not check it (a benchmark
/// measures the handshake, not a trust chain), as wrk and h2load do not.
/// </summary>
public static class ServerCertificates
{
    /// <summary>The names <c>--certificate-key</c> takes.</summary>
    public static IReadOnlyList<string> KeyNames { get; } = ["rsa2048", "rsa4096", "ecdsa-p256"];

    /// <summary>A key's name; any other is an <see cref="ArgumentException"/> whose message begins with it.</summary>
    public static CertificateKey ParseKey(string text) => text.Trim().ToLowerInvariant() switch
    {
        "rsa2048" or "rsa" => CertificateKey.Rsa2048,
        "rsa4096" => CertificateKey.Rsa4096,
        "ecdsa-p256" or "ecdsa" or "p256" => CertificateKey.EcdsaP256,
        _ => throw new ArgumentException($"'{text}' is not a key: {string.Join(", ", KeyNames)}."),
    };

    /// <summary>A self-signed server certificate for localhost, 127.0.0.1 and ::1, valid for a day, with its private key.</summary>
    public static X509Certificate2 Create(CertificateKey key)
    {
        var subject = new X500DistinguishedName("CN=localhost");
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        names.AddIpAddress(IPAddress.IPv6Loopback);
        using var rsa = key == CertificateKey.EcdsaP256 ? null : RSA.Create(key == CertificateKey.Rsa4096 ? 4096 : 2048);
        using var ecdsa = key == CertificateKey.EcdsaP256 ? ECDsa.Create(ECCurve.NamedCurves.nistP256) : null;
        var request = rsa is not null
            ? new CertificateRequest(subject, rsa, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1)
            : new CertificateRequest(subject, ecdsa!, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, false));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(
            rsa is not null ? X509KeyUsageFlags.DigitalSignature | X509KeyUsageFlags.KeyEncipherment : X509KeyUsageFlags.DigitalSignature, false));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false));
        var now = DateTimeOffset.UtcNow;
        using var made = request.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(1));

        // Through PKCS#12 and back: Windows' TLS (SChannel) needs a key it can find, not the ephemeral one made above.
        return X509CertificateLoader.LoadPkcs12(made.Export(X509ContentType.Pkcs12), password: null);
    }

    /// <summary>
    /// Reads <c>FILE[:password]</c>: a PKCS#12 file with its private key. Throws
    /// <see cref="ArgumentException"/> with a one-line cause, beginning with the file, when it cannot be used.
    /// </summary>
    public static X509Certificate2 Load(string argument)
    {
        ArgumentNullException.ThrowIfNull(argument);

        // A password follows the last ':' unless that ':' is a Windows drive's (C:\…).
        var split = argument.LastIndexOf(':');
        var (path, password) = split > 1 ? (argument[..split], argument[(split + 1)..]) : (argument, null);
        if (!File.Exists(path))
        {
            throw new ArgumentException($"'{path}': no such file.");
        }

        X509Certificate2 certificate;
        try
        {
            certificate = X509CertificateLoader.LoadPkcs12FromFile(path, password);
        }
        catch (CryptographicException ex)
        {
            throw new ArgumentException($"'{path}' is not a PKCS#12 file this password opens ({ex.Message.TrimEnd('.')}).", ex);
        }

        if (!certificate.HasPrivateKey)
        {
            certificate.Dispose();
            throw new ArgumentException($"'{path}' holds no private key, and a server needs one.");
        }

        return certificate;
    }

    /// <summary>A one-line description: the subject, the key and its size.</summary>
    public static string Describe(X509Certificate2 certificate)
    {
        ArgumentNullException.ThrowIfNull(certificate);
        using var rsa = certificate.GetRSAPublicKey();
        using var ecdsa = certificate.GetECDsaPublicKey();
        var key = rsa is not null ? $"RSA {rsa.KeySize}" : ecdsa is not null ? $"ECDSA P-{ecdsa.KeySize}" : certificate.PublicKey.Oid.FriendlyName;
        return $"{certificate.Subject}, {key}";
    }
}
