/// A scenario drawn as a timeline (docs/contract.md "Seeing why"): one lane per session across
/// the steps, with bands for active, playing, interrupted, ducked and muted, the output route
/// where it changes, each notification as a mark (its text, reason included, as the mark's
/// title), and the steps' commands along the axis. A self-contained SVG: no script, no external
/// font or image, so a browser and `rsvg-convert` show it as it is.
///
/// Pure: drawn from the transcript's entries and the state after each step
/// (``TranscriptEntry/after``).
public enum TimelineSVG {
  /// One band of a lane: what it shows, its colour, and how it reads a session's state.
  struct Band: Sendable {
    var name: String
    var colour: String
    var isOn: @Sendable (SessionStatus) -> Bool
  }

  static let bands: [Band] = [
    Band(name: "active", colour: "#4c8fd6", isOn: { $0.active }),
    Band(name: "playing", colour: "#2e7d32", isOn: { $0.playing }),
    Band(name: "interrupted", colour: "#c62828", isOn: { $0.interrupted }),
    Band(name: "ducked", colour: "#ef8f00", isOn: { $0.ducked }),
    Band(name: "muted", colour: "#757575", isOn: { $0.muted }),
  ]

  /// The kinds of mark: letter, what the legend calls it, colour.
  struct Mark: Sendable {
    var letter: String
    var meaning: String
    var colour: String
  }

  static let marks: [Mark] = [
    Mark(letter: "B", meaning: "interruption began", colour: "#c62828"),
    Mark(letter: "E", meaning: "ended", colour: "#2e7d32"),
    Mark(letter: "R", meaning: "route change", colour: "#4c8fd6"),
    Mark(letter: "D", meaning: "duck", colour: "#ef8f00"),
    Mark(letter: "d", meaning: "unduck", colour: "#ef8f00"),
    Mark(letter: "M", meaning: "mute", colour: "#757575"),
    Mark(letter: "m", meaning: "unmute", colour: "#757575"),
    Mark(letter: "P", meaning: "pause", colour: "#6a1b9a"),
    Mark(letter: "H", meaning: "hint", colour: "#8d6e63"),
    Mark(letter: "L", meaning: "lost", colour: "#000000"),
    Mark(letter: "S", meaning: "reset", colour: "#000000"),
    Mark(letter: "Y", meaning: "player", colour: "#00838f"),
    Mark(letter: "T", meaning: "prompt style", colour: "#5d4037"),
    Mark(letter: "I", meaning: "(in)active (iOS 27)", colour: "#ad1457"),
    Mark(letter: "N", meaning: "resumption (iOS 27)", colour: "#1b5e20"),
    Mark(letter: "O", meaning: "own mute", colour: "#455a64"),
    Mark(letter: "A", meaning: "inputs", colour: "#0277bd"),
  ]

  /// The mark of each kind of notification.
  static func mark(_ event: SessionEvent) -> Mark {
    let letter =
      switch event {
      case .interruptionBegan: "B"
      case .interruptionEnded: "E"
      case .routeChange: "R"
      case .silenceSecondaryAudioHint: "H"
      case .mediaServicesWereLost: "L"
      case .mediaServicesWereReset: "S"
      case .duck: "D"
      case .unduck: "d"
      case .mute: "M"
      case .unmute: "m"
      case .pause: "P"
      case .player: "Y"
      case .promptStyle: "T"
      case .didBecomeActive, .didBecomeInactive: "I"
      case .resumptionRecommendation: "N"
      case .outputMuteStateChange, .userIntentToUnmuteOutput, .inputMuteStateChange: "O"
      case .availableInputsChange: "A"
      }
    return marks.first { $0.letter == letter } ?? marks[0]
  }

  // Layout, in pixels.
  static let left = 160
  static let stepWidth = 30
  static let bandHeight = 8
  /// Two rows of route labels, so that labels of neighbouring steps do not overlap.
  static let routeRow = 22
  static let markRow = 16
  static let laneGap = 10
  static let top = 74

  /// The sessions of a transcript, in the order they first appear (in a state or a notification).
  public static func sessions(_ entries: [TranscriptEntry]) -> [String] {
    var names: [String] = []
    var seen: Set<String> = []
    for entry in entries {
      let named =
        entry.result.notifications.map(\.session) + (entry.after?.sessions.map(\.name) ?? [])
      for name in named where seen.insert(name).inserted { names.append(name) }
    }
    return names
  }

