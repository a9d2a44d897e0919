import AudioSession
import AudioSessionHost
import AudioSessionPulse
import AudioSessionSystem

#if canImport(Glibc)
  import Glibc
#endif

extension FuzzTarget {
  /// The input up to its first NUL is the snapshot, the rest the journal (none without a NUL);
  /// what is read is sessions, problems and the files they are about
  /// (docs/protocol.md "The state file").
  static func stateFile(_ bytes: [UInt8]) {
    let (snapshot, journal) = split(bytes)
    withScratchFolder { folder in
      let store = SessionStore(path: folder + "/sessions.json")
      folder.write(snapshot, to: store.path)
      if let journal { folder.write(journal, to: store.journalPath) }
      let reading = store.read()
      precondition(reading.problems.count >= reading.spoiled.count || reading.newer != nil)
      for file in reading.spoiled {
        precondition(file == store.path || file == store.journalPath, "a problem names \(file)")
      }
      if reading.newer != nil { precondition(reading.entries.isEmpty) }
      precondition(Set(reading.entries.map(\.name)).count == reading.entries.count)
    }
  }

  /// The paused players' file (docs/mpris.md "A daemon that stops").
  static func pausedPlayers(_ bytes: [UInt8]) {
    withScratchFolder { folder in
      let path = folder + "/paused-players.json"
      folder.write(bytes, to: path)
      var journal = PausedPlayersJournal(path: path)
      _ = try? journal.load()
    }
  }

  /// The input up to its first NUL is the changes file, the rest its intent file; what they list
  /// is undone against a server that shows a stream for each index listed, muted and at the
  /// ducked volumes (docs/apps.md "A daemon that was killed").
  static func changesFile(_ bytes: [UInt8]) {
    let (changes, intents) = split(bytes)
    let server = "unix:/run/user/1000/pulse/native"
    let entries = ChangesFile.listed(changes: changes, intents: intents, server: server).entries
    var snapshot = PulseServerSnapshot()
    for entry in entries {
      var properties: [String: String] = [:]
      if let pid = entry.pid { properties["application.process.id"] = pid }
      switch entry.key.direction {
      case .playback:
        snapshot.sinkInputs.append(
          PulseSinkInput(
            index: entry.key.index, name: "fuzz", sinkIndex: 0, properties: properties,
            isMuted: true, channelVolumes: entry.ducked))
      case .record:
        snapshot.sourceOutputs.append(
          PulseSourceOutput(
            index: entry.key.index, name: "fuzz", sourceIndex: 0, properties: properties,
            isMuted: true))
      }
    }
    _ = ChangesFile.undos(entries, in: snapshot)
    _ = ChangesFile.undos(entries, in: PulseServerSnapshot())
  }

  /// The first byte names the policy file (of those the repository has) that the rest of the
  /// input replaces; the others are the repository's, and the table and the PulseAudio
  /// backend's files are loaded as the daemon loads them (docs/contract.md "Policies").
  static func policy(_ bytes: [UInt8]) {
    let files = FuzzPolicies.files
    guard let first = bytes.first, !files.isEmpty else { return }
    let replaced = Int(first) % files.count
    withScratchFolder { folder in
      for (number, file) in files.enumerated() {
        folder.write(
          number == replaced ? Array(bytes.dropFirst()) : file.bytes, to: folder + "/" + file.name)
      }
      if let table = try? PolicyLoader.load(directory: folder.path) {
        for profile in table.profiles.keys.sorted() {
          _ = try? Policy(table: table, profile: profile)
        }
      }
      _ = try? PulsePolicy.load(directory: folder.path)
    }
  }

  /// A fresh private folder for one run, removed with what was written in it afterwards.
  static func withScratchFolder(_ body: (ScratchFolder) -> Void) {
    let folder = ScratchFolder()
    body(folder)
    folder.remove()
  }
}

/// A private folder in /tmp that knows the files written in it.
final class ScratchFolder {
  let path: String
  private var written: [String] = []

  init() {
    var template = Array("/tmp/audiosession-fuzz-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      preconditionFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    path = String(cString: made)
  }

  static func + (folder: ScratchFolder, name: String) -> String { folder.path + name }

  /// Writes `bytes` as a new file of mode 0600 at `path` (in this folder).
  func write(_ bytes: [UInt8], to file: String) {
    let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot create \(file): \(String(cString: strerror(errno)))")
    precondition(SafeFile.writeAll(fd, bytes), "cannot write \(file)")
    close(fd)
    written.append(file)
  }

  func remove() {
    for file in written { unlink(file) }
    rmdir(path)
  }
}
