import CSDBus

#if canImport(Glibc)
  import Glibc
#endif

/// A value an exported property has, or a metadata entry holds (`a{sv}`'s `v`): the few D-Bus
/// types the app's MPRIS player needs.
enum DBusValue: Sendable, Hashable {
  case string(String)
  case objectPath(String)
  case int64(Int64)
  case double(Double)
  case boolean(Bool)
  case strings([String])
  /// `a{sv}`, in order.
  case dictionary([DictionaryEntry])

  struct DictionaryEntry: Sendable, Hashable {
    var key: String
    var value: DBusValue

    init(_ key: String, _ value: DBusValue) {
      self.key = key
      self.value = value
    }
  }

  /// The D-Bus signature.
  var signature: String {
    switch self {
    case .string: "s"
    case .objectPath: "o"
    case .int64: "x"
    case .double: "d"
    case .boolean: "b"
    case .strings: "as"
    case .dictionary: "a{sv}"
    }
  }
}

/// Appends values to a message sd-bus builds (a property's value in a getter, a signal's
/// arguments, a reply). sd-bus owns the message; a writer only borrows it.
struct DBusMessageWriter {
  let pointer: OpaquePointer

  func append(_ value: DBusValue) throws(DBusError) {
    switch value {
    case .string(let text):
      try check(text.withCString { sd_bus_message_append_basic(pointer, Code.string, $0) })
    case .objectPath(let path):
      try check(path.withCString { sd_bus_message_append_basic(pointer, Code.objectPath, $0) })
    case .int64(var number):
      try check(sd_bus_message_append_basic(pointer, Code.int64, &number))
    case .double(var number):
      try check(sd_bus_message_append_basic(pointer, Code.double, &number))
    case .boolean(let flag):
      // D-Bus booleans are 32-bit (sd-bus reads an `int`).
      var number: Int32 = flag ? 1 : 0
      try check(sd_bus_message_append_basic(pointer, Code.boolean, &number))
    case .strings(let texts):
      try container(DBusType.array, "s") { () throws(DBusError) in
        for text in texts { try append(.string(text)) }
      }
    case .dictionary(let entries):
      try container(DBusType.array, "{sv}") { () throws(DBusError) in
        for entry in entries {
          try container(DBusType.dictEntry, "sv") { () throws(DBusError) in
            try append(.string(entry.key))
            try container(DBusType.variant, entry.value.signature) { () throws(DBusError) in
              try append(entry.value)
            }
          }
        }
      }
    }
  }

  private func container(
    _ type: CChar, _ contents: String, _ body: () throws(DBusError) -> Void
  ) throws(DBusError) {
    try check(sd_bus_message_open_container(pointer, type, contents))
    try body()
    try check(sd_bus_message_close_container(pointer))
  }

  private func check(_ code: Int32) throws(DBusError) {
    guard code >= 0 else { throw DBusError(errno: code, "appending a value") }
  }

  private enum Code {
    static let string = CChar(UInt8(ascii: "s"))
    static let objectPath = CChar(UInt8(ascii: "o"))
    static let int64 = CChar(UInt8(ascii: "x"))
    static let double = CChar(UInt8(ascii: "d"))
    static let boolean = CChar(UInt8(ascii: "b"))
  }
}
