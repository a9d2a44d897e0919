// Reading a scenario file: libyaml's parser (the C library, through the CYAML module) turned into
// a small tree with each node's position, and its plain scalars given YAML 1.1's types
// (docs/contract.md "Scenario files"). Only what a scenario needs: one document, aliases
// resolved, duplicate keys refused.
import CYAML

/// Where a node starts: 1-based line and column (columns count Unicode scalars, as libyaml does).
struct YAMLMark: Sendable, Hashable {
  var line: Int
  var column: Int

  init(_ mark: yaml_mark_t) {
    line = Int(mark.line) + 1
    column = Int(mark.column) + 1
  }
}

/// What a scalar is, after YAML 1.1's resolution of plain scalars (yaml.org/type): a quoted or
/// block scalar, or one tagged `!!str`, is a string.
enum YAMLScalarKind: Sendable, Hashable {
  case string, integer, float, boolean, null, timestamp
  /// An explicit tag other than the core ones (`!custom`).
  case other(String)
}

/// One node of a composed YAML document.
indirect enum YAMLNode: Sendable {
  case scalar(String, YAMLScalarKind, YAMLMark)
  case sequence([YAMLNode], YAMLMark)
  case mapping([(key: YAMLNode, value: YAMLNode)], YAMLMark)

  var mark: YAMLMark {
    switch self {
    case .scalar(_, _, let mark), .sequence(_, let mark), .mapping(_, let mark): mark
    }
  }
}

/// Why a file is not YAML a scenario can use: libyaml's own problem and context, with their marks,
/// or a duplicate key.
enum YAMLReadError: Error, Sendable, Hashable {
  /// What libyaml reported (reader, scanner or parser), or an alias to no anchor.
  case syntax(problem: String, at: YAMLMark, context: String?, contextMark: YAMLMark?)
  /// The same key twice in one mapping (at the mapping's start).
  case duplicateKeys([String], mapping: YAMLMark)
  /// Bytes that are not text (libyaml's reader: an offset into the file).
  case reader(problem: String, offset: Int)
}

