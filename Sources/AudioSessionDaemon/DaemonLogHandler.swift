public import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's log: one line per event on standard error, `PREFIX: [LEVEL: ]message[ {metadata}]`.
///
/// Info and notice lines carry no level word (`audiosessiond: listening on …`); the others
/// say theirs (`audiosessiond: warning: …`). Metadata follows sorted by key, as
/// `{key=value, …}`; a line break inside a message or a value is written `\n`, so an event stays
/// one line. Under systemd (``standardErrorIsJournal(environment:)``) each line starts with its
/// syslog priority, `<4>` for a warning, which the journal reads as the entry's priority and
/// strips: that is how the user unit logs to the journal without linking libsystemd.
///
/// Each line is one `write(2)` from the thread that logged: no queue, no thread, nothing that
/// wakes an idle daemon.
public struct DaemonLogHandler: LogHandler {
  public var logLevel: Logger.Level
  public var metadata: Logger.Metadata = [:]
  let prefix: String
  let journal: Bool
  let write: @Sendable (String) -> Void

  /// - Parameters:
  ///   - prefix: Starts every line (`audiosessiond`).
  ///   - journal: Starts every line with its syslog priority (`<6>`).
  ///   - write: Receives each line, with its newline (default: standard error).
  public init(
    prefix: String, level: Logger.Level, journal: Bool,
    write: @escaping @Sendable (String) -> Void = DaemonLogHandler.writeToStandardError
  ) {
    self.prefix = prefix
    self.logLevel = level
    self.journal = journal
    self.write = write
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    write(line(event.level, "\(event.message)", metadata.merging(event.metadata ?? [:]) { $1 }))
  }

  /// The line for one event, with its newline.
  func line(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata) -> String {
    var line = journal ? "<\(Self.priority(level))>" : ""
    line += prefix + ": "
    if level != .info, level != .notice { line += "\(level): " }
    line += Self.oneLine(message)
    if !metadata.isEmpty {
      let pairs = metadata.sorted { $0.key < $1.key }.map {
        "\($0.key)=\(Self.oneLine("\($0.value)"))"
      }
      line += " {" + pairs.joined(separator: ", ") + "}"
    }
    return line + "\n"
  }

  /// The syslog priority of a level (`sd-daemon(3)`: `<N>` prefixes on a service's output).
  public static func priority(_ level: Logger.Level) -> Int {
    switch level {
    case .trace, .debug: 7
    case .info: 6
    case .notice: 5
    case .warning: 4
    case .error: 3
    case .critical: 2
    }
  }

  static func oneLine(_ text: String) -> String {
    guard text.contains("\n") else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
  }

  /// Whether standard error is the journal: systemd sets `JOURNAL_STREAM` to `DEVICE:INODE` of
  /// the stream it connects a service's output to (`systemd.exec(5)`), and a child that writes
  /// elsewhere (a terminal, a file) inherits the variable but not the stream.
  public static func standardErrorIsJournal(environment: [String: String]) -> Bool {
    guard let value = environment["JOURNAL_STREAM"] else { return false }
    let parts = value.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
      return false
    }
    var info = stat()
    guard fstat(2, &info) == 0 else { return false }
    return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
  }

  /// Writes `line` to standard error in one `write(2)` (more only if the kernel takes part).
  public static let writeToStandardError: @Sendable (String) -> Void = { line in
    var bytes = Array(line.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }
}
