import AudioSession
import AudioSessionMPRISPlayer
import AudioSessionSystem
import CSDBus

#if canImport(Glibc)
  import Glibc
#endif

/// The exported object's two interfaces, as the MPRIS specification names their members
/// (https://specifications.freedesktop.org/mpris-spec/latest/), and the callbacks sd-bus calls
/// on the bus thread, inside `sd_bus_process`.
extension MPRISPlayerService {
  static func makeTables() -> [DBusInterfaceTable] {
    let constant = UInt64(SD_BUS_VTABLE_PROPERTY_CONST)
    let changes = UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
    let root = DBusInterfaceTable(
      interface: rootInterface,
      members: [
        .method("Raise", signature: "", names: [], handler: mprisMethod),
        .method("Quit", signature: "", names: [], handler: mprisMethod),
        .property("CanQuit", signature: "b", flags: constant, get: mprisProperty),
        .property("CanRaise", signature: "b", flags: constant, get: mprisProperty),
        .property("HasTrackList", signature: "b", flags: constant, get: mprisProperty),
        .property("Identity", signature: "s", flags: constant, get: mprisProperty),
        .property("SupportedUriSchemes", signature: "as", flags: constant, get: mprisProperty),
        .property("SupportedMimeTypes", signature: "as", flags: constant, get: mprisProperty),
      ])
    var player: [DBusInterfaceTable.Member] = [
      "Next", "Previous", "Pause", "PlayPause", "Stop", "Play",
    ].map { .method($0, signature: "", names: [], handler: mprisMethod) }
    player += [
      .method("Seek", signature: "x", names: ["Offset"], handler: mprisMethod),
      .method(
        "SetPosition", signature: "ox", names: ["TrackId", "Position"], handler: mprisMethod),
      .method("OpenUri", signature: "s", names: ["Uri"], handler: mprisMethod),
      .signal("Seeked", signature: "x", names: ["Position"]),
      .property("PlaybackStatus", signature: "s", flags: changes, get: mprisProperty),
      .property(
        "Rate", signature: "d", flags: changes, get: mprisProperty, set: mprisSetProperty),
      .property("Metadata", signature: "a{sv}", flags: changes, get: mprisProperty),
      .property("Volume", signature: "d", flags: constant, get: mprisProperty),
      // The position changes without a signal: clients extrapolate it from Rate, or read it.
      .property("Position", signature: "x", flags: 0, get: mprisProperty),
      .property("MinimumRate", signature: "d", flags: changes, get: mprisProperty),
      .property("MaximumRate", signature: "d", flags: changes, get: mprisProperty),
      .property("CanGoNext", signature: "b", flags: changes, get: mprisProperty),
      .property("CanGoPrevious", signature: "b", flags: changes, get: mprisProperty),
      .property("CanPlay", signature: "b", flags: changes, get: mprisProperty),
      .property("CanPause", signature: "b", flags: changes, get: mprisProperty),
      .property("CanSeek", signature: "b", flags: changes, get: mprisProperty),
      .property("CanControl", signature: "b", flags: constant, get: mprisProperty),
    ]
    return [root, DBusInterfaceTable(interface: playerInterface, members: player)]
  }

  /// A property's value, from the state last read (`Position` extrapolated to now).
  func value(of property: String) -> DBusValue? {
    switch property {
    case "CanQuit", "CanRaise", "HasTrackList": .boolean(false)
    case "Identity": .string(identity)
    case "SupportedUriSchemes", "SupportedMimeTypes": .strings([])
    case "PlaybackStatus": .string(current.playbackStatus.rawValue)
    case "Rate": .double(current.rate)
    case "Metadata": current.metadata.value
    // The app's volume is its own: not controlled over MPRIS.
    case "Volume": .double(1)
    case "Position": .int64(current.position.microseconds(at: MonotonicInstant.now()))
    case "MinimumRate": .double(current.minimumRate)
    case "MaximumRate": .double(current.maximumRate)
    case "CanGoNext": .boolean(current.canGoNext)
    case "CanGoPrevious": .boolean(current.canGoPrevious)
    case "CanPlay": .boolean(current.canPlay)
    case "CanPause": .boolean(current.canPause)
    case "CanSeek": .boolean(current.canSeek)
    case "CanControl": .boolean(true)
    default: nil
    }
  }

  /// A client's method call: the app's remote command runs, then the call is answered. `Raise`
  /// and `Quit` do nothing (`CanRaise` and `CanQuit` are false); `OpenUri` is refused (no URI
  /// scheme is supported).
  func called(_ member: String, _ message: DBusMessage) throws(DBusError) -> MPRISPlayerCall? {
    switch member {
    case "Play": return .play
    case "Pause": return .pause
    case "PlayPause": return .playPause
    case "Stop": return .stop
    case "Next": return .next
    case "Previous": return .previous
    case "Seek": return .seek(offset: try message.readInt64())
    case "SetPosition":
      let track = try message.readObjectPath()
      return .setPosition(trackID: track, position: try message.readInt64())
    default: return nil
    }
  }

  fileprivate func handle(_ call: MPRISPlayerCall) {
    handledCall = true
    perform(call)
  }
}

private func service(_ userdata: UnsafeMutableRawPointer?) -> MPRISPlayerService? {
  userdata.map { Unmanaged<MPRISPlayerService>.fromOpaque($0).takeUnretainedValue() }
}

private func mprisMethod(
  _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
  _ failure: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
  guard let message, let service = service(userdata),
    let member = sd_bus_message_get_member(message).map({ String(cString: $0) })
  else { return 0 }
  if member == "OpenUri" {
    return DBusConnection.fail(
      failure, name: "org.freedesktop.DBus.Error.NotSupported",
      message: "this player opens no URI (SupportedUriSchemes is empty)")
  }
  do throws(DBusError) {
    if let call = try service.called(member, DBusMessage(borrowing: message)) {
      service.handle(call)
    }
  } catch {
    return DBusConnection.fail(
      failure, name: "org.freedesktop.DBus.Error.InvalidArgs", message: "\(member): \(error)")
  }
  return DBusConnection.replyEmpty(to: message)
}

private func mprisProperty(
  _ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interface: UnsafePointer<CChar>?,
  _ property: UnsafePointer<CChar>?, _ reply: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
  _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
  guard let property, let reply, let service = service(userdata),
    let value = service.value(of: String(cString: property))
  else { return -EINVAL }
  do throws(DBusError) {
    try DBusMessageWriter(pointer: reply).append(value)
  } catch {
    return -ENOMEM
  }
  return 1
}

/// A write of `Rate` (the one writable property): 0 acts as `Pause`, as the specification says.
private func mprisSetProperty(
  _ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interface: UnsafePointer<CChar>?,
  _ property: UnsafePointer<CChar>?, _ value: OpaquePointer?,
  _ userdata: UnsafeMutableRawPointer?, _ failure: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
  guard let value, let service = service(userdata) else { return -EINVAL }
  do throws(DBusError) {
    let rate = try DBusMessage(borrowing: value).readDouble()
    service.handle(rate == 0 ? .pause : .setRate(rate))
  } catch {
    return DBusConnection.fail(
      failure, name: "org.freedesktop.DBus.Error.InvalidArgs", message: "Rate: \(error)")
  }
  return 1
}
