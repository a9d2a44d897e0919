#if canImport(PortedIOSApps)
  import AudioSessionTestSupport
  import AVFAudio
  import AudioSession
  import AudioSessionClient
  import Foundation
  import PortedIOSApps
  import Testing

  @testable import SessionctlCommands

  // `@objc` observers on Linux: `sessionctl port-ios` made Tests/PortedIOSApps/
  // InterruptionObserver.swift of the iOS original below, and AVFAudio's
  // `NotificationCenter.addObserver(_:selector:name:object:)` runs it (docs/ios-compat.md
  // "Selectors").
  extension PortedAppsTests {
    /// The iOS file, as written for iOS.
    static let selectorOriginal = #"""
      import AVFoundation

      /// A player that observes its session with selectors, as iOS apps written
      /// before block observers do: `@objc` handlers registered with
      /// `addObserver(_:selector:name:object:)`. This file is what
      /// `sessionctl port-ios` made of the iOS original
      /// (PortedAppsTests+Selectors.swift holds both).
      @objcMembers
      public final class InterruptionObserver: NSObject {
        public private(set) var events: [String] = []

        public override init() {
          super.init()
          let center = NotificationCenter.default
          center.addObserver(
            self, selector: #selector(handleInterruption(_:)),
            name: AVAudioSession.interruptionNotification, object: nil)
          center.addObserver(
            self, selector: #selector(self.mediaServicesReset),
            name: AVAudioSession.mediaServicesWereResetNotification, object: nil)
        }

        public func start() throws {
          let session = AVAudioSession.sharedInstance()
          try session.setCategory(.playback, mode: .spokenAudio)
          try session.setActive(true)
        }

        @objc private func handleInterruption(_ notification: Notification) {
          guard let value = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
            let type = AVAudioSession.InterruptionType(rawValue: value)
          else { return }
          events.append(type == .began ? "began" : "ended")
        }

        @objc dynamic func mediaServicesReset() {
          events.append("reset")
        }
      }
      """#

    @Test(
      "port-ios turns the iOS original into the committed InterruptionObserver.swift, and nothing else (docs/ios-compat.md Selectors)"
    )
    func portIOS_original_givesTheCommittedFile() throws {
      let committed = try String(
        contentsOfFile: Repository.root + "/Tests/PortedIOSApps/InterruptionObserver.swift",
        encoding: .utf8)
      let ported = IOSPort.rewrite(Self.selectorOriginal + "\n")
      #expect(ported.text == committed)
      #expect(ported.notes.isEmpty && ported.changed)
    }

    @Test(
      "selector observers are called with the notification or without an argument, in-process and against the daemon (docs/ios-compat.md Selectors)",
      arguments: rigs)
    func interruptionObserver_selectors_areCalled(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let observer = InterruptionObserver()
      try observer.start()
      // The app's selectors append on the thread notifications are posted from, as on iOS;
      // the test reads the app's events on that thread too, never while a later notification
      // may be appending (found by ThreadSanitizer: docs/fuzzing.md "Sanitizers").
      let session = AVAudioSession.sharedInstance()
      func saw(_ event: String) -> Bool {
        session.onNotificationThread { observer.events.contains(event) }
      }
      try AVAudioSession.sharedInstance().setPlaying(true)
      try rig.simulate(.call(active: true))
      #expect(Self.eventually { saw("began") })
      try rig.simulate(.call(active: false))
      #expect(Self.eventually { saw("ended") })
      try rig.simulate(.serverRestart)
      #expect(Self.eventually { saw("reset") })
      await rig.stop()
    }

    @Test(
      "a selector observer is held weakly: no retain cycle, and a post after it went calls nothing (docs/ios-compat.md Selectors)"
    )
    func interruptionObserver_heldWeakly() {
      let center = NotificationCenter()
      final class Counter {
        var count = 0
        func bump() { count += 1 }
      }
      var counter: Counter? = Counter()
      weak let weakCounter = counter
      center.addObserver(
        counter as Any, selector: Selector(Counter.bump), name: .init("tick"), object: nil)
      center.post(name: .init("tick"), object: nil)
      #expect(counter?.count == 1)
      counter = nil
      #expect(weakCounter == nil, "the center keeps no strong reference")
      center.post(name: .init("tick"), object: nil)
      center.post(name: .init("tick"), object: nil)
      // The app's observer, registered on the default center, goes when the app lets it go.
      var observer: InterruptionObserver? = InterruptionObserver()
      weak let weakObserver = observer
      #expect(weakObserver != nil)
      observer = nil
      #expect(weakObserver == nil)
    }
  }
#endif
