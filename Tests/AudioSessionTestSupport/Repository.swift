/// Paths in the source checkout, found from this file's path (docs/style.md §3.5: tests find the
/// repository's `policies/` through `#filePath`, never through `Bundle.module`).
package enum Repository {
  /// The checkout root: this file is `<root>/Tests/AudioSessionTestSupport/Repository.swift`.
  package static let root: String = {
    let components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    return components.dropLast(3).joined(separator: "/")
  }()

  /// The repository's policy directory.
  package static let policies = root + "/policies"
}
