import AudioSession
import AudioSessionSystem
import Logging
import Synchronization

/// Programs that keep their stream open and running between sounds (speech-dispatcher keeps
/// its streams uncorked for seconds after it speaks, and for as long as a screen reader stays
/// connected): a rule's `inactiveAfterSilence` makes such a stream count as paused once it has
/// been silent that long, and as playing again from its first sound (docs/apps.md "Speech").
/// The backend listens to each one with a ``PulseLevelMeter`` and reports it corked while
/// silent, so its app session deactivates (notifying others: the music comes back) as an iOS
/// app's does when its utterance ends.
extension PulseAudioBackend {
  /// A peak at or below this (about -60 dBFS) is silence.
  static let silenceThreshold: Float = 0.001

  /// The level meters on streams whose silence counts as a pause (``updateSilenceMeters()``),
  /// the streams silent for their limit (reported as corked), and the ticker that checks the
  /// meters' silence while any runs (``checkSilence()``).
  struct Silence {
    var meters: [ServerStream.Key: SilenceMeter] = [:]
    var silent: Set<ServerStream.Key> = []
    var ticker: Task<Void, Never>?
  }

  /// One stream's meter and the silence it counts.
  struct SilenceMeter: Sendable {
    let meter: PulseLevelMeter
    /// The sink the meter listens on (the stream's when it started).
    let sink: String
    let state: SilenceState
  }

  /// Silent since when, and whether the limit was reached. Peaks come on the loop thread, the
  /// backend's checks from its own: both under the lock.
  final class SilenceState: Sendable {
    let limit: UInt64
    /// How long no peak at all counts as silence: three times the limit. Quiet peaks say the
    /// stream is silent; no peaks may say only that the machine is busy (the meter's record
    /// stream starved: on PipeWire with both cores taken, no peak came for over a second while
    /// speech-dispatcher spoke, and the music came back for 0.8 s mid-sentence).
    let peaklessLimit: UInt64
    private let heard = Mutex(
      (lastSound: MonotonicInstant.now(), lastPeak: MonotonicInstant.now(), silent: false))

    init(milliseconds: Int) {
      limit = UInt64(max(0, milliseconds)) &* 1_000_000
      peaklessLimit = limit &* 3
    }

    /// Takes in a peak; returns the new audibility when it changes.
    func take(_ peak: Float) -> Bool? {
      let now = MonotonicInstant.now()
      return heard.withLock { heard in
        if peak > PulseAudioBackend.silenceThreshold {
          heard.lastSound = now
          guard heard.silent else { return nil }
          heard.silent = false
          return true
        }
        heard.lastPeak = now
        return Self.quiet(&heard, now: now, limit: limit)
      }
    }

    /// Whether the limit of silence was reached and no sound came since.
    var isSilent: Bool { heard.withLock { $0.silent } }

    /// Whether the stream has now been quiet for the limit, the last peaks quiet, or with no
    /// peak at all for ``peaklessLimit`` (a server may send no peaks while the stream sends
    /// nothing): false when that changes it, else nil.
    func check() -> Bool? {
      let now = MonotonicInstant.now()
      return heard.withLock { heard in
        let peakless = now.nanoseconds &- heard.lastPeak.nanoseconds
        return Self.quiet(&heard, now: now, limit: peakless >= limit ? peaklessLimit : limit)
      }
    }

    private static func quiet(
      _ heard: inout (lastSound: MonotonicInstant, lastPeak: MonotonicInstant, silent: Bool),
      now: MonotonicInstant, limit: UInt64
    ) -> Bool? {
      guard !heard.silent, now.nanoseconds &- heard.lastSound.nanoseconds >= limit else {
        return nil
      }
      heard.silent = true
      return false
    }
  }

