import AudioSession
import AudioSessionSystem
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// What the backend changed on other programs' streams, kept in a file
/// (``PulseBackendConfiguration/changesFile``), so that a daemon that is killed (SIGKILL, a
/// crash) leaves nothing muted or ducked for good: the next daemon on the same server undoes
/// it when it first connects (docs/apps.md "A daemon that was killed").
///
/// The files' format and what a later daemon undoes are ``ChangesFile``'s; the backend writes
/// the changes file after each decision that changes what it lists (removed when nothing is),
/// appends an intent line before each mute or ducking, and undoes a killed daemon's on its first
/// connection.
extension PulseAudioBackend {
  /// The changes file and its intent file.
  struct Journal {
    /// Writes the changes file off the engine's thread.
    let writer: PulseJournalWriter
    /// What the changes file lists, to write it only when that changes; nil: not written yet.
    var entries: [ChangesFile.Entry]?
    /// The intent file beside the changes file, open for appending once the first mute or
    /// ducking is listed there; -1 while there is none (``appendIntent(_:)``).
    var intentFile: Int32 = -1
  }

  /// Writes the changes file if what it would hold changed. Called after every decision: the
  /// list is compared first, and only a changed one is written out as JSON.
  func writeJournal() {
    guard let path = configuration.changesFile else { return }
    var entries: [ChangesFile.Entry] = []
    for (key, state) in otherStreamStates.sorted(by: { $0.key < $1.key })
    where state.mutedByUs || state.savedVolumes != nil {
      entries.append(journalEntry(key, state))
    }
    guard entries != journal.entries else { return }
    journal.entries = entries
    // Nothing left to undo: the intents listed before are void.
    if entries.isEmpty { emptyIntents() }
    journal.writer.write(ChangesFile.text(entries, server: serverDescription), to: path)
  }

  /// One stream's line of the changes file.
  private func journalEntry(
    _ key: ServerStream.Key, _ state: OtherStreamState
  ) -> ChangesFile.Entry {
    let properties = report.reported[key]?.properties ?? [:]
    return ChangesFile.Entry(
      key: key, pid: properties["application.process.id"], muted: state.mutedByUs,
      volumes: state.savedVolumes, ducked: state.savedVolumes.map(duckedVolumes),
      shown: state.savedVolumes == nil ? state.lastVolumes : nil,
      restoreName: state.restoreName
        ?? PulseStreamRestoreEntry.name(of: properties, direction: key.direction))
  }

  /// Lists a mute or a ducking before its request is sent (write-ahead, docs/apps.md "A daemon that
  /// was killed"): one line appended to the intent file beside the changes file, the stream as the
  /// changes file lists it, with the server. A daemon killed at any moment after the request leaves
  /// it listed, and the next daemon undoes it. One `write` of a short line, no file made or
  /// renamed, so the mute waits for no more than that (the whole changes file, written beside and
  /// renamed, cost the mute about 0.5 ms at p50 in pulse-bench section 3).
  func appendIntent(_ key: ServerStream.Key) {
    guard let state = otherStreamStates[key], openIntentFile() else { return }
    _ = SafeFile.writeAll(journal.intentFile, intentLine(key, state))
  }

  /// Opens the intent file if it is not open; false when there is none (no changes file, or it
  /// cannot be opened: said once per attempt).
  private func openIntentFile() -> Bool {
    guard journal.intentFile < 0 else { return true }
    guard let path = configuration.changesFile else { return false }
    do {
      journal.intentFile = try SafeFile.openAppending(ChangesFile.intentPath(path))
      return true
    } catch {
      configuration.logger.warning(
        "\(error); a daemon killed now would leave other programs' streams as they are")
      return false
    }
  }

  /// A stream's line of the intent file: as the changes file lists it, with the server.
  private func intentLine(_ key: ServerStream.Key, _ state: OtherStreamState) -> [UInt8] {
    ChangesFile.intentLine(journalEntry(key, state), server: serverDescription)
  }

