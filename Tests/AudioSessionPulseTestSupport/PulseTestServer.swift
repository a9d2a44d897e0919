import AudioSession
package import AudioSessionPulse
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Testing

/// Simulated devices of docs/pulseaudio.md §1.2, as module arguments.
package enum PulseTestDevices {
  package static let speakerProperties = [
    "device.description": "Speaker", "device.form_factor": "internal",
  ]
  package static let headphoneProperties = [
    "device.description": "Wired Headphones", "device.form_factor": "headphone",
    "device.bus": "pci",
  ]
  package static let hfpSinkProperties = [
    "device.description": "Headset (HFP)", "device.form_factor": "headset",
    "device.bus": "bluetooth", "bluetooth.protocol": "headset_head_unit",
  ]
  package static let hfpMicProperties = [
    "device.description": "Headset Mic", "device.form_factor": "headset",
    "device.bus": "bluetooth", "bluetooth.protocol": "headset_head_unit", "device.class": "sound",
  ]

  package static func nullSink(_ name: String, _ properties: [String: String]) throws -> String {
    try PulseModuleArguments.make(
      ["sink_name": name], propertyLists: ["sink_properties": properties])
  }

  /// The built-in speaker every test server starts with.
  package static func speaker() throws -> PulsePrivateServer.Module {
    .init("module-null-sink", arguments: try nullSink("speaker", speakerProperties))
  }
}

/// Runs `body` against a fresh private server (with the built-in speaker sink unless `modules`
/// says otherwise) and a client connected to it and subscribed to sink, source, sink-input,
/// server and card events. The client is disconnected and the server stopped when `body`
/// returns or throws.
package func withPulseServer(
  modules: [PulsePrivateServer.Module]? = nil,
  _ body: (PulsePrivateServer, PulseContext, PulseEventRecorder<PulseContextEvent>) async throws
    -> Void
) async throws {
  let server = try PulsePrivateServer.start(modules: modules ?? [PulseTestDevices.speaker()])
  defer { server.stop() }
  let client = try PulseContext(name: "audiosession-tests")
  defer { client.disconnect() }
  let recorder = await PulseEventRecorder.recording(client.events)
  try await client.connect(to: server.serverString, cookieFile: server.cookiePath)
  try await client.subscribe(to: [.sink, .source, .sinkInput, .server, .card])
  try await body(server, client, recorder)
}

extension PulseEventRecorder where Event == PulseContextEvent {
  /// Waits for the next subscription event of this kind and facility (any index when nil).
  @discardableResult
  package func next(
    _ kind: PulseSubscriptionKind, _ facility: PulseFacility, index: UInt32? = nil,
    since mark: Int? = nil
  ) async throws -> PulseSubscriptionEvent {
    let what = "\(kind.rawValue) \(facility.rawValue) \(index.map(String.init) ?? "*")"
    let event = try await next(what, since: mark) {
      guard case .subscription(let event) = $0 else { return false }
      return event.kind == kind && event.facility == facility
        && (index == nil || event.index == index)
    }
    guard case .subscription(let subscription) = event else {
      preconditionFailure("matched a non-subscription event")
    }
    return subscription
  }
}

/// The repository's `policies/pulse.json`.
package enum PulseTestPolicies {
  package static func rules() throws -> PulsePortRules {
    try PulsePortRules.load(directory: Repository.policies)
  }
}
