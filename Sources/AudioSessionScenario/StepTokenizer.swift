/// Splits a scenario step into words the way a POSIX shell would, without expansions.
///
/// - Spaces and tabs separate words.
/// - `'…'` keeps everything literally.
/// - `"…"` keeps everything except `\"` and `\\`, which stand for `"` and `\`.
/// - Outside quotes, `\` keeps the next character literally.
/// - Quoted and unquoted parts next to each other form one word (`--options="a,b"`), and `''` is
///   an empty word.
import AudioSession

public enum StepTokenizer {
  /// A step that cannot be split: an unterminated quote or a trailing backslash.
  public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0-based offset, in characters, of the quote or backslash at fault.
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
      self.offset = offset
      self.message = message
    }

    public var description: String { message }
  }

  /// The words of a command line.
  public static func words(_ line: String) throws(SyntaxError) -> [String] {
    var words: [String] = []
    var current = ""
    var inWord = false
    var characters = Array(line).enumerated().makeIterator()
    while let (offset, character) = characters.next() {
      switch character {
      case " ", "\t":
        if inWord { words.append(current) }
        current = ""
        inWord = false
      case "'":
        inWord = true
        var closed = false
        while let (_, next) = characters.next() {
          if next == "'" {
            closed = true
            break
          }
          current.append(next)
        }
        guard closed else {
          throw SyntaxError(
            offset: offset,
            message: "unterminated single quote at column \(offset + 1); close it with '")
        }
      case "\"":
        inWord = true
        var closed = false
        while let (_, next) = characters.next() {
          if next == "\"" {
            closed = true
            break
          }
          if next == "\\" {
            guard let (_, escaped) = characters.next() else { break }
            if escaped != "\"" && escaped != "\\" { current.append("\\") }
            current.append(escaped)
            continue
          }
          current.append(next)
        }
        guard closed else {
          throw SyntaxError(
            offset: offset,
            message: "unterminated double quote at column \(offset + 1); close it with \"")
        }
      case "\\":
        guard let (_, escaped) = characters.next() else {
          throw SyntaxError(
            offset: offset,
            message: "backslash at the end of the step (column \(offset + 1)) escapes nothing")
        }
        inWord = true
        current.append(escaped)
      default:
        inWord = true
        current.append(character)
      }
    }
    if inWord { words.append(current) }
    return words
  }
}
