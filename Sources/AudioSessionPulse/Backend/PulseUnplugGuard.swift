import AudioSessionSystem
import Synchronization

/// Mutes, on the connection's loop thread, the other programs' playback streams that sit on a
/// sink as its removal is seen: the headphones went, and the server moves (PulseAudio) or
/// WirePlumber relinks (PipeWire) the streams to the speaker, where they are heard until muted.
/// Done by the backend's actor, the mute waited for the burst to settle and a hop to the actor's
/// executor, which on a loaded machine let WirePlumber relink first and the music be heard for
/// about 10 ms (docs/apps.md "On the server").
///
/// The actor arms the streams assigned to sessions, each with the line the intent file lists
/// for it muted (write-ahead, as every mute: a daemon killed after this mute leaves it undone by
/// the next one). What is fired is handed back to the actor with the snapshot sequence it came
/// at: a snapshot after it shows the sink gone, the model mutes the stream as a rescued one
/// (``OtherStreamsModel/silenceRescued(from:to:into:)``), and a stream the model did not take
/// is unmuted again, so nothing stays muted that the model does not know of.
final class PulseUnplugGuard: Sendable {
  private struct State {
    /// Playback stream index → its intent line (ending in a newline).
    var armed: [UInt32: [UInt8]] = [:]
    /// Fired streams → the sequence of the last snapshot settled before the fire.
    var fired: [UInt32: Int] = [:]
    /// The intent file, open while anything is armed; -1 when there is none.
    var intentFile: Int32 = -1
  }

  private let state = Mutex(State())

  /// Replaces what is armed (called by the actor whenever the assignment changes).
  func arm(_ streams: [UInt32: [UInt8]], intentFile: Int32) {
    state.withLock {
      $0.armed = streams
      $0.intentFile = intentFile
    }
  }

  /// Forgets everything (a new connection: the indices meant the old one's streams).
  func disarm() {
    state.withLock { $0 = State() }
  }

  /// On the loop thread: of `streams` (the ones on a sink being removed), each armed one not
  /// fired yet is listed in the intent file, then muted by `mute`. `sequence` is the last
  /// settled snapshot's.
  func fire(_ streams: [UInt32], sequence: Int, mute: (UInt32) -> Void) {
    state.withLock { state in
      for index in streams where state.fired[index] == nil {
        guard let line = state.armed[index] else { continue }
        if state.intentFile >= 0 { _ = SafeFile.writeAll(state.intentFile, line) }
        state.fired[index] = sequence
        mute(index)
      }
    }
  }

  /// The fired streams that a snapshot of `sequence` has taken in (fired before it settled);
  /// they are no longer the guard's.
  func takeFired(before sequence: Int) -> [UInt32] {
    state.withLock { state in
      let taken = state.fired.filter { $0.value < sequence }.keys.sorted()
      for index in taken { state.fired[index] = nil }
      return taken
    }
  }

  /// Runs `body` (emptying the intent file) unless a fired stream is still to be taken in: its
  /// intent line is the only one that lists it until the model mutes it too.
  func unlessFired(_ body: () -> Void) {
    state.withLock { state in
      if state.fired.isEmpty { body() }
    }
  }
}
