package import AudioSessionMPRISPlayer

/// The definition of `AudioSessionMPRISPlayer`'s ``makeMPRISPlayerService(busName:identity:address:state:perform:)``,
/// by its symbol name: how `MediaPlayer` makes its player without importing this module
/// (docs/ios-compat.md "The products"). The signature must stay the declaration's.
@_silgen_name("audiosession_mpris_make_player_service")
package func makeMPRISPlayerServiceDefinition(
  busName: String, identity: String, address: String,
  state: @escaping @Sendable () -> MPRISPlayerState?,
  perform: @escaping @Sendable (MPRISPlayerCall) -> Void
) -> any MPRISPlayerServing {
  MPRISPlayerService(
    busName: busName, identity: identity, address: address, state: state, perform: perform)
}

extension MPRISPlayerService: MPRISPlayerServing {}

extension MPRISMetadata {
  /// The `a{sv}` map.
  var value: DBusValue {
    guard let trackID else { return .dictionary([]) }
    var entries = [DBusValue.DictionaryEntry("mpris:trackid", .objectPath(trackID))]
    if let length { entries.append(.init("mpris:length", .int64(length))) }
    if let title { entries.append(.init("xesam:title", .string(title))) }
    if !artists.isEmpty { entries.append(.init("xesam:artist", .strings(artists))) }
    if let album { entries.append(.init("xesam:album", .string(album))) }
    if !albumArtists.isEmpty { entries.append(.init("xesam:albumArtist", .strings(albumArtists))) }
    if let url { entries.append(.init("xesam:url", .string(url))) }
    return .dictionary(entries)
  }
}
