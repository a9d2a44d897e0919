// The `session` reply: everything the client library reads of its session, `status`'s session
// object and more (docs/protocol.md "Operations").

extension JSONKey {
  /// The members the `session` reply adds to a session of `status`.
  enum SessionReply {
    static let name = "name", portOverride = "portOverride"
    static let isOtherAudioPlaying = "isOtherAudioPlaying", inputDataSources = "inputDataSources"
    static let inputDataSourceDetails = "inputDataSourceDetails"
    static let maximumInputNumberOfChannels = "maximumInputNumberOfChannels"
    static let maximumOutputNumberOfChannels = "maximumOutputNumberOfChannels"
    static let recordPermission = "recordPermission"
  }

  /// The members of one data source of `inputDataSourceDetails`.
  enum DataSource {
    static let name = "name", location = "location", orientation = "orientation"
    static let supportedPolarPatterns = "supportedPolarPatterns"
    static let selectedPolarPattern = "selectedPolarPattern"
    static let preferredPolarPattern = "preferredPolarPattern", selected = "selected"
  }
}

/// The reply to `session`: everything the client library reads of its session.
public enum WireSession {
  /// `status`'s session object (`availableInputs`, `otherAudioPlaying`,
  /// `secondaryAudioShouldBeSilencedHint` and `outputVolume` among its members) plus
  /// `portOverride`, `isOtherAudioPlaying`, `inputDataSources` (names) and
  /// `inputDataSourceDetails` (each data source of the current input, with its location,
  /// orientation and polar patterns: docs/protocol.md).
  public static func json(_ status: SessionStatus) -> JSONObject {
    typealias Key = JSONKey.SessionReply
    var object: JSONObject = [Key.name: .string(status.name)]
    for member in TranscriptJSON.session(status).members {
      object.append(member.key, member.value)
    }
    object.append(Key.portOverride, .string(status.portOverride.name))
    object.append(Key.isOtherAudioPlaying, .bool(status.isOtherAudioPlaying))
    object.append(Key.inputDataSources, .strings(status.inputDataSources))
    object.append(Key.inputDataSourceDetails, .array(status.inputDataSourceDetails.map(json)))
    object.append(Key.maximumInputNumberOfChannels, .int(status.maximumInputNumberOfChannels))
    object.append(Key.maximumOutputNumberOfChannels, .int(status.maximumOutputNumberOfChannels))
    object.append(Key.recordPermission, .string(status.recordPermission.name))
    return object
  }

  /// ``json(_:)`` read back: the session and its available inputs.
  public static func decode(_ object: JSONObject) throws(WireDecodingError) -> (
    status: SessionStatus, availableInputs: [PortDescription], dataSources: [DataSourceStatus]
  ) {
    typealias Key = JSONKey.SessionReply
    let reader = WireReader(object: object, path: "session")
    let name = try reader.string(Key.name)
    let inputs = try reader.list(JSONKey.Session.availableInputs, WireDecoding.port)
    let names = try reader.ifPresent(Key.inputDataSources, reader.strings) ?? []
    let sources =
      try reader.ifPresent(Key.inputDataSourceDetails) { key throws(WireDecodingError) in
        try reader.list(key, dataSource)
      } ?? names.map { DataSourceStatus(name: $0) }
    var status = try WireDecoding.session(object, name: name)
    status.inputDataSources = sources.map(\.name)
    status.inputDataSourceDetails = sources
    if case .int(let count)? = object[Key.maximumInputNumberOfChannels] {
      status.maximumInputNumberOfChannels = count
    }
    if case .int(let count)? = object[Key.maximumOutputNumberOfChannels] {
      status.maximumOutputNumberOfChannels = count
    }
    if case .string(let name)? = object[Key.recordPermission],
      let permission = RecordPermission(name: name)
    {
      status.recordPermission = permission
    }
    return (status, inputs, sources)
  }

  /// One data source of `inputDataSourceDetails`.
  static func json(_ source: DataSourceStatus) -> JSONValue {
    typealias Key = JSONKey.DataSource
    var object: JSONObject = [Key.name: .string(source.name)]
    object.append(Key.location, source.location.map { .string($0.name) } ?? .null)
    object.append(Key.orientation, source.orientation.map { .string($0.name) } ?? .null)
    object.append(Key.supportedPolarPatterns, .strings(source.supportedPolarPatterns.map(\.name)))
    object.append(
      Key.selectedPolarPattern, source.selectedPolarPattern.map { .string($0.name) } ?? .null)
    object.append(
      Key.preferredPolarPattern, source.preferredPolarPattern.map { .string($0.name) } ?? .null)
    object.append(Key.selected, .bool(source.selected))
    return .object(object)
  }

  /// One data source of `inputDataSourceDetails` read back.
  static func dataSource(_ object: JSONObject) throws(WireDecodingError) -> DataSourceStatus {
    typealias Key = JSONKey.DataSource
    let reader = WireReader(object: object, path: "session.inputDataSourceDetails")
    return DataSourceStatus(
      name: try reader.string(Key.name),
      location: try reader.optionalNamed(Key.location, DataSourceLocation.self),
      orientation: try reader.optionalNamed(Key.orientation, DataSourceOrientation.self),
      supportedPolarPatterns: try reader.namedList(Key.supportedPolarPatterns, PolarPattern.self),
      selectedPolarPattern: try reader.optionalNamed(Key.selectedPolarPattern, PolarPattern.self),
      preferredPolarPattern: try reader.optionalNamed(Key.preferredPolarPattern, PolarPattern.self),
      selected: try reader.bool(Key.selected))
  }
}
