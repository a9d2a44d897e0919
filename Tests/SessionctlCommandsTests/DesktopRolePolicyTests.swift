import AudioSession
import AudioSessionScenario
import Testing

@testable import SessionctlCommands

/// `simulate role-policy on|off` (docs/contract.md "Desktop steps"): what WirePlumber 0.5's
/// example role policy does to other programs' streams is heard on top of the daemon's
/// decisions (docs/apps.md "Beside WirePlumber's role policy").
@Suite struct DesktopRolePolicyTests {
  typealias Steps = DesktopStepsTests
  static let tone = "simulate program tone start --binary pacat --app-name soak-tone"

  @Test(
    "with the role policy on, a program that mixes and starts during a call is corked by WirePlumber and heard at 0; off, the daemon lets it play beside the call (docs/contract.md Desktop steps)"
  )
  func heard_programDuringCall_isCorkedByTheRolePolicy() async throws {
    let off = try await Steps.run([Steps.mpv, Steps.call, Self.tone, "heard"])
    #expect(Steps.heard(off) == ["mpv": 0, "call": 1, "tone": 1])
    let on = try await Steps.run([
      "simulate role-policy on", Steps.mpv, Steps.call, Self.tone, "heard",
    ])
    #expect(Steps.heard(on) == ["mpv": 0, "call": 1, "tone": 0])
    // The call ends: WirePlumber links the lower roles again, and the daemon plays mpv.
    let after = try await Steps.run([
      "simulate role-policy on", Steps.mpv, Steps.call, Self.tone, "simulate program call stop",
      "heard",
    ])
    #expect(Steps.heard(after) == ["mpv": 1, "call": 0, "tone": 1])
    let offAgain = try await Steps.run([
      "simulate role-policy on", "simulate role-policy off", Steps.mpv, Steps.call, Self.tone,
      "heard",
    ])
    #expect(Steps.heard(offAgain) == ["mpv": 0, "call": 1, "tone": 1])
  }

  @Test(
    "the role policy takes the roles as pipewire-pulse translates them: phone is Communication and corks, event is Notification, no role is Multimedia, navigation ducks to 0.3 (docs/apps.md PipeWire roles, docs/pulseaudio.md §2.2)"
  )
  func action_byRole_followsTheExample() {
    #expect(DesktopRolePolicy.sink(forRole: nil).name == "multimedia")
    #expect(DesktopRolePolicy.sink(forRole: "music").name == "multimedia")
    #expect(DesktopRolePolicy.sink(forRole: "a11y").name == "multimedia")
    #expect(DesktopRolePolicy.sink(forRole: "event").name == "notification")
    #expect(DesktopRolePolicy.sink(forRole: "phone").name == "communication")
    #expect(DesktopRolePolicy.action(forRole: "music", playing: ["music", "phone"]) == .cork)
    #expect(DesktopRolePolicy.action(forRole: "event", playing: ["phone"]) == .cork)
    #expect(DesktopRolePolicy.action(forRole: "phone", playing: ["phone", "music"]) == .mix)
    #expect(DesktopRolePolicy.action(forRole: nil, playing: ["event"]) == .mix)
    #expect(DesktopRolePolicy.action(forRole: "music", playing: ["Navigation"]) == .duck)
    #expect(
      DesktopRolePolicy.action(forRole: "music", playing: ["Navigation", "Communication"]) == .cork)
  }

  @Test(
    "simulate role-policy takes on or off, and typed at a shell is refused (docs/contract.md Desktop steps)"
  )
  func parse_rolePolicy() throws {
    let plan = try Steps.plan(["simulate role-policy on", "simulate role-policy off"])
    #expect(plan.actions == [.desktop(.rolePolicy(true)), .desktop(.rolePolicy(false))])
    #expect(Steps.problems(["simulate role-policy maybe"])?.contains("maybe") == true)
  }
}
