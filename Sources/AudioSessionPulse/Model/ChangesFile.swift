package import AudioSession

/// The changes file and its intent file (docs/apps.md "A daemon that was killed"): what the
/// backend has muted or ducked on other programs' streams, written for a daemon started after
/// this one was killed, and what that daemon undoes.
///
/// Pure: entries in, the file's text and an intent line out; the files' bytes in, the entries
/// they list for this server out; and, against the first snapshot, the undos: unmute a stream
/// still there with its mute, give back the volumes of one still at its ducked volumes, and
/// hand the entries of streams that went to the server's stream database.
///
/// The changes file is one JSON object, `{"v":1,"server":…,"streams":[…]}`; the intent file holds
/// one stream per line, each with its server. A stream lists its direction and index, the
/// program's process id (so that another stream that got the index is left alone), whether it
/// was muted, the volumes it had before the ducking and the ducked ones it was given (or the
/// volumes shown), and its entry in the server's stream database.
package enum ChangesFile {
  /// The file's format version.
  static let version = 1

  /// One stream the files list.
  package struct Entry: Sendable, Hashable {
    package var key: ServerStream.Key
    package var pid: String?
    package var muted: Bool
    /// Its volumes before the ducking, if the backend ducked it, and the ducked ones.
    package var volumes: [PulseVolume]?
    package var ducked: [PulseVolume]?
    /// The volumes the server last showed (a database entry written anew gets them); only for
    /// a stream not ducked.
    package var shown: [PulseVolume]?
    package var restoreName: String?
  }

  /// What a daemon undoes from what its predecessor listed.
  package enum Undo: Sendable, Hashable {
    /// The stream is there, by the same program, still muted.
    case unmute(ServerStream.Key)
    /// The playback stream is there, by the same program, at exactly the ducked volumes.
    case setVolumes(index: UInt32, [PulseVolume])
    /// The stream went: its entry in the stream database may hold what it was given.
    case gone(Entry)
  }

  /// What the files list for a server, and whether either could not be read whole.
  package struct Listed: Sendable, Hashable {
    /// The streams listed, or what could still be read of them.
    package var entries: [Entry]
    /// The changes file is not one this daemon wrote whole: truncated, bytes changed, another
    /// version; `entries` holds the streams that could still be read of it.
    package var changesDamaged = false
    /// A line of the intent file could not be read (a torn last line included).
    package var intentsDamaged = false

    package init(entries: [Entry], changesDamaged: Bool = false, intentsDamaged: Bool = false) {
      self.entries = entries
      self.changesDamaged = changesDamaged
      self.intentsDamaged = intentsDamaged
    }
  }

  /// The intent file's path beside the changes file.
  static func intentPath(_ changes: String) -> String { changes + ".intent" }

  /// The changes file's text for `entries` on `server`; empty (the file removed) for none.
  static func text(_ entries: [Entry], server: String) -> String {
    guard !entries.isEmpty else { return "" }
    let object: JSONObject = [
      "v": .int(version), "server": .string(server),
      "streams": .array(entries.map { .object(jsonObject($0)) }),
    ]
    return object.serialized + "\n"
  }

  /// A stream's line of the intent file: as the changes file lists it, with the server.
  static func intentLine(_ entry: Entry, server: String) -> [UInt8] {
    var object = jsonObject(entry)
    object.append("server", .string(server))
    return Array((JSONValue.object(object).serialized + "\n").utf8)
  }

  /// The streams the files list for `server`: the intent file's lines first, then the changes
  /// file's streams, each once. A changes file of another server (or of the server before a
  /// restart) lists none of these streams. A file that cannot be read whole is said to be
  /// damaged, and what can still be read of it is listed: each intent line that reads, and each
  /// stream object of the changes file that reads on its own (docs/apps.md "A daemon that was
  /// killed").
  package static func listed(changes: [UInt8]?, intents: [UInt8]?, server: String) -> Listed {
    var objects: [JSONObject] = []
    var listed = Listed(entries: [])
    if let intents {
      if let last = intents.last, last != UInt8(ascii: "\n") { listed.intentsDamaged = true }
      for line in intents.split(separator: UInt8(ascii: "\n")) {
        guard case .object(let object)? = try? JSONParser.parse(Array(line)),
          entry(object) != nil
        else {
          listed.intentsDamaged = true
          continue
        }
        if object["server"] == .string(server) { objects.append(object) }
      }
    }
    if let changes {
      if case .object(let object)? = try? JSONParser.parse(changes),
        object["v"] == .int(version), case .string(let named)? = object["server"],
        case .array(let streams)? = object["streams"], !streams.isEmpty
      {
        for stream in streams {
          guard case .object(let stream) = stream, entry(stream) != nil else {
            listed.changesDamaged = true
            continue
          }
          if named == server { objects.append(stream) }
        }
      } else {
        listed.changesDamaged = true
        objects += salvaged(changes, server: server)
      }
    }
    for entry in objects.compactMap(entry) where !listed.entries.contains(entry) {
      listed.entries.append(entry)
    }
    return listed
  }

  /// The stream objects that still read in a changes file that does not: each `{"direction":…}`
  /// up to its closing brace (a stream holds no object), unless the file names another server.
  static func salvaged(_ bytes: [UInt8], server: String) -> [JSONObject] {
    if let named = namedServer(bytes), named != server { return [] }
    let marker = Array(#"{"direction":"#.utf8)
    var objects: [JSONObject] = []
    var start = bytes.startIndex
    while let found = firstRange(of: marker, in: bytes, from: start) {
      guard let end = bytes[found...].firstIndex(of: UInt8(ascii: "}")) else { break }
      if case .object(let object)? = try? JSONParser.parse(Array(bytes[found...end])) {
        objects.append(object)
      }
      start = found + 1
    }
    return objects
  }

  /// The changes file's server, if its `"server":"…"` member still reads.
  private static func namedServer(_ bytes: [UInt8]) -> String? {
    let marker = Array(#""server":""#.utf8)
    guard let found = firstRange(of: marker, in: bytes, from: bytes.startIndex) else { return nil }
    let start = found + marker.count
    guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
    return String(validating: bytes[start..<end], as: UTF8.self)
  }

  private static func firstRange(of marker: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard marker.count <= bytes.count else { return nil }
    var index = start
    while index + marker.count <= bytes.count {
      if bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) {
        return index
      }
      index += 1
    }
    return nil
  }

  /// What to undo of `entries` on the server `snapshot` shows.
  package static func undos(_ entries: [Entry], in snapshot: PulseServerSnapshot) -> [Undo] {
    var undos: [Undo] = []
    for entry in entries {
      let index = entry.key.index
      switch entry.key.direction {
      case .playback:
        if let input = snapshot.sinkInputs.first(where: { $0.index == index }),
          input.properties["application.process.id"] == entry.pid
        {
          if entry.muted, input.isMuted { undos.append(.unmute(entry.key)) }
          if let volumes = entry.volumes, input.channelVolumes == entry.ducked {
            undos.append(.setVolumes(index: index, volumes))
          }
          continue
        }
      case .record:
        if let output = snapshot.sourceOutputs.first(where: { $0.index == index }),
          output.properties["application.process.id"] == entry.pid
        {
          if entry.muted, output.isMuted { undos.append(.unmute(entry.key)) }
          continue
        }
      }
      if entry.restoreName != nil { undos.append(.gone(entry)) }
    }
    return undos
  }

  /// One stream as the files list it.
  private static func jsonObject(_ entry: Entry) -> JSONObject {
    func numbers(_ volumes: [PulseVolume]) -> JSONValue {
      .array(volumes.map { .int(Int($0.rawValue)) })
    }
    var object: JSONObject = [
      "direction": .string(entry.key.direction == .playback ? "playback" : "record"),
      "index": .int(Int(entry.key.index)),
      "pid": entry.pid.map(JSONValue.string) ?? .null,
      "muted": .bool(entry.muted),
    ]
    if let volumes = entry.volumes {
      object.append("volumes", numbers(volumes))
      object.append("ducked", numbers(entry.ducked ?? []))
    } else if let shown = entry.shown {
      object.append("shown", numbers(shown))
    }
    object.append("restoreEntry", entry.restoreName.map(JSONValue.string) ?? .null)
    return object
  }

  /// A stream listed; nil when it names no stream (no index, no known direction).
  private static func entry(_ object: JSONObject) -> Entry? {
    guard case .int(let number)? = object["index"], let index = UInt32(exactly: number),
      case .string(let direction)? = object["direction"]
    else { return nil }
    let key: ServerStream.Key
    switch direction {
    case "playback": key = .init(.playback, index)
    case "record": key = .init(.record, index)
    default: return nil
    }
    let pid: String? = if case .string(let pid)? = object["pid"] { pid } else { nil }
    let restoreName: String? =
      if case .string(let name)? = object["restoreEntry"] { name } else { nil }
    let volumes = volumes(object["volumes"])
    return Entry(
      key: key, pid: pid, muted: object["muted"] == .bool(true), volumes: volumes,
      ducked: volumes == nil ? nil : self.volumes(object["ducked"]),
      shown: volumes == nil ? self.volumes(object["shown"]) : nil, restoreName: restoreName)
  }

  private static func volumes(_ value: JSONValue?) -> [PulseVolume]? {
    guard case .array(let values)? = value else { return nil }
    let volumes = values.compactMap { value -> [PulseVolume].Element? in
      guard case .int(let raw) = value, let volume = UInt32(exactly: raw) else { return nil }
      return PulseVolume(rawValue: volume)
    }
    return volumes.count == values.count && !volumes.isEmpty ? volumes : nil
  }
}
