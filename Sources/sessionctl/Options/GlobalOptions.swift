import ArgumentParser
import AudioSession
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the policy tables come from and which profile of them applies.
struct PolicyOptions: ParsableArguments {
  @Option(
    name: .customLong("policies"),
    help: ArgumentHelp(
      "The policy directory to load.",
      discussion:
        "Default: $AUDIOSESSION_POLICIES, else ./policies, else the policies/ of the source checkout this tool was built from.",
      valueName: "dir"))
  var directory: String?

  @Option(
    help: ArgumentHelp(
      "The policy profile to apply (see 'sessionctl policy show').", valueName: "name"))
  var profile: String?
}

extension PolicyOptions {
  /// A policy directory that loaded without problems, with the selected profile applied.
  struct Loaded {
    var directory: String
    var policy: Policy
  }

  /// Why the policy tables could not be used.
  enum LoadError: Error, CustomStringConvertible {
    case notFound
    case invalid(directory: String, PolicyValidationError)

    var description: String {
      switch self {
      case .notFound:
        return """
          No policy directory found: pass --policies DIR, set \(PolicyLoader.environmentVariable), \
          or run from a directory that contains policies/.
          """
      case .invalid(let directory, let error):
        let count = error.problems.count
        let noun = count == 1 ? "problem" : "problems"
        return "Policy directory '\(directory)' has \(count) \(noun):\n\(error)"
      }
    }
  }

  /// Loads the policy directory (`directory` overrides `--policies`) and selects `--profile`.
  ///
  /// - Throws: ``LoadError`` when no directory is found or it has problems; `SessionError` for an
  ///   unknown profile.
  func load(directory override: String? = nil) throws -> Loaded {
    guard let directory = PolicyLoader.defaultDirectory(explicit: override ?? directory) else {
      throw LoadError.notFound
    }
    let table: PolicyTable
    do {
      table = try PolicyLoader.load(directory: directory)
    } catch {
      throw LoadError.invalid(directory: directory, error)
    }
    return Loaded(directory: directory, policy: try Policy(table: table, profile: profile))
  }
}

/// `--socket PATH`: where the daemon listens.
struct ConnectionOptions: ParsableArguments {
  @Option(
    name: .customLong("socket"),
    help: ArgumentHelp(
      "The daemon's socket.",
      discussion: "Default: $AUDIOSESSION_SOCKET, else $XDG_RUNTIME_DIR/audiosession/daemon.sock.",
      valueName: "path"))
  var path: String?

  /// The socket to use: `--socket`, else `AUDIOSESSION_SOCKET`, else the default.
  var socketPath: String {
    WireProtocol.socketPath(
      explicit: path, environment: ProcessInfo.processInfo.environment, userID: getuid())
  }
}
