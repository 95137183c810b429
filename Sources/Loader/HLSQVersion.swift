/// The version of hlsq, shown by `hlsq --version` and sent in the HTTP User-Agent.
public enum HLSQVersion {
    public static let current = "0.1.0"
}
