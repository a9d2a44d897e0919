/// A client of the server, as introspection lists it: its properties. The corresponding C type
/// is `pa_client_info`.
///
/// The monitor looks a client up only for a stream that does not say its process: pipewire-pulse
/// lists a native PipeWire client's stream (`mpv --ao=pipewire`, `pw-play`) without
/// `application.process.id`, which only its client carries, with `pipewire.sec.pid`
/// (docs/apps.md "On the server"; measured on PipeWire 0.3.65).
public struct PulseClientInfo: Sendable, Hashable {
  public var index: UInt32
  public var properties: [String: String]

  public init(index: UInt32, properties: [String: String]) {
    self.index = index
    self.properties = properties
  }

  /// A stream's properties with what its client says of the program added: the client's
  /// `application.*` keys the stream lacks, and, when neither says the process, the client's
  /// `pipewire.sec.pid` (the kernel's word for a native client) as `application.process.id`.
  public func completing(_ stream: [String: String]) -> [String: String] {
    var merged = stream
    for (key, value) in properties where key.hasPrefix("application.") && merged[key] == nil {
      merged[key] = value
    }
    if merged["application.process.id"] == nil, let pid = properties["pipewire.sec.pid"] {
      merged["application.process.id"] = pid
    }
    return merged
  }
}