  /// The SVG document for a scenario's entries (each with its ``TranscriptEntry/after`` state).
  public static func render(title: String, entries: [TranscriptEntry]) -> String {
    let sessions = sessions(entries)
    let steps = entries.count
    // How many marks each lane needs in its busiest step.
    var markRows: [String: Int] = [:]
    for entry in entries {
      var counts: [String: Int] = [:]
      for notification in entry.result.notifications {
        counts[notification.session, default: 0] += 1
      }
      for (name, count) in counts { markRows[name] = max(markRows[name] ?? 0, count) }
    }
    var laneTop: [String: Int] = [:]
    var y = top
    for name in sessions {
      laneTop[name] = y
      y += laneHeight(marks: markRows[name] ?? 0) + laneGap
    }
    let axisTop = y
    let longest = entries.map { min($0.command.count, 48) }.max() ?? 0
    let height = axisTop + 28 + longest * 6 + 10
    let legendWidth = max(
      bands.map { 24 + $0.name.count * 7 }.reduce(10, +),
      marks.map { 26 + $0.meaning.count * 6 }.reduce(10, +))
    let width = max(left + max(steps, 1) * stepWidth + 40, legendWidth, title.count * 9 + 20)

    var svg: [String] = []
    svg.append(
      ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" viewBox="0 0 \##(width) \##(height)" font-family="sans-serif" font-size="11">"##
    )
    svg.append("<title>\(escaped(title))</title>")
    svg.append(##"<rect width="\##(width)" height="\##(height)" fill="#ffffff"/>"##)
    svg.append(
      ##"<text x="10" y="20" font-size="14" font-weight="bold">\##(escaped(title))</text>"##)
    svg += legend()
    // Step columns, every other one shaded.
    for step in 0..<steps where step % 2 == 1 {
      svg.append(
        ##"<rect x="\##(left + step * stepWidth)" y="\##(top - 6)" width="\##(stepWidth)" height="\##(axisTop - top + 6)" fill="#f4f4f4"/>"##
      )
    }
    for name in sessions {
      guard let laneY = laneTop[name] else { continue }
      svg += lane(name, y: laneY, marks: markRows[name] ?? 0, entries: entries)
    }
    svg += axis(entries, y: axisTop)
    svg.append("</svg>")
    return svg.joined(separator: "\n") + "\n"
  }

  static func laneHeight(marks: Int) -> Int {
    routeRow + bands.count * bandHeight + max(marks, 1) * markRow
  }

  static func legend() -> [String] {
    var parts: [String] = []
    var x = 10
    for band in bands {
      parts.append(
        ##"<rect x="\##(x)" y="32" width="14" height="\##(bandHeight)" fill="\##(band.colour)"/>"##)
      parts.append(##"<text x="\##(x + 18)" y="40">\##(band.name)</text>"##)
      x += 24 + band.name.count * 7
    }
    x = 10
    for mark in marks {
      parts += circle(x: x + 6, y: 56, letter: mark.letter, colour: mark.colour)
      parts.append(##"<text x="\##(x + 15)" y="60">\##(escaped(mark.meaning))</text>"##)
      x += 26 + mark.meaning.count * 6
    }
    return parts
  }

  static func circle(x: Int, y: Int, letter: String, colour: String) -> [String] {
    [
      ##"<circle cx="\##(x)" cy="\##(y)" r="6" fill="\##(colour)"/>"##,
      ##"<text x="\##(x)" y="\##(y + 3)" font-size="8" fill="#ffffff" text-anchor="middle">\##(letter)</text>"##,
    ]
  }

  static func lane(_ name: String, y: Int, marks: Int, entries: [TranscriptEntry]) -> [String] {
    var parts: [String] = [##"<g class="lane" data-session="\##(escaped(name))">"##]
    let bandsTop = y + routeRow
    let shown = name.count > 22 ? String(name.prefix(21)) + "…" : name
    parts.append(
      ##"<text x="10" y="\##(bandsTop + 2 * bandHeight + 4)" font-weight="bold">\##(escaped(shown))<title>\##(escaped(name))</title></text>"##
    )
    let bottom = bandsTop + bands.count * bandHeight + max(marks, 1) * markRow + laneGap / 2
    parts.append(
      ##"<line x1="10" y1="\##(bottom)" x2="\##(left + entries.count * stepWidth)" y2="\##(bottom)" stroke="#dddddd"/>"##
    )
    var lastRoute: String?
    // Where each label row is free again.
    var rowFree = [Int.min, Int.min]
    for (index, entry) in entries.enumerated() {
      let x = left + index * stepWidth
      guard let state = entry.after?.sessions.first(where: { $0.name == name }) else {
        lastRoute = nil
        continue
      }
      for (row, band) in bands.enumerated() where band.isOn(state) {
        parts.append(
          ##"<rect x="\##(x)" y="\##(bandsTop + row * bandHeight + 1)" width="\##(stepWidth)" height="\##(bandHeight - 2)" fill="\##(band.colour)"/>"##
        )
      }
      let route = state.route.outputs.map(\.portType.name).joined(separator: "+")
      if route != lastRoute {
        let label = "→ " + (route.isEmpty ? "none" : route)
        let row = rowFree[0] <= x ? 0 : 1
        rowFree[row] = x + 4 + label.count * 5
        parts.append(
          ##"<text x="\##(x + 2)" y="\##(y + 9 + row * 10)" font-size="9" fill="#37474f">\##(escaped(label))</text>"##
        )
        lastRoute = route
      }
    }
    // Marks: one per notification, in posting order, stacked in the step's column.
    for (index, entry) in entries.enumerated() {
      let notifications = entry.result.notifications
      let because =
        entry.result.because.count == notifications.count ? entry.result.because : []
      let mine = notifications.indices.filter { notifications[$0].session == name }
      for (row, position) in mine.enumerated() {
        let notification = notifications[position]
        let mark = mark(notification.event)
        var text = "step \(entry.step): \(name): \(TranscriptText.event(notification.event))"
        // With --explain too, the mark says why.
        if position < because.count { text += "; " + TranscriptText.because(because[position]) }
        parts.append(
          ##"<g class="mark" data-session="\##(escaped(name))" data-step="\##(entry.step)">"##)
        parts.append("<title>\(escaped(text))</title>")
        parts += circle(
          x: left + index * stepWidth + stepWidth / 2,
          y: bandsTop + bands.count * bandHeight + row * markRow + markRow / 2 + 1,
          letter: mark.letter,
          colour: mark.colour)
        parts.append("</g>")
      }
    }
    parts.append("</g>")
    return parts
  }

  static func axis(_ entries: [TranscriptEntry], y: Int) -> [String] {
    var parts: [String] = [
      ##"<line x1="\##(left)" y1="\##(y)" x2="\##(left + entries.count * stepWidth)" y2="\##(y)" stroke="#37474f"/>"##
    ]
    for (index, entry) in entries.enumerated() {
      let x = left + index * stepWidth + stepWidth / 2
      let failed = entry.result.error != nil
      let colour = failed ? "#c62828" : "#37474f"
      var title = "step \(entry.step): \(entry.command)"
      if let error = entry.result.error { title += " → \(error.code.name): \(error.message)" }
      parts.append(
        ##"<g class="step" data-step="\##(entry.step)"><title>\##(escaped(title))</title>"##)
      parts.append(
        ##"<text x="\##(x)" y="\##(y + 14)" font-size="10" text-anchor="middle" fill="\##(colour)">\##(entry.step)</text>"##
      )
      let command =
        entry.command.count > 48 ? String(entry.command.prefix(47)) + "…" : entry.command
      parts.append(
        ##"<text transform="translate(\##(x + 3),\##(y + 24)) rotate(90)" font-size="10" fill="\##(colour)">\##(escaped(failed ? command + " ✗" : command))</text>"##
      )
      parts.append("</g>")
    }
    parts.append(##"<text x="10" y="\##(y + 14)" font-size="10" fill="#37474f">step</text>"##)
    return parts
  }

  /// Text made safe for XML content and attribute values.
  static func escaped(_ text: String) -> String {
    // Most text has nothing to escape.
    guard
      text.utf8.contains(where: {
        $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22
      })
    else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default:
        // Control characters are not allowed in XML 1.0.
        if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
          scalar.value < 0x20, scalar != "\n", scalar != "\t"
        {
          result += " "
        } else {
          result.append(character)
        }
      }
    }
    return result
  }
}
