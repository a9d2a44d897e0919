public import AudioSession

/// The reply to `session`: everything the client library reads of its session.
public enum WireSession {
  /// `status`'s session object (`availableInputs`, `otherAudioPlaying`,
  /// `secondaryAudioShouldBeSilencedHint` and `outputVolume` among its members) plus
  /// `portOverride`, `isOtherAudioPlaying`, `inputDataSources` (names) and
  /// `inputDataSourceDetails` (each data source of the current input, with its location,
  /// orientation and polar patterns: docs/protocol.md).
  public static func json(_ status: SessionStatus) -> JSONObject {
    var object: JSONObject = ["name": .string(status.name)]
    for member in TranscriptJSON.session(status).members {
      object.append(member.key, member.value)
    }
    object.append("portOverride", .string(status.portOverride.name))
    object.append("isOtherAudioPlaying", .bool(status.isOtherAudioPlaying))
    object.append("inputDataSources", .strings(status.inputDataSources))
    object.append("inputDataSourceDetails", .array(status.inputDataSourceDetails.map(json)))
    object.append("maximumInputNumberOfChannels", .int(status.maximumInputNumberOfChannels))
    object.append("maximumOutputNumberOfChannels", .int(status.maximumOutputNumberOfChannels))
    object.append("recordPermission", .string(status.recordPermission.name))
    return object
  }

  /// Reads the `session` reply: the session and its available inputs.
  public static func decode(_ object: JSONObject) throws(WireDecodingError) -> (
    status: SessionStatus, availableInputs: [PortDescription], dataSources: [DataSourceStatus]
  ) {
    let reader = WireReader(object: object, path: "session")
    let name = try reader.string("name")
    var inputs: [PortDescription] = []
    for item in try reader.objects("availableInputs") { inputs.append(try WireDecoding.port(item)) }
    let names = object["inputDataSources"] == nil ? [] : try reader.strings("inputDataSources")
    var sources = names.map { DataSourceStatus(name: $0) }
    if object["inputDataSourceDetails"] != nil {
      sources = []
      for item in try reader.objects("inputDataSourceDetails") {
        sources.append(try dataSource(item))
      }
    }
    var status = try WireDecoding.session(object, name: name)
    status.inputDataSources = sources.map(\.name)
    status.inputDataSourceDetails = sources
    if case .int(let count)? = object["maximumInputNumberOfChannels"] {
      status.maximumInputNumberOfChannels = count
    }
    if case .int(let count)? = object["maximumOutputNumberOfChannels"] {
      status.maximumOutputNumberOfChannels = count
    }
    if case .string(let name)? = object["recordPermission"],
      let permission = RecordPermission(name: name)
    {
      status.recordPermission = permission
    }
    return (status, inputs, sources)
  }

  /// One data source of `inputDataSourceDetails`.
  static func json(_ source: DataSourceStatus) -> JSONValue {
    var object: JSONObject = ["name": .string(source.name)]
    object.append("location", source.location.map { .string($0.name) } ?? .null)
    object.append("orientation", source.orientation.map { .string($0.name) } ?? .null)
    object.append(
      "supportedPolarPatterns", .strings(source.supportedPolarPatterns.map(\.name)))
    object.append(
      "selectedPolarPattern", source.selectedPolarPattern.map { .string($0.name) } ?? .null)
    object.append(
      "preferredPolarPattern", source.preferredPolarPattern.map { .string($0.name) } ?? .null)
    object.append("selected", .bool(source.selected))
    return .object(object)
  }

  static func dataSource(_ object: JSONObject) throws(WireDecodingError) -> DataSourceStatus {
    let reader = WireReader(object: object, path: "session.inputDataSourceDetails")
    return DataSourceStatus(
      name: try reader.string("name"),
      location: try reader.optionalNamed("location", DataSourceLocation.self),
      orientation: try reader.optionalNamed("orientation", DataSourceOrientation.self),
      supportedPolarPatterns: try reader.namedList("supportedPolarPatterns", PolarPattern.self),
      selectedPolarPattern: try reader.optionalNamed("selectedPolarPattern", PolarPattern.self),
      preferredPolarPattern: try reader.optionalNamed("preferredPolarPattern", PolarPattern.self),
      selected: try reader.bool("selected"))
  }
}
