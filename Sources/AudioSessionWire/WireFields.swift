import AudioSession

/// Reads the members of one request strictly: each read marks its member as known, wrong types
/// are ``ProtocolError/Code/invalidMessage``, and ``finish()`` rejects members nobody read.
struct WireFields {
  let object: JSONObject
  private var known: Set<String> = [WireProtocol.versionKey]

  init(_ object: JSONObject) { self.object = object }

  private mutating func value(_ key: String) -> JSONValue? {
    known.insert(key)
    return object[key]
  }

  private func invalid(_ message: String) -> DaemonError {
    .protocolError(ProtocolError(.invalidMessage, message))
  }

  func has(_ key: String) -> Bool { object[key] != nil }

  mutating func string(_ key: String) throws(DaemonError) -> String {
    guard let value = try optionalString(key) else {
      throw invalid("the message needs \"\(key)\", a string")
    }
    return value
  }

  /// A member that must be present and is true or false.
  mutating func bool(_ key: String) throws(DaemonError) -> Bool {
    guard let flag = try optionalBool(key) else {
      throw invalid("the message needs \"\(key)\", true or false")
    }
    return flag
  }

  /// A member that must be present and is a number.
  mutating func number(_ key: String) throws(DaemonError) -> Double {
    switch value(key) {
    case .int(let number)?: return Double(number)
    case .double(let number)?: return number
    default: throw invalid("the message needs \"\(key)\", a number")
    }
  }

  mutating func optionalString(_ key: String) throws(DaemonError) -> String? {
    switch value(key) {
    case nil: return nil
    case .string(let text)?: return text
    default: throw invalid("\"\(key)\" must be a string")
    }
  }

  /// A member that must be present and is a string or null.
  mutating func nullableString(_ key: String) throws(DaemonError) -> String? {
    switch value(key) {
    case nil: throw invalid("the message needs \"\(key)\", a string or null")
    case .null?: return nil
    case .string(let text)?: return text
    default: throw invalid("\"\(key)\" must be a string or null")
    }
  }

  mutating func optionalInt(_ key: String) throws(DaemonError) -> Int? {
    switch value(key) {
    case nil: return nil
    case .int(let number)?: return number
    default: throw invalid("\"\(key)\" must be an integer")
    }
  }

  mutating func optionalBool(_ key: String) throws(DaemonError) -> Bool? {
    switch value(key) {
    case nil: return nil
    case .bool(let flag)?: return flag
    default: throw invalid("\"\(key)\" must be true or false")
    }
  }

  mutating func optionalStrings(_ key: String) throws(DaemonError) -> [String]? {
    switch value(key) {
    case nil: return nil
    case .array(let values)?:
      var strings: [String] = []
      for value in values {
        guard case .string(let text) = value else {
          throw invalid("\"\(key)\" must be an array of strings")
        }
        strings.append(text)
      }
      return strings
    default: throw invalid("\"\(key)\" must be an array of strings")
    }
  }

  /// A model value by its Swift case name; an unknown name is `badParam` listing the valid ones.
  mutating func named<Value: NamedCase>(
    _ key: String, _ type: Value.Type, kind: String, plural: String? = nil
  ) throws(DaemonError) -> Value {
    let name = try string(key)
    do {
      return try Value.parse(name, kind: kind, plural: plural)
    } catch {
      throw .session(error)
    }
  }

  /// `"session"`: a valid session name.
  mutating func session() throws(DaemonError) -> String {
    let name = try string("session")
    if let problem = Command.sessionNameProblem(name) {
      throw .session(SessionError(.badParam, problem))
    }
    return name
  }

  /// Rejects members no read asked for.
  func finish() throws(DaemonError) {
    let unknown = object.members.map(\.key).filter { !known.contains($0) }
    guard unknown.isEmpty else {
      var list = unknown.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
      if unknown.count > 5 { list += " and \(unknown.count - 5) more" }
      let expected = known.filter { $0 != WireProtocol.versionKey }.sorted().map { "\"\($0)\"" }
      let version = "\"\(WireProtocol.versionKey)\""
      throw invalid(
        "unknown member\(unknown.count == 1 ? "" : "s") \(list) for this op; it takes \(version), "
          + expected.joined(separator: ", "))
    }
  }
}