  /// Arms the unplug guard with the playback streams assigned to sessions, each with its intent
  /// line as a muted stream (``PulseUnplugGuard``); the intent file is opened if it is not.
  func armUnplugGuard() {
    var armed: [UInt32: [UInt8]] = [:]
    for key in otherAssignment.sessions.keys where key.direction == .playback {
      var state = otherStreamStates[key] ?? OtherStreamState()
      state.mutedByUs = true
      armed[key.index] = intentLine(key, state)
    }
    if !armed.isEmpty { _ = openIntentFile() }
    unplugGuard.arm(armed, intentFile: journal.intentFile)
  }

  /// Takes in what the unplug guard muted before a snapshot of `sequence` settled (`shown`: the
  /// latest snapshot): a stream the model did not mute as a rescued one
  /// (``silenceRescuedStreams(from:to:)`` runs first) and that is still there is unmuted again,
  /// so that no mute stays that the model does not know of. The backend's stop takes all.
  func reconcileUnplugGuard(_ shown: PulseServerSnapshot, before sequence: Int, _ link: Link) {
    for index in unplugGuard.takeFired(before: sequence) {
      let key = ServerStream.Key(.playback, index)
      guard otherStreamStates[key]?.mutedByUs != true,
        shown.sinkInputs.contains(where: { $0.index == index })
      else { continue }
      configuration.logger.debug(
        "another program's stream \(key), muted as its sink went, is not one the model silences; unmuted",
        metadata: ["server": "\(serverDescription)"])
      link.context.setSinkInputMute(index, muted: false) { _ in }
    }
  }

  /// Empties the intent file when nothing is left to undo, and keeps it open: the next mute's
  /// line is then one `write` into a file that exists. Closed and removed each time instead, the
  /// file was made anew before the first mute of each call or unplug, which cost that mute 0.14
  /// ms at p50 and 1.2 ms at p99 on a loaded 2-core machine (pulse-bench sections 3 and 4,
  /// docs/apps.md "Speed"). A clean stop removes it (``removeIntents(_:)``).
  func emptyIntents() {
    guard journal.intentFile >= 0 else { return }
    // Not while the unplug guard's intent lines are the only ones listing a stream it muted.
    let file = journal.intentFile
    unplugGuard.unlessFired { _ = ftruncate(file, 0) }
  }

  /// Closes and removes the intent file (nothing is left to undo, or this daemon undid it).
  func removeIntents(_ path: String) {
    unplugGuard.disarm()
    if journal.intentFile >= 0 {
      close(journal.intentFile)
      journal.intentFile = -1
    }
    unlink(ChangesFile.intentPath(path))
  }

