import FoundationEssentials

/// Reads a `policies/` directory into a ``PolicyTable`` (see `policies/README.md`).
///
/// Loading is strict: unknown keys and names, missing rows, cells and switches, wrong types, a
/// missing `schemaVersion`, repeated or dangling references and malformed JSON are all problems.
/// The loader reads every file to the end and reports every problem at once.
public enum PolicyLoader {
  /// The `schemaVersion` every policy file must declare.
  public static let schemaVersion = 1

  /// The files of a policy directory, in the order they are read and problems are reported.
  public static let fileNames = [
    "categories.json", "modes.json", "options.json", "interactions.json", "routes.json",
    "devices.json", "profiles.json",
  ]

  /// The PulseAudio backend's file in a policy directory (read by that backend, not by the
  /// table loader, which only knows it is not a stray file).
  public static let pulseFileName = "pulse.json"

  /// The environment variable that names a policy directory.
  public static let environmentVariable = "AUDIOSESSION_POLICIES"

  /// Loads and validates the policy files in `directory`.
  ///
  /// - Throws: ``PolicyValidationError`` with every problem found, in file order.
  public static func load(directory: String) throws(PolicyValidationError) -> PolicyTable {
    guard isDirectory(directory) else {
      throw PolicyValidationError(problems: [
        PolicyProblem(
          file: directory, keyPath: "",
          message:
            """
            no such policy directory; give a directory that holds \
            \(fileNames.joined(separator: ", "))
            """
        )
      ])
    }
    var problems = unknownFiles(in: directory)
    var nodes: [String: Node] = [:]
    var diagnostics: [String: Diagnostics] = [:]
    for file in fileNames {
      let log = Diagnostics(file: file)
      diagnostics[file] = log
      if let value = parseFile(directory, file, log) {
        nodes[file] = Node(value: value, path: "", diagnostics: log)
      }
    }
    var draft = TableDraft()
    draft.categories = nodes["categories.json"].map(readCategories) ?? [:]
    draft.modes = nodes["modes.json"].map(readModes) ?? [:]
    draft.options = nodes["options.json"].map(readOptions) ?? [:]
    draft.interactions = nodes["interactions.json"].flatMap(readInteractions)
    draft.routes = nodes["routes.json"].flatMap(readRoutes)
    draft.devices = nodes["devices.json"].flatMap(readDevices)
    draft.profiles = nodes["profiles.json"].map(readProfiles)
    crossCheck(&draft, nodes: nodes)
    problems += fileNames.flatMap { diagnostics[$0]?.problems ?? [] }
    // apps.json is optional: without it no other program's stream is arbitrated.
    let appsPath = (directory.hasSuffix("/") ? directory : directory + "/") + appsFileName
    if FileManager.default.fileExists(atPath: appsPath) {
      let log = Diagnostics(file: appsFileName)
      if let value = parseFile(directory, appsFileName, log) {
        draft.apps = readApps(Node(value: value, path: "", diagnostics: log))
      }
      problems += log.problems
    }
    guard problems.isEmpty else { throw PolicyValidationError(problems: problems) }
    return draft.table()
  }

  static func isDirectory(_ path: String) -> Bool {
    var directory = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory
  }

  private static func unknownFiles(in directory: String) -> [PolicyProblem] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    // pulse.json sits beside the table's files; the PulseAudio backend reads it.
    let known = fileNames + [Self.appsFileName, Self.pulseFileName]
    return names.sorted().filter { $0.hasSuffix(".json") && !known.contains($0) }.map {
      PolicyProblem(
        file: $0, keyPath: "",
        message: "unknown policy file; valid files: \(fileNames.joined(separator: ", "))")
    }
  }

  /// Reads and parses one file; records a missing file, bad UTF-8, a syntax error (with line and
  /// column) and duplicate keys.
  package static func parseFile(
    _ directory: String, _ file: String, _ log: Diagnostics
  ) -> JSONValue? {
    let path = directory.hasSuffix("/") ? directory + file : directory + "/" + file
    guard let data = FileManager.default.contents(atPath: path) else {
      log.report("", "missing file; a policy directory holds \(fileNames.joined(separator: ", "))")
      return nil
    }
    guard let text = String(data: data, encoding: .utf8) else {
      log.report("", "the file is not valid UTF-8")
      return nil
    }
    do {
      let (value, duplicates) = try JSONParser.parse(Array(text.utf8), options: .document)
      for duplicate in duplicates {
        log.report(
          duplicate.path,
          """
          key '\(duplicate.key)' appears more than once in the same object (again at line \
          \(duplicate.line))
          """)
      }
      return value
    } catch {
      log.report(
        "", "invalid JSON at line \(error.line), column \(error.column): \(error.message)")
      return nil
    }
  }
}
