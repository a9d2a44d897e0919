import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Where a program finds the policy directory when none is named (`policies/README.md`,
/// "Where the policies are found").
///
/// The order: `$AUDIOSESSION_POLICIES`; the user's own copy,
/// `$XDG_CONFIG_HOME/audiosession/policies` (`~/.config/audiosession/policies`); the directory
/// installed with the program, `../share/audiosession/policies` from the folder of the running
/// executable (so a program installed under any prefix, or staged under a `DESTDIR`, finds its
/// own); last, for a development build only, the `policies/` of the source checkout it was built
/// from. The current directory is not searched: a `policies/` folder that happens to be there is
/// not the user's choice of policy (`--policies ./policies` says so when it is).
extension PolicyLoader {
  /// The user's override, relative to `$XDG_CONFIG_HOME` (default `~/.config`).
  public static let userDirectorySuffix = "audiosession/policies"

  /// The installed directory, relative to the prefix (`PREFIX/bin/sessionctl` →
  /// `PREFIX/share/audiosession/policies`).
  public static let installedDirectorySuffix = "share/audiosession/policies"

  /// One place the default lookup looked, and what it found there.
  public struct SearchedPlace: Sendable, Equatable {
    /// What the place is, as a person reads it: `$AUDIOSESSION_POLICIES`, ….
    public var name: String
    /// The directory looked at; nil when the place does not apply (a variable not set).
    public var path: String?
    /// Why it was not used; nil for the place chosen.
    public var skipped: String?
  }

  /// The outcome of the default lookup: every place looked at, in order, and the directory chosen.
  public struct Search: Sendable, Equatable {
    public var places: [SearchedPlace]
    /// The directory to load; nil when no place has one.
    public var directory: String?

    /// One line per place, numbered, for an error message that says where the lookup looked.
    public var report: String {
      places.enumerated().map { index, place in
        let path = place.path.map { "\($0) " } ?? ""
        let outcome = place.skipped ?? "used"
        return "  \(index + 1). \(place.name): \(path)(\(outcome))"
      }.joined(separator: "\n")
    }
  }

  /// The policy directory to use: `explicit` if given, else the first place of the default lookup
  /// that has one; nil when none does.
  public static func defaultDirectory(explicit: String?) -> String? {
    if let explicit { return explicit }
    return search().directory
  }

  /// The default lookup for this process: its environment, its executable, its source checkout,
  /// and last `packaged`, the tables shipped as the package's resources when the caller has them
  /// (`EmbeddedAudioSystem()`: a test of a package that depends on this one).
  public static func search(packaged: String? = nil) -> Search {
    search(
      environment: ProcessInfo.processInfo.environment, executable: runningExecutable(),
      checkoutRoot: sourceCheckoutRoot, packaged: packaged)
  }

  /// The default lookup, with its inputs given.
  ///
  /// - Parameters:
  ///   - executable: The running program's resolved path (nil: unknown).
  ///   - checkoutRoot: The source checkout this code was compiled in; its `policies/` is used
  ///     only by a program that runs from inside that checkout (a development build).
  static func search(
    environment: [String: String], executable: String?, checkoutRoot: String,
    packaged: String? = nil
  ) -> Search {
    var places: [SearchedPlace] = []
    func consider(_ name: String, _ path: String?, unusable: String? = nil) -> String? {
      if let path, unusable == nil, isDirectory(path) {
        places.append(SearchedPlace(name: name, path: path, skipped: nil))
        return path
      }
      places.append(SearchedPlace(name: name, path: path, skipped: unusable ?? "no such directory"))
      return nil
    }
    func found(_ directory: String) -> Search { Search(places: places, directory: directory) }

    let variable = "$\(environmentVariable)"
    if let value = environment[environmentVariable], !value.isEmpty {
      // Named by the user: used as given, and loading says if it is not a policy directory.
      places.append(SearchedPlace(name: variable, path: value, skipped: nil))
      return found(value)
    }
    places.append(SearchedPlace(name: variable, path: nil, skipped: "not set"))

    let (userName, user) = userDirectory(environment)
    if let directory = consider(userName, user, unusable: user == nil ? "HOME not set" : nil) {
      return found(directory)
    }

    let installed = executable.map(installedDirectory(executable:))
    let installedName = "installed with \(executable ?? "this program")"
    if let directory = consider(
      installedName, installed, unusable: installed == nil ? "executable path unknown" : nil)
    {
      return found(directory)
    }

    let checkout = join(checkoutRoot, "policies")
    let inside = executable.map { $0.hasPrefix(join(checkoutRoot, "")) } ?? false
    let notDevelopment = "only for a program run from inside that checkout"
    if let directory = consider(
      "source checkout", checkout, unusable: inside ? nil : notDevelopment)
    {
      return found(directory)
    }
    if let packaged, let directory = consider("the package's resources", packaged) {
      return found(directory)
    }
    return Search(places: places, directory: nil)
  }

  /// `$XDG_CONFIG_HOME/audiosession/policies`, or `$HOME/.config/…` when `XDG_CONFIG_HOME` is
  /// unset, empty or relative (the XDG base directory rules); nil without a home.
  static func userDirectory(_ environment: [String: String]) -> (name: String, path: String?) {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return ("$XDG_CONFIG_HOME/\(userDirectorySuffix)", join(config, userDirectorySuffix))
    }
    let name = "~/.config/\(userDirectorySuffix)"
    guard let home = environment["HOME"], home.hasPrefix("/") else { return (name, nil) }
    return (name, join(join(home, ".config"), userDirectorySuffix))
  }

  /// `PREFIX/share/audiosession/policies` for the executable `PREFIX/bin/NAME`.
  static func installedDirectory(executable: String) -> String {
    let folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
    let prefix = folder.deletingLastPathComponent().standardizedFileURL.path
    return join(prefix, installedDirectorySuffix)
  }

  /// The running program's path with symbolic links resolved (`/proc/self/exe`), so that a link
  /// in `~/bin` to an installed program finds the directory installed beside the program.
  static func runningExecutable() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The source checkout this file was compiled in: it is
  /// `<checkout>/Sources/AudioSession/Policy/…`, with symbolic links resolved like the executable.
  static var sourceCheckoutRoot: String {
    let components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    let root = components.dropLast(4).joined(separator: "/")
    return URL(fileURLWithPath: root).resolvingSymlinksInPath().path
  }

  private static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }
}
