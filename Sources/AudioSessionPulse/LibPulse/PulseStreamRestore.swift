/// The server's memory of streams' volume, mute and device, kept across their lives
/// (PulseAudio's module-stream-restore; on pipewire-pulse the same extension, backed by
/// WirePlumber's restore-stream). A new stream of the same program starts with what its last one
/// had, so a volume the backend ducked, or a mute it set, would outlive a program that quit
/// meanwhile; the backend writes the entry back (docs/apps.md "On the server").
package import AudioSession
import CPulse

/// One entry of the database. The corresponding C type is `pa_ext_stream_restore_info`.
package struct PulseStreamRestoreEntry: Sendable, Hashable {
  /// `sink-input-by-media-role:music`, `sink-input-by-application-name:mpv`, …
  package var name: String
  /// The channel positions of ``volumes`` (`pa_channel_position_t` values).
  package var channelPositions: [Int32]
  package var volumes: [PulseVolume]
  package var device: String?
  package var isMuted: Bool

  package init(
    name: String, channelPositions: [Int32], volumes: [PulseVolume], device: String?,
    isMuted: Bool
  ) {
    self.name = name
    self.channelPositions = channelPositions
    self.volumes = volumes
    self.device = device
    self.isMuted = isMuted
  }

  /// The server's default channel positions for `count` channels (`pa_channel_map_init_auto`
  /// with `PA_CHANNEL_MAP_DEFAULT`: mono, front left and right, …).
  package static func defaultPositions(count: Int) -> [Int32] {
    guard (1...Int(PA_CHANNELS_MAX)).contains(count) else { return [] }
    var map = pa_channel_map()
    guard pa_channel_map_init_auto(&map, UInt32(count), PA_CHANNEL_MAP_DEFAULT) != nil else {
      return []
    }
    return withUnsafeBytes(of: map.map) { raw in
      raw.bindMemory(to: pa_channel_position_t.self).prefix(count).map { $0.rawValue }
    }
  }

  init(_ info: pa_ext_stream_restore_info) {
    name = PulseCopy.string(info.name) ?? ""
    let count = min(Int(info.channel_map.channels), Int(PA_CHANNELS_MAX))
    channelPositions = withUnsafeBytes(of: info.channel_map.map) { raw in
      raw.bindMemory(to: pa_channel_position_t.self).prefix(count).map { $0.rawValue }
    }
    volumes = PulseCopy.volumes(info.volume)
    device = PulseCopy.string(info.device)
    isMuted = info.mute != 0
  }

  /// The entry a stream with these properties is remembered by, as both servers name it:
  /// `module-stream-restore.id` when the server set it, else by media role, application id,
  /// application name or media name, in that order (PulseAudio 16.1's module-stream-restore
  /// `get_name`; WirePlumber's restore-stream keys on the same properties in the same order).
  package static func name(
    of properties: [String: String], direction: ServerStream.Direction
  ) -> String? {
    if let id = properties["module-stream-restore.id"], !id.isEmpty { return id }
    let prefix = direction == .playback ? "sink-input" : "source-output"
    for (key, label) in labels {
      if let value = properties[key], !value.isEmpty { return "\(prefix)-by-\(label):\(value)" }
    }
    return nil
  }

  /// The labels of entry names and the stream properties they stand for, in the order both
  /// servers look the properties up.
  static let labels = [
    ("media.role", "media-role"), ("application.id", "application-id"),
    ("application.name", "application-name"), ("media.name", "media-name"),
  ]

  /// What a stream needs to be remembered under the entry `name`, by a server that keys on its
  /// properties (WirePlumber's state-stream): its direction and the one property the name is
  /// made of. Nil for a name of another form, and for one by media name (every stream a
  /// PulseAudio client opens has an application name, which comes first).
  package static func properties(ofEntry name: String)
    -> (direction: ServerStream.Direction, properties: [String: String])?
  {
    let direction: ServerStream.Direction
    let rest: Substring
    if name.hasPrefix("sink-input-by-") {
      direction = .playback
      rest = name.dropFirst("sink-input-by-".count)
    } else if name.hasPrefix("source-output-by-") {
      direction = .record
      rest = name.dropFirst("source-output-by-".count)
    } else {
      return nil
    }
    guard let colon = rest.firstIndex(of: ":") else { return nil }
    let label = rest[..<colon]
    let value = String(rest[rest.index(after: colon)...])
    guard !value.isEmpty, label != "media-name",
      let key = labels.first(where: { $0.1 == label })?.0
    else { return nil }
    return (direction, [key: value])
  }
}

extension PulseContext {
  /// Every entry of the stream database; fails when the server has none (no
  /// module-stream-restore). The corresponding C function is `pa_ext_stream_restore_read`.
  package func streamRestoreEntries() async throws(PulseError) -> [PulseStreamRestoreEntry] {
    try await list { userdata in
      pa_ext_stream_restore_read(context, Self.streamRestoreReceived, userdata)
    }
  }

  /// Replaces this entry (others are kept: `PA_UPDATE_REPLACE`; living streams are left as they
  /// are), returning at once; `completion` gets the outcome on the loop thread. The
  /// corresponding C function is `pa_ext_stream_restore_write`.
  package func writeStreamRestore(
    _ entry: PulseStreamRestoreEntry, completion: @escaping @Sendable (PulseError?) -> Void
  ) {
    var map = pa_channel_map()
    map.channels = UInt8(min(entry.channelPositions.count, Int(PA_CHANNELS_MAX)))
    withUnsafeMutableBytes(of: &map.map) { raw in
      let positions = raw.bindMemory(to: pa_channel_position_t.self)
      for (index, position) in entry.channelPositions.prefix(Int(PA_CHANNELS_MAX)).enumerated() {
        positions[index] = pa_channel_position_t(rawValue: position)
      }
    }
    let volume = PulseCopy.cvolume(entry.volumes)
    request({ (reply: Result<[Bool], PulseError>) in completion(reply.failure) }) { userdata in
      entry.name.withCString { name in
        withOptionalCString(entry.device) { device in
          var info = pa_ext_stream_restore_info(
            name: name, channel_map: map, volume: volume, device: device,
            mute: entry.isMuted ? 1 : 0)
          return pa_ext_stream_restore_write(
            context, PA_UPDATE_REPLACE, &info, 1, 0, Self.succeeded, userdata)
        }
      }
    }
  }

  static let streamRestoreReceived: pa_ext_stream_restore_read_cb_t = {
    context, info, eol, userdata in
    PulseRequest<PulseStreamRestoreEntry>.receive(context: context, eol: eol, userdata: userdata) {
      info.map { PulseStreamRestoreEntry($0.pointee) }
    }
  }
}

private func withOptionalCString<Result>(
  _ string: String?, _ body: (UnsafePointer<CChar>?) -> Result
) -> Result {
  guard let string else { return body(nil) }
  return string.withCString { body($0) }
}
