import AudioSession
import AudioSessionSystem

/// What every run of a target shares: the repository's policies, read once, and the thread the
/// daemon cores run on.
enum FuzzPolicies {
  /// The checkout root: this file is `<root>/Fuzz/Targets/FuzzPolicies.swift`.
  static let root: String = {
    let components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    return components.dropLast(3).joined(separator: "/")
  }()

  /// The repository's policy directory.
  static let directory = root + "/policies"

  /// The repository's policies as files, name and contents.
  static let files: [(name: String, bytes: [UInt8])] = {
    let names = PolicyLoader.fileNames + ["apps.json", PolicyLoader.pulseFileName]
    return names.compactMap { name in
      guard let bytes = try? SafeFile.read(directory + "/" + name) else { return nil }
      return (name, bytes)
    }
  }()

  static let table: PolicyTable? = try? PolicyLoader.load(directory: directory)

  static let policy: Policy? = table.flatMap { try? Policy(table: $0, profile: nil) }

  /// One engine thread for every daemon core a target starts.
  static let executor = DedicatedThreadExecutor(name: "fuzz-engine")
}
