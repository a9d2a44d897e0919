public import AudioSessionCore
import AudioSessionWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The daemon's state file: the configuration of the sessions it holds for the command line, so
/// that they survive a restart of the daemon (issue 4 "Nothing lost").
///
/// `{"v":1,"sessions":[{"name":"music","category":"playback","mode":"default","options":[…],"policy":"default"}]}`,
/// sessions in creation order, options as set (not the implied ones). Every save writes a
/// temporary file beside it, flushes it to disk and renames it over the old one, so a crash
/// leaves either the old or the new file, never a torn one.
public struct SessionStore: Sendable {
  /// One saved session.
  public struct Entry: Sendable, Hashable {
    public var name: String
    public var configuration: SessionConfiguration

    public init(name: String, configuration: SessionConfiguration) {
      self.name = name
      self.configuration = configuration
    }
  }

  /// Why the state file could not be read or written.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
  }

  public let path: String

  public init(path: String) { self.path = path }

  /// The saved sessions; none when the file does not exist.
  public func load() throws(Failure) -> [Entry] {
    guard let bytes = try readFile() else { return [] }
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes)
    } catch {
      throw Failure(description: "state file '\(path)' is not valid JSON: \(error)")
    }
    do throws(WireDecodingError) {
      guard case .object(let root) = value else { throw WireDecodingError("not an object") }
      let reader = WireReader(object: root, path: "state")
      guard try reader.int("v") == 1 else { throw WireDecodingError("unknown version") }
      var entries: [Entry] = []
      for item in try reader.objects("sessions") {
        let session = WireReader(object: item, path: "state session")
        var options: CategoryOptions = []
        for name in try session.strings("options") {
          guard let option = CategoryOption(name: name) else {
            throw WireDecodingError("unknown option '\(name)'")
          }
          options.formUnion(option.bits)
        }
        entries.append(
          Entry(
            name: try session.string("name"),
            configuration: SessionConfiguration(
              category: try session.named("category", Category.self),
              mode: try session.named("mode", Mode.self), options: options,
              // Written since the route-sharing policy exists; older files have none.
              policy: item["policy"] == nil
                ? .default : try session.named("policy", RouteSharingPolicy.self))))
      }
      return entries
    } catch {
      throw Failure(description: "state file '\(path)' is not a session list: \(error.message)")
    }
  }

  /// Replaces the file with these sessions, atomically.
  public func save(_ entries: [Entry]) throws(Failure) {
    let sessions: [JSONValue] = entries.map { entry in
      .object([
        "name": .string(entry.name),
        "category": .string(entry.configuration.category.name),
        "mode": .string(entry.configuration.mode.name),
        "options": .strings(entry.configuration.options.names),
        "policy": .string(entry.configuration.policy.name),
      ])
    }
    let text = JSONObject(dictionaryLiteral: ("v", 1), ("sessions", .array(sessions))).serialized
    try writeAtomically(Array((text + "\n").utf8))
  }

  private func readFile() throws(Failure) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT { return nil }
      throw Failure(description: "cannot read state file '\(path)': \(Self.errorText())")
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "cannot read state file '\(path)': \(Self.errorText())")
      }
      if count == 0 { return bytes }
      bytes += buffer[0..<count]
    }
  }

  private func writeAtomically(_ bytes: [UInt8]) throws(Failure) {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw Failure(description: "cannot write state file '\(temporary)': \(Self.errorText())")
    }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return 0 }
        return write(fd, base + written, buffer.count - written)
      }
      if count < 0 {
        if errno == EINTR { continue }
        let text = Self.errorText()
        close(fd)
        throw Failure(description: "cannot write state file '\(temporary)': \(text)")
      }
      written += count
    }
    let synced = fsync(fd) == 0
    close(fd)
    guard synced, rename(temporary, path) == 0 else {
      throw Failure(description: "cannot replace state file '\(path)': \(Self.errorText())")
    }
  }

  static func errorText() -> String { String(cString: strerror(errno)) }
}
