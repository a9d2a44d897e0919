/// A reply or notification from the daemon that this library cannot read: a daemon of another
/// version, or not a daemon at all.
public struct WireDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { "unreadable message from the daemon: \(message)" }
}

/// Typed reads of one JSON object, each failure naming the member.
package struct WireReader {
  package let object: JSONObject
  package let path: String

  package init(object: JSONObject, path: String) {
    self.object = object
    self.path = path
  }

  package func fail(_ key: String, _ expected: String) -> WireDecodingError {
    WireDecodingError("\(path): \"\(key)\" must be \(expected)")
  }

  /// Whether the member is there (null included).
  package func has(_ key: String) -> Bool { object[key] != nil }

  /// `read(key)` when the member is there (null included), nil when it is missing.
  package func ifPresent<Value>(
    _ key: String, _ read: (String) throws(WireDecodingError) -> Value
  ) throws(WireDecodingError) -> Value? {
    has(key) ? try read(key) : nil
  }

  package func string(_ key: String) throws(WireDecodingError) -> String {
    guard case .string(let text)? = object[key] else { throw fail(key, "a string") }
    return text
  }

  package func optionalString(_ key: String) throws(WireDecodingError) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw fail(key, "a string or null")
    }
  }

  package func int(_ key: String) throws(WireDecodingError) -> Int {
    guard case .int(let number)? = object[key] else { throw fail(key, "an integer") }
    return number
  }

  package func bool(_ key: String) throws(WireDecodingError) -> Bool {
    guard case .bool(let flag)? = object[key] else { throw fail(key, "true or false") }
    return flag
  }

  /// A number, integer or not, or nil when the member is missing or null.
  package func optionalNumber(_ key: String) throws(WireDecodingError) -> Double? {
    switch object[key] {
    case nil, .null?: return nil
    case .int(let value)?: return Double(value)
    case .double(let value)?: return value
    default: throw fail(key, "a number or null")
    }
  }

  package func object(_ key: String) throws(WireDecodingError) -> JSONObject {
    guard case .object(let value)? = object[key] else { throw fail(key, "an object") }
    return value
  }

  package func objects(_ key: String) throws(WireDecodingError) -> [JSONObject] {
    guard case .array(let values)? = object[key] else { throw fail(key, "an array of objects") }
    var objects: [JSONObject] = []
    for value in values {
      guard case .object(let item) = value else { throw fail(key, "an array of objects") }
      objects.append(item)
    }
    return objects
  }

  /// Each object of an array, read by `read`.
  package func list<Value>(
    _ key: String, _ read: (JSONObject) throws(WireDecodingError) -> Value
  ) throws(WireDecodingError) -> [Value] {
    var values: [Value] = []
    for item in try objects(key) { values.append(try read(item)) }
    return values
  }

  package func strings(_ key: String) throws(WireDecodingError) -> [String] {
    guard let strings = try optionalStrings(key) else { throw fail(key, "an array of strings") }
    return strings
  }

  package func optionalStrings(_ key: String) throws(WireDecodingError) -> [String]? {
    guard let value = object[key] else { return nil }
    guard case .array(let values) = value else { throw fail(key, "an array of strings") }
    var strings: [String] = []
    for value in values {
      guard case .string(let text) = value else { throw fail(key, "an array of strings") }
      strings.append(text)
    }
    return strings
  }

  package func named<Value: NamedCase>(_ key: String, _ type: Value.Type) throws(WireDecodingError)
    -> Value
  {
    let name = try string(key)
    guard let value = Value(name: name) else { throw fail(key, "a known name, not '\(name)'") }
    return value
  }

  /// A model value by name, or nil when the member is missing or null.
  package func optionalNamed<Value: NamedCase>(_ key: String, _ type: Value.Type)
    throws(WireDecodingError) -> Value?
  {
    guard try optionalString(key) != nil else { return nil }
    return try named(key, type)
  }

  /// A list of model values by name.
  package func namedList<Value: NamedCase>(_ key: String, _ type: Value.Type)
    throws(WireDecodingError) -> [Value]
  {
    var values: [Value] = []
    for name in try strings(key) {
      guard let value = Value(name: name) else { throw fail(key, "known names, not '\(name)'") }
      values.append(value)
    }
    return values
  }

  /// Category options by name, each unknown one named (`options`).
  package func categoryOptions(_ key: String) throws(WireDecodingError) -> CategoryOptions {
    var options: CategoryOptions = []
    for name in try strings(key) {
      guard let option = CategoryOption(name: name) else {
        throw WireDecodingError("\(path): unknown option '\(name)'")
      }
      options.formUnion(option.bits)
    }
    return options
  }
}

/// Reads the model's JSON shapes back: the decoders of ``TranscriptJSON``'s encoders, each beside
/// its encoder in the file of its family (`Sources/AudioSession/JSON/`, docs/modules.md "The
/// JSON codec").
public enum WireDecoding {}

/// The member names of the model's JSON shapes, each written once for its encoder and its
/// decoder: one namespace per shape, declared in the shape's file.
package enum JSONKey {}
