import AudioSession
import AudioSessionScenario
import Testing

// docs/contract.md "Scenario files": a step is a sessionctl command line, split as a shell would.
@Suite struct StepTokenizerTests {
  @Test("plain words split on spaces and tabs (docs/contract.md Scenario files)")
  func words_plainWords_splitOnWhitespace() throws {
    #expect(try StepTokenizer.words("music  set\tplayback ") == ["music", "set", "playback"])
  }

  @Test("an empty or blank step has no words (docs/contract.md Scenario files)")
  func words_blankLine_isEmpty() throws {
    #expect(try StepTokenizer.words("") == [])
    #expect(try StepTokenizer.words(" \t ") == [])
  }

  @Test("single quotes keep spaces and backslashes literally (docs/contract.md Scenario files)")
  func words_singleQuotes_keepEverything() throws {
    #expect(
      try StepTokenizer.words(#"simulate unplug 'my \ device'"#) == [
        "simulate", "unplug", #"my \ device"#,
      ])
  }

  @Test("double quotes honour \\\" and \\\\ only (docs/contract.md Scenario files)")
  func words_doubleQuotes_escapeQuoteAndBackslash() throws {
    #expect(try StepTokenizer.words(#"a "b \"c\" \\ \n""#) == ["a", #"b "c" \ \n"#])
  }

  @Test("quoted and unquoted parts join into one word (docs/contract.md Scenario files)")
  func words_adjacentParts_joinIntoOneWord() throws {
    #expect(
      try StepTokenizer.words(#"--options="mixWithOthers,"duckOthers x''y"#) == [
        "--options=mixWithOthers,duckOthers", "xy",
      ])
  }

  @Test("empty quotes make an empty word (docs/contract.md Scenario files)")
  func words_emptyQuotes_makeEmptyWord() throws {
    #expect(
      try StepTokenizer.words(#"set playback --options '' """#) == [
        "set", "playback", "--options", "", "",
      ])
  }

  @Test("a backslash outside quotes escapes the next character (docs/contract.md Scenario files)")
  func words_backslash_escapesNextCharacter() throws {
    #expect(try StepTokenizer.words(#"a\ b \'c"#) == ["a b", "'c"])
  }

  @Test("an unterminated single quote is an error naming its column (docs/contract.md Bad input)")
  func words_unterminatedSingleQuote_throws() {
    #expect(
      throws: StepTokenizer.SyntaxError(
        offset: 16, message: "unterminated single quote at column 17; close it with '")
    ) {
      try StepTokenizer.words("simulate unplug 'headphones-1")
    }
  }

  @Test("an unterminated double quote is an error naming its column (docs/contract.md Bad input)")
  func words_unterminatedDoubleQuote_throws() {
    #expect(
      throws: StepTokenizer.SyntaxError(
        offset: 2, message: "unterminated double quote at column 3; close it with \"")
    ) {
      try StepTokenizer.words(#"a "b \""#)
    }
  }

  @Test("a trailing backslash is an error (docs/contract.md Bad input)")
  func words_trailingBackslash_throws() {
    #expect(
      throws: StepTokenizer.SyntaxError(
        offset: 6, message: "backslash at the end of the step (column 7) escapes nothing")
    ) {
      try StepTokenizer.words(#"status\"#)
    }
  }
}
