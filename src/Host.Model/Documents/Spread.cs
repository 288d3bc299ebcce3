namespace Benchmarks.Host.Documents;

/// <summary>How one measurement varied over a run's iterations; the run's value is their mean.</summary>
public sealed class Spread
{
    public int Iterations { get; set; }

    public double Mean { get; set; }

    public double Median { get; set; }

    /// <summary>Sample standard deviation (n − 1).</summary>
    public double StandardDeviation { get; set; }

    /// <summary>Coefficient of variation: standard deviation / mean, %.</summary>
    public double CvPercent { get; set; }

    /// <summary>
    /// A 95% confidence interval (Student's t with n − 1 degrees of freedom): of the mean, or, where
    /// every iteration is positive, of the geometric mean (t on the logarithms), which stays above zero.
    /// </summary>
    public double CiLow { get; set; }

    /// <inheritdoc cref="CiLow"/>
    public double CiHigh { get; set; }
}
