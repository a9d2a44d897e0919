extension PolicyLoader {
  /// Collects the problems found in one file, in the order they are found.
  package final class Diagnostics {
    package let file: String
    package private(set) var problems: [PolicyProblem] = []

    package init(file: String) {
      self.file = file
    }

    /// Records a problem once: a value that profiles inherit is checked for each of them.
    package func report(_ keyPath: String, _ message: String) {
      let problem = PolicyProblem(file: file, keyPath: keyPath, message: message)
      if !problems.contains(problem) { problems.append(problem) }
    }
  }

  /// A JSON value and its key path. Every accessor checks the value's type and records a problem
  /// (returning nil) instead of throwing, so a file is read to the end.
  package struct Node {
    package let value: JSONValue
    package let path: String
    package let diagnostics: Diagnostics

    package init(value: JSONValue, path: String, diagnostics: Diagnostics) {
      self.value = value
      self.path = path
      self.diagnostics = diagnostics
    }

    package func report(_ message: String) {
      diagnostics.report(path, message)
    }

    package func childPath(_ key: String) -> String {
      JSONParser.keyPath(path, key)
    }

    /// The members of an object whose keys are fixed: reports a wrong type, every unknown key
    /// (listing the valid ones) and every missing required key.
    package func object(required: [String], optional: [String] = []) -> Fields? {
      guard case .object(let object) = value else {
        report("expected an object, found \(value.kindName)")
        return nil
      }
      let valid = required + optional
      var fields: [String: Node] = [:]
      for member in object.members {
        let node = Node(value: member.value, path: childPath(member.key), diagnostics: diagnostics)
        guard valid.contains(member.key) else {
          node.report("unknown key '\(member.key)'; valid keys: \(valid.joined(separator: ", "))")
          continue
        }
        fields[member.key] = node
      }
      for key in required where fields[key] == nil {
        diagnostics.report(childPath(key), "missing required key '\(key)'")
      }
      return Fields(node: self, fields: fields)
    }

    /// The members of an object whose keys are free (names checked by the caller).
    package func members() -> [(key: String, node: Node)]? {
      guard case .object(let object) = value else {
        report("expected an object, found \(value.kindName)")
        return nil
      }
      return object.members.map {
        ($0.key, Node(value: $0.value, path: childPath($0.key), diagnostics: diagnostics))
      }
    }

    /// An object keyed by the names of a model enum: reports unknown names and, when
    /// `requireEvery` is set, every case that has no entry.
    package func namedMap<T: NamedCase>(
      _ kind: String, requireEvery: Bool, missing: String = "missing entry"
    ) -> [(name: T, node: Node)]? {
      guard let members = members() else { return nil }
      var entries: [(name: T, node: Node)] = []
      for (key, node) in members {
        guard let name: T = node.lookup(key, kind) else { continue }
        entries.append((name, node))
      }
      if requireEvery {
        for name in T.allCases where !entries.contains(where: { $0.name == name }) {
          diagnostics.report(childPath(name.name), "\(missing) for \(kind) '\(name.name)'")
        }
      }
      return entries
    }

    package func array() -> [Node]? {
      guard case .array(let elements) = value else {
        report("expected an array, found \(value.kindName)")
        return nil
      }
      return elements.enumerated().map {
        Node(value: $0.element, path: "\(path)[\($0.offset)]", diagnostics: diagnostics)
      }
    }

    /// A number greater than zero.
    package func positiveNumber() -> Double? {
      let number: Double
      switch value {
      case .int(let value): number = Double(value)
      case .double(let value): number = value
      default:
        report("expected a number, found \(value.kindName)")
        return nil
      }
      guard number > 0, number.isFinite else {
        report("expected a number greater than 0, found \(number)")
        return nil
      }
      return number
    }

    package func bool() -> Bool? {
      guard case .bool(let flag) = value else {
        report("expected true or false, found \(value.kindName)")
        return nil
      }
      return flag
    }

    /// A string that is not empty.
    package func text() -> String? {
      guard case .string(let text) = value else {
        report("expected a string, found \(value.kindName)")
        return nil
      }
      guard text.contains(where: { !$0.isWhitespace }) else {
        report("must not be empty")
        return nil
      }
      return text
    }

    /// A name (identifier) the command line can spell: a letter, then letters, digits or '_'.
    package func identifier(_ kind: String) -> String? {
      guard let text = text() else { return nil }
      guard Self.isIdentifier(text) else {
        report(
          "\(kind) '\(text)' must start with a letter and contain only letters, digits and '_'")
        return nil
      }
      return text
    }

    /// One case name of a model enum.
    package func name<T: NamedCase>(_ kind: String) -> T? {
      guard let text = text() else { return nil }
      return lookup(text, kind)
    }

    /// A list of case names without repeats.
    package func names<T: NamedCase>(_ kind: String, allowEmpty: Bool = true) -> [T]? {
      guard let elements = array() else { return nil }
      if !allowEmpty, elements.isEmpty {
        report("must list at least one \(kind); leave the key out to match any")
        return nil
      }
      var names: [T] = []
      var valid = true
      for element in elements {
        guard let name: T = element.name(kind) else {
          valid = false
          continue
        }
        if names.contains(name) {
          element.report("\(kind) '\(name.name)' is listed twice")
          valid = false
          continue
        }
        names.append(name)
      }
      return valid ? names : nil
    }

    /// A list of option names as an option set.
    package func options(allowEmpty: Bool = true) -> CategoryOptions? {
      let named: [CategoryOption]? = names("option", allowEmpty: allowEmpty)
      return named.map { CategoryOptions($0) }
    }

    /// Looks a case up by its exact Swift case name (policy files do not accept aliases).
    package func lookup<T: NamedCase>(_ text: String, _ kind: String) -> T? {
      if let match = T.allCases.first(where: { $0.name == text }) { return match }
      if T.self == CategoryOption.self, text == "allowBluetooth" {
        report(
          """
          'allowBluetooth' is the deprecated alias of 'allowBluetoothHFP'; write \
          'allowBluetoothHFP'
          """
        )
        return nil
      }
      let valid = T.allCases.map(\.name).joined(separator: ", ")
      report("unknown \(kind) '\(text)'; valid: \(valid)")
      return nil
    }

    package static func isIdentifier(_ text: String) -> Bool {
      guard let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII
      else { return false }
      return text.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_")
      }
    }
  }

  /// The checked members of an object with fixed keys.
  package struct Fields {
    package let node: Node
    package let fields: [String: Node]

    package subscript(key: String) -> Node? { fields[key] }
  }
}

extension JSONValue {
  /// How the value is named in a policy file's "found …" message.
  package var kindName: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string(let text): "the string \"\(text)\""
    case .int(let value): "the number \(value)"
    case .double(let value) where value == value.rounded() && abs(value) < 1e15:
      "the number \(Int64(value))"
    case .double(let value): "the number \(value)"
    case .bool(let value): "\(value)"
    case .null: "null"
    }
  }

  /// The value of a number, integer or not.
  package var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }
}