  /// On the first connection: undoes what a daemon before this one left in the changes file,
  /// on the streams still there that have exactly what it gave them, and in the stream database
  /// for those that are gone; the file is removed first (this daemon writes its own).
  func undoJournal(_ snapshot: PulseServerSnapshot) async {
    guard let path = configuration.changesFile, let link else { return }
    // What a daemon killed in the middle of a write left beside it.
    SafeFile.removeTemporaries(of: path)
    // The mutes and duckings it listed before sending them: this daemon lists its own.
    let intentPath = ChangesFile.intentPath(path)
    let intents = try? SafeFile.read(intentPath)
    // This user's own regular file only: a link or another user's file is not read.
    var data: [UInt8]?
    do {
      data = try SafeFile.read(path)
    } catch {
      removeIntents(path)
      configuration.logger.warning(
        "\(error); nothing a previous daemon left on other programs' streams is undone",
        metadata: ["server": "\(serverDescription)"])
      return
    }
    let listed = ChangesFile.listed(
      changes: data, intents: intents, server: serverDescription)
    // A damaged file is moved aside, never removed, and what could be read of it is undone.
    if listed.intentsDamaged {
      unplugGuard.disarm()
      if journal.intentFile >= 0 {
        close(journal.intentFile)
        journal.intentFile = -1
      }
      keepDamaged(intentPath, listed.entries.count)
    } else {
      removeIntents(path)
    }
    if data != nil {
      if listed.changesDamaged { keepDamaged(path, listed.entries.count) } else { unlink(path) }
      journal.entries = nil
    }
    let entries = listed.entries
    var undone = 0
    var gone: [ChangesFile.Entry] = []
    for undo in ChangesFile.undos(entries, in: snapshot) {
      switch undo {
      case .unmute(let key):
        sendMute(key, false, on: link)
        undone += 1
      case .setVolumes(let index, let volumes):
        link.context.setSinkInputVolume(index, to: volumes) { _ in }
        undone += 1
      case .gone(let entry): gone.append(entry)
      }
    }
    if undone > 0 {
      configuration.logger.notice(
        "undid \(undone) change(s) a previous daemon left on other programs' streams",
        metadata: ["server": "\(serverDescription)", "file": "\(path)"])
    }
    guard !gone.isEmpty else { return }
    // As for a stream that goes while this daemon runs: on pipewire-pulse WirePlumber may give
    // the program's next stream the old entry before it has taken the written one, and the
    // inheritance watch undoes that.
    for left in gone {
      guard let name = left.restoreName else { continue }
      inheritances.wentChanged(
        LeftBehind(muted: left.muted, ducked: left.ducked, original: left.volumes), entry: name)
    }
    await undoInDatabase(gone, on: link.context)
    // WirePlumber 0.5 takes nothing written: its saved state is repaired through a stream.
    guard endpoint.flavor == .pipewire else { return }
    for left in gone where left.muted || left.volumes != nil {
      guard let name = left.restoreName else { continue }
      track {
        await self.repairSavedState(entry: name, muted: left.muted, original: left.volumes)
      }
    }
  }

  /// Moves a changes or intent file that could not be read whole aside (`<file>.bad-<UTC
  /// time>`), and says so: it is kept for a person to look at, and what could be read of it is
  /// undone.
  private func keepDamaged(_ file: String, _ readable: Int) {
    let metadata: Logger.Metadata = ["server": "\(serverDescription)"]
    do {
      let aside = try SafeFile.moveAside(file)
      configuration.logger.warning(
        "'\(file)' is damaged (cut short or altered); moved aside, as it was, to '\(aside)'; undoing the \(readable) stream(s) a previous daemon changed that could still be read of it and its intent file",
        metadata: metadata)
    } catch {
      configuration.logger.warning(
        "'\(file)' is damaged (cut short or altered) and cannot be moved aside (\(error)); it is left as it is; undoing the \(readable) stream(s) that could still be read of it and its intent file",
        metadata: metadata)
    }
  }

  /// Gives the server's stream database entries of streams that went what they had before the
  /// killed daemon changed them, as ``forgetChanges(_:of:)`` does for a stream that goes while
  /// the daemon runs: a listed entry that holds what it gave them is written back; a server
  /// that lists none (pipewire-pulse) gets the entry written anew. Returns once the server has
  /// taken the writes (the next stream of the program must find them).
  private func undoInDatabase(_ gone: [ChangesFile.Entry], on context: PulseContext) async {
    let entries = (try? await context.streamRestoreEntries()) ?? []
    for left in gone {
      guard let name = left.restoreName else { continue }
      var entry: PulseStreamRestoreEntry
      if let listed = entries.first(where: { $0.name == name }) {
        entry = listed
        var changed = false
        if left.muted, entry.isMuted {
          entry.isMuted = false
          changed = true
        }
        if let volumes = left.volumes, let ducked = left.ducked, entry.volumes == ducked {
          entry.volumes = volumes
          changed = true
        }
        guard changed else { continue }
      } else {
        // A new entry needs volumes: the ones before the ducking, else the ones shown.
        guard let volumes = left.volumes ?? left.shown else { continue }
        entry = PulseStreamRestoreEntry(
          name: name,
          channelPositions: PulseStreamRestoreEntry.defaultPositions(count: volumes.count),
          volumes: volumes, device: nil, isMuted: false)
      }
      context.writeStreamRestore(entry) { _ in }
    }
    // A reply comes after every request sent before it on the connection.
    _ = try? await context.serverInfo()
  }
}
