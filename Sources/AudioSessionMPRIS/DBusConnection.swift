import CSDBus

#if canImport(Glibc)
  import Glibc
#endif

/// A D-Bus error: sd-bus's name and message, or a negative errno in words.
struct DBusError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) { self.description = description }

  init(errno code: Int32, _ doing: String) {
    description = "\(doing): " + String(cString: strerror(-code))
  }
}

/// The little of sd-bus the MPRIS code needs, over one connection (docs/mpris.md "D-Bus"):
/// method calls with string arguments, reading their replies, signal matches, and the file
/// descriptor to poll. sd-bus is not thread-safe: one thread uses a connection, the MPRIS
/// watcher's.
final class DBusConnection {
  let bus: OpaquePointer
  /// The tables of the objects exported on this connection (``addObject(path:table:userdata:)``):
  /// sd-bus reads them until the connection is freed, so they are released after it, in
  /// `deinit`, whoever else still holds the connection.
  var exported: [DBusInterfaceTable] = []

  /// Connects to the bus at `address` (`unix:path=…`) as a client and says hello.
  /// `monitor`: the connection will become a monitor (``becomeMonitor(_:)``), and sd-bus answers
  /// none of the calls it then sees (a monitor that sends anything is disconnected).
  init(address: String, monitor: Bool = false) throws(DBusError) {
    var bus: OpaquePointer?
    var code = sd_bus_new(&bus)
    guard code >= 0, let bus else { throw DBusError(errno: code, "sd_bus_new") }
    code = sd_bus_set_address(bus, address)
    if code >= 0 { code = sd_bus_set_bus_client(bus, 1) }
    if code >= 0, monitor { code = sd_bus_set_monitor(bus, 1) }
    if code >= 0 { code = sd_bus_start(bus) }
    guard code >= 0 else {
      sd_bus_unref(bus)
      throw DBusError(errno: code, "connecting to \(address)")
    }
    self.bus = bus
  }

  deinit {
    sd_bus_flush_close_unref(bus)
  }

  /// A method call with string arguments.
  func message(
    destination: String, path: String, interface: String, member: String, strings: [String] = []
  ) throws(DBusError) -> DBusMessage {
    var message: OpaquePointer?
    var code = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
    guard code >= 0, let message else {
      throw DBusError(errno: code, "\(interface).\(member) to \(destination)")
    }
    let wrapped = DBusMessage(adopting: message)
    for string in strings {
      code = string.withCString { sd_bus_message_append_basic(message, DBusType.string, $0) }
      guard code >= 0 else { throw DBusError(errno: code, "\(member): appending an argument") }
    }
    return wrapped
  }

  /// This connection's unique name on the bus (`:1.5`).
  var uniqueName: String? {
    var name: UnsafePointer<CChar>?
    guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
    return String(cString: name)
  }

  /// Makes this connection a monitor of the messages `rules` match (the bus's
  /// `org.freedesktop.DBus.Monitoring.BecomeMonitor`); they reach `handler` from then on.
  func becomeMonitor(
    _ rules: [String], timeout: Duration, handler: sd_bus_message_handler_t,
    userdata: UnsafeMutableRawPointer?
  ) throws(DBusError) {
    var code = sd_bus_add_filter(bus, nil, handler, userdata)
    guard code >= 0 else { throw DBusError(errno: code, "adding a filter") }
    let call = try message(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus.Monitoring", member: "BecomeMonitor")
    code = sd_bus_message_open_container(call.pointer, DBusType.array, "s")
    for rule in rules where code >= 0 {
      code = rule.withCString { sd_bus_message_append_basic(call.pointer, DBusType.string, $0) }
    }
    if code >= 0 { code = sd_bus_message_close_container(call.pointer) }
    var flags: UInt32 = 0
    if code >= 0 { code = sd_bus_message_append_basic(call.pointer, DBusType.uint32, &flags) }
    guard code >= 0 else { throw DBusError(errno: code, "BecomeMonitor: appending an argument") }
    _ = try self.call(call, timeout: timeout)
  }

  /// Calls a method and waits at most `timeout` for its reply.
  func call(_ message: DBusMessage, timeout: Duration) throws(DBusError) -> DBusMessage {
    var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
    defer { sd_bus_error_free(&error) }
    var reply: OpaquePointer?
    let code = sd_bus_call(bus, message.pointer, Self.microseconds(timeout), &error, &reply)
    guard code >= 0, let reply else {
      if let name = error.name {
        let text = error.message.map { String(cString: $0) } ?? ""
        throw DBusError("\(String(cString: name)): \(text)")
      }
      throw DBusError(errno: code, "calling")
    }
    return DBusMessage(adopting: reply)
  }

  /// Sends a method call whose reply `handler` receives (on this connection's thread).
  func callAsync(
    _ message: DBusMessage, timeout: Duration, handler: sd_bus_message_handler_t,
    userdata: UnsafeMutableRawPointer?
  ) throws(DBusError) {
    let code = sd_bus_call_async(
      bus, nil, message.pointer, handler, userdata, Self.microseconds(timeout))
    guard code >= 0 else { throw DBusError(errno: code, "sending") }
  }

  /// Adds a match rule; `handler` receives matching messages while the connection is processed.
  func addMatch(
    _ rule: String, handler: sd_bus_message_handler_t, userdata: UnsafeMutableRawPointer?
  ) throws(DBusError) {
    let code = sd_bus_add_match(bus, nil, rule, handler, userdata)
    guard code >= 0 else { throw DBusError(errno: code, "adding the match \(rule)") }
  }

  /// Processes what has arrived and sends what is queued; false when nothing was left to do.
  func process() throws(DBusError) -> Bool {
    let code = sd_bus_process(bus, nil)
    guard code >= 0 else { throw DBusError(errno: code, "the connection") }
    return code > 0
  }

  /// The descriptor to poll, the events to poll it for, and when sd-bus wants to run again
  /// (CLOCK_MONOTONIC, microseconds; nil: no deadline).
  func pollState() throws(DBusError) -> (fd: Int32, events: Int16, deadline: UInt64?) {
    let fd = sd_bus_get_fd(bus)
    let events = sd_bus_get_events(bus)
    guard fd >= 0, events >= 0 else { throw DBusError(errno: min(fd, events), "the connection") }
    var deadline: UInt64 = 0
    let code = sd_bus_get_timeout(bus, &deadline)
    return (fd, Int16(events), code > 0 && deadline != UInt64.max ? deadline : nil)
  }

  static func microseconds(_ duration: Duration) -> UInt64 {
    UInt64(duration.components.seconds) * 1_000_000
      + UInt64(duration.components.attoseconds / 1_000_000_000_000)
  }
}

/// D-Bus type codes, as sd-bus takes them.
enum DBusType {
  static let string = CChar(UInt8(ascii: "s"))
  static let uint32 = CChar(UInt8(ascii: "u"))
  static let array = CChar(UInt8(ascii: "a"))
  static let dictEntry = CChar(UInt8(ascii: "e"))
  static let variant = CChar(UInt8(ascii: "v"))
}

/// A message, read in order.
final class DBusMessage {
  let pointer: OpaquePointer

