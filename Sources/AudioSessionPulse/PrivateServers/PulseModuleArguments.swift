/// Writes module argument strings (`sink_name=hp sink_properties='device.description="X Y"'`)
/// in the syntax PulseAudio's module-argument and property-list parsers accept.
///
/// Measured (docs/pulseaudio.md §1.2): a property list goes in single quotes, and values with
/// spaces in double quotes inside it; backslash escapes do not work, so values containing quotes,
/// backslashes or line breaks cannot be written and are rejected.
import AudioSession

package enum PulseModuleArguments {
  /// Plain `key=value` arguments in order, then property-list arguments (`sink_properties`,
  /// `source_properties`) by key, their properties sorted by key.
  ///
  ///     try PulseModuleArguments.make(
  ///       ["sink_name": "hp"],
  ///       propertyLists: ["sink_properties": ["device.description": "Wired Headphones"]])
  ///     // sink_name=hp sink_properties='device.description="Wired Headphones"'
  package static func make(
    _ arguments: KeyValuePairs<String, String>,
    propertyLists: [String: [String: String]] = [:]
  ) throws(PulseServerError) -> String {
    var parts: [String] = []
    for (key, value) in arguments {
      try checkName(key, kind: "module argument")
      parts.append("\(key)=\(try quoted(value, for: key))")
    }
    for key in propertyLists.keys.sorted() {
      try checkName(key, kind: "module argument")
      let properties = propertyLists[key] ?? [:]
      var entries: [String] = []
      for name in properties.keys.sorted() {
        try checkName(name, kind: "property")
        entries.append("\(name)=\(try quoted(properties[name] ?? "", for: name))")
      }
      parts.append("\(key)='\(entries.joined(separator: " "))'")
    }
    return parts.joined(separator: " ")
  }

  private static func checkName(_ name: String, kind: String) throws(PulseServerError) {
    let allowed = name.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        || $0 == "." || $0 == "_" || $0 == "-"
    }
    guard !name.isEmpty, allowed else {
      throw PulseServerError(
        .invalidModuleArgument,
        "invalid \(kind) name '\(name)': use ASCII letters, digits, '.', '_' and '-' only")
    }
  }

  private static func quoted(_ value: String, for key: String) throws(PulseServerError) -> String {
    guard !value.contains(where: { $0 == "\"" || $0 == "'" || $0 == "\\" || $0.isNewline }) else {
      throw PulseServerError(
        .invalidModuleArgument,
        "the value of '\(key)' contains a quote, a backslash or a line break, which PulseAudio "
          + "module arguments cannot carry: \(value)")
    }
    let needsQuotes = value.isEmpty || value.contains { $0.isWhitespace || $0 == "=" }
    return needsQuotes ? "\"\(value)\"" : value
  }
}
