package import AudioSession
import AudioSessionSystem
import AudioSessionWire

/// The repository's `policies/`, loaded once per process.
package enum TestPolicies {
  private static let loaded: Result<PolicyTable, PolicyValidationError> = {
    do throws(PolicyValidationError) {
      return .success(try PolicyLoader.load(directory: Repository.policies))
    } catch {
      return .failure(error)
    }
  }()

  package static func table() throws -> PolicyTable { try loaded.get() }

  package static func policy(_ profile: String? = nil) throws -> Policy {
    try Policy(table: table(), profile: profile)
  }
}
