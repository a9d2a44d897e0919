import AudioSession

/// A client of the server, as introspection lists it: its properties. The corresponding C type
/// is `pa_client_info`.
///
/// The monitor looks a client up only for a stream that does not say its process: pipewire-pulse
/// lists a native PipeWire client's stream (`mpv --ao=pipewire`, `pw-play`) without
/// `application.process.id`, which only its client carries, with `pipewire.sec.pid`
/// (docs/apps.md "On the server"; measured on PipeWire 0.3.65).
package struct PulseClientInfo: Sendable, Hashable {
  package var index: UInt32
  package var properties: [String: String]

  package init(index: UInt32, properties: [String: String]) {
    self.index = index
    self.properties = properties
  }

  /// The client of a stream is looked up when the stream does not say its process, and, on
  /// PipeWire (`native`), when it is a native PipeWire client's (no `client.api` of
  /// `pipewire-pulse`): the process such a stream names is its own claim, and the client's
  /// `pipewire.sec.pid` is the kernel's word to check it against.
  package static func needsClient(_ stream: [String: String], native: Bool) -> Bool {
    stream["application.process.id"] == nil
      || (native && stream["client.api"] != Self.pulseClientAPI)
  }

  /// The `client.api` pipewire-pulse gives its own (PulseAudio protocol) clients and their
  /// streams: their `pipewire.sec.pid` is pipewire-pulse's process, not the program's
  /// (measured on PipeWire 1.4.2).
  package static let pulseClientAPI = "pipewire-pulse"

  /// A stream's properties with what its client says of the program added: the client's
  /// `application.*` keys the stream lacks, and, when neither says the process, the client's
  /// `pipewire.sec.pid` (the kernel's word for a native client) as `application.process.id`.
  /// A native client's stream that names another process than its `pipewire.sec.pid` (as
  /// `PIPEWIRE_PROPS` can make it) is marked as not checking out
  /// (``ServerStream/unverifiedProcessKey``).
  package func completing(_ stream: [String: String]) -> [String: String] {
    var merged = stream
    for (key, value) in properties where key.hasPrefix("application.") && merged[key] == nil {
      merged[key] = value
    }
    guard let pid = properties["pipewire.sec.pid"], properties["client.api"] != Self.pulseClientAPI,
      stream["client.api"] != Self.pulseClientAPI
    else { return merged }
    if stream["application.process.id"] == nil {
      // What the kernel says wins over what the client says of itself.
      merged["application.process.id"] = pid
    } else if stream["application.process.id"] != pid {
      merged[ServerStream.unverifiedProcessKey] = stream["application.process.id"]
    }
    return merged
  }
}
