namespace Benchmarks.Servers;

/// <summary>The key of a certificate the tool makes for a TLS server: what a handshake signs with.</summary>
public enum CertificateKey
{
    /// <summary>RSA 2048-bit: what most servers present, and the default.</summary>
    Rsa2048,

    /// <summary>RSA 4096-bit: a handshake's signature costs the server several times more.</summary>
    Rsa4096,

    /// <summary>ECDSA on P-256: the cheap signature.</summary>
    EcdsaP256,
}