enum YAMLReader {
  /// Composes the first document of `text`; nil for a file with no document (empty, or only
  /// comments).
  static func compose(_ text: String) throws(YAMLReadError) -> YAMLNode? {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else {
      throw .syntax(
        problem: "cannot start the YAML parser (out of memory)", at: YAMLMark(yaml_mark_t()),
        context: nil, contextMark: nil)
    }
    defer { yaml_parser_delete(&parser) }
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLReadError) -> YAMLNode? in
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      var composer = Composer(parser: parser)
      defer { parser = composer.parser }
      return try composer.document()
    }
  }

  /// One parse: events in, nodes out.
  private struct Composer {
    var parser: yaml_parser_t
    var anchors: [String: YAMLNode] = [:]

    init(parser: yaml_parser_t) {
      self.parser = parser
    }

    /// The next event, whose strings and marks are copied out before libyaml frees it.
    mutating func next() throws(YAMLReadError) -> Event {
      var event = yaml_event_t()
      guard yaml_parser_parse(&parser, &event) == 1 else { throw error() }
      defer { yaml_event_delete(&event) }
      return Event(event)
    }

    mutating func document() throws(YAMLReadError) -> YAMLNode? {
      var event = try next()
      if event.type == YAML_STREAM_START_EVENT { event = try next() }
      guard event.type == YAML_DOCUMENT_START_EVENT else { return nil }
      let start = event.mark
      let root = try node(try next())
      // The rest of the stream is read too: a second document, or an error after the first, is
      // the file's problem.
      while true {
        let following = try next()
        if following.type == YAML_STREAM_END_EVENT { return root }
        if following.type == YAML_DOCUMENT_START_EVENT {
          throw .syntax(
            problem: "but found another document", at: following.mark,
            context: "expected a single document in the stream", contextMark: start)
        }
      }
    }

    mutating func node(_ event: Event) throws(YAMLReadError) -> YAMLNode {
      let built: YAMLNode
      switch event.type {
      case YAML_ALIAS_EVENT:
        guard let anchor = event.anchor, let target = anchors[anchor] else {
          throw .syntax(
            problem: "found undefined alias", at: event.mark, context: nil, contextMark: nil)
        }
        return target
      case YAML_SCALAR_EVENT:
        built = .scalar(event.value, Self.kind(of: event), event.mark)
      case YAML_SEQUENCE_START_EVENT:
        var items: [YAMLNode] = []
        while true {
          let item = try next()
          if item.type == YAML_SEQUENCE_END_EVENT { break }
          items.append(try node(item))
        }
        built = .sequence(items, event.mark)
      case YAML_MAPPING_START_EVENT:
        var pairs: [(key: YAMLNode, value: YAMLNode)] = []
        var seen: Set<String> = []
        var duplicates: [String] = []
        while true {
          let keyEvent = try next()
          if keyEvent.type == YAML_MAPPING_END_EVENT { break }
          let key = try node(keyEvent)
          let value = try node(try next())
          if case .scalar(let text, _, _) = key, !seen.insert(text).inserted,
            !duplicates.contains(text)
          {
            duplicates.append(text)
          }
          pairs.append((key, value))
        }
        guard duplicates.isEmpty else { throw .duplicateKeys(duplicates, mapping: event.mark) }
        built = .mapping(pairs, event.mark)
      default:
        throw .syntax(
          problem: "unexpected YAML event", at: event.mark, context: nil, contextMark: nil)
      }
      if let anchor = event.anchor { anchors[anchor] = built }
      return built
    }

    /// libyaml's error, as it reported it.
    func error() -> YAMLReadError {
      let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
      if parser.error == YAML_READER_ERROR {
        return .reader(problem: problem, offset: Int(parser.problem_offset))
      }
      return .syntax(
        problem: problem, at: YAMLMark(parser.problem_mark),
        context: parser.context.map { String(cString: $0) },
        contextMark: parser.context == nil ? nil : YAMLMark(parser.context_mark))
    }

    static func kind(of event: Event) -> YAMLScalarKind {
      if let tag = event.tag, tag != "!" {
        switch tag {
        case "tag:yaml.org,2002:str": return .string
        case "tag:yaml.org,2002:int": return .integer
        case "tag:yaml.org,2002:float": return .float
        case "tag:yaml.org,2002:bool": return .boolean
        case "tag:yaml.org,2002:null": return .null
        case "tag:yaml.org,2002:timestamp": return .timestamp
        default: return .other(tag)
        }
      }
      guard event.isPlain, event.tag == nil else { return .string }
      return YAMLPlainScalar.kind(of: event.value)
    }
  }

  /// The parts of a libyaml event a composer reads.
  private struct Event {
    var type: yaml_event_type_t
    var mark: YAMLMark
    var anchor: String?
    var tag: String?
    var value: String = ""
    var isPlain = false

    init(_ event: yaml_event_t) {
      type = event.type
      mark = YAMLMark(event.start_mark)
      func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
      }
      switch event.type {
      case YAML_ALIAS_EVENT:
        anchor = string(event.data.alias.anchor)
      case YAML_SCALAR_EVENT:
        let scalar = event.data.scalar
        anchor = string(scalar.anchor)
        tag = string(scalar.tag)
        if let bytes = scalar.value {
          value = String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(scalar.length)), as: UTF8.self)
        }
        isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE
      case YAML_SEQUENCE_START_EVENT:
        anchor = string(event.data.sequence_start.anchor)
        tag = string(event.data.sequence_start.tag)
      case YAML_MAPPING_START_EVENT:
        anchor = string(event.data.mapping_start.anchor)
        tag = string(event.data.mapping_start.tag)
      default:
        break
      }
    }
  }
}
