/// A recording stream as the server sees it (ours or another client's). The corresponding C
/// type is `pa_source_output_info`.
import AudioSession

package struct PulseSourceOutput: Sendable, Hashable {
  package var index: UInt32
  package var name: String
  /// The client that owns it; nil for streams a module created (a monitor's readers).
  package var clientIndex: UInt32?
  /// The source it records from.
  package var sourceIndex: UInt32
  /// The string-valued properties (`media.role`, `application.name`…).
  package var properties: [String: String]
  package var isCorked: Bool
  package var isMuted: Bool

  package init(
    index: UInt32, name: String, clientIndex: UInt32? = nil, sourceIndex: UInt32,
    properties: [String: String] = [:], isCorked: Bool = false, isMuted: Bool = false
  ) {
    self.index = index
    self.name = name
    self.clientIndex = clientIndex
    self.sourceIndex = sourceIndex
    self.properties = properties
    self.isCorked = isCorked
    self.isMuted = isMuted
  }

  /// `media.role`.
  package var role: String? { properties["media.role"] }
}