  /// Starts a meter for each assigned playback stream with a silence limit that has none (or
  /// whose stream moved to another sink), and stops those no longer wanted.
  func updateSilenceMeters() {
    // On every snapshot: nothing to do unless a rule asks for silence (most desktops: none).
    guard !otherAssignment.silenceLimits.isEmpty || !silence.meters.isEmpty, !stopped, let link,
      let snapshot
    else { return }
    let wanted = otherAssignment.silenceLimits
    for key in silence.meters.keys.sorted() where wanted[key] == nil {
      stopSilenceMeter(key)
    }
    for (key, limit) in wanted.sorted(by: { $0.key < $1.key }) {
      guard let input = snapshot.sinkInputs.first(where: { $0.index == key.index }),
        let device = snapshot.devices.first(where: {
          $0.direction == .output && $0.index == input.sinkIndex
        })
      else { continue }
      let sink = device.name
      // On a loopback sink (WirePlumber's role sinks) pipewire-pulse 1.4 sends a meter of a
      // pulse client's stream no data at all (docs/pulseaudio.md §2.2): the stream would pass
      // for silent while it speaks. Its cork state counts instead.
      if device.isLoopbackSink {
        if silence.meters[key] != nil { stopSilenceMeter(key) }
        continue
      }
      if let running = silence.meters[key] {
        guard running.sink != sink else { continue }
        stopSilenceMeter(key)
      }
      startSilenceMeter(key, limit: limit, sink: sink, on: link)
    }
  }

  private func startSilenceMeter(
    _ key: ServerStream.Key, limit: Int, sink: String, on link: Link
  ) {
    let state = SilenceState(milliseconds: limit)
    let meter: PulseLevelMeter
    do {
      meter = try PulseLevelMeter(context: link.context, sinkInput: key.index) {
        [weak self] peak in
        guard state.take(peak) != nil else { return }
        Task { await self?.heard(key, state: state) }
      }
    } catch {
      configuration.logger.debug("cannot listen to another program's stream \(key): \(error)")
      return
    }
    silence.meters[key] = SilenceMeter(meter: meter, sink: sink, state: state)
    if silence.ticker == nil {
      silence.ticker = Task { [weak self] in
        while !Task.isCancelled {
          try? await TimerThread.sleep(for: .milliseconds(200))
          guard let self, await self.checkSilence() else { return }
        }
      }
    }
    Task { [weak self] in
      do throws(PulseError) {
        try await meter.connect(toMonitorOf: sink)
      } catch {
        await self?.meterFailed(key, meter: meter, error: error)
      }
    }
  }

  /// A meter that could not connect (its stream went meanwhile, most often) is dropped.
  private func meterFailed(_ key: ServerStream.Key, meter: PulseLevelMeter, error: PulseError) {
    guard silence.meters[key]?.meter === meter else { return }
    configuration.logger.debug("cannot listen to another program's stream \(key): \(error)")
    stopSilenceMeter(key)
  }

  private func stopSilenceMeter(_ key: ServerStream.Key) {
    silence.meters.removeValue(forKey: key)?.meter.disconnect()
    if silence.silent.remove(key) != nil, let snapshot { reportOtherStreams(snapshot) }
  }

  /// Stops every meter (the backend stops, or the connection is gone).
  func stopSilenceMeters() {
    for meter in silence.meters.values { meter.meter.disconnect() }
    silence.meters = [:]
    silence.silent = []
    silence.ticker?.cancel()
    silence.ticker = nil
  }

  /// Five times a second while meters run: a stream quiet for its limit is taken as paused
  /// even when no peak came to say so. False once no meter is left (the ticker stops).
  private func checkSilence() -> Bool {
    guard !silence.meters.isEmpty, !stopped else {
      silence.ticker = nil
      return false
    }
    for (key, running) in silence.meters.sorted(by: { $0.key < $1.key }) {
      if running.state.check() == false { heard(key, state: running.state) }
    }
    return true
  }

  /// A meter's stream fell silent for its limit, or sounded again: reported as corked or
  /// uncorked, as the state says now (the reports hop to the backend in tasks, which may run
  /// in another order than the peaks came). A stream the backend muted is silent because of
  /// that, not by itself: left as it was.
  private func heard(_ key: ServerStream.Key, state: SilenceState) {
    guard silence.meters[key]?.state === state, let snapshot else { return }
    let audible = !state.isSilent
    if audible {
      guard silence.silent.remove(key) != nil else { return }
    } else {
      guard otherStreamStates[key]?.mutedByUs != true, silence.silent.insert(key).inserted
      else { return }
    }
    let heard = audible ? "heard again: playing" : "silent: taken as paused"
    configuration.logger.debug("another program's stream \(key) is \(heard)")
    reportOtherStreams(snapshot)
    stateChanged()
  }
}
