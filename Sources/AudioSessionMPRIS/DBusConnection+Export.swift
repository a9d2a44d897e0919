import CSDBus

#if canImport(Glibc)
  import Glibc
#endif

/// One interface of an exported object, as sd-bus takes it: an array of `sd_bus_vtable`
/// entries (filled by the C module's helpers, which wrap sd-bus's initializer macros) and the C
/// strings they point to. sd-bus keeps pointers into both for as long as the object is
/// registered, up to freeing the connection (it hashes the member names to unregister them), so
/// the connection keeps its tables and lets them go only once it has freed itself.
final class DBusInterfaceTable {
  enum Member {
    /// A method with arguments of `signature` (named `names`) and no result.
    case method(String, signature: String, names: [String], handler: sd_bus_message_handler_t)
    case signal(String, signature: String, names: [String])
    /// `flags`: `SD_BUS_VTABLE_PROPERTY_CONST`, `…_EMITS_CHANGE`, or 0 (changes unsignalled).
    case property(
      String, signature: String, flags: UInt64, get: sd_bus_property_get_t,
      set: sd_bus_property_set_t? = nil)
  }

  let interface: String
  let entries: UnsafeMutablePointer<sd_bus_vtable>
  private var strings: [UnsafeMutablePointer<CChar>] = []

  init(interface: String, members: [Member]) {
    self.interface = interface
    entries = .allocate(capacity: members.count + 2)
    audiosession_sdbus_vtable_start(entries)
    for (index, member) in members.enumerated() {
      let entry = entries + index + 1
      switch member {
      case .method(let name, let signature, let names, let handler):
        audiosession_sdbus_vtable_method(
          entry, keep(name), keep(signature), keep(names: names), handler)
      case .signal(let name, let signature, let names):
        audiosession_sdbus_vtable_signal(entry, keep(name), keep(signature), keep(names: names))
      case .property(let name, let signature, let flags, let get, let set):
        audiosession_sdbus_vtable_property(entry, keep(name), keep(signature), get, set, flags)
      }
    }
    audiosession_sdbus_vtable_end(entries + members.count + 1)
  }

  deinit {
    entries.deallocate()
    for string in strings { free(string) }
  }

  private func keep(_ text: String) -> UnsafeMutablePointer<CChar> {
    keep(bytes: Array(text.utf8CString))
  }

  /// Arguments' names as sd-bus reads them: each followed by a NUL, and one more NUL at the end.
  private func keep(names: [String]) -> UnsafeMutablePointer<CChar> {
    keep(bytes: names.flatMap { Array($0.utf8CString) } + [0])
  }

  private func keep(bytes: [CChar]) -> UnsafeMutablePointer<CChar> {
    guard let copy = malloc(bytes.count)?.bindMemory(to: CChar.self, capacity: bytes.count) else {
      preconditionFailure("out of memory")
    }
    copy.initialize(from: bytes, count: bytes.count)
    strings.append(copy)
    return copy
  }
}

/// What an exported object needs of a connection: its interfaces, a well-known name, signals and
/// replies.
extension DBusConnection {
  /// Adds an interface of the object at `path`; `userdata` reaches its callbacks. The connection
  /// keeps the table until it is freed.
  func addObject(path: String, table: DBusInterfaceTable, userdata: UnsafeMutableRawPointer)
    throws(DBusError)
  {
    exported.append(table)
    let code = sd_bus_add_object_vtable(bus, nil, path, table.interface, table.entries, userdata)
    guard code >= 0 else { throw DBusError(errno: code, "exporting \(table.interface)") }
  }

  /// Claims a well-known name (waits for the bus's answer); fails if another connection has it.
  func requestName(_ name: String) throws(DBusError) {
    let code = sd_bus_request_name(bus, name, 0)
    guard code >= 0 else { throw DBusError(errno: code, "claiming the name \(name)") }
  }

  /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for properties of an interface
  /// (sd-bus reads their values through the getters).
  func emitPropertiesChanged(path: String, interface: String, names: [String])
    throws(DBusError)
  {
    guard !names.isEmpty else { return }
    var pointers = names.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    let code = sd_bus_emit_properties_changed_strv(bus, path, interface, &pointers)
    guard code >= 0 else { throw DBusError(errno: code, "emitting PropertiesChanged") }
  }

  /// Emits a signal of the object at `path`.
  func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue])
    throws(DBusError)
  {
    var message: OpaquePointer?
    var code = sd_bus_message_new_signal(bus, &message, path, interface, member)
    guard code >= 0, let message else { throw DBusError(errno: code, "building \(member)") }
    defer { sd_bus_message_unref(message) }
    for argument in arguments { try DBusMessageWriter(pointer: message).append(argument) }
    code = sd_bus_send(bus, message, nil)
    guard code >= 0 else { throw DBusError(errno: code, "emitting \(member)") }
  }

  /// Answers a method call with an empty return (the call's connection sends it).
  static func replyEmpty(to call: OpaquePointer) -> Int32 {
    var reply: OpaquePointer?
    var code = sd_bus_message_new_method_return(call, &reply)
    guard code >= 0, let reply else { return code }
    code = sd_bus_send(nil, reply, nil)
    sd_bus_message_unref(reply)
    return code < 0 ? code : 1
  }

  /// Fails a method call or property access with a D-Bus error (sd-bus sends it when the
  /// callback returns the result).
  static func fail(
    _ error: UnsafeMutablePointer<sd_bus_error>?, name: String, message: String
  ) -> Int32 {
    sd_bus_error_set(error, name, message)
  }
}

extension DBusMessage {
  /// Reads a signed 64-bit number (`x`).
  func readInt64() throws(DBusError) -> Int64 {
    var value: Int64 = 0
    let code = sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "x")), &value)
    guard code > 0 else { throw DBusError(errno: min(code, -EBADMSG), "reading a number") }
    return value
  }

  /// Reads a double (`d`).
  func readDouble() throws(DBusError) -> Double {
    var value: Double = 0
    let code = sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "d")), &value)
    guard code > 0 else { throw DBusError(errno: min(code, -EBADMSG), "reading a number") }
    return value
  }

  /// Reads an object path (`o`).
  func readObjectPath() throws(DBusError) -> String {
    var value: UnsafePointer<CChar>?
    let code = sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "o")), &value)
    guard code > 0, let value else {
      throw DBusError(errno: min(code, -EBADMSG), "reading an object path")
    }
    return String(cString: value)
  }
}
