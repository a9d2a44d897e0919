/// The package's version, in one place: `sessionctl --version` prints it (issue 25 item 8).
/// Raise it with each release that changes what users see.
public enum PackageVersion {
  public static let current = "0.1.0"
}
