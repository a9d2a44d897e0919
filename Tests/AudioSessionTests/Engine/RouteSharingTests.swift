import Testing

@testable import AudioSession

/// Route-sharing policies (docs/avaudiosession.md §13.3; policies/routes.json `routeSharing`).
@Suite("Route-sharing policy")
struct RouteSharingTests {
  @Test(
    "longFormAudio takes playback with modes default, moviePlayback or spokenAudio and no options; anything else is badParam and changes nothing (docs/avaudiosession.md §13.3)"
  )
  func longForm_limits() throws {
    var h = try EngineHarness()
    #expect(
      h.run(
        .setCategory(
          session: "pod", category: .playback, mode: .spokenAudio, options: [],
          policy: .longFormAudio)
      )
      .error == nil)
    #expect(h.status("pod").configuration.policy == .longFormAudio)
    let before = h.engine.status()
    let refusals: [(EngineInput, String)] = [
      (
        .setCategory(
          session: "pod", category: .playAndRecord, mode: .default, options: [],
          policy: .longFormAudio),
        "route-sharing policy 'longFormAudio' needs category 'playback', not 'playAndRecord'"
      ),
      (
        .setCategory(
          session: "pod", category: .playback, mode: .shortFormVideo, options: [],
          policy: .longFormVideo),
        "route-sharing policy 'longFormVideo' needs mode 'default' or 'moviePlayback' or 'spokenAudio', not 'shortFormVideo'"
      ),
      (
        .setCategory(
          session: "pod", category: .playback, mode: .default, options: [.mixWithOthers],
          policy: .longFormAudio),
        "route-sharing policy 'longFormAudio' takes no category options; options are allowed when changing the policy back to default"
      ),
      (
        .setCategory(
          session: "pod", category: .playback, mode: .default, options: [], policy: .independent),
        "route-sharing policy 'independent' is set by the system; apps may not set it (valid: default, longFormAudio, longFormVideo)"
      ),
    ]
    for (input, message) in refusals {
      let outcome = h.run(input)
      #expect(outcome.error?.code == .badParam)
      #expect(outcome.error?.message == message)
      #expect(h.engine.status() == before)
    }
    // Options are allowed again with the default policy.
    #expect(
      h.run(
        .setCategory(session: "pod", category: .playback, mode: .default, options: [.mixWithOthers])
      )
      .error == nil)
    #expect(h.status("pod").configuration.policy == .default)
  }

  @Test(
    "A device chosen for one long-form session is every long-form session's route; other sessions keep theirs (docs/avaudiosession.md §13.3)"
  )
  func longForm_sharesOneRoute() throws {
    var h = try EngineHarness()
    for name in ["pod", "books"] {
      h.run(
        .setCategory(
          session: name, category: .playback, mode: .spokenAudio, options: [],
          policy: .longFormAudio))
    }
    h.set("music", .playback)
    h.plug("headphones")
    h.plug("usbAudio")
    #expect(h.outputs("pod") == ["usbAudio"])
    let chose = h.choose("headphones-1", .output, for: "pod")
    #expect(h.outputs("pod") == ["headphones"] && h.outputs("books") == ["headphones"])
    #expect(h.outputs("music") == ["usbAudio"])
    #expect(!chose.lines.contains { $0.hasPrefix("music:") })
    // The device goes: the shared choice with it.
    h.unplug("headphones-1")
    #expect(h.outputs("pod") == ["usbAudio"] && h.outputs("books") == ["usbAudio"])
  }
}
