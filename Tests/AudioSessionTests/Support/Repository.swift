/// Paths in the source checkout, found from this file's path (docs/style.md §3.5: tests find the
/// repository's `policies/` through `#filePath`, never through `Bundle.module`).
enum Repository {
  /// The checkout root: this file is `<root>/Tests/AudioSessionTests/Support/Repository.swift`.
  static let root: String = {
    let components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    return components.dropLast(4).joined(separator: "/")
  }()

  /// The repository's policy directory.
  static let policies = root + "/policies"
}
