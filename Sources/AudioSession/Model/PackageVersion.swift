/// The package's version, in one place: `sessionctl --version` prints it (docs/contract.md
/// "Commands"). Raise it with each release that changes what users see.
public enum PackageVersion {
  public static let current = "0.1.0"
}
