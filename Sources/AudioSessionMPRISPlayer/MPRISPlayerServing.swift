#if canImport(Glibc)
  import Glibc
#endif

// The app's own MPRIS player as `MediaPlayer` sees it: its state (MPRISPlayerState.swift), the
// service's interface, and the one call that makes a service. This module imports no C module,
// so that a file that imports `MediaPlayer` compiles with no module map of sd-bus
// (docs/ios-compat.md "The products"); the service itself, which talks sd-bus, is
// `AudioSessionMPRIS`'s `MPRISPlayerService`, linked in but not imported by `MediaPlayer`.

/// The app's own player on the session bus (``MPRISPlayerService`` in `AudioSessionMPRIS`).
package protocol MPRISPlayerServing: AnyObject, Sendable {
  /// The state may have changed: the bus thread reads it again (and starts, the first time).
  func changed()
  /// Closes the connection and ends the thread; returns at once.
  func stop()
  /// Whether the name is held on the bus.
  var isServing: Bool { get }
}

/// Makes the app's player: `AudioSessionMPRIS` defines this function under the same symbol
/// name, and the linker joins the two. A module built without library evolution makes every one
/// of its imports, `internal` ones too, a required dependency of its clients; calling the
/// service through this declaration keeps `AudioSessionMPRIS`, and sd-bus's C module under it,
/// out of `MediaPlayer`'s imports. The signature must stay the definition's
/// (`AudioSessionMPRIS/MPRISPlayerService+Make.swift`); `OutsideSwiftPMTests` calls it.
@_silgen_name("audiosession_mpris_make_player_service")
package func makeMPRISPlayerService(
  busName: String, identity: String, address: String,
  state: @escaping @Sendable () -> MPRISPlayerState?,
  perform: @escaping @Sendable (MPRISPlayerCall) -> Void
) -> any MPRISPlayerServing

/// The session bus of an environment: `DBUS_SESSION_BUS_ADDRESS`, else the socket
/// `$XDG_RUNTIME_DIR/bus` if there is one (as sd-bus and libdbus look for it); nil if neither.
package func mprisSessionBusAddress(environment: [String: String]) -> String? {
  if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
  guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
  var info = stat()
  guard stat(runtime + "/bus", &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
  return "unix:path=\(runtime)/bus"
}