  init(adopting pointer: OpaquePointer) { self.pointer = pointer }

  /// A message sd-bus lends a handler: referenced for as long as this lives.
  init(borrowing pointer: OpaquePointer) {
    self.pointer = pointer
    sd_bus_message_ref(pointer)
  }

  deinit { sd_bus_message_unref(pointer) }

  var member: String? { sd_bus_message_get_member(pointer).map { String(cString: $0) } }
  var sender: String? { sd_bus_message_get_sender(pointer).map { String(cString: $0) } }
  var destination: String? {
    sd_bus_message_get_destination(pointer).map { String(cString: $0) }
  }
  var interface: String? { sd_bus_message_get_interface(pointer).map { String(cString: $0) } }
  var isMethodCall: Bool { sd_bus_message_is_method_call(pointer, nil, nil) > 0 }

  /// The error of a reply, if it is one.
  var error: String? {
    guard sd_bus_message_is_method_error(pointer, nil) != 0,
      let error = sd_bus_message_get_error(pointer)
    else { return nil }
    let name = error.pointee.name.map { String(cString: $0) } ?? "error"
    let text = error.pointee.message.map { String(cString: $0) } ?? ""
    return "\(name): \(text)"
  }

  func readString() throws(DBusError) -> String {
    var value: UnsafePointer<CChar>?
    let code = sd_bus_message_read_basic(pointer, DBusType.string, &value)
    guard code > 0, let value else {
      throw DBusError(errno: min(code, -EBADMSG), "reading a string")
    }
    return String(cString: value)
  }

  func readUInt32() throws(DBusError) -> UInt32 {
    var value: UInt32 = 0
    let code = sd_bus_message_read_basic(pointer, DBusType.uint32, &value)
    guard code > 0 else { throw DBusError(errno: min(code, -EBADMSG), "reading a number") }
    return value
  }

  /// Reads an array of strings (`as`).
  func readStrings() throws(DBusError) -> [String] {
    try enter(DBusType.array, "s")
    var strings: [String] = []
    while true {
      var value: UnsafePointer<CChar>?
      let code = sd_bus_message_read_basic(pointer, DBusType.string, &value)
      guard code >= 0 else { throw DBusError(errno: code, "reading a string array") }
      guard code > 0, let value else { break }
      strings.append(String(cString: value))
    }
    try exit()
    return strings
  }

  /// Reads a variant holding a string (`v` of `s`); nil if it holds something else.
  func readStringVariant() throws(DBusError) -> String? {
    guard sd_bus_message_enter_container(pointer, DBusType.variant, "s") > 0 else {
      try skip("v")
      return nil
    }
    let value = try readString()
    try exit()
    return value
  }

  /// Reads a dictionary of variants (`a{sv}`), keeping the string values of `keys`.
  func readStringProperties(_ keys: Set<String>) throws(DBusError) -> [String: String] {
    try enter(DBusType.array, "{sv}")
    var values: [String: String] = [:]
    while sd_bus_message_enter_container(pointer, DBusType.dictEntry, "sv") > 0 {
      let key = try readString()
      if keys.contains(key), let value = try readStringVariant() {
        values[key] = value
      } else {
        try skip("v")
      }
      try exit()
    }
    try exit()
    return values
  }

  private func enter(_ type: CChar, _ contents: String) throws(DBusError) {
    let code = sd_bus_message_enter_container(pointer, type, contents)
    guard code > 0 else { throw DBusError(errno: min(code, -EBADMSG), "reading \(contents)") }
  }

  private func exit() throws(DBusError) {
    let code = sd_bus_message_exit_container(pointer)
    guard code >= 0 else { throw DBusError(errno: code, "reading a container") }
  }

  private func skip(_ types: String) throws(DBusError) {
    let code = sd_bus_message_skip(pointer, types)
    guard code >= 0 else { throw DBusError(errno: code, "skipping \(types)") }
  }
}
