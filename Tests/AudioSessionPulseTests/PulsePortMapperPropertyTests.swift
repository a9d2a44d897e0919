import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import PropertyBased
import Testing

extension PulseAudioTests {
  /// Properties of the mapping and the diff over arbitrary synthetic devices, including odd and
  /// missing properties (docs/pulseaudio.md §4: "never a crash", first match wins, fallback).
  @Suite struct PulsePortMapperPropertyTests {
    static let inputOnly: Set<PortType> = [.builtInMic, .headsetMic, .lineIn]
    static let outputOnly: Set<PortType> = [
      .builtInSpeaker, .builtInReceiver, .headphones, .lineOut,
    ]

    // docs/pulseaudio.md §4 row 0 and row 16
    @Test("a device is ignored exactly when it is a monitor or marked internal; otherwise it maps")
    func match_anyDevice_ignoredOnlyForMonitorsAndInternal() async throws {
      let rules = try PulseTestPolicies.rules()
      await propertyCheck(input: Gen.snapshot) { device in
        let markedInternal = ["1", "true", "yes"].contains(
          device.properties["audiosession.internal"])
        let match = PulsePortMapper.match(device, rules: rules)
        #expect((match.outcome == .ignore) == (device.isMonitor || markedInternal))
        #expect(
          (PulsePortMapper.port(for: device, rules: rules) == nil) == (match.outcome == .ignore))
      }
    }

    // docs/pulseaudio.md §4 rows 8-16 (sink = output, source = input)
    @Test("outputs never map to input-only ports, inputs never to output-only ports")
    func portType_anyDevice_respectsDirection() async throws {
      let rules = try PulseTestPolicies.rules()
      await propertyCheck(input: Gen.snapshot) { device in
        guard let type = PulsePortMapper.portType(for: device, rules: rules) else { return }
        let forbidden = device.direction == .output ? Self.inputOnly : Self.outputOnly
        #expect(!forbidden.contains(type), "\(device.direction) mapped to \(type.name)")
      }
    }

    // docs/pulseaudio.md §4 ("first match wins", row 16)
    @Test("the deciding rule is the first whose condition holds, and no rule means the fallback")
    func match_anyDevice_isFirstMatchingRuleOrFallback() async throws {
      let rules = try PulseTestPolicies.rules()
      await propertyCheck(input: Gen.snapshot) { device in
        let match = PulsePortMapper.match(device, rules: rules)
        // Each rule alone: does it match the device?
        let matching = rules.rules.filter { rule in
          PulsePortMapper.match(
            device, rules: PulsePortRules(rules: [rule], fallback: rules.fallback)
          ).rule == rule.name
        }
        #expect(match.rule == matching.first?.name)
        if match.rule == nil {
          #expect(match.outcome == .port(rules.fallback[device.direction]))
        }
      }
    }

  }
}
